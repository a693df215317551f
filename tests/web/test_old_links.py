"""The 2009 grading site's addresses move for good (301) to the pages that answer them
(issue 22, "Old links live"): Scid's ``getref.php?ref=%ID%``, the old site's
``/new/player.php?PlayerCode=``, ``/new/glist.php`` (player, club and club-code forms),
``/new/menu.php`` and ``/new/help.php``."""

from __future__ import annotations

import html
from typing import Any
from urllib.parse import parse_qs, quote, urlsplit

import pytest
from django.test import Client

from ecfgrading.demo.summary import DemoSummary
from ecfgrading.registry.models import Club, ClubMembership, ListEntry, ListVersion, Player
from ecfgrading.services.merge import merge_players

pytestmark = pytest.mark.django_db

# ChessReports' check of a code (research notes): the weighted sum of the six digits,
# weights 2..7 from the last digit, modulo 11 picks the letter.
LETTERS = "ABCDEFGHJKL"


def check_letter(digits: str) -> str:
    return LETTERS[sum(int(digits[5 - i]) * (i + 2) for i in range(6)) % 11]


def published_player(index: int = 0) -> Player:
    """A player (not merged) published in the current version of the latest standard list,
    so that the lookup shows him without ``inactive``: by a plain query."""
    current = (
        ListVersion.objects.filter(status="published", grading_list__rate="standard")
        .order_by("-grading_list__list_id", "-published_at", "-id")
        .first()
    )
    ids = ListEntry.objects.filter(version=current, published=True).values("player_id")
    players = Player.objects.filter(id__in=ids, merged_into__isnull=True).order_by("code")
    return players[index]


def coded_club() -> Club:
    """A club with a code and members, not merged into another."""
    members = ClubMembership.objects.values("club_id")
    clubs = Club.objects.filter(id__in=members, merged_into__isnull=True).order_by("code")
    return clubs.exclude(code__isnull=True).exclude(code="")[0]


def page(response: Any) -> str:
    return response.content.decode()


def moved_to(client: Client, url: str) -> str:
    """The Location of the old address's answer, which must be a permanent redirect."""
    response = client.get(url)
    assert response.status_code == 301, (url, response.status_code)
    return str(response["Location"])


def query_of(location: str) -> dict[str, list[str]]:
    return parse_qs(urlsplit(location).query)


# --- players by code ---------------------------------------------------------------------


def test_scids_getref_link_moves_to_the_player_page(client: Client, demo: DemoSummary) -> None:
    player = published_player()
    assert check_letter(player.ref[:6]) == player.ref[6]  # the code is what Scid sends
    location = moved_to(client, f"/getref.php?ref={player.ref}")
    assert location == f"/players/{player.ref}/"
    response = client.get(location)
    assert response.status_code == 200
    assert f"({player.ref})" in page(response)
    assert html.escape(player.name) in page(response)


def test_getref_under_new_moves_too(client: Client, demo: DemoSummary) -> None:
    player = published_player(1)
    assert moved_to(client, f"/new/getref.php?ref={player.ref}") == f"/players/{player.ref}/"


@pytest.mark.parametrize("spelling", ["full", "lower", "digits"])
def test_the_old_player_page_moves_to_the_player_page_whatever_the_spelling(
    client: Client, demo: DemoSummary, spelling: str
) -> None:
    player = published_player(2)
    code = {"full": player.ref, "lower": player.ref.lower(), "digits": player.ref[:6]}[spelling]
    location = moved_to(client, f"/new/player.php?PlayerCode={code}")
    assert location == f"/players/{player.ref}/"  # straight to the full code, one hop
    final = client.get(location, follow=True)
    assert final.status_code == 200 and final.redirect_chain == []
    assert html.escape(player.name) in page(final)


def test_a_merged_code_goes_where_its_player_page_sends_it(
    client: Client, demo: DemoSummary
) -> None:
    kept, gone = published_player(3), published_player(4)
    merge_players(gone.ref, kept.ref)
    location = moved_to(client, f"/new/player.php?PlayerCode={gone.ref[:6]}")
    # For good to the merged code's own page; it sends on (302: a merge may be undone).
    assert location == f"/players/{gone.ref}/"
    final = client.get(location, follow=True)
    assert final.redirect_chain == [(f"/players/{kept.ref}/", 302)]
    assert final.status_code == 200
    assert f"({kept.ref})" in page(final)


def test_an_unknown_code_is_the_sites_404_page(client: Client, demo: DemoSummary) -> None:
    unused = next(n for n in range(999_999, 0, -1) if not Player.objects.filter(code=n).exists())
    digits = f"{unused:06d}"
    code = digits + check_letter(digits)
    for url in (f"/getref.php?ref={code}", f"/new/player.php?PlayerCode={code}"):
        response = client.get(url)
        assert response.status_code == 404, url
        assert f"no player on record has the grading code {code}" in page(response)
        assert 'id="player-q"' in page(response)  # the normal 404 page's lookup box


def test_a_code_that_is_no_code_is_a_404_not_an_error(client: Client, demo: DemoSummary) -> None:
    for ref in ("bloggs", "12345", quote("<script>")):
        assert client.get(f"/getref.php?ref={ref}").status_code == 404, ref


# --- glist.php: players and clubs by name, the players of a club ---------------------------


def test_glist_by_player_name_moves_to_the_player_lookup(client: Client, demo: DemoSummary) -> None:
    player = published_player(5)
    surname, forename = player.surname, player.forenames.split()[0]
    old = f"/new/glist.php?&player={quote(surname)},%20{quote(forename)}"
    location = moved_to(client, old)
    assert urlsplit(location).path == "/players/"
    assert query_of(location) == {"q": [f"{surname}, {forename}"]}
    response = client.get(location, follow=True)
    assert response.status_code == 200
    assert f"/players/{player.ref}/" in page(response)


def test_glist_by_surname_alone_moves_to_the_player_lookup(
    client: Client, demo: DemoSummary
) -> None:
    player = published_player(6)
    location = moved_to(client, f"/new/glist.php?&player={quote(player.surname)}")
    assert query_of(location) == {"q": [player.surname]}
    assert client.get(location).status_code == 200


def test_glist_by_club_name_moves_to_the_club_lookup(client: Client, demo: DemoSummary) -> None:
    club = coded_club()
    location = moved_to(client, f"/new/glist.php?&club={quote(club.name)}")
    assert urlsplit(location).path == "/clubs/"
    assert query_of(location) == {"q": [club.name]}
    response = client.get(location)
    assert response.status_code == 200
    assert f"/clubs/{club.code}/" in page(response)


@pytest.mark.parametrize("spelling", ["as-is", "lower"])
def test_glist_by_club_code_moves_to_the_club_page(
    client: Client, demo: DemoSummary, spelling: str
) -> None:
    club = coded_club()
    code = club.code if spelling == "as-is" else club.code.lower()
    location = moved_to(client, f"/new/glist.php?Code={code}")
    assert location == f"/clubs/{club.code}/"
    response = client.get(location)
    assert response.status_code == 200
    assert html.escape(club.name) in page(response)


def test_glist_with_an_unknown_club_code_is_a_404(client: Client, demo: DemoSummary) -> None:
    codes = set(Club.objects.exclude(code__isnull=True).values_list("code", flat=True))
    unused = next(c for c in ("ZZZZ", "ZZZY", "ZZZX") if c not in codes)
    assert client.get(f"/new/glist.php?Code={unused}").status_code == 404


# --- pages without parameters, and forms without a usable one ----------------------------


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("/new/menu.php", "/lists/"),
        ("/new/help.php", "/help/"),
        ("/getref.php", "/players/"),
        ("/getref.php?ref=", "/players/"),
        ("/new/player.php?PlayerCode=%20", "/players/"),
        ("/new/glist.php", "/players/"),
        ("/new/glist.php?&player=&club=", "/players/"),
    ],
)
def test_each_page_moves_to_the_page_that_answers_it(
    client: Client, demo: DemoSummary, old: str, new: str
) -> None:
    assert moved_to(client, old) == new
    assert client.get(new).status_code == 200


def test_the_redirect_carries_nothing_but_the_parameter_it_uses(
    client: Client, demo: DemoSummary
) -> None:
    player = published_player()
    extra = "&PHPSESSID=abc123&email=someone%40example.org&dob=2001-02-03"
    assert moved_to(client, f"/getref.php?ref={player.ref}{extra}") == f"/players/{player.ref}/"
    location = moved_to(client, f"/new/glist.php?&player={quote(player.surname)}{extra}")
    assert query_of(location) == {"q": [player.surname]}
    for text in ("abc123", "example.org", "2001", "PHPSESSID", "email", "dob"):
        assert text not in location


def test_an_old_address_answers_only_reads(client: Client, demo: DemoSummary) -> None:
    player = published_player()
    assert client.post(f"/getref.php?ref={player.ref}").status_code == 405
    assert client.head(f"/getref.php?ref={player.ref}").status_code == 301
