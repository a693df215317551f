"""``/v2/new/list_top_players.php`` (issue 22): the federation's top-players page.

Expected rankings come from plain registry queries (the published entries of a list's
latest version, ordered by grade and name), ages from dates of birth counted here, and
the programs' reading from replicas of their parsing written for these tests (a league
site's proxy ranks juniors by their place in ``players``; a site's Next.js route lists
the national top players).
"""

from __future__ import annotations

import datetime as dt
import json
import re
from dataclasses import dataclass
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from ecfgrading.demo.summary import DemoSummary
from ecfgrading.engine import GradingCode
from ecfgrading.registry.models import ListEntry, ListVersion, Player

pytestmark = pytest.mark.django_db

PAGE = "/v2/new/list_top_players.php"
# The two requests the programs send (docs/api.md), parameters as they write them.
JUNIORS = (
    "?domain=S&age_limit=U18&age_class=under&age_col=age31dec&nation=ENG"
    "&gender=both&type=rating&format=json&count=500"
)
NATIONAL = (
    "?domain=S&age_limit=none&age_col=age31dec&nation=ENG&gender=both&type=rating&format=json"
)
META = ["success", "processing_time", "total_processing_time_today", "max_processing_time_daily"]
# This server's player keys (docs/api.md, "The top players page").
PLAYER_KEYS = [
    "rank", "ECFcode", "full_name", "club", "club_code", "current_rating", "prior_rating",
    "title", "fedn", "nation", "sex", "FIDE",
]  # fmt: skip


# -- plain registry queries -----------------------------------------------------------------


@dataclass(frozen=True)
class Entry:
    """A published entry of a list's latest version, with the player's details."""

    code: str  # with its check letter
    grade: int
    sex: str
    nation: str
    born: dt.date | None


def lists_of(rate: str) -> list[str]:
    """The published lists of a rate, latest first."""
    found = ListVersion.objects.filter(status="published", grading_list__rate=rate)
    return sorted(set(found.values_list("grading_list__list_id", flat=True)), reverse=True)


def latest_version(rate: str, list_id: str) -> int:
    versions = ListVersion.objects.filter(
        status="published", grading_list__rate=rate, grading_list__list_id=list_id
    )
    latest = versions.order_by("-published_at", "-id").first()
    assert latest is not None
    return latest.id


def ranked(rate: str, list_id: str | None = None) -> list[Entry]:
    """The list's published players, highest grade first, then by name and code."""
    version = latest_version(rate, list_id or lists_of(rate)[0])
    rows = ListEntry.objects.filter(version_id=version, published=True).values_list(
        "grade", "player__name_key", "player__code", "player__sex", "player__nation",
        "player__date_of_birth",
    )  # fmt: skip
    ordered = sorted(rows, key=lambda row: (-row[0], row[1], row[2]))
    return [Entry(str(GradingCode(r[2])), r[0], r[3], r[4], r[5]) for r in ordered]


def age(born: dt.date, on: dt.date) -> int:
    had_birthday = (on.month, on.day) >= (born.month, born.day)
    return on.year - born.year - (0 if had_birthday else 1)


def ask(client: Client, query: str, path: str = PAGE) -> dict[str, Any]:
    response = client.get(path + query)
    assert response.status_code == 200, response.content[:300]
    assert response["Content-Type"].startswith("application/json")
    found: dict[str, Any] = json.loads(response.content)
    assert found["success"] is True, found
    return found


def codes(found: dict[str, Any]) -> list[str]:
    return [player["ECFcode"] for player in found["players"]]


# -- who is ranked, and in what order --------------------------------------------------------


@pytest.mark.parametrize(("domain", "rate"), [("S", "standard"), ("Rapid", "rapid")])
def test_it_ranks_every_published_player_by_current_grade_then_name(
    client: Client, demo: DemoSummary, domain: str, rate: str
) -> None:
    expected = ranked(rate)
    assert 0 < len(expected) < 1000  # the whole list fits in one answer
    found = ask(client, f"?domain={domain}&age_limit=none&nation=all&count=1000")
    assert codes(found) == [entry.code for entry in expected]
    assert [p["current_rating"] for p in found["players"]] == [e.grade for e in expected]
    assert [p["rank"] for p in found["players"]] == list(range(1, len(expected) + 1))
    assert (found["domain"], found["list"]) == (domain[0], lists_of(rate)[0])


def test_every_player_has_the_documented_keys_and_no_date_of_birth_or_age(
    client: Client, demo: DemoSummary
) -> None:
    births = set(Player.objects.exclude(date_of_birth=None).values_list("date_of_birth", flat=True))
    assert births  # the demo records some
    for query in (JUNIORS, NATIONAL, "?age_limit=O40&age_col=Age"):
        response = client.get(PAGE + query)
        text = response.content.decode()
        found = json.loads(text)
        assert list(found)[:4] == META
        assert found["players"]
        for player in found["players"]:
            assert list(player) == PLAYER_KEYS
            assert isinstance(player["current_rating"], int)
            assert player["title"] is None and player["fedn"] == player["nation"]
        assert "birth" not in text.lower() and "dob" not in text.lower()
        assert not [day for day in births if day.isoformat() in text]


def test_the_juniors_are_exactly_those_under_18_on_31_december_of_the_lists_year(
    client: Client, demo: DemoSummary
) -> None:
    year = int(lists_of("standard")[0][:4])
    december = dt.date(year, 12, 31)
    english = [e for e in ranked("standard") if e.nation == "ENG" and e.born is not None]
    # Born on 31 December 18 years before: 18 that very day, so not a U18.
    eighteen, seventeen = english[0], english[1]
    Player.objects.filter(code=int(eighteen.code[:6])).update(
        date_of_birth=dt.date(year - 18, 12, 31)
    )
    Player.objects.filter(code=int(seventeen.code[:6])).update(
        date_of_birth=dt.date(year - 17, 1, 1)
    )
    births = {e.code: e.born for e in english} | {
        eighteen.code: dt.date(year - 18, 12, 31),
        seventeen.code: dt.date(year - 17, 1, 1),
    }
    expected = [e.code for e in english if age(births[e.code], december) < 18]
    found = ask(client, JUNIORS)
    assert codes(found) == expected
    assert seventeen.code in expected and eighteen.code not in expected
    assert len(expected) > 5 and len(expected) < len(english)
    assert found["age_date"] == december.isoformat()
    assert codes(ask(client, JUNIORS.replace("age_limit=U18", "age_limit=18"))) == expected
    assert codes(ask(client, JUNIORS.replace("&age_class=under", ""))) == expected


def test_over_an_age_counts_from_the_birthday_and_age_today_is_todays_age(
    client: Client, demo: DemoSummary
) -> None:
    today = timezone.localdate()
    entries = ranked("standard")
    expected = [e.code for e in entries if e.born is not None and age(e.born, today) >= 50]
    assert expected and len(expected) < len([e for e in entries if e.born is not None])
    for query in ("?age_limit=O50&age_col=Age", "?age_limit=50&age_class=over&age_col=age"):
        found = ask(client, query + "&count=1000")
        assert codes(found) == expected
        assert found["age_date"] == today.isoformat()


def test_a_player_with_no_date_of_birth_is_in_no_age_limited_list(
    client: Client, demo: DemoSummary
) -> None:
    unknown = {e.code for e in ranked("standard") if e.born is None}
    assert unknown
    for query in (JUNIORS, "?age_limit=O18&count=1000"):
        assert not unknown & set(codes(ask(client, query)))
    assert unknown <= set(codes(ask(client, "?count=1000")))


@pytest.mark.parametrize(
    ("query", "sex"), [("gender=F", "F"), ("gender=female", "F"), ("gender=m", "M")]
)
def test_a_gender_keeps_only_players_of_that_sex(
    client: Client, demo: DemoSummary, query: str, sex: str
) -> None:
    expected = [e.code for e in ranked("standard") if e.sex == sex]
    assert expected
    found = ask(client, f"?{query}&count=1000")
    assert codes(found) == expected
    assert {p["sex"] for p in found["players"]} == {sex}


def test_a_nation_keeps_only_its_players_and_all_keeps_every_nation(
    client: Client, demo: DemoSummary
) -> None:
    entries = ranked("standard")
    abroad = sorted({e.nation for e in entries} - {"ENG"})
    assert abroad  # the demo publishes a few players of other nations
    for nation in [*abroad, "ENG"]:
        expected = [e.code for e in entries if e.nation == nation]
        assert codes(ask(client, f"?nation={nation.lower()}&count=1000")) == expected
    every = [e.code for e in entries]
    for query in ("?nation=all&count=1000", "?nation=&count=1000", "?count=1000"):
        assert codes(ask(client, query)) == every
    assert ask(client, "?nation=SCO")["players"] == []


def test_count_takes_the_first_players_100_by_default_and_at_most_1000(
    client: Client, demo: DemoSummary
) -> None:
    every = [e.code for e in ranked("standard")]
    assert codes(ask(client, "?count=5")) == every[:5]
    assert codes(ask(client, "")) == every[:100]
    assert codes(ask(client, "?count=100000")) == every[:1000]
    assert ask(client, "?count=7")["count"] == 7


def test_the_code_is_written_as_ecf_code_in_the_clubs_rosters(
    client: Client, demo: DemoSummary
) -> None:
    players = ask(client, "?count=40")["players"]
    clubs = {p["club_code"] for p in players if p["club_code"]}
    assert len(clubs) > 3
    for club in clubs:
        roster = json.loads(client.get(f"/v2/new/api.php?v2/club_players/{club}").content)
        at = roster["column_names"].index("ECF_code")
        roster_codes = {row[at] for row in roster["players"]}
        members = [p for p in players if p["club_code"] == club]
        assert {p["ECFcode"] for p in members} <= roster_codes, club
        assert {p["club"] for p in members} == {roster["club_name"]}
    for player in players:
        assert re.fullmatch(r"\d{6}[A-Z]", player["ECFcode"])


def test_prior_rating_is_the_grade_in_the_previous_list_of_the_rate(
    client: Client, demo: DemoSummary
) -> None:
    current, previous = lists_of("standard")[:2]
    year, month = int(current[:4]), int(current[5:])
    assert int(current[:4]) >= 2013  # standard lists six months apart (from 2012)
    assert previous == (f"{year}-01" if month == 7 else f"{year - 1}-07")
    before = {e.code: e.grade for e in ranked("standard", previous)}
    found = ask(client, "?count=1000")["players"]
    assert [p["prior_rating"] for p in found] == [before.get(p["ECFcode"]) for p in found]
    priors = [p["prior_rating"] for p in found]
    assert None in priors and any(priors)


# -- what a caller did wrong -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "said"),
    [
        ("domain=B", "only S (standard) and R (rapid)"),
        ("domain=RW", "only S (standard) and R (rapid)"),
        ("domain=Q", "S, Standard, R or Rapid"),
        ("age_limit=U", "U18"),
        ("age_limit=U0", "ages 1 to 120"),
        ("age_limit=junior", "O50"),
        ("age_limit=U18&age_class=over", "does not agree"),
        ("age_limit=18", "age_class=under or over"),
        ("age_limit=U18&age_class=young", "age_class=under or over"),
        ("age_col=birthday", "age31dec"),
        ("nation=England", "three letters"),
        ("gender=x", "both, M (male) or F (female)"),
        ("type=performance", "type=rating"),
        ("format=xml", "format=json"),
        ("count=0", "from 1"),
        ("count=ten", "whole number"),
    ],
)
def test_a_bad_parameter_is_a_400_saying_what_was_expected(
    client: Client, demo: DemoSummary, query: str, said: str
) -> None:
    response = client.get(f"{PAGE}?{query}")
    assert response.status_code == 400
    found = json.loads(response.content)
    assert list(found) == [*META, "message"]
    assert found["success"] is False
    assert said in found["message"], found["message"]


def test_the_page_is_read_only_and_answers_a_conditional_request_with_304(
    client: Client, demo: DemoSummary
) -> None:
    first = client.get(PAGE + JUNIORS)
    assert first["ETag"] and "max-age" in first["Cache-Control"]
    assert client.get(PAGE + JUNIORS, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    assert client.head(PAGE + JUNIORS).status_code == 200
    assert Client(enforce_csrf_checks=True).post(PAGE + JUNIORS).status_code == 405


def test_the_older_apps_address_answers_the_same(client: Client, demo: DemoSummary) -> None:
    query = "?domain=S&age_limit=none&age_col=Age&nation=ENG&gender=both&type=rating&format=json"
    old, new = ask(client, query, "/v2/app/list_top_players.php"), ask(client, query)
    assert old["players"] and old["players"] == new["players"]


# -- the programs' own reading (replicas written for these tests) ---------------------------


def league_rosters(client: Client) -> dict[str, str]:
    """A league proxy's roster: each club's players (``v2/club_players``) by ``ECF_code``
    (else the first cell), with the club's name."""
    active = json.loads(client.get("/v2/new/api.php?v2/clubs/all_active").content)
    roster: dict[str, str] = {}
    for club in active["clubs"]:
        data = json.loads(
            client.get(f"/v2/new/api.php?v2/club_players/{club['club_code']}").content
        )
        columns = data.get("column_names") or []
        at = columns.index("ECF_code") if "ECF_code" in columns else 0
        for row in data.get("players") or []:
            if row[at] and row[at] not in roster:
                roster[row[at]] = club["club_name"]
    return roster


def league_juniors(client: Client, roster: dict[str, str]) -> list[dict[str, Any]]:
    """The proxy's juniors page: the national U18 list filtered to the league's players,
    each ranked by his place in the national list."""
    response = client.get(PAGE + JUNIORS)
    assert 200 <= response.status_code < 300  # the proxy throws on any other status
    data = json.loads(response.content)
    players = [{**p, "_index": i + 1} for i, p in enumerate(data.get("players") or [])]
    return [
        {
            "ecf_code": p["ECFcode"],
            "full_name": p.get("full_name") or "",
            "club": roster.get(p["ECFcode"]) or p.get("club") or "",
            "std": p.get("current_rating") or None,
            "prior": p.get("prior_rating") or None,
            "title": p.get("title") or "",
            "rank_england": p["_index"],
        }
        for p in players
        if p.get("ECFcode") in roster
    ]


def test_a_league_proxys_juniors_page_gets_its_players_ranked_in_england(
    client: Client, demo: DemoSummary
) -> None:
    juniors = league_juniors(client, league_rosters(client))
    assert len(juniors) > 5
    year = int(lists_of("standard")[0][:4])
    national = [
        e.code
        for e in ranked("standard")
        if e.nation == "ENG" and e.born is not None and year - e.born.year < 18
    ]
    for junior in juniors:
        assert junior["rank_england"] == national.index(junior["ecf_code"]) + 1
        assert isinstance(junior["std"], int) and junior["std"] > 0
        assert junior["full_name"] and junior["club"]
    assert any(junior["prior"] for junior in juniors)


def test_a_sites_national_list_reads_names_ratings_and_codes(
    client: Client, demo: DemoSummary
) -> None:
    data = ask(client, NATIONAL)
    players = data.get("players") or data
    shown = [
        (p.get("name") or p["full_name"], p["current_rating"], p["ECFcode"], p["fedn"])
        for p in players
    ]
    english = [e for e in ranked("standard") if e.nation == "ENG"]
    assert [code for _name, _rating, code, _fedn in shown] == [e.code for e in english[:100]]
    assert all(name and rating > 0 and fedn == "ENG" for name, rating, _code, fedn in shown)
