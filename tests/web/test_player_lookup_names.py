"""Issue 23, items 1 and 2: names typed as people type them, newcomers, "did you mean".

Expected players come from plain queries of the registry's rows (names folded here by
Unicode decomposition, entries, games), never from the lookup's service.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import date
from typing import Any
from urllib.parse import parse_qs, urlsplit
from xml.etree.ElementTree import Element

import pytest
from django.db.models import Max, Q

from ecfgrading.demo.summary import DemoSummary
from ecfgrading.engine import GradingCode
from ecfgrading.registry.models import Game, ListEntry, Player
from tests.web.test_player_lookup import (
    card_link,
    code_of,
    current_versions,
    graded_codes,
    page,
    parse,
    plain_letters,
    rows,
    text,
)

pytestmark = pytest.mark.django_db


# Expectations by plain queries ---------------------------------------------------------------


@dataclass(frozen=True)
class Person:
    code: str
    surname: str
    forenames: str

    @property
    def first(self) -> str:
        return self.forenames.split()[0]


def person(player: Player) -> Person:
    return Person(str(GradingCode(player.code)), player.surname, player.forenames)


def active_people() -> list[Person]:
    """Unmerged players on a current list, with forenames, in code order."""
    active = graded_codes([v.id for v in current_versions().values()])
    players = Player.objects.filter(merged_into=None).exclude(forenames="").order_by("code")
    return [person(p) for p in players if str(GradingCode(p.code)) in active]


def key(text: str) -> str:
    """Letters only, lower case, accents stripped: how a name compares."""
    return re.sub(r"[^a-z0-9]", "", plain_letters(text))


def period_start(list_id: str) -> date:
    """The first day of a list's latest twelve months (G32): July 2015 -> 1 July 2014."""
    year, month = map(int, list_id.split("-"))
    return date(year - 1, month, 1)


def newcomers() -> dict[str, tuple[Person, date]]:
    """Players with graded games and never a published grade: code -> (name, last game)."""
    published = ListEntry.objects.filter(published=True, version__status="published")
    never = Player.objects.filter(merged_into=None).exclude(id__in=published.values("player_id"))
    found = {}
    for player in never:
        games = Game.objects.filter(Q(player1=player) | Q(player2=player), graded=True)
        last = games.aggregate(last=Max("game_date"))["last"]
        if last is not None:
            found[str(GradingCode(player.code))] = (person(player), last)
    return found


def since() -> date:
    return min(period_start(v.grading_list.list_id) for v in current_versions().values())


def found(client: Any, query: str, inactive: bool = False) -> list[Element]:
    flag = "&inactive=1" if inactive else ""
    return rows(page(client, f"q={query}{flag}"))


def json_of(client: Any, query: str) -> dict[str, Any]:
    response = client.get(f"/players/?q={query}&format=json")
    assert response.status_code == 200
    data: dict[str, Any] = json.loads(response.content)
    return data


# Newcomers (item 1) --------------------------------------------------------------------------


def test_a_newcomer_with_games_since_the_current_lists_is_found_and_marked(
    client, demo: DemoSummary
) -> None:
    recent = [who for who, last in newcomers().values() if last >= since()]
    assert recent  # the demo has a newcomer with games since the current lists' period
    for who in recent:
        typed = f"{who.surname}, {who.first[0]}"
        for inactive in (False, True):
            (card,) = [r for r in found(client, typed, inactive) if code_of(r) == who.code]
            assert "Not yet graded" in text(card), (typed, inactive)


def test_a_newcomer_shows_his_provisional_grade_for_the_next_list(
    client, demo: DemoSummary
) -> None:
    current = {v.grading_list.rate: v.grading_list.list_id for v in current_versions().values()}
    shown = 0
    for who, last in newcomers().values():
        if last < since():
            continue
        data = json_of(client, f"{who.surname}, {who.first}")
        (row,) = [p for p in data["players"] if p["code"] == who.code]
        assert row["not_yet_graded"] is True and row["standard"] is None
        card = next(
            r for r in found(client, f"{who.surname}, {who.first}") if code_of(r) == who.code
        )
        for grade in row["provisional"]:
            assert grade["list"] > current[grade["rate"]]  # a list after the current one
            assert f"provisional {grade['rate']} {grade['grade']}" in text(card).replace(":", "")
            shown += 1
    assert shown  # some newcomer of the demo has played enough for a provisional grade


def test_a_newcomer_of_earlier_seasons_is_found_with_inactive_players_only(
    client, demo: DemoSummary
) -> None:
    earlier = [who for who, last in newcomers().values() if last < since()]
    assert earlier
    for who in earlier:
        typed = f"{who.surname}, {who.first[0]}"
        assert who.code not in [code_of(r) for r in found(client, typed)]
        (card,) = [r for r in found(client, typed, True) if code_of(r) == who.code]
        assert "Not yet graded" in text(card)


# Names in any order, initials (item 2) -------------------------------------------------------


def fits(name: str, surname_word: str, forename_words: list[str]) -> bool:
    """Whether 'Surname, Forenames' starts its surname with ``surname_word`` and its
    forenames, word by word, with ``forename_words`` (a letter: an initial)."""
    surname, _, forenames = name.partition(",")
    given = [key(word) for word in forenames.split()]
    return (
        key(surname).startswith(key(surname_word))
        and len(given) >= len(forename_words)
        and all(
            word.startswith(key(typed)) for word, typed in zip(given, forename_words, strict=False)
        )
    )


@pytest.mark.parametrize(
    "shape",
    [
        "{first} {surname}",
        "{surname} {first}",
        "{surname}, {first}",
        "{surname} {i}",
        "{i} {surname}",
    ],
)
def test_a_name_is_found_in_any_order_with_or_without_a_comma(
    client, demo: DemoSummary, shape: str
) -> None:
    who = active_people()[0]
    typed = shape.format(first=who.first.lower(), surname=who.surname, i=who.first[0])
    forename = who.first[0] if "{i}" in shape else who.first

    cards = found(client, typed)

    assert who.code in [code_of(r) for r in cards], typed
    for card in cards:  # every player found fits one way of reading the words
        name = text(card.find(".//span[@class='name']"))  # type: ignore[arg-type]
        words = typed.replace(",", " ").split()
        assert any(
            fits(name, surname, [w for w in words if w != surname]) for surname in words
        ) or key(name.partition(",")[0]).startswith(key(typed)), (typed, name)
    expected = {
        p.code
        for p in active_people()
        if key(p.surname) == key(who.surname) and key(p.first).startswith(key(forename))
    }
    assert expected <= {code_of(r) for r in cards}


def test_initials_typed_after_the_surname_find_a_player_with_two_forenames(
    client, demo: DemoSummary
) -> None:
    who = next(p for p in active_people() if len(p.forenames.split()) >= 2)
    first, second = who.forenames.split()[:2]
    for typed in (
        f"{who.surname} {first[0]} {second[0]}",
        f"{who.surname}, {first[0]}{second[0]}",
        f"{first[0]} {second[0]} {who.surname}",
    ):
        assert who.code in [code_of(r) for r in found(client, typed)], typed


def test_case_and_accents_do_not_matter_without_a_comma_either(client, demo: DemoSummary) -> None:
    who = active_people()[0]
    accented = {"a": "á", "e": "é", "i": "í", "o": "ó", "u": "ú"}
    surname = "".join(accented.get(c, c) for c in who.surname.upper().lower())
    typed = f"{who.first.upper()} {surname}"
    assert who.code in [code_of(r) for r in found(client, typed)]


# "Did you mean" and the advice when nothing matched ------------------------------------------


def slip(word: str, surnames: set[str]) -> str:
    """The word with two neighbouring letters swapped, spelling no surname's start."""
    lower = word.lower()
    for at in range(1, len(lower) - 1):
        if lower[at] != lower[at + 1]:
            typo = lower[:at] + lower[at + 1] + lower[at] + lower[at + 2 :]
            if not any(s.startswith(key(typo)) for s in surnames):
                return typo
    raise AssertionError(f"no slip of {word} that spells no surname")


def common_surname() -> tuple[str, list[Person]]:
    """The surname most active players have, of five letters or more."""
    by_surname: dict[str, list[Person]] = {}
    for who in active_people():
        if len(key(who.surname)) >= 5:
            by_surname.setdefault(who.surname, []).append(who)
    surname = max(by_surname, key=lambda s: (len(by_surname[s]), s))
    return surname, by_surname[surname]


def all_surnames() -> set[str]:
    return {key(s) for s in Player.objects.values_list("surname", flat=True)}


def did_you_mean(html: str) -> tuple[str, str]:
    """The suggestion's text and the query its link looks up."""
    found_p = parse(html).find(".//p[@class='did-you-mean']")
    assert found_p is not None, "no 'Did you mean' on the page"
    link = found_p.find("a")
    assert link is not None
    (query,) = parse_qs(urlsplit(link.get("href") or "").query)["q"]
    return text(link), query


def test_a_slip_in_the_surname_is_answered_did_you_mean(client, demo: DemoSummary) -> None:
    surname, holders = common_surname()
    typo = slip(surname, all_surnames())

    html = page(client, f"q={typo}")

    assert "No active players match" in html
    shown, query = did_you_mean(html)
    assert shown == surname and query == surname
    assert {p.code for p in holders} <= {code_of(r) for r in found(client, query)}
    assert json_of(client, typo)["suggestion"] == surname


def test_a_slip_with_a_forename_suggests_the_whole_name(client, demo: DemoSummary) -> None:
    surname, holders = common_surname()
    who = holders[0]
    typo = slip(surname, all_surnames())

    shown, query = did_you_mean(page(client, f"q={who.first.lower()} {typo}"))

    assert shown == f"{surname}, {who.first}"
    assert who.code in [code_of(r) for r in found(client, query)]


def test_a_slip_in_the_forename_is_answered_too(client, demo: DemoSummary) -> None:
    who = next(p for p in active_people() if len(p.first) >= 5)
    typo = slip(who.first, set())  # any swap: forenames are not surnames

    shown, query = did_you_mean(page(client, f"q={who.surname}, {typo}"))

    assert shown.startswith(f"{who.surname}, {who.first}")
    assert who.code in [code_of(r) for r in found(client, query)]


def test_no_suggestion_when_the_name_typed_is_found(client, demo: DemoSummary) -> None:
    who = active_people()[0]
    assert 'class="did-you-mean"' not in page(client, f"q={who.surname}, {who.first}")


def test_the_advice_for_no_result_points_at_the_surname_typed(client, demo: DemoSummary) -> None:
    """'john smith' once gave 'try fewer letters: joh': the first letters of a forename."""
    surname, _ = common_surname()
    html = page(client, f"q=Qqqq {surname}")
    notice = parse(html).find(".//div[@class='notice']")
    assert notice is not None and "No active players match" in text(notice)
    tried = {
        parse_qs(urlsplit(a.get("href") or "").query).get("q", [""])[0] for a in notice.iter("a")
    }
    assert surname in tried
    assert not any(q.lower().startswith("qqq") for q in tried - {f"Qqqq {surname}"})


# The card is the link -------------------------------------------------------------------------


def test_the_whole_card_is_one_link_named_by_the_player(client, demo: DemoSummary) -> None:
    html = page(client, "q=s&inactive=1")
    cards = rows(html)
    assert cards
    doc = parse(html)
    by_id = {e.get("id"): e for e in doc.iter() if e.get("id")}
    for card in cards:
        link = card_link(card)
        assert text(link) == text(card)  # the link holds the whole card
        name = by_id[link.get("aria-labelledby")]
        assert re.fullmatch(r"[^,]+, .*|[^,]+", text(name))
        player = Player.objects.get(code=int(code_of(card)[:6]))
        expected = f"{player.surname}, {player.forenames}" if player.forenames else player.surname
        assert text(name) == expected
        assert code_of(card) in text(by_id[link.get("aria-describedby")])


def test_the_api_reads_names_as_the_page_does(client, demo: DemoSummary) -> None:
    who = active_people()[0]
    typed = f"{who.first} {who.surname}"
    api = json.loads(client.get("/api/v1/players", {"q": typed}).content)
    assert who.code in [p["code"] for p in api["players"]]
    assert [p["code"] for p in api["players"]] == [code_of(r) for r in found(client, typed)]
