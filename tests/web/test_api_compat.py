"""The federation's rating-API shapes (issue 10, compatibility) on the demo federation.

Every route is checked key by key against the lists the issue gives (written out below
from the issue's text, not imported from the code), and its values against plain
registry queries. The demo publishes every list at build time, so on the demo the lists
are in force from today; the list in force between two publications is checked on lists
published on dates of the test's choosing.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
from collections.abc import Iterator
from email.utils import format_datetime
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.core.cache import cache
from django.db import connection
from django.db.models import Count, Q
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from ecfgrading.demo.summary import DemoSummary
from ecfgrading.engine import GradingCode
from ecfgrading.errors import ServiceError
from ecfgrading.registry.models import (
    Club,
    ClubMembership,
    Game,
    GradingList,
    ListEntry,
    ListVersion,
    Player,
    StoredGamePoints,
)
from ecfgrading.web.api.compat import payloads, shapes
from tests.web.captured import page_statements

pytestmark = pytest.mark.django_db

# -- the issue's lists ----------------------------------------------------------------------

META = ["success", "processing_time", "total_processing_time_today", "max_processing_time_daily"]
CLUB_KEYS = ["club_code", "club_name", "comment", "assoc_code", "assoc_name"]
COLUMNS = [
    "ECF_code",
    "full_name",
    "member_no",
    "FIDE_no",
    "gender",
    "nation",
    "original_standard",
    "standard_original_category",
    "revised_standard",
    "standard_revised_category",
    "original_rapid",
    "rapid_original_category",
    "revised_rapid",
    "rapid_revised_category",
    "original_blitz",
    "blitz_original_category",
    "revised_blitz",
    "blitz_revised_category",
    "original_standard_online",
    "standard_online_original_category",
    "revised_standard_online",
    "standard_online_revised_category",
    "original_rapid_online",
    "rapid_online_original_category",
    "revised_rapid_online",
    "rapid_online_revised_category",
    "original_blitz_online",
    "blitz_online_original_category",
    "revised_blitz_online",
    "blitz_online_revised_category",
    "club_code",
    "club_name",
]
PLAYER_KEYS = [
    "ECF_code",
    "full_name",
    "member_no",
    "category",
    "due_date",
    "FIDE_no",
    "gender",
    "nation",
    "nation2",
    "flag",
    "title",
    "date_last_game",
    "club_code",
    "club_name",
    "clubs",
]
GAME_KEYS = [
    "game_date",
    "colour",
    "score",
    "opponent_name",
    "opponent_no",
    "opponent_rating",
    "player_rating",
    "increment",
    "club_code",
    "event_code",
    "org_name",
    "event_name",
    "section_title",
]
# Issue 22: club-roster programs look these up by name in column_names (the rating
# list's columns, then the current grades under the roster's short names).
CLUB_PLAYER_COLUMNS = [*COLUMNS, "std", "rpd", "btz"]
ENVELOPE = ["success", "message", "data"]
# This server's own decisions for the ratings object (docs/api.md); ``domain`` (S or R)
# is read by a club platform's programs (issue 22).
RATING_KEYS = [
    "ECF_code", "full_name", "domain", "rating_type", "effective_date", "list", "version",
    "original_rating", "original_category", "revised_rating", "revised_category", "games",
]  # fmt: skip
# The federation's categories, the only ones its programs accept (issue 22).
FEDERATION_CATEGORIES = {"A", "K", "P", None}


def federation_letter(category: str, games_counted: int) -> str | None:
    """The issue's rule for our categories, as the brief and docs/api.md state it: A for
    our A or X (30 or more games in the latest period), P for a grade on fewer than 10
    games counted (the federation's partial rating), K for any other grade."""
    if category == "":
        return None
    if category in ("A", "X"):
        return "A"
    return "P" if games_counted < 10 else "K"


def test_the_issues_lists_are_as_long_as_it_says() -> None:
    assert len(COLUMNS) == 32 and len(set(COLUMNS)) == 32


# -- plain registry queries -----------------------------------------------------------------


def v2(client: Client, route: str, **headers: str) -> Any:
    return client.get(f"/v2/new/api.php?v2/{route}", **headers)


def body(response: Any) -> dict[str, Any]:
    assert response.status_code == 200, response.content[:300]
    assert response["Content-Type"].startswith("application/json")
    found: dict[str, Any] = json.loads(response.content)
    return found


def code_of(player: Player | int) -> str:
    number = player if isinstance(player, int) else player.code
    return str(GradingCode(number))


def today() -> dt.date:
    return timezone.localdate()


def current_versions() -> dict[str, tuple[int, int]]:
    """Per rate: (the latest list's initial version, its latest published version)."""
    found = {}
    for rate in ("standard", "rapid"):
        versions = ListVersion.objects.filter(status="published", grading_list__rate=rate)
        latest = versions.order_by("-grading_list__list_id").first()
        assert latest is not None
        of_list = versions.filter(grading_list=latest.grading_list)
        initial = of_list.get(name="initial")
        current = of_list.order_by("-published_at", "-id").first()
        found[rate] = (initial.id, current.id)  # type: ignore[union-attr]
    return found


def grades_in(version_id: int) -> dict[int, tuple[int, str | None]]:
    """Published grades of a version by player code, with the federation's category
    for each (``federation_letter`` of our category and the games counted)."""
    rows = ListEntry.objects.filter(version_id=version_id, published=True).values_list(
        "player__code", "grade", "category", "games_counted"
    )
    return {code: (grade, federation_letter(cat, games)) for code, grade, cat, games in rows}


def current_season() -> int:
    """The season (the year it ends) of the latest list: a July or a January list of a
    year both fall in the season that ends that year."""
    latest = (
        ListVersion.objects.filter(status="published")
        .order_by("-grading_list__list_id")
        .values_list("grading_list__list_id", flat=True)[0]
    )
    return int(latest[:4])


def member_clubs(player: Player) -> set[str | None]:
    season = current_season()
    quoted = ClubMembership.objects.filter(
        player=player, first_season__lte=season, last_season__gt=season - 3,
        club__is_location=False,
    )  # fmt: skip
    return set(quoted.values_list("club__code", flat=True))


def a_player(**conditions: Any) -> Player:
    """A published player of the current standard list who meets ``conditions``."""
    current = current_versions()["standard"][1]
    graded = ListEntry.objects.filter(version_id=current, published=True).values("player_id")
    found = Player.objects.filter(id__in=graded, **conditions).order_by("code").first()
    assert found is not None
    return found


def a_code_held_by_no_one() -> str:
    taken = set(Player.objects.values_list("code", flat=True))
    return code_of(next(n for n in range(999_999, 0, -1) if n not in taken))


# -- v2: players ----------------------------------------------------------------------------


def test_a_player_by_code_has_the_issues_keys_and_his_registry_details(
    client: Client, demo: DemoSummary
) -> None:
    player = a_player(fide_id__isnull=False)
    for asked in (code_of(player), f"{player.code:06d}", code_of(player).lower()):
        found = body(v2(client, f"players/code/{asked}"))
        assert list(found) == META + PLAYER_KEYS
        assert found["success"] is True
        assert found["ECF_code"] == code_of(player)
        assert found["full_name"] == f"{player.surname}, {player.forenames}"
        assert (found["FIDE_no"], found["nation"]) == (player.fide_id, player.nation)
        assert found["gender"] == (player.sex or None)
        assert found["member_no"] is None  # private (issue 24), whatever is on record
        assert {c["club_code"] for c in found["clubs"]} <= member_clubs(player)
        assert all(list(club) == ["club_code", "club_name"] for club in found["clubs"])
        if found["clubs"]:
            assert found["club_code"] == found["clubs"][0]["club_code"]
        last = (
            Game.objects.filter(Q(player1=player) | Q(player2=player), graded=True)
            .order_by("-game_date")
            .values_list("game_date", flat=True)[0]
        )
        assert found["date_last_game"] == last.isoformat()


def test_an_unknown_or_malformed_code_is_success_false_with_a_message(
    client: Client, demo: DemoSummary
) -> None:
    player = a_player()
    wrong_letter = next(
        f"{player.code:06d}{letter}" for letter in "ABCDEFGHJKL" if letter != code_of(player)[-1]
    )
    for code in (a_code_held_by_no_one(), wrong_letter, "12345", "abcdef"):
        found = body(v2(client, f"players/code/{code}"))
        assert found["success"] is False, code
        assert found["message"]
        assert list(found) == [*META, "message"]


def test_a_name_stem_or_surname_and_forename_stem_finds_players_on_record(
    client: Client, demo: DemoSummary
) -> None:
    unmerged = Player.objects.filter(merged_into__isnull=True, surname__regex=r"^[A-Za-z]+$")
    common = unmerged.values("surname").annotate(n=Count("id")).order_by("-n", "surname").first()
    assert common is not None and common["n"] >= 2  # the demo shares some surnames
    surname = common["surname"]
    stem = surname[:3].lower()
    found = body(v2(client, f"players/name/{stem}"))
    expected = Player.objects.filter(surname__istartswith=stem, merged_into__isnull=True)
    assert {p["ECF_code"] for p in found["players"]} == {code_of(p) for p in expected}
    assert list(found) == [*META, "players"]
    assert all(list(p) == PLAYER_KEYS for p in found["players"])
    namesakes = unmerged.filter(surname=surname)
    one = namesakes.order_by("code").first()
    assert one is not None
    fore = one.forenames[:2]
    for route in (f"players/name/{surname},+{fore}", f"players/name/{surname}%2C%20{fore}"):
        found = body(v2(client, route))
        wanted = namesakes.filter(forenames__istartswith=fore)
        assert {p["ECF_code"] for p in found["players"]} == {code_of(p) for p in wanted}


def test_a_sound_alike_search_finds_a_player_by_forename_and_surname_in_either_order(
    client: Client, demo: DemoSummary
) -> None:
    player = a_player(forenames__regex=r"^[A-Za-z]+( |$)")
    first = player.forenames.split()[0]
    for words in (f"{first}+{player.surname}", f"{player.surname}+{first}"):
        found = body(v2(client, f"players/fuzzy_name/{words}"))
        assert code_of(player) in {p["ECF_code"] for p in found["players"]}, words
        assert all(list(p) == PLAYER_KEYS for p in found["players"])


# -- v2: ratings ----------------------------------------------------------------------------


def test_a_rating_on_a_date_is_the_first_and_the_current_versions_grades(
    client: Client, demo: DemoSummary
) -> None:
    initial, current = current_versions()["standard"]
    originals, revised = grades_in(initial), grades_in(current)
    player = a_player(code__in=set(originals) & set(revised))
    for rate in ("S", "Standard", "standard"):
        found = body(v2(client, f"ratings/{rate}/{code_of(player)}/{today().isoformat()}"))
        assert list(found) == META + RATING_KEYS
        assert found["success"] is True
        assert (found["original_rating"], found["original_category"]) == originals[player.code]
        assert (found["revised_rating"], found["revised_category"]) == revised[player.code]
        assert found["rating_type"] == "Standard"
        assert found["domain"] == "S"  # the letter, whatever spelling was asked


def test_ratings_carry_the_federations_categories_only(client: Client, demo: DemoSummary) -> None:
    """The current standard list has grades of every kind: A (30 games), K and P."""
    initial, current = current_versions()["standard"]
    originals, revised = grades_in(initial), grades_in(current)
    wanted = {letter: code for code, (_grade, letter) in sorted(revised.items())}
    assert set(wanted) == {"A", "K", "P"}  # the demo has each
    for letter, code in wanted.items():
        found = body(v2(client, f"ratings/S/{code_of(code)}"))
        assert found["revised_category"] == letter, code
        assert found["original_category"] == originals.get(code, (None, None))[1]
        assert found["original_category"] in FEDERATION_CATEGORIES


def test_the_category_rule_at_its_edges() -> None:
    """A for our A and X whatever the games; P under 10 games counted; K from 10."""
    assert shapes.federation_category("A", 30) == "A"
    assert shapes.federation_category("X", 30) == "A"
    assert shapes.federation_category("E", 9) == "P"
    assert shapes.federation_category("F", 5) == "P"
    assert shapes.federation_category("E", 10) == "K"
    assert shapes.federation_category("B", 30) == "K"
    assert shapes.federation_category("", 0) is None


def test_a_rapid_rating_and_a_rating_without_a_date(client: Client, demo: DemoSummary) -> None:
    initial, current = current_versions()["rapid"]
    revised = grades_in(current)
    player = a_player(code__in=set(revised))
    for route in (f"ratings/R/{player.code:06d}", f"ratings/Rapid/{code_of(player)}"):
        found = body(v2(client, route))
        assert found["domain"] == "R"
        assert (found["revised_rating"], found["revised_category"]) == revised[player.code]
        assert found["original_rating"] == grades_in(initial).get(player.code, (None,))[0]


def test_no_rating_before_the_demos_lists_were_published(client: Client, demo: DemoSummary) -> None:
    """The demo's first list, July 2009, is dated as published on 15 July 2009."""
    player = a_player()
    before = "2009-07-14"
    found = body(v2(client, f"ratings/S/{code_of(player)}/{before}"))
    assert found["success"] is False
    assert before in found["message"]


def test_a_date_between_two_publications_finds_the_list_then_in_force(
    client: Client, demo: DemoSummary
) -> None:
    """On 1 March 2011 the July 2010 standard list (august version, 28 August 2010) and the
    January 2011 rapid list (15 January 2011) were in force, as the demo dates them."""
    player = Player.objects.filter(
        list_entries__version__grading_list__list_id="2010-07",
        list_entries__version__grading_list__rate="standard",
        list_entries__published=True,
    ).first()
    assert player is not None
    found = body(v2(client, f"ratings/S/{code_of(player)}/2011-03-01"))
    assert found["success"] is True, found
    assert "2010-07" in str(found)


def test_ratings_of_no_one_of_blitz_or_on_a_bad_date_are_success_false(
    client: Client, demo: DemoSummary
) -> None:
    player = a_player()
    for route in (
        f"ratings/S/{a_code_held_by_no_one()}/{today()}",
        f"ratings/B/{code_of(player)}/{today()}",
        f"ratings/S/{code_of(player)}/2012-02-30",
        f"ratings/X/{code_of(player)}",
    ):
        found = body(v2(client, route))
        assert found["success"] is False and found["message"], route


def test_dates_are_read_as_the_federation_writes_them() -> None:
    assert payloads.day_asked("2012-09-01") == dt.date(2012, 9, 1)
    assert payloads.day_asked(None) is None  # the current lists
    for bad in ("2012-13-01", "01/09/2012", "yesterday"):
        with pytest.raises(ServiceError, match="expected a date YYYY-MM-DD"):
            payloads.day_asked(bad)


# -- v2: games ------------------------------------------------------------------------------


def expected_games(player: Player, rate: str) -> list[tuple[Any, ...]]:
    """His graded games of the rate, latest first, from the games table; the score as
    the federation writes it (1 a win, 0 a loss, 5 a draw: its results files' "55"),
    the organiser's name (none is recorded: the event's) and the event's name."""
    games = (
        Game.objects.filter(Q(player1=player) | Q(player2=player), rate=rate, graded=True)
        .order_by("-game_date", "-sequence")
        .select_related("event", "player1", "player2")
    )
    rows = []
    for game in games:
        first = game.player1_id == player.id
        other = game.player2 if first else game.player1
        mine, theirs = {"10": (1, 0), "01": (0, 1), "55": (5, 5)}[game.result]
        rows.append((
            game.id, game.game_date.isoformat(), code_of(other) if other else None,
            mine if first else theirs, game.event.code, game.part_name,
            game.event.name, game.event.name,
        ))  # fmt: skip
    return rows


def starting_grades(player: Player, game_id: int) -> tuple[int | None, int | None, float | None]:
    """The grades the latest list that graded the game used: his opponent's and his own
    starting grades in its current version, and the points less his own."""
    stored = (
        StoredGamePoints.objects.filter(player=player, game_id=game_id, period=0)
        .filter(version__status="published")
        .order_by("-version__grading_list__list_id", "-version__published_at")
        .values_list("version_id", "points")
    )
    for version_id, points in stored:
        later = (
            ListVersion.objects.filter(grading_list__versions=version_id, status="published")
            .order_by("-published_at")
            .first()
        )
        if later is not None and later.id != version_id:
            continue  # a superseded version of that list: the current one is wanted
        game = Game.objects.get(pk=game_id)
        other = game.player2_id if game.player1_id == player.id else game.player1_id
        entries = dict(
            ListEntry.objects.filter(
                version_id=version_id, player_id__in=[player.id, other]
            ).values_list("player_id", "start_grade")
        )
        own, theirs = entries.get(player.id), entries.get(other)
        return (
            None if theirs is None else round(theirs),
            None if own is None else round(own),
            None if own is None else round(points - own, 1),
        )
    return None, None, None


def test_a_players_games_are_his_graded_games_latest_first_with_the_lists_grades(
    client: Client, demo: DemoSummary
) -> None:
    player = a_player()
    expected = expected_games(player, "standard")
    assert len(expected) >= 3
    found = body(v2(client, f"games/Standard/player/{code_of(player)}"))
    assert list(found) == [*META, "games"]
    games = found["games"]
    assert all(list(game) == GAME_KEYS for game in games)
    got = [
        (
            g["game_date"], g["opponent_no"], g["score"], g["event_code"], g["section_title"],
            g["org_name"], g["event_name"],
        )
        for g in games
    ]  # fmt: skip
    assert got == [row[1:] for row in expected]
    assert {type(g["score"]) for g in games} == {int}  # JSON numbers, never 0.5
    assert {g["score"] for g in games} == {0, 1, 5}  # he has won, lost and drawn
    for game, row in zip(games, expected, strict=True):
        grades = (game["opponent_rating"], game["player_rating"], game["increment"])
        assert grades == starting_grades(player, row[0])
    limited = body(v2(client, f"games/S/player/{player.code:06d}/limit/2"))["games"]
    assert limited == games[:2]


def test_games_of_no_one_or_of_a_blitz_list_are_success_false(
    client: Client, demo: DemoSummary
) -> None:
    player = a_player()
    for route in (
        f"games/Standard/player/{a_code_held_by_no_one()}/limit/5",
        f"games/Blitz/player/{code_of(player)}/limit/5",
        f"games/Standard/player/{code_of(player)}/limit/many",
    ):
        assert body(v2(client, route))["success"] is False, route


# -- v2: clubs ------------------------------------------------------------------------------


def test_active_clubs_have_exactly_the_issues_keys_and_are_the_clubs_with_members(
    client: Client, demo: DemoSummary
) -> None:
    found = body(v2(client, "clubs/all_active"))
    assert set(found) == {"clubs", *META} and len(found) == 5
    assert all(list(club) == CLUB_KEYS for club in found["clubs"])
    season = current_season()
    quoted = ClubMembership.objects.filter(
        first_season__lte=season, last_season__gt=season - 3, club__code__isnull=False,
        club__is_location=False, club__merged_into__isnull=True,
    )  # fmt: skip
    assert {c["club_code"] for c in found["clubs"]} == set(
        quoted.values_list("club__code", flat=True)
    )
    for club in found["clubs"]:
        row = Club.objects.select_related("county").get(code=club["club_code"])
        assert club["club_name"] == row.name
        assert club["assoc_name"] == (row.county.name if row.county else None)


def test_a_club_by_code_and_its_players(client: Client, demo: DemoSummary) -> None:
    club = Club.objects.filter(code__isnull=False, is_location=False).order_by("code").first()
    assert club is not None
    found = body(v2(client, f"clubs/code/{club.code.lower()}"))  # type: ignore[union-attr]
    assert list(found) == META + CLUB_KEYS
    assert (found["club_code"], found["club_name"]) == (club.code, club.name)
    players = body(v2(client, f"club_players/{club.code}"))
    assert list(players) == [
        *META,
        "club_code",
        "club_name",
        "rating_effective_date",
        "column_names",
        "players",
    ]
    assert players["column_names"] == CLUB_PLAYER_COLUMNS
    season = current_season()
    members = ClubMembership.objects.filter(
        club=club, first_season__lte=season, last_season__gt=season - 3
    ).values_list("player__code", flat=True)
    versions = current_versions()
    standard, rapid = (grades_in(versions[rate][1]) for rate in ("standard", "rapid"))
    graded = set(standard) | set(rapid)
    assert {row[0] for row in players["players"]} == {code_of(c) for c in members if c in graded}
    expected = expected_rows()
    for row in players["players"]:
        number = int(row[0][:6])
        assert len(row) == len(CLUB_PLAYER_COLUMNS) and row[:14] == expected[row[0]]
        # std, rpd, btz: the current grades as plain numbers, no blitz.
        assert row[32:] == [standard.get(number, (None,))[0], rapid.get(number, (None,))[0], None]
    assert any(isinstance(row[32], int) for row in players["players"])
    assert body(v2(client, "clubs/code/ZZZZ"))["success"] is False
    assert body(v2(client, "club_players/ZZZZ"))["success"] is False


# -- v2: the rating list --------------------------------------------------------------------


def expected_rows() -> dict[str, list[Any]]:
    """Each published player's row of the current lists, by a plain query: the columns
    the registry fills (code to rapid category)."""
    versions = current_versions()
    grades = {
        (rate, which): grades_in(ids[k])
        for rate, ids in versions.items()
        for k, which in enumerate(("original", "revised"))
    }
    published = set(grades[("standard", "revised")]) | set(grades[("rapid", "revised")])
    rows = {}
    for player in Player.objects.filter(code__in=published):
        cells: list[Any] = [
            code_of(player), f"{player.surname}, {player.forenames}" if player.forenames
            else player.surname, None, player.fide_id,  # member_no: private (issue 24)
            player.sex or None, player.nation,
        ]  # fmt: skip
        for rate in ("standard", "rapid"):
            if player.code in grades[(rate, "revised")]:
                original = grades[(rate, "original")].get(player.code, (None, None))
                cells += [*original, *grades[(rate, "revised")][player.code]]
            else:
                cells += [None] * 4
        rows[code_of(player)] = cells
    return rows


def test_the_rating_list_has_the_issues_keys_and_columns_and_every_published_player(
    client: Client, demo: DemoSummary
) -> None:
    for route in ("rating_list", f"rating_list/{today().isoformat()}"):
        found = body(v2(client, route))
        assert set(found) == {"rating_effective_date", "column_names", "players", *META}
        assert len(found) == 7
        assert found["column_names"] == COLUMNS
        assert found["rating_effective_date"] == today().isoformat()
        expected = expected_rows()
        rows = found["players"]
        assert len(rows) == len(expected) == len({row[0] for row in rows})
        for row in rows:
            assert len(row) == 32
            assert row[:14] == expected[row[0]], row[0]
            assert row[14:30] == [None] * 16  # no blitz, no online lists
            if row[30] is not None:
                player = Player.objects.get(code=int(row[0][:6]))
                assert row[30] in member_clubs(player)


def test_the_rating_list_is_in_name_order(client: Client, demo: DemoSummary) -> None:
    rows = body(v2(client, "rating_list"))["players"]
    keys = list(
        Player.objects.filter(code__in=[int(row[0][:6]) for row in rows])
        .order_by("name_key", "code")
        .values_list("code", flat=True)
    )
    assert [row[0] for row in rows] == [code_of(code) for code in keys]


def test_no_rating_list_was_in_force_before_the_demo_published(
    client: Client, demo: DemoSummary
) -> None:
    found = body(v2(client, "rating_list/2000-01-01"))
    assert found["success"] is False
    assert "2000-01-01" in found["message"]
    assert body(v2(client, "rating_list/01-01-2000"))["success"] is False


def test_the_rating_list_csv_is_the_32_columns_and_title_then_the_same_rows(
    client: Client, demo: DemoSummary
) -> None:
    response = v2(client, "rating_list_csv")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    assert f"rating_list_{today().isoformat()}.csv" in response["Content-Disposition"]
    table = list(csv.reader(io.StringIO(response.content.decode())))
    assert table[0] == [*COLUMNS, "title"]
    rows = body(v2(client, "rating_list"))["players"]
    assert table[1:] == [["" if cell is None else str(cell) for cell in row] + [""] for row in rows]
    dated = v2(client, f"rating_list_csv/{today().isoformat()}")
    assert dated.content == response.content


def test_a_clubs_players_cost_the_same_queries_for_a_small_club_and_a_large_one(
    client: Client, demo: DemoSummary
) -> None:
    def queries(code: str) -> tuple[int, int]:
        cache.clear()  # each answer made afresh
        with CaptureQueriesContext(connection) as captured:
            found = body(v2(client, f"club_players/{code}"))
        return len(page_statements(captured)), len(found["players"])

    codes = [str(club.code) for club in Club.objects.filter(code__isnull=False)]
    queries(codes[0])  # the club index is built once per data token
    sizes = [queries(code) for code in codes]
    graded = [(count, players) for count, players in sizes if players]
    assert len({players for _count, players in graded}) > 1  # clubs of different sizes...
    assert len({count for count, _players in graded}) == 1  # ...cost the same queries


# -- the newer REST shapes ------------------------------------------------------------------


def rest(client: Client, path: str, **params: Any) -> dict[str, Any]:
    found = body(client.get(f"/api/{path}", params))
    assert list(found) == ENVELOPE
    return found


def rest_failure(client: Client, path: str, status: int, **params: Any) -> dict[str, Any]:
    """A REST failure: ``status``, JSON, the envelope with ``success: false`` and a
    message (chess-army-knife reads a 4xx as "no such player" and shows ``message``)."""
    response = client.get(f"/api/{path}", params)
    assert response.status_code == status, (path, params, response.content[:300])
    assert response["Content-Type"].startswith("application/json")
    found: dict[str, Any] = json.loads(response.content)
    assert list(found) == ENVELOPE
    assert found["success"] is False and found["message"] and found["data"] is None
    return found


def test_rest_ratings_players_and_games_agree_with_the_v2_shapes(
    client: Client, demo: DemoSummary
) -> None:
    player = a_player()
    code = code_of(player)
    digits = f"{player.code:06d}"  # chess-army-knife strips the check letter
    rating = rest(client, "ratings", player_no=digits, domain="S", date=today().isoformat())
    v2_rating = body(v2(client, f"ratings/S/{code}/{today().isoformat()}"))
    assert rating["success"] is True and rating["message"] == ""
    assert rating["data"] == {key: v2_rating[key] for key in RATING_KEYS}
    assert rating["data"]["domain"] == "S"
    revised = grades_in(current_versions()["standard"][1])[player.code]
    assert (rating["data"]["revised_rating"], rating["data"]["revised_category"]) == revised
    assert type(rating["data"]["revised_rating"]) is int
    found = rest(client, "players/rating-code", code=digits)
    assert list(found["data"]) == PLAYER_KEYS and found["data"]["ECF_code"] == code
    assert found["data"]["full_name"] == f"{player.surname}, {player.forenames}"
    assert found["data"]["club_name"] in {
        c.name for c in Club.objects.filter(code__in=member_clubs(player))
    } | {None}
    sounding = rest(client, "players/fuzzy-names", name=f"{player.surname}")
    assert list(sounding["data"]) == ["players"]
    assert code in {p["ECF_code"] for p in sounding["data"]["players"]}
    games = rest(client, "games", player_no=digits, domain="S", limit=3)
    assert list(games["data"]) == ["games"]
    assert games["data"]["games"] == body(v2(client, f"games/S/player/{code}/limit/3"))["games"]
    assert len(games["data"]["games"]) == 3


def test_rest_clubs(client: Client, demo: DemoSummary) -> None:
    club = Club.objects.filter(code__isnull=False, is_location=False).order_by("name").first()
    assert club is not None
    found = rest(client, "clubs/code", code=club.code)
    assert list(found["data"]) == CLUB_KEYS and found["data"]["club_name"] == club.name
    named = rest(client, "clubs/name", name=club.name[:4])
    assert list(named["data"]) == ["clubs"]
    assert club.code in {c["club_code"] for c in named["data"]["clubs"]}
    assert all(list(c) == CLUB_KEYS for c in named["data"]["clubs"])
    players = rest(client, "clubs/players", code=club.code)["data"]
    assert players["column_names"] == CLUB_PLAYER_COLUMNS
    v2_players = body(v2(client, f"club_players/{club.code}"))
    assert players["players"] == v2_players["players"] and players["players"]
    assert "rows" not in players


def test_rest_answers_no_one_with_a_404_and_a_missing_parameter_with_a_400(
    client: Client, demo: DemoSummary
) -> None:
    nobody = a_code_held_by_no_one()
    for path, params in (
        ("ratings", {"player_no": nobody, "domain": "S"}),
        ("ratings", {"player_no": nobody[:6], "domain": "S"}),
        ("players/rating-code", {"code": nobody[:6]}),
        ("players/rating-code", {"code": "abcdef"}),
        ("games", {"player_no": nobody, "domain": "R"}),
        ("clubs/players", {"code": "ZZZZ"}),
        ("clubs/code", {"code": "ZZZZ"}),
    ):
        rest_failure(client, path, 404, **params)
    player = code_of(a_player())
    for path, params in (
        ("ratings", {"domain": "S"}),
        ("ratings", {"player_no": player}),
        ("ratings", {"player_no": player, "domain": "S", "date": "2012-02-30"}),
        ("players/fuzzy-names", {}),
        ("players/rating-code", {}),
        ("games", {"player_no": player, "domain": "S", "limit": "many"}),
        ("clubs/name", {"name": ""}),
        ("clubs/players", {}),
    ):
        rest_failure(client, path, 400, **params)


def test_rest_rating_list_csv(client: Client, demo: DemoSummary) -> None:
    response = client.get("/api/rating-list/csv")
    table = list(csv.reader(io.StringIO(response.content.decode())))
    assert table[0] == [*COLUMNS, "title"]
    assert response.content == v2(client, "rating_list_csv").content
    categories = {row[k] for row in table[1:] for k, name in enumerate(table[0]) if "categ" in name}
    assert categories == {"A", "K", "P", ""}  # the federation's letters, and each of them
    rest_failure(client, "rating-list/csv", 404, date="1999-01-01")
    rest_failure(client, "rating-list/csv", 400, date="01-01-1999")


def test_unknown_api_paths_are_json_404s_in_the_rest_envelope(
    client: Client, demo: DemoSummary
) -> None:
    for path in ("/api/nothing", "/api/players", "/api/players/rating-code/", "/api/", "/api"):
        response = client.get(path)
        assert response.status_code == 404, path
        assert response["Content-Type"].startswith("application/json"), path
        found = json.loads(response.content)
        assert found["success"] is False and found["message"] and found["data"] is None, path
    v1 = client.get("/api/v1/nothing-here")  # /api/v1 answers its own JSON 404s
    assert v1.status_code == 404 and "kind" in json.loads(v1.content)


def test_unknown_v2_paths_are_json_404s_in_the_v2_shape(client: Client, demo: DemoSummary) -> None:
    for path in ("/v2/new/other.php", "/v2/", "/v2", "/v2/new/api.php/extra", "/v2/help/x.php"):
        response = client.get(path)
        assert response.status_code == 404, path
        assert response["Content-Type"].startswith("application/json"), path
        found = json.loads(response.content)
        assert list(found) == [*META, "message"], path
        assert found["success"] is False and "v2/players/code/" in found["message"]
    assert client.get("/v2/new/list_top_players.php?format=json").status_code == 200


# -- every route: cookies, user agents, caching, processing times, privacy ------------------


def every_route(player: Player, club: str) -> Iterator[str]:
    code = code_of(player)
    day = today().isoformat()
    yield from (
        f"/v2/new/api.php?v2/players/code/{code}",
        f"/v2/new/api.php?v2/players/name/{player.surname[:3]}",
        f"/v2/new/api.php?v2/players/fuzzy_name/{player.surname}",
        f"/v2/new/api.php?v2/ratings/S/{code}/{day}",
        f"/v2/new/api.php?v2/games/Standard/player/{code}/limit/10",
        "/v2/new/api.php?v2/clubs/all_active",
        f"/v2/new/api.php?v2/clubs/code/{club}",
        f"/v2/new/api.php?v2/club_players/{club}",
        "/v2/new/api.php?v2/rating_list",
        f"/v2/new/api.php?v2/rating_list/{day}",
        "/v2/new/api.php?v2/rating_list_csv",
        f"/api/ratings?player_no={code}&domain=S&date={day}",
        f"/api/players/rating-code?code={code}",
        f"/api/players/fuzzy-names?name={player.surname}",
        f"/api/games?player_no={code}&domain=S&limit=10",
        f"/api/clubs/players?code={club}",
        f"/api/clubs/code?code={club}",
        f"/api/clubs/name?name={club}",
        "/api/rating-list/csv",
    )


@pytest.fixture
def routes(demo: DemoSummary) -> list[str]:
    club = Club.objects.filter(code__isnull=False, is_location=False).order_by("code")[0]
    return list(every_route(a_player(), str(club.code)))


@pytest.mark.parametrize(
    "agent", ["python-requests/2.31.0", "curl/8.5.0", "Go-http-client/1.1", "", None]
)
def test_programs_are_served_without_cookies_whatever_their_user_agent(
    routes: list[str], agent: str | None
) -> None:
    client = Client(enforce_csrf_checks=True)
    headers = {} if agent is None else {"HTTP_USER_AGENT": agent}
    for route in routes:
        response = client.get(route, **headers)
        assert response.status_code == 200, route
        assert not response.cookies, route
        assert "Set-Cookie" not in response, route
        assert "Vary" not in response or "Cookie" not in response["Vary"], route


def test_every_route_refuses_to_change_anything(routes: list[str]) -> None:
    client = Client(enforce_csrf_checks=True)
    for route in routes:
        assert client.post(route).status_code == 405, route


def test_every_route_has_an_etag_and_answers_a_conditional_request_with_304(
    client: Client, routes: list[str]
) -> None:
    for route in routes:
        first = client.get(route)
        assert "max-age" in first["Cache-Control"] and first["ETag"], route
        again = client.get(route, HTTP_IF_NONE_MATCH=first["ETag"])
        assert again.status_code == 304, route


def test_processing_times_are_measured_and_added_up_for_the_day(
    client: Client, demo: DemoSummary
) -> None:
    player = a_player()
    first = body(v2(client, f"players/code/{code_of(player)}"))
    second = body(v2(client, "clubs/all_active"))
    for found in (first, second):
        assert isinstance(found["processing_time"], float) and found["processing_time"] > 0
        assert found["max_processing_time_daily"] == 600
    assert second["total_processing_time_today"] == pytest.approx(
        first["total_processing_time_today"] + second["processing_time"], abs=1e-3
    )
    other = body(v2(client, "clubs/all_active", REMOTE_ADDR="192.0.2.7"))  # another network
    assert other["total_processing_time_today"] == pytest.approx(other["processing_time"], abs=1e-3)


def test_no_answer_holds_a_date_of_birth(client: Client, routes: list[str]) -> None:
    births = set(Player.objects.exclude(date_of_birth=None).values_list("date_of_birth", flat=True))
    assert births  # the demo records some
    forms = {f(day) for day in births for f in (dt.date.isoformat, _british, _slashed)}
    for route in routes:
        text = client.get(route).content.decode()
        assert "birth" not in text.lower() and "dob" not in text.lower(), route
        assert not [form for form in forms if form in text], route


def _british(day: dt.date) -> str:
    return f"{day.day} {day.strftime('%B')} {day.year}"


def _slashed(day: dt.date) -> str:
    return day.strftime("%d/%m/%Y")


def test_a_route_that_is_not_the_apis_is_a_json_404(client: Client, demo: DemoSummary) -> None:
    for query in ("v2/nothing/here", "", "v2/players"):
        response = client.get(f"/v2/new/api.php?{query}")
        assert response.status_code == 404
        found = json.loads(response.content)
        assert found["success"] is False and "v2/players/code/" in found["message"]
        assert set(META) <= set(found)


# -- the seeds' rapid list file ---------------------------------------------------------------


def test_rgrades_is_the_rapid_lists_file_under_the_seeds_name(
    client: Client, demo: DemoSummary
) -> None:
    january = client.get("/downloads/rgrades201101.csv")  # a January list, rapid only
    assert january.status_code == 200
    assert january.content == client.get("/downloads/grades201101.csv").content
    assert 'filename="rgrades201101.csv"' in january["Content-Disposition"]
    header = january.content.decode().splitlines()[0].split(",")
    assert len(header) == 20 and header[8:12] == ["RCat", "RGrade", "RGrade1", "RGames"]
    july = client.get("/downloads/rgrades201207.csv")
    assert july.content == client.get("/downloads/grades201207-rapid.csv").content
    both = client.get("/downloads/rgrades201301.csv")  # a January list of both rates (G31)
    assert both.content == client.get("/downloads/grades201301-rapid.csv").content
    assert client.get("/downloads/rgrades199901.csv").status_code == 404
    again = client.get("/downloads/rgrades201101.csv", HTTP_IF_NONE_MATCH=january["ETag"])
    assert again.status_code == 304


# -- the list in force between two publications ---------------------------------------------


def test_the_list_in_force_between_two_publications(client: Client) -> None:
    """Lists of 1995 and 1996 published on chosen days (the demo's are all published
    today, so on these dates they are not in force whether or not they are loaded)."""
    london = ZoneInfo("Europe/London")
    ann = Player.objects.create(code=990001, surname="Zedwick", forenames="Ann")

    def publish(list_id: str, name: str, day: str, grade: int, category: str) -> None:
        grading_list, _ = GradingList.objects.get_or_create(list_id=list_id, rate="standard")
        version = ListVersion.objects.create(grading_list=grading_list, name=name)
        ListEntry.objects.create(
            version=version, player=ann, grade=grade, category=category, published=True
        )
        version.status = ListVersion.Status.PUBLISHED
        version.published_at = dt.datetime.fromisoformat(f"{day}T12:00").replace(tzinfo=london)
        version.save()

    publish("1995-07", "initial", "1995-07-10", 150, "A")
    publish("1995-07", "august", "1995-08-25", 155, "A")
    publish("1996-07", "initial", "1996-07-12", 160, "B")

    def rating(day: str) -> tuple[Any, ...]:
        found = body(v2(client, f"ratings/S/{code_of(ann)}/{day}"))
        if not found["success"]:
            return (False,)
        return (found["list"], found["version"], found["original_rating"], found["revised_rating"])

    assert rating("1995-07-09") == (False,)
    assert rating("1995-07-10") == ("1995-07", "initial", 150, 150)
    assert rating("1995-08-24") == ("1995-07", "initial", 150, 150)
    assert rating("1996-01-15") == ("1995-07", "august", 150, 155)
    assert rating("1996-07-11") == ("1995-07", "august", 150, 155)
    assert rating("1996-07-12") == ("1996-07", "initial", 160, 160)
    rows = body(v2(client, "rating_list/1996-01-15"))["players"]
    assert [row[:10] for row in rows] == [
        [code_of(ann), "Zedwick, Ann", None, None, None, "ENG", 150, "A", 155, "A"]
    ]


# -- conditional downloads: Last-Modified and If-Modified-Since (issue 22) -------------------


def published_by(day: dt.date | None = None, **conditions: Any) -> dt.datetime:
    """The latest publication among published versions (on or before ``day``, in the
    federation's time zone): the version in force of each rate is its latest, so this
    is the latest of the versions a list file or a rating list holds."""
    versions = ListVersion.objects.filter(status="published", **conditions)
    times = [
        at
        for at in versions.values_list("published_at", flat=True)
        if day is None or timezone.localdate(at) <= day
    ]
    return max(times)


def dated(moment: dt.datetime) -> str:
    """An HTTP date (RFC 9110 5.6.7), written with the standard library, not Django."""
    return format_datetime(moment.astimezone(dt.UTC), usegmt=True)


def conditional_routes() -> list[tuple[str, dt.datetime]]:
    """Every list download and rating-list answer checked, with its publication time."""
    march = dt.date(2011, 3, 1)  # the July 2010 standard and January 2011 rapid lists
    return [
        ("/downloads/grades201207.csv", published_by(grading_list__list_id="2012-07")),
        ("/downloads/grades201207.json", published_by(grading_list__list_id="2012-07")),
        (
            "/downloads/grades201207-standard-initial.csv",
            published_by(
                grading_list__list_id="2012-07", grading_list__rate="standard", name="initial"
            ),
        ),
        ("/downloads/rgrades201101.csv", published_by(grading_list__list_id="2011-01")),
        ("/v2/new/api.php?v2/rating_list", published_by()),
        ("/v2/new/api.php?v2/rating_list_csv", published_by()),
        ("/v2/new/api.php?v2/rating_list/2011-03-01", published_by(march)),
        ("/v2/new/api.php?v2/rating_list_csv/2011-03-01", published_by(march)),
        ("/api/rating-list/csv", published_by()),
        ("/api/rating-list/csv?date=2011-03-01", published_by(march)),
    ]


def test_list_downloads_and_rating_lists_are_dated_by_their_publication(
    client: Client, demo: DemoSummary
) -> None:
    routes = conditional_routes()
    assert len({moment for _route, moment in routes}) >= 4  # different dates, told apart
    for route, moment in routes:
        for method in (client.get, client.head):
            response = method(route)
            assert response.status_code == 200, route
            assert response["Last-Modified"] == dated(moment), route
            assert response["ETag"], route


def test_if_modified_since_at_or_after_the_publication_is_304(
    client: Client, demo: DemoSummary
) -> None:
    for route, moment in conditional_routes():
        for method in (client.get, client.head):
            for since in (moment, moment + dt.timedelta(days=1)):
                again = method(route, HTTP_IF_MODIFIED_SINCE=dated(since))
                assert again.status_code == 304, (route, since)
                assert again["Last-Modified"] == dated(moment) and again["ETag"], route
                assert not again.content
            before = method(route, HTTP_IF_MODIFIED_SINCE=dated(moment - dt.timedelta(seconds=1)))
            assert before.status_code == 200, route


def test_an_etag_is_read_before_a_date(client: Client, demo: DemoSummary) -> None:
    """RFC 9110 13.2.2: with If-None-Match, If-Modified-Since is not read."""
    for route, moment in conditional_routes():
        fresh = dated(moment)
        stale_tag = client.get(route, HTTP_IF_NONE_MATCH='"another"', HTTP_IF_MODIFIED_SINCE=fresh)
        assert stale_tag.status_code == 200, route
        first = client.get(route)
        early = dated(moment - dt.timedelta(days=1))
        same_tag = client.get(route, HTTP_IF_NONE_MATCH=first["ETag"], HTTP_IF_MODIFIED_SINCE=early)
        assert same_tag.status_code == 304, route


def test_a_rating_list_that_is_not_there_has_no_date(client: Client, demo: DemoSummary) -> None:
    for route in (
        "/v2/new/api.php?v2/rating_list/2000-01-01",
        "/v2/new/api.php?v2/rating_list_csv/2000-01-01",
        "/api/rating-list/csv?date=2000-01-01",
    ):
        response = client.get(route, HTTP_IF_MODIFIED_SINCE=dated(published_by()))
        assert response.status_code in (200, 404), route
        assert "Last-Modified" not in response, route
        assert json.loads(response.content)["success"] is False, route


def test_a_membership_number_on_record_is_never_answered_nor_looked_up(
    client: Client, demo: DemoSummary
) -> None:
    """Issue 24 (privacy): the federation's API shows ``member_no`` and finds players by
    it; ours keeps the field for the clients' parsers, always empty, and finds no one."""
    player = a_player()
    Player.objects.filter(pk=player.pk).update(membership_no="ME004711")
    cache.clear()
    found = body(v2(client, f"players/code/{code_of(player)}"))
    assert found["ECF_code"] == code_of(player) and found["member_no"] is None
    listed = v2(client, "rating_list").content.decode()
    assert code_of(player) in listed and "ME004711" not in listed
    for asked in ("ME004711", "me004711"):
        answer = body(v2(client, f"players/mid/{asked}"))
        assert answer["success"] is False and "private" in answer["message"]
        assert code_of(player) not in json.dumps(answer)
