"""The Node clients of the federation's rating API, unchanged but for the host, against the
served demo (issue 22): the Bristol league site's proxy (api/ecf.js) and The Chess
Centre's Lambdas, replicated in tests/clients/node/ and run by node as their programs run.
Each test asserts what the program would show or store, against plain registry queries of
the demo (tests/clients/registry.py), and that it logged no error.
"""

from __future__ import annotations

import json
import sqlite3
from collections import Counter
from typing import Any

import pytest

from tests.clients import programs, registry
from tests.web.live import Site

pytestmark = pytest.mark.sqlite

LIMIT = 150  # games the Chess Centre asks for, per rate
OPPONENTS = 3  # members besides the player, for the games Lambda


# -- the Bristol proxy ----------------------------------------------------------------------


def bristol_clubs(db: sqlite3.Connection) -> dict[str, dict[str, registry.Listed]]:
    """The demo's clubs with a member in the lists in force, standing in for Bristol's."""
    rosters = {code: registry.roster(db, code) for code in sorted(registry.active_clubs(db))}
    return {code: members for code, members in rosters.items() if members}


def bristol(site: Site, action: str) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    with site.database() as db:
        clubs = bristol_clubs(db)
    ran = programs.node(
        "bristol_proxy.mjs", site.url, f"action={action}", env={"BRISTOL_CLUBS": ",".join(clubs)}
    )
    assert ran.result["status"] == 200, ran.result
    return ran.result["body"], clubs


def test_bristol_players_loads_every_club_with_its_standard_ratings(site: Site) -> None:
    body, clubs = bristol(site, "bristol_players")
    assert {club["code"]: club["status"] for club in body["clubs"]} == dict.fromkeys(clubs, "ok")
    expected = {code: p.standard for members in clubs.values() for code, p in members.items()}
    assert {p["ecf_code"]: p["std"] for p in body["players"]} == expected
    names = {code: p.name for members in clubs.values() for code, p in members.items()}
    assert {p["ecf_code"]: p["full_name"] for p in body["players"]} == names


def test_bristol_improvement_finds_each_rated_players_rating_last_month(site: Site) -> None:
    """The demo's lists were published years ago, so last month's list is today's."""
    body, clubs = bristol(site, "bristol_improvement")
    assert body["errored"] == []
    rated = {
        code: p.standard
        for members in clubs.values()
        for code, p in members.items()
        if p.standard is not None
    }
    assert rated
    assert {p["ecf_code"]: p["std_previous"] for p in body["players"]} == rated
    assert all(p["delta"] == 0 for p in body["players"])


def test_bristol_juniors_match_the_national_u18_list_to_the_rosters(site: Site) -> None:
    body, clubs = bristol(site, "bristol_juniors")
    assert body["listed"] > 0, "the U18 list is empty"
    assert body["players"], "no junior of the list matched a roster's ECF_code"
    members = {code: p for roster in clubs.values() for code, p in roster.items()}
    for junior in body["players"]:
        assert junior["std"] == members[junior["ecf_code"]].standard, junior
        assert junior["full_name"] == members[junior["ecf_code"]].name, junior
    ranks = [junior["rank_england"] for junior in body["players"]]
    ratings = [junior["std"] or 0 for junior in body["players"]]
    assert ranks == sorted(ranks) and ratings == sorted(ratings, reverse=True)


def test_bristol_u18_debug_shows_the_fields_the_juniors_page_reads(site: Site) -> None:
    body, _clubs = bristol(site, "debug_u18")
    assert {"ECFcode", "full_name", "club", "current_rating", "prior_rating", "title"} <= set(
        body["keys"]
    )


def test_bristol_proxy_passes_a_rating_through(site: Site) -> None:
    with site.database() as db:
        player = registry.the_player(db)
    ran = programs.node(
        "bristol_proxy.mjs", site.url, f"endpoint=v2/ratings/S/{player.code}/2099-01-01"
    )
    assert ran.result["status"] == 200, ran.result
    assert ran.result["body"]["revised_rating"] == player.standard


# -- The Chess Centre -----------------------------------------------------------------------


def member(player: registry.Listed) -> dict[str, Any]:
    return {
        "id": f"member-{player.number}",
        "name": player.name,
        "ecfId": player.code,
        "ecfRating": player.standard,
        "ecfRapid": player.rapid,
    }


def members(db: sqlite3.Connection) -> list[registry.Listed]:
    """The player and his most frequent standard opponents, each with few enough graded
    games of each rate that the Lambda's limit of 150 leaves none out."""
    everyone = {p.id: p for p in registry.listed(db).values()}
    player = registry.the_player(db)
    played = Counter(opp for _day, opp, _event in registry.graded_games(db, player.id, "standard"))
    chosen = [player]
    for opponent, _count in sorted(played.items(), key=lambda item: (-item[1], item[0])):
        found = everyone.get(opponent)
        if found and all(
            len(registry.graded_games(db, opponent, r)) <= LIMIT for r in ("standard", "rapid")
        ):
            chosen.append(found)
        if len(chosen) > OPPONENTS:
            break
    assert all(len(registry.graded_games(db, player.id, r)) <= LIMIT for r in ("standard", "rapid"))
    return chosen


def chess_centre(
    site: Site, lambda_name: str, chosen: list[registry.Listed], *args: str, phrase: str = ""
) -> programs.Ran:
    env = {"MEMBERS": json.dumps([member(p) for p in chosen])}
    if phrase:
        env["PHRASE"] = phrase
    ran = programs.node("chess_centre.mjs", site.url, lambda_name, *args, env=env)
    errors = [line for line in ran.log if line.startswith(("Error", "error", "Hmm"))]
    assert not errors, errors
    return ran


def test_chess_centre_history_has_each_members_ratings_by_month(site: Site) -> None:
    with site.database() as db:
        chosen = members(db)
    ran = chess_centre(site, "ecfHistoricRating", chosen)
    for player in chosen:
        history = ran.result[member(player)["id"]]
        assert len(history) == 5 and all(month["date"] for month in history)
        assert {(m["standard"], m["rapid"]) for m in history} == {
            (player.standard or 0, player.rapid or 0)
        }, player.code


def test_chess_centre_updater_stores_each_members_ratings_and_club(site: Site) -> None:
    with site.database() as db:
        chosen = members(db)
        clubs = {p.code: registry.member_clubs(db, p) for p in chosen}
        names = {code: name for code, (name, _county) in registry.active_clubs(db).items()}
    ran = chess_centre(site, "ecfRatingUpdater", chosen)
    assert not [line for line in ran.log if "doesn't have any ratings" in line]
    for player in chosen:
        stored = ran.result[member(player)["id"]]
        assert (stored["ecfRating"], stored["ecfRapid"]) == (player.standard, player.rapid)
        assert stored["club"] in {names[code] for code in clubs[player.code]}


def test_chess_centre_player_answer_has_his_info_and_standard_rating(site: Site) -> None:
    with site.database() as db:
        player = registry.the_player(db)
    ran = chess_centre(site, "ecfPlayer", [player], player.code)
    body = json.loads(ran.result["body"])
    assert body["info"]["ECF_code"] == player.code
    assert body["rating"]["revised_rating"] == player.standard


def test_chess_centre_games_stages_the_games_between_members(site: Site) -> None:
    with site.database() as db:
        chosen = members(db)
        ids = {p.id for p in chosen}
        games = {
            (p.id, rate): registry.graded_games(db, p.id, rate)
            for p in chosen
            for rate in ("standard", "rapid")
        }
    among = {
        (day, event, rate)
        for (_pk, rate), played in games.items()
        for day, opponent, event in played
        if opponent in ids
    }
    # The phrase: the event the members met in most often (the Chess Centre's own name).
    phrase = Counter(event for _day, event, _rate in among).most_common(1)[0][0]
    ran = chess_centre(site, "ecfPlayerGames", chosen, phrase=phrase)
    staged = {(game["date"], game["eventName"], game["type"]) for game in ran.result}
    assert staged == {
        (day, shown(event, phrase), rate) for day, event, rate in among if phrase in event
    }


def shown(event: str, phrase: str) -> str:
    """The event's name as the Lambda stores it: the phrase (the centre's name) taken out
    once, with the space or " - " after it."""
    for taken in (f"{phrase} ", f"{phrase} - ", phrase):
        if taken in event:
            return event.replace(taken, "", 1)
    return event


def test_chess_centre_reads_json_even_for_a_code_no_one_has(site: Site) -> None:
    """Every answer is parsed as JSON whatever its status: an unknown code's answers must
    be JSON too, or the member's whole history is lost ("Error") and ecfPlayer fails."""
    with site.database() as db:
        taken = {number for (number,) in db.execute("SELECT code FROM registry_player")}
    unknown = next(n for n in range(999999, 0, -1) if n not in taken)
    nobody = registry.Listed(0, unknown, "Nobody", "Known", None, None, None, None)
    ran = chess_centre(site, "ecfHistoricRating", [nobody])
    assert {(m["standard"], m["rapid"]) for m in ran.result[member(nobody)["id"]]} == {(0, 0)}
    ran = chess_centre(site, "ecfPlayer", [nobody], nobody.code)
    body = json.loads(ran.result["body"])
    assert body["info"] and body["rating"]
