"""/players/<code>/ through Django's test client: the demo federation for what any player
shows (expected values read from the registry by plain queries), the hand-worked
federation of tests/lookups/test_players.py for figures worked by hand."""

from __future__ import annotations

import json
import re
from datetime import date
from typing import Any

import html5lib
import pytest
from django.db import connection
from django.db.models import Q
from django.test import Client
from django.test.utils import CaptureQueriesContext

from ecfgrading.demo.summary import DemoSummary
from ecfgrading.engine.codes import GradingCode
from ecfgrading.lookups import provisional
from ecfgrading.registry.models import Game, ListEntry, ListVersion, Player, StoredGamePoints
from ecfgrading.services.merge import merge_players
from ecfgrading.services.results.view import shared_view
from tests.lookups.test_players import imported, notional_half_years, run

pytestmark = pytest.mark.django_db

LAST_P0_END = date(2015, 6, 30)  # the demo's last lists are July 2015's


def url(code: str) -> str:
    return f"/players/{code}/"


def current_version(rate: str) -> ListVersion:
    """The current version of the latest list of a rate, by a plain query."""
    return (
        ListVersion.objects.filter(status="published", grading_list__rate=rate)
        .order_by("-grading_list__list_id", "-published_at", "-id")
        .first()
    )


def graded_in_both() -> list[Player]:
    """Players published in the current version of both rates."""
    standard, rapid = current_version("standard"), current_version("rapid")
    both = ListEntry.objects.filter(version=standard, published=True).values("player_id")
    ids = ListEntry.objects.filter(version=rapid, published=True, player_id__in=both)
    return list(Player.objects.filter(id__in=ids.values("player_id")).order_by("code"))


def received_count(player: Player, rate: str) -> int:
    return Game.objects.filter(
        Q(player1=player) | Q(player2=player), graded=True, rate=rate, game_date__gt=LAST_P0_END
    ).count()


def body(response: Any) -> str:
    return response.content.decode()


@pytest.fixture(autouse=True)
def _fresh_provisional() -> None:
    """No test reads another's provisional outcome, or its importer's view of players
    (a rolled-back test's players would linger in it: PostgreSQL never reuses ids)."""
    provisional._LATEST = provisional._Latest()
    with shared_view() as view:
        view.drop()


# --- the answer first ----------------------------------------------------------------


def test_the_page_gives_each_rates_current_grade_as_the_registry_holds_it(
    client: Client, demo: DemoSummary
) -> None:
    player = graded_in_both()[0]
    grades = {
        rate: ListEntry.objects.get(version=current_version(rate), player=player)
        for rate in ("standard", "rapid")
    }
    response = client.get(url(player.ref))
    assert response.status_code == 200
    page = body(response)
    for rate, entry in grades.items():
        big = re.search(rf'class="big" href="#how-{rate}">(\d+)<', page)
        assert big is not None and int(big.group(1)) == entry.grade
        games = f"Games {entry.games_latest} / {entry.games_counted}"
        assert f'href="#games-{rate}">{games}</a>' in page
        # G29: ECF x 8 + 650 and ECF x 8 + 600.
        assert f"FIDE equivalent <strong>{entry.grade * 8 + 650}</strong>" in page
        assert f"national Elo <strong>{entry.grade * 8 + 600}</strong>" in page
    name = f"{player.surname}, {player.forenames}"
    standard, rapid = grades["standard"].grade, grades["rapid"].grade
    title = f"<title>{name} ({player.ref}) - standard {standard}, rapid {rapid}</title>"
    assert title.replace("'", "&#x27;") in page
    assert f'<link rel="canonical" href="http://127.0.0.1:8000/players/{player.ref}/">' in page


def test_the_page_is_valid_html_with_no_inline_style_or_script(
    client: Client, demo: DemoSummary
) -> None:
    player = graded_in_both()[0]
    page = body(client.get(url(player.ref)))
    html5lib.HTMLParser(strict=True).parse(page)
    assert " style=" not in page and "<style" not in page  # CSP: style-src 'self'
    assert not re.search(r"<script(?![^>]*\bsrc=)", page)


def test_the_history_is_a_table_and_an_svg_chart_with_a_text_alternative(
    client: Client, demo: DemoSummary
) -> None:
    player = graded_in_both()[0]
    page = body(client.get(url(player.ref)))
    lists = ListEntry.objects.filter(player=player, version__status="published").values(
        "version__grading_list__list_id"
    )
    months = {row["version__grading_list__list_id"] for row in lists}
    rows = re.findall(
        r'<tr[^>]*><th scope="row"><a href="[^"]+">([A-Z][a-z]+ \d{4})</a></th>', page
    )
    assert len(rows) == len(months)
    assert '<svg viewBox="0 0 420 250" role="img" aria-labelledby="chart-title chart-desc"' in page
    assert '<title id="chart-title">Grade history</title>' in page
    assert re.search(r'<desc id="chart-desc">Standard grades in \d+ lists', page)
    assert "<caption>Grades in every list since records begin" in page


def test_no_date_of_birth_is_shown_on_the_page_or_in_its_json_twin(
    client: Client, demo: DemoSummary
) -> None:
    juniors = Player.objects.filter(
        date_of_birth__isnull=False, list_entries__junior_age__isnull=False
    ).distinct()[:5]
    assert juniors
    for player in juniors:
        born = player.date_of_birth
        spellings = (born.isoformat(), f"{born.day} {born:%B %Y}", f"{born:%d/%m/%Y}")
        for shown in (url(player.ref), url(player.ref) + "?format=json"):
            text = body(client.get(shown))
            assert not [s for s in spellings if s in text], (player.ref, shown)
        assert "birth" not in body(client.get(url(player.ref) + "?format=json"))


# --- codes: redirects and 404 ----------------------------------------------------------


def test_a_code_without_its_check_letter_redirects_to_the_full_code(
    client: Client, demo: DemoSummary
) -> None:
    player = graded_in_both()[0]
    response = client.get(url(player.ref[:6]))
    assert response.status_code == 301
    assert response["Location"] == url(player.ref)
    assert client.get(url(player.ref.lower()))["Location"] == url(player.ref)


def test_a_merged_code_redirects_to_the_surviving_player(client: Client, demo: DemoSummary) -> None:
    kept, gone = graded_in_both()[:2]
    merge_players(gone.ref, kept.ref)
    response = client.get(url(gone.ref) + "?format=json")
    assert response.status_code == 302
    assert response["Location"] == url(kept.ref) + "?format=json"


def test_the_survivors_page_names_the_codes_merged_into_it(
    client: Client, demo: DemoSummary
) -> None:
    """G28 (issue 23): whoever arrives from an old code sees why the code changed."""
    kept, gone, also = graded_in_both()[:3]
    for absorbed in (also, gone):
        merge_players(absorbed.ref, kept.ref)
    page = body(client.get(url(kept.ref)))
    listed = page.split("Also on record as", 1)[1].split("</dd>", 1)[0]
    assert sorted([gone.ref, also.ref]) == re.findall(r"\d{6}[A-Z]", listed)
    assert "their games and grades count here" in listed
    twin = client.get(url(kept.ref) + "?format=json").json()
    assert twin["merged_codes"] == sorted([gone.ref, also.ref])


def test_a_page_with_nothing_merged_into_it_says_nothing_of_merges(
    client: Client, demo: DemoSummary
) -> None:
    player = graded_in_both()[0]
    assert "Also on record as" not in body(client.get(url(player.ref)))
    assert client.get(url(player.ref) + "?format=json").json()["merged_codes"] == []


def test_an_unknown_code_is_a_404_page_with_the_lookup_box(
    client: Client, demo: DemoSummary
) -> None:
    unused = next(n for n in range(999_999, 0, -1) if not Player.objects.filter(code=n).exists())
    response = client.get(url(str(GradingCode(unused))))
    assert response.status_code == 404
    page = body(response)
    assert f"no player on record has the grading code {GradingCode(unused)}" in page
    assert 'id="player-q"' in page  # the lookup box


def test_a_wrong_check_letter_is_a_404_that_says_so(client: Client, demo: DemoSummary) -> None:
    player = graded_in_both()[0]
    wrong = player.ref[:6] + ("A" if player.ref[6] != "A" else "B")
    response = client.get(url(wrong))
    assert response.status_code == 404
    assert "wrong check letter" in body(response)


# --- the JSON twin --------------------------------------------------------------------


def test_the_json_twin_has_the_same_facts_with_iso_dates(client: Client, demo: DemoSummary) -> None:
    player = graded_in_both()[0]
    entry = ListEntry.objects.get(version=current_version("standard"), player=player)
    response = client.get(url(player.ref), HTTP_ACCEPT="application/json")
    assert response["Content-Type"].startswith("application/json")
    data = json.loads(response.content)
    assert (data["code"], data["name"]) == (player.ref, f"{player.surname}, {player.forenames}")
    standard = data["standard"]
    assert (standard["grade"], standard["category"]) == (entry.grade, entry.category)
    assert (standard["fide"], standard["national_elo"]) == (
        entry.grade * 8 + 650,
        entry.grade * 8 + 600,
    )
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT.*", standard["published_at"])
    assert [row["list"] for row in data["history"]] == sorted(
        (row["list"] for row in data["history"]), reverse=True
    )
    for game in standard["breakdown"]["games"]:
        assert re.fullmatch(r"\d{4}-\d\d-\d\d", game["date"])
    # The demo's last lists are July 2015's: the next of both rates is January 2016 (G31).
    assert {n["list"] for n in data["next_lists"]} == {"2016-01"}


# --- one player, every door (issue 20) ---------------------------------------------------

RATES = ("standard", "rapid")
# The JSON of each door for the same four facts of one rate.
TWIN_API = ("grade", "category", "games_counted", "august_grade")


def json_of(client: Client, address: str) -> Any:
    response = client.get(address)
    assert response.status_code == 200, (address, response.content[:300])
    return json.loads(response.content)


def published_in(rate: str) -> tuple[ListVersion, dict[int, ListEntry], dict[int, int]]:
    """The current version of the rate's latest list, its published entries by player, and
    the grades its August version published (G27), by plain queries."""
    version = current_version(rate)
    entries = ListEntry.objects.filter(version=version, published=True)
    august = ListVersion.objects.filter(
        grading_list=version.grading_list, name="august", status="published"
    ).first()
    in_august = ListEntry.objects.filter(version=august, published=True)
    return (
        version,
        {e.player_id: e for e in entries},
        dict(in_august.values_list("player_id", "grade")),
    )


def federation_letter(category: str, games_counted: int) -> str:
    """docs/api.md's rule, written out here: A for our A or X, P under 10 games, else K."""
    if category in ("A", "X"):
        return "A"
    return "P" if games_counted < 10 else "K"


def test_every_published_player_has_the_same_grades_at_every_door(
    client: Client, demo: DemoSummary
) -> None:
    """Over the whole demo list: the page's JSON twin, /api/v1/players/{code}, the rating
    API's rating and its rating list give the grade, category, games and August grade
    that the registry holds for every player published in either rate."""
    expected = {rate: published_in(rate) for rate in RATES}
    # The demo's July lists are current at their August versions (G26): the case in which
    # the twin once gave no August grade where /api/v1 gave one.
    assert {version.name for version, _e, _a in expected.values()} == {"august"}
    everyone = sorted({pid for _v, entries, _a in expected.values() for pid in entries})
    assert len(everyone) > 100  # the whole list, not a sample
    listed = json_of(client, "/v2/new/api.php?v2/rating_list")
    column = {name: k for k, name in enumerate(listed["column_names"])}
    rows = {row[column["ECF_code"]]: row for row in listed["players"]}
    for player in Player.objects.filter(id__in=everyone).order_by("code"):
        code = player.ref
        twin = json_of(client, url(code) + "?format=json")
        api = json_of(client, f"/api/v1/players/{code}")
        for rate in RATES:
            _version, entries, august = expected[rate]
            facts = [(twin[rate][k], api[rate][k]) for k in (*TWIN_API, "games_latest")]
            assert all(a == b for a, b in facts), (code, rate, facts)
            rating = json_of(client, f"/v2/new/api.php?v2/ratings/{rate}/{code}")
            entry = entries.get(player.id)
            if entry is None:  # not published in this rate: no grade anywhere
                assert api[rate]["grade"] is None and rating["success"] is False, (code, rate)
                assert rows.get(code) is None or rows[code][column[f"revised_{rate}"]] is None
                continue
            want = (entry.grade, entry.category, entry.games_counted, august.get(player.id))
            assert tuple(api[rate][k] for k in TWIN_API) == want, (code, rate)
            assert api[rate]["games_latest"] == entry.games_latest, (code, rate)
            # The rating API speaks the federation's categories (docs/api.md): the same
            # grade and games, its letter for our category.
            letter = federation_letter(entry.category, entry.games_counted)
            compat = (rating["revised_rating"], rating["revised_category"], rating["games"])
            assert compat == (entry.grade, letter, entry.games_counted), (code, rate)
            # Its revised rating is the version in force's: here the August version's.
            assert (rating["version"], rating["revised_rating"]) == ("august", want[3])
            row = rows[code]
            cells = (row[column[f"revised_{rate}"]], row[column[f"{rate}_revised_category"]])
            assert cells == (entry.grade, letter), (code, rate)


def test_the_twin_and_the_api_name_the_same_facts_alike(client: Client, demo: DemoSummary) -> None:
    """The twin is the API's representation of the player with the page's own parts
    beside: every fact /api/v1 gives is in the twin under the same name, with the same
    value (the history as /history gives it, the breakdown's figures as /games does)."""
    graded = graded_in_both()[0]
    now = ListEntry.objects.filter(version=current_version("standard")).values("player_id")
    standard = ListEntry.objects.filter(published=True, version__grading_list__rate="standard")
    earlier = standard.exclude(player_id__in=now)
    lapsed = Player.objects.get(id=earlier.values_list("player_id", flat=True).first())
    for player in (graded, lapsed):
        code = player.ref
        twin = json_of(client, url(code) + "?format=json")
        api = json_of(client, f"/api/v1/players/{code}")
        assert set(api) <= set(twin), set(api) - set(twin)
        for key, value in api.items():
            if key in RATES:
                assert {k: twin[key][k] for k in value if k in twin[key]} == value, (code, key)
                assert set(value) <= set(twin[key]), set(value) - set(twin[key])
            else:
                assert twin[key] == value, (code, key)
        # The twin's history adds the grades later versions replaced, and why (issue 23).
        history = json_of(client, f"/api/v1/players/{code}/history")
        assert [_as_api(row, history["lists"][0]) for row in twin["history"]] == history["lists"]
    # A player graded in an earlier list only: his latest grade, under one name.
    assert twin["standard"]["grade"] is None and twin["standard"]["last_graded"]["grade"]
    games = json_of(client, f"/api/v1/players/{graded.ref}/games?rate=standard")
    figures = set(games) - {"code", "name", "rate", "list", "version", "rule_set", "grade"}
    figures -= {"category"}
    figures -= {"from_file"}
    breakdown = json_of(client, url(graded.ref) + "?format=json")["standard"]["breakdown"]
    assert figures and {k: breakdown.get(k) for k in figures} == {k: games[k] for k in figures}


def _as_api(row: dict[str, Any], like: dict[str, Any]) -> dict[str, Any]:
    """A twin's history row with only the names /api/v1's history gives."""
    point_keys = set(next(p for p in (like["standard"], like["rapid"]) if p))
    return {
        key: (
            {k: v for k, v in value.items() if k in point_keys}
            if isinstance(value, dict)
            else value
        )
        for key, value in row.items()
    }


# --- the next list --------------------------------------------------------------------


def test_games_received_since_the_last_list_are_listed_with_a_provisional_grade(
    client: Client, demo: DemoSummary
) -> None:
    """The demo imports 2015-16's first tournaments after the last list (nextseason)."""
    since = Game.objects.filter(graded=True, rate="rapid", game_date__gt=LAST_P0_END)
    player = Player.objects.get(id=since.values_list("player1_id", flat=True).first())
    data = json.loads(client.get(url(player.ref) + "?format=json").content)
    rapid = next(n for n in data["next_lists"] if n["rate"] == "rapid")
    assert len(rapid["received"]) == received_count(player, "rapid") > 0
    assert all(g["date"] > LAST_P0_END.isoformat() for g in rapid["received"])
    assert rapid["provisional"]["version"] == "provisional"
    assert rapid["provisional"]["grade"] is not None
    page = body(client.get(url(player.ref)))
    assert "Provisional grade" in page and "Not a published grade." in page
    # Received, not graded: no list version stored points for them (G17).
    assert not StoredGamePoints.objects.filter(game__in=since).exists()
    assert 'id="received-rapid">Games received since the last list' in page


def test_the_query_count_does_not_grow_with_the_games_shown(
    client: Client, demo: DemoSummary
) -> None:
    players = graded_in_both()
    busy = max(players, key=lambda p: ListEntry.objects.filter(player=p).count())
    counts = {}
    for player in (busy, players[-1]):
        client.get(url(player.ref))  # the first view computes the next lists (once a token)
        from django.core.cache import cache

        cache.clear()  # so the page itself is made again, with the next lists in memory
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url(player.ref)).status_code == 200
        counts[player.ref] = len([q for q in queries if "web_cache" not in q["sql"]])
    assert len(set(counts.values())) == 1, counts
    assert max(counts.values()) <= 40


# --- figures worked by hand -------------------------------------------------------------

# tests/lookups/test_players.py's half-yearly federation, clear of the demo's years and
# codes (the demo federation may be on record: the package builds it once for all its
# tests), so that its lists are the latest: ecf-2015's (G31), C3's figures by G38.
START, CODE = 2017, 900_000


def test_the_breakdown_on_the_page_adds_up_to_the_grade(client: Client) -> None:
    _fed, notional = notional_half_years(START, CODE)
    page = body(client.get(url(notional.ref)))
    # C3's games by G38: 1800 + 1400 (a whole half-year) + 1040 (8 of 20 games at 130)
    # = 4240 points over 30 games = 141.3333, rounded 141.
    assert "<strong>1,800.00</strong> points" in page
    assert "4,240.00 points ÷ 30 games = <strong>141.3333</strong>" in page
    assert 'a half upwards: <strong class="result">141</strong>.' in page
    # Rule ids are footnote links to the help page, not words of the sentence (issue 23).
    assert "the whole half-year, its 10 games with their stored points: <strong>" in page
    assert "8 of its 20 games (2,600.00 points), each at its average of 130.00: <strong>" in page
    assert (
        '<a href="/help/#bring-forward"><span class="visually-hidden">rule </span>G38</a>' in page
    )
    assert 'computed under <a href="/help/#rule-sets">ecf-2015</a>' in page


def test_g27_a_grade_revised_since_august_is_marked_in_words(client: Client) -> None:
    fed, notional = notional_half_years(START, CODE)
    last = f"{START + 2}-07"
    # August: a late win: P0 13 games, 2000 points; H2 whole (1400), 7 of H4 at 130
    # (910): (2000 + 1400 + 910) / 30 = 143.67 -> 144.
    imported(fed.event(fed.against(notional, ["10"], 150, date(START + 2, 3, 1))))
    run(last)
    # rev1: a late loss: 14 games, 2100; H2 whole, 6 of H4 at 130 (780): 4280 / 30 = 143.
    imported(fed.event(fed.against(notional, ["01"], 150, date(START + 2, 3, 2))))
    run(last)
    page = body(client.get(url(notional.ref)))
    assert re.search(r'class="big" href="#how-standard">143<', page)
    assert 'class="august revised">August grade: <strong>144C</strong>' in page
    assert "Revised since August" in page
    assert "August grades are used for eligibility in season-long competitions" in page


def test_the_next_list_says_how_many_games_keep_him_on_it(client: Client) -> None:
    fed, notional = notional_half_years(START, CODE)
    imported(fed.event(fed.against(notional, ["10", "10"], 150, date(START + 2, 9, 1))))
    page = body(client.get(url(notional.ref)))
    # The next list, 2020-01 (ecf-2015): P0 is 2019, the 12 draws of March (1800, S 141)
    # and the 2 new wins (400); need 16: H3 (January-June 2018) whole, 10 games (1400),
    # then 6 of H5's 20 at 130 (780): (2200 + 1400 + 780) / 30 = 146, C (n0 14, 44 in all).
    assert '<strong class="prov-grade">146</strong>' in page
    assert (
        "Already enough games to be on the January 2020 list: category <strong>C</strong>" in page
    )
    assert '<th scope="row">D</th><td>15 games in the latest three seasons' in page
