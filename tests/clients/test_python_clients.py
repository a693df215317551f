"""The Python clients of the federation's rating API, unchanged but for the host, against
the served demo (issue 22): ChessReports, ecf_ratings, ToMaChess, Sharly Chess, and
ChessDojo's Go fetch replicated in Python. Each replica (tests/clients/python/) requests
and parses as its program does; each test asserts what the program would show, against
plain registry queries of the demo (tests/clients/registry.py).
"""

from __future__ import annotations

import csv
import io
import urllib.request
from pathlib import Path

import pytest

from tests.clients import registry
from tests.clients.python import chessdojo, chessreports, ecf_ratings, sharly, tomachess
from tests.web.live import Site

pytestmark = pytest.mark.sqlite


def test_the_demo_has_no_club_merges_and_one_player_merge(site: Site) -> None:
    """The expectations follow player merges and no club merge (registry.py): the demo
    must have no merged club, and has one merged player (its team's, G28)."""
    with site.database() as db:
        assert registry.club_merges(db) == 0
        assert registry.player_merges(db) == 1


# -- ChessReports ---------------------------------------------------------------------------


def test_chessreports_accepts_and_imports_the_rating_list(site: Site) -> None:
    urls = chessreports.default_urls(site.url)
    data = chessreports.players_structure(chessreports.download(urls["players_ratings_url"]))
    lines, errors = chessreports.rated_players_display(data)
    assert errors == 0 and lines
    imported = chessreports.import_players(data)
    with site.database() as db:
        expected = registry.listed(db)
    assert set(imported) == set(expected)
    assert {code: name for code, (name, _clubs) in imported.items()} == {
        code: player.name for code, player in expected.items()
    }
    assert all(chessreports.code_is_valid(code) for code in imported)
    assert all(len(club) == 4 for _name, clubs in imported.values() for club in clubs if club)


def test_chessreports_reads_the_list_in_the_2022_layout(site: Site) -> None:
    urls = chessreports.default_urls(site.url)
    data = chessreports.download(urls["players_ratings_url"])
    assert tuple(data["column_names"]) == chessreports.COLUMN_NAMES_2022_10
    assert isinstance(data["rating_effective_date"], str)


def test_chessreports_accepts_and_imports_the_active_clubs(site: Site) -> None:
    urls = chessreports.default_urls(site.url)
    data = chessreports.clubs_structure(chessreports.download(urls["active_clubs_url"]))
    lines, errors = chessreports.active_clubs_display(data)
    assert errors == 0 and lines
    imported = chessreports.import_clubs(data)
    with site.database() as db:
        expected = registry.active_clubs(db)
        counties = registry.county_codes(db)
    assert {code: name for code, (name, _assoc) in imported.items()} == {
        code: name for code, (name, _county) in expected.items()
    }
    assert {code: assoc for code, (_name, assoc) in imported.items()} == {
        code: counties[county][0] if county else "" for code, (_name, county) in expected.items()
    }


def test_chessreports_looks_up_a_player_and_his_club(site: Site) -> None:
    urls = chessreports.default_urls(site.url)
    with site.database() as db:
        player = registry.the_player(db)
        clubs = registry.member_clubs(db, player)
        active = registry.active_clubs(db)
    assert chessreports.code_is_valid(player.code)
    code, name, club_codes = chessreports.player_detail(urls, player.code)
    assert (code, name) == (player.code, player.name)
    assert club_codes[0] in clubs
    club_code, club_name, _assoc = chessreports.club_detail(urls, club_codes[0])
    assert (club_code, club_name) == (club_codes[0], active[club_codes[0]][0])


# -- ecf_ratings ----------------------------------------------------------------------------


def test_ecf_ratings_shows_the_first_match_with_his_rapid_rating(site: Site) -> None:
    with site.database() as db:
        player = registry.the_player(db)
    answer = ecf_ratings.ratings(f"{site.url}/v2/new/api.php", [player.name, "Zzyzx, Nobody"])
    assert answer["results"] == [
        {"name": player.name, "rating": player.rapid},
        {"name": "Zzyzx, Nobody", "rating": 0},
    ]


# -- ToMaChess ------------------------------------------------------------------------------


@pytest.mark.parametrize(("sub_id", "rate"), [(0, "standard"), (1, "rapid")])
def test_tomachess_loads_every_player_with_his_original_rating(
    site: Site, tmp_path: Path, sub_id: int, rate: str
) -> None:
    players = tomachess.get_ecf_list(site.url, tmp_path, sub_id)
    with site.database() as db:
        expected = registry.listed(db)
    by_id = {player["id"][0]: player for player in players}
    assert len(by_id) == len(players) == len(expected)
    for code, listed in expected.items():
        got = by_id[int(code[:-1])]
        original = listed.standard_original if rate == "standard" else listed.rapid_original
        assert (got["name"], got["rating"]) == (listed.name, original), code


def test_tomachess_file_has_no_blank_line_and_no_byte_order_mark(site: Site) -> None:
    with urllib.request.urlopen(f"{site.url}/v2/new/api.php?v2/rating_list_csv") as answer:
        body = answer.read()
    assert not body.startswith(b"\xef\xbb\xbf")
    lines = body.decode("utf-8").splitlines()
    assert lines and all(line.strip() for line in lines)


# -- Sharly Chess ---------------------------------------------------------------------------


def test_sharly_imports_the_list_with_categories_it_accepts(site: Site) -> None:
    database = sharly.EcfDatabase(site.url)
    assert database.update() is True  # no "ValueError: Unknown category value"
    with site.database() as db:
        expected = registry.listed(db)
    assert set(database.players) == set(expected)
    for code, listed in expected.items():
        got = database.players[code]
        assert (got["last_name"], got["first_name"]) == (listed.surname, listed.forenames)
        assert (got["standard_rating"], got["rapid_rating"]) == (listed.standard, listed.rapid)


def test_sharly_scheduled_run_gets_304_then_the_same_last_modified(site: Site) -> None:
    database = sharly.EcfDatabase(site.url)
    database.update()
    first = database.last_modified
    assert first
    assert database.update() is False  # If-Modified-Since: nothing newer, 304
    assert database.last_modified == first


def test_sharly_reads_every_category_column_as_a_k_p_or_empty(site: Site) -> None:
    with urllib.request.urlopen(f"{site.url}/api/rating-list/csv") as answer:
        rows = list(csv.DictReader(io.StringIO(answer.read().decode("utf-8"))))
    seen = {row[c] for row in rows for c in row if c.endswith("_category")}
    assert seen <= {"A", "K", "P", ""}, seen
    assert seen & {"A", "K", "P"}, "some rating has a category"


# -- ChessDojo ------------------------------------------------------------------------------


@pytest.mark.parametrize("typed", ["with letter", "digits only"])
def test_chessdojo_stores_the_current_standard_rating(site: Site, typed: str) -> None:
    with site.database() as db:
        player = registry.the_player(db)
    code = player.code if typed == "with letter" else player.code[:6]
    assert chessdojo.fetch_ecf_rating(site.url, code) == player.standard


def test_chessdojo_decodes_as_go_would() -> None:
    """The replica's decoder refuses what Go's encoding/json refuses (so the test above
    can fail on a string or float rating)."""
    decode = chessdojo._decode_revised_rating
    assert decode(b'{"revised_rating": 1850, "x": "y"}') == 1850
    assert decode(b'{"revised_rating": null}') == decode(b"{}") == 0
    for body in (b'{"revised_rating": "1850"}', b'{"revised_rating": 1850.0}'):
        with pytest.raises(chessdojo.FetchError):
            decode(body)
