"""The PHP clients of the federation's rating API, unchanged but for the host, against the
served demo (issue 22): the WordPress plugin chess-army-knife (REST ``/api/...``) and
Chess League Manager's English imports (v2), replicated in tests/clients/php/ and run by
php as their programs run, with every notice and warning shown. Each test asserts what the
program would show or store, against plain registry queries of the demo
(tests/clients/registry.py).
"""

from __future__ import annotations

import sqlite3
from typing import Any

import pytest

from tests.clients import programs, registry
from tests.web.live import Site

pytestmark = pytest.mark.sqlite

SCORES = {"1", "5", "0"}  # win, draw, loss: the labels the plugin shows (others are skipped)


def knife(site: Site, *args: str) -> Any:
    ran = programs.php("chess_army_knife.php", site.url, *args)
    assert not ran.stderr, ran.stderr
    return ran.result


def clm(site: Site, *args: str) -> Any:
    ran = programs.php("clm.php", site.url, *args)
    assert not ran.stderr, ran.stderr  # a missing column is a PHP warning
    return ran.result


def club_of(db: sqlite3.Connection, player: registry.Listed) -> str:
    return registry.member_clubs(db, player)[0]


# -- chess-army-knife -----------------------------------------------------------------------


def test_knife_club_results_show_every_game_fetched(site: Site) -> None:
    """data.column_names + data.players give the roster, data.games each player's games;
    a game whose score is not 1, 5 or 0 (a draw sent as 0.5) would be dropped."""
    with site.database() as db:
        player = registry.the_player(db)
        club = club_of(db, player)
        members = registry.roster(db, club)
    shown = knife(site, "club-results", club, "S")
    assert "notice" not in shown and "empty" not in shown, shown
    assert {p["code"]: p["rating"] for p in shown["players"]}.items() <= {
        code: p.standard or 0 for code, p in members.items()
    }.items()
    assert shown["fetched"] > 0
    assert shown["kept"] == shown["fetched"]
    assert len(shown["results"]) == min(20, shown["kept"])


def test_knife_featured_player_shows_his_name_rating_and_club(site: Site) -> None:
    with site.database() as db:
        player = registry.the_player(db)
        clubs = registry.member_clubs(db, player)
        names = {code: name for code, (name, _county) in registry.active_clubs(db).items()}
    shown = knife(site, "featured-player", player.code, "S")
    assert shown["name"] == f"{player.forenames} {player.surname}"
    assert shown["rating"] == str(player.standard)
    assert shown["club"] in {names[code] for code in clubs}


@pytest.mark.parametrize("rate", ["S", "R"])
def test_knife_games_are_read_from_data_games(site: Site, rate: str) -> None:
    with site.database() as db:
        player = registry.the_player(db)
        played = registry.graded_games(db, player.id, {"S": "standard", "R": "rapid"}[rate])
    shown = knife(site, "games", player.code, rate, "9999")  # the plugin asks for 500 at most
    assert shown["count"] == min(500, len(played))
    assert set(shown["scores"]) <= SCORES, set(shown["scores"])
    assert shown["points"], "no game carries the player's rating"


@pytest.mark.parametrize("rate", ["S", "R", "B"])
def test_knife_club_ratings_come_from_the_std_rpd_btz_columns(site: Site, rate: str) -> None:
    with site.database() as db:
        club = club_of(db, registry.the_player(db))
        members = registry.roster(db, club)
    shown = knife(site, "club-ratings", club, rate, *members)
    expected = {
        "S": {code[:6]: p.standard for code, p in members.items()},
        "R": {code[:6]: p.rapid for code, p in members.items()},
        "B": {code[:6]: None for code in members},  # no blitz list is kept
    }[rate]
    assert shown == expected


def test_knife_suggests_the_player_from_data_players(site: Site) -> None:
    with site.database() as db:
        player = registry.the_player(db)
    shown = knife(site, "suggest", player.surname)
    assert {"code": player.code, "name": player.name} in [
        {"code": s["code"], "name": s["name"]} for s in shown
    ]


def test_knife_verifies_a_known_code_and_finds_an_unknown_one_not_found(site: Site) -> None:
    with site.database() as db:
        player = registry.the_player(db)
        taken = {number for (number,) in db.execute("SELECT code FROM registry_player")}
    assert knife(site, "verify", player.code) == {"verdict": "valid"}
    unknown = next(n for n in range(999999, 0, -1) if n not in taken)
    shown = knife(site, "verify", registry.with_letter(unknown))
    assert shown["verdict"] == "unknown", shown  # a 4xx (not 408 or 429): no such player
    assert shown["message"]


# -- Chess League Manager -------------------------------------------------------------------


def test_clm_imports_the_clubs_of_a_countys_four_character_code(site: Site) -> None:
    with site.database() as db:
        counties = registry.county_codes(db)
        clubs = {pk: registry.clubs_of_county(db, pk) for pk in counties}
    county = max(clubs, key=lambda pk: (len(clubs[pk]), -pk))
    code = counties[county][0]
    assert len(code) == 4, code
    shown = clm(site, "clubs", code)
    assert shown["answer"] == [True, "m_dewisClubSuccess", len(clubs[county])]
    assert {row["ZPS"]: row["Vereinname"] for row in shown["rows"]} == clubs[county]


def test_clm_imports_a_clubs_players_from_the_rating_list(site: Site) -> None:
    with site.database() as db:
        player = registry.the_player(db)
        clubs = registry.member_clubs(db, player)
        rosters = {club: registry.roster(db, club) for club in clubs}
    imported = {club: clm(site, "players", club)["rows"] for club in clubs}
    assert player.code in {row["PKZ"] for rows in imported.values() for row in rows}
    for club, rows in imported.items():
        for row in rows:
            listed = rosters[club][row["PKZ"]]
            assert (row["Spielername"], row["DWZ"]) == (listed.name, listed.standard_original)
            assert row["ECF_code"] == row["PKZ"][:6]
