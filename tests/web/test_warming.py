"""The per-data-token lookups are warmed before a visitor asks (issue 23): the names index
and the next lists' provisional grades, which the first lookup after new data would
otherwise build while its visitor waits (seconds on a national federation)."""

from __future__ import annotations

import logging
import time
from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from ecfgrading.demo.summary import DemoSummary
from ecfgrading.lookups import clubs, name_index, provisional
from ecfgrading.lookups.freshness import data_token
from ecfgrading.lookups.search import search_players
from ecfgrading.web import warming
from tests.web.live import Site
from tests.web.test_player_words import newcomer


def _forget() -> None:
    """Nothing warm: no page, no next lists, no names index (as after new data)."""
    cache.clear()
    provisional._LATEST._runs.clear()
    name_index._BUILT.clear()


def _queries_of_a_newcomers_lookup() -> int:
    player = newcomer()
    with CaptureQueriesContext(connection) as captured:
        found = search_players(f"{player.surname}, {player.forenames}")
    assert any(row.not_yet_graded and row.provisional for row in found.page.items)
    return len(captured)


@pytest.mark.django_db
def test_after_warming_a_newcomers_lookup_grades_nothing(demo: DemoSummary) -> None:
    _forget()
    cold = _queries_of_a_newcomers_lookup()  # grades the next lists: every table read
    _forget()
    assert warming.warm_once("") == data_token()
    warm = _queries_of_a_newcomers_lookup()
    assert warm <= 8 < cold, (warm, cold)  # the page of players, their entries and clubs


@pytest.mark.django_db
def test_a_token_already_warm_is_not_warmed_again(demo: DemoSummary) -> None:
    token = warming.warm_once("")
    with CaptureQueriesContext(connection) as captured:
        assert warming.warm_once(token) == token
    assert len(captured) <= 1  # the token, read once (or from the shared cache)


@pytest.mark.django_db
def test_after_warming_a_county_team_page_reads_no_game(demo: DemoSummary) -> None:
    """Issue 25: every county's team is worked out once per token, while warming; the
    page then reads its players, never the county matches' games again."""
    clubs.forget_index()
    key = next(key for pk, key in clubs.club_index().county_keys.items() if _has_team(pk))
    clubs.forget_index()
    assert _game_queries(key) > 0  # cold: the county matches are read
    clubs.forget_index()
    warming.warm_once("")
    assert _game_queries(key) == 0


def _has_team(county: int) -> bool:
    return bool(clubs.club_index().county_team(county))


def _game_queries(county_key: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        found = clubs.county_members(county_key, team=True)
    assert found.page.total > 0
    return sum('"registry_game"' in query["sql"] for query in captured)


def test_a_failure_is_logged_once_and_never_raised(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(seen: str) -> str:
        raise RuntimeError("no such table: registry_listversion")

    monkeypatch.setattr(warming, "warm_lookups", broken)
    monkeypatch.setattr(warming, "_said", [""])
    with caplog.at_level(logging.WARNING, logger=warming.__name__):
        assert warming.warm_once("abc") == "abc"
        assert warming.warm_once("abc") == "abc"
    said = [r.getMessage() for r in caplog.records if r.name == warming.__name__]
    assert len(said) == 1 and "no such table" in said[0]


@pytest.mark.sqlite
def test_each_served_worker_warms_the_next_lists_unasked(site: Site) -> None:
    """``ecfgrading serve``: the next lists appear in the shared cache (the database's
    table on SQLite) with no request made for a player page or a lookup."""
    found: list[Any] = []
    for _ in range(120):  # until it is there, for a minute at most
        with site.database() as db:
            found = db.execute(
                "SELECT cache_key FROM web_cache WHERE cache_key LIKE ? AND cache_key NOT LIKE ?",
                (f"%{provisional._KEY}:%", "%:lock"),
            ).fetchall()
        if found:
            break
        time.sleep(0.5)
    assert found, "no worker warmed the next lists"
