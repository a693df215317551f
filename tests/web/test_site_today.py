"""The site's own "today" (issue 23, item 5): a setting fixes the day the public pages,
the provisional grades and the federation API's default date reason from; the demo sets
it to its world's date, so "results received up to 2 December 2026" never stands next
to "by 31 May 2016". Without the setting the clock's day holds, as in production.

The demo's world ends when the first results of 2015-16 are in: its last step takes
the files received by 15 December 2015 (README), so its today is 16 December 2015.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.db.models import Max
from django.test import Client
from django.utils import timezone
from playwright.sync_api import Page

from ecfgrading import settings as settings_module
from ecfgrading.demo.summary import DemoSummary
from ecfgrading.engine.codes import GradingCode
from ecfgrading.lookups.clock import today
from ecfgrading.registry.models import ListEntry, ListVersion, Submission
from tests.web import test_player_words
from tests.web.browser import Browser
from tests.web.live import Site

DEMO_TODAY = dt.date(2015, 12, 16)
MONTHS = "January February March April May June July August September October November December"
BRITISH = re.compile(r"\b(\d{1,2}) (" + MONTHS.replace(" ", "|") + r") (\d{4})\b")
RECEIVED = re.compile(r"received (?:up to|by) (\d{1,2} \w+ \d{4})")


def _day(text: str) -> dt.date:
    return dt.datetime.strptime(text, "%d %B %Y").date()


def _next_section(html: str) -> str:
    start = html.index('<section id="next"')
    return " ".join(re.sub(r"<[^>]+>", " ", html[start:]).split())


def _graded_player() -> str:
    """A player in the current standard list: his page has a next-list section."""
    latest = (
        ListVersion.objects.filter(status="published", grading_list__rate="standard")
        .order_by("-grading_list__list_id", "-published_at")
        .first()
    )
    entry = ListEntry.objects.filter(version=latest, published=True, grade__gt=0).first()
    assert entry is not None
    return str(GradingCode(entry.player.code))


# The setting -------------------------------------------------------------------------------


def test_the_variable_wins_over_the_homes_file(monkeypatch, tmp_path: Path) -> None:
    (tmp_path / "today").write_text("2015-12-16\n")
    monkeypatch.setenv("ECFGRADING_TODAY", "2013-01-02")
    assert settings_module._site_today("ECFGRADING_TODAY", tmp_path) == dt.date(2013, 1, 2)


def test_the_homes_file_gives_the_day_and_no_file_means_the_clock(
    monkeypatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("ECFGRADING_TODAY", raising=False)
    assert settings_module._site_today("ECFGRADING_TODAY", tmp_path) is None
    (tmp_path / "today").write_text("2015-12-16\n")
    assert settings_module._site_today("ECFGRADING_TODAY", tmp_path) == DEMO_TODAY


@pytest.mark.parametrize("bad", ["16/12/2015", "2015-02-30", "tomorrow"])
def test_a_day_that_cannot_be_read_stops_start_up_naming_where_it_came_from(
    monkeypatch, tmp_path: Path, bad: str
) -> None:
    monkeypatch.delenv("ECFGRADING_TODAY", raising=False)
    (tmp_path / "today").write_text(bad)
    with pytest.raises(ImproperlyConfigured) as caught:
        settings_module._site_today("ECFGRADING_TODAY", tmp_path)
    assert "ECFGRADING_TODAY" in str(caught.value) and str(tmp_path / "today") in str(caught.value)
    assert "YYYY-MM-DD" in str(caught.value) and repr(bad) in str(caught.value)


def test_today_is_the_settings_day_else_the_clocks(settings) -> None:
    settings.SITE_TODAY = DEMO_TODAY
    assert today() == DEMO_TODAY
    settings.SITE_TODAY = None
    assert today() == timezone.localdate()


@pytest.mark.django_db
def test_the_demo_writes_its_worlds_date_into_its_home(demo: DemoSummary) -> None:
    assert (demo.home / "today").read_text().strip() == DEMO_TODAY.isoformat()


# The pages reason from it -------------------------------------------------------------------


@pytest.mark.django_db
def test_the_provisional_panel_says_nothing_after_the_sites_today(
    client: Client, demo: DemoSummary, settings
) -> None:
    settings.SITE_TODAY = DEMO_TODAY
    text = _next_section(client.get(f"/players/{_graded_player()}/").content.decode())

    received = RECEIVED.findall(text)
    assert received and {_day(d) for d in received} == {DEMO_TODAY}  # files arrived in 2026
    deadlines = [_day(d) for d in re.findall(r"needed by (\d{1,2} \w+ \d{4})", text)]
    assert deadlines and all(d >= DEMO_TODAY for d in deadlines)  # "by 31 May 2016" style
    for day, month, year in BRITISH.findall(text):
        assert _day(f"{day} {month} {year}").year <= DEMO_TODAY.year + 1, text


@pytest.mark.django_db
def test_after_the_next_lists_period_ends_no_game_is_asked_for_by_a_past_day(
    client: Client, demo: DemoSummary, settings
) -> None:
    """The January 2016 lists' period ends on 31 December 2015 (G5); on 5 January, before
    they are out, "4 more games by 31 December 2015 put them on the list" asks for the
    impossible: the page says what would have been needed instead."""
    newcomer = test_player_words.newcomer()
    settings.SITE_TODAY = DEMO_TODAY
    before = " ".join(re.sub(r"<[^>]+>", " ", test_player_words.html(client, newcomer)).split())
    assert re.search(r"more games? by 31 December 2015 puts? ", before)
    settings.SITE_TODAY = dt.date(2016, 1, 5)
    after = " ".join(re.sub(r"<[^>]+>", " ", test_player_words.html(client, newcomer)).split())
    assert not re.search(r"more games? by 31 December 2015 puts? ", after)
    assert re.search(
        r"Games played by 31 December 2015 count for the January 2016 list: on the results "
        r"received so far, \d+ more games? would have put (him|her|them) on it",
        after,
    )


@pytest.mark.django_db
def test_on_the_clock_the_panel_gives_the_day_the_latest_file_arrived(
    client: Client, demo: DemoSummary, settings
) -> None:
    settings.SITE_TODAY = None
    latest = Submission.objects.filter(status="accepted").aggregate(at=Max("received_at"))["at"]
    text = _next_section(client.get(f"/players/{_graded_player()}/").content.decode())

    assert {_day(d) for d in RECEIVED.findall(text)} == {timezone.localdate(latest)}


@pytest.mark.django_db
def test_the_federation_apis_default_date_is_the_sites_today(
    client: Client, demo: DemoSummary, settings
) -> None:
    settings.SITE_TODAY = DEMO_TODAY
    answer = client.get("/v2/new/api.php?v2/rating_list").json()
    assert answer["rating_effective_date"] == "2015-12-16"


# What a person sees on the served demo ------------------------------------------------------


@pytest.fixture
def phone(browser: Browser) -> Iterator[Page]:
    opened = browser.page(390)
    yield opened
    opened.context.close()


@pytest.mark.sqlite
def test_the_served_demo_reasons_from_its_worlds_date(site: Site, phone: Page) -> None:
    """``ecfgrading demo`` wrote the date into the home; ``ecfgrading serve`` reads it."""
    with site.database() as db:
        (code,) = db.execute(
            """SELECT p.code FROM registry_listentry e
               JOIN registry_player p ON p.id = e.player_id
               JOIN registry_listversion v ON v.id = e.version_id
               JOIN registry_gradinglist l ON l.id = v.grading_list_id
               WHERE l.rate = 'standard' AND v.status = 'published' AND e.published
                 AND e.grade > 0
               ORDER BY l.list_id DESC, v.published_at DESC, p.code LIMIT 1"""
        ).fetchone()

    phone.goto(f"{site.url}/players/{GradingCode(code)}/")
    text = " ".join((phone.locator("#next").text_content() or "").split())

    assert {_day(d) for d in RECEIVED.findall(text)} == {DEMO_TODAY}
