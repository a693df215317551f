"""The player page in the player's words (issue 23, "What was seen" 4, 6, 8 and 12):
"they/their" unless the record's sex says otherwise, verbs that agree, rule ids as
footnote links to the help page instead of words of the sentence, opponents' estimated
grades as whole numbers marked "estimated", the answer first with the details folded, and
a link to report a mistake with the code filled in.

Players are chosen from the tiny demo by plain queries on the registry; the expected
words are the issue's and English grammar's, the figures the registry's own.
"""

from __future__ import annotations

import re
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from types import SimpleNamespace
from typing import Any
from xml.etree.ElementTree import Element

import html5lib
import pytest
from django.db.models import Exists, OuterRef, Q
from django.template.loader import render_to_string
from django.test import Client

from ecfgrading.demo.schedule import world_today
from ecfgrading.demo.summary import DemoSummary
from ecfgrading.lookups import provisional
from ecfgrading.registry.models import Game, ListEntry, ListVersion, Player, StoredGamePoints
from ecfgrading.services.results.view import shared_view

pytestmark = pytest.mark.django_db

NS = "{http://www.w3.org/1999/xhtml}"
RULE_ID = re.compile(r"\bG\d{1,2}\b")  # G4, G12, G7-G9; not an event code such as G150015
MALE = re.compile(r"\b(he|him|his)\b", re.IGNORECASE)
FEMALE = re.compile(r"\b(she|her|hers)\b", re.IGNORECASE)


@pytest.fixture(autouse=True)
def _fresh_provisional() -> None:
    """As tests/web/test_player_page.py: no test reads another's provisional outcome."""
    provisional._LATEST = provisional._Latest()
    with shared_view() as view:
        view.drop()


def current_version(rate: str) -> ListVersion:
    """The current version of the latest list of a rate, by a plain query."""
    found = (
        ListVersion.objects.filter(status="published", grading_list__rate=rate)
        .order_by("-grading_list__list_id", "-published_at", "-id")
        .first()
    )
    assert found is not None
    return found


def graded_by_previous_grade(sex: str) -> Player:
    """A player of the record's ``sex`` published in the current standard version, whose
    starting grade there was his, her or their previous grade (G4): the breakdown says
    whose grade it was."""
    entry = (
        ListEntry.objects.filter(
            version=current_version("standard"),
            published=True,
            start_source="previous",
            player__sex=sex,
        )
        .select_related("player")
        .order_by("player__code")
        .first()
    )
    assert entry is not None, f"the demo has no graded player of sex {sex!r}"
    return entry.player


def newcomer() -> Player:
    """A player never published in a list, with graded games since the last list."""
    last = current_version("standard").grading_list.list_id
    year, month = (int(part) for part in last.split("-"))
    since = date(year, month, 1)
    games = Game.objects.filter(Q(player1=OuterRef("pk")) | Q(player2=OuterRef("pk")))
    found = (
        Player.objects.filter(merged_into=None)
        .exclude(Exists(ListEntry.objects.filter(player=OuterRef("pk"), published=True)))
        .filter(Exists(games.filter(graded=True, game_date__gte=since)))
        .order_by("code")
        .first()
    )
    assert found is not None, "the demo has no newcomer"
    return found


def html(client: Client, player: Player) -> str:
    response = client.get(f"/players/{player.ref}/")
    assert response.status_code == 200
    return response.content.decode()


def main_of(page: str) -> Element:
    found = html5lib.parse(page).find(f".//{NS}main")
    assert found is not None
    return found


def words(page: str) -> str:
    """The text a reader reads in <main>, without the rule footnotes."""
    main = main_of(page)
    for parent in list(main.iter()):
        for child in list(parent):
            if child.tag == f"{NS}sup" and "rule-ref" in child.get("class", ""):
                drop(parent, child)
    return re.sub(r"\s+", " ", " ".join(main.itertext()))


def drop(parent: Element, child: Element) -> None:
    """Remove ``child``, keeping the text after it."""
    at = list(parent).index(child)
    if at == 0:
        parent.text = (parent.text or "") + (child.tail or "")
    else:
        before = parent[at - 1]
        before.tail = (before.tail or "") + (child.tail or "")
    parent.remove(child)


def by_class(root: Element, tag: str, name: str) -> list[Element]:
    return [e for e in root.iter(f"{NS}{tag}") if name in e.get("class", "").split()]


# --- he, she, they (item 6) ------------------------------------------------------------


def test_a_womans_page_says_her_and_never_he_or_his(client: Client, demo: DemoSummary) -> None:
    text = words(html(client, graded_by_previous_grade("F")))
    assert "her grade in the" in text  # G4: "her grade in the July 2015 standard list"
    assert not MALE.search(text), MALE.search(text)


def test_a_mans_page_says_his_and_never_she_or_her(client: Client, demo: DemoSummary) -> None:
    text = words(html(client, graded_by_previous_grade("M")))
    assert "his grade in the" in text
    assert not FEMALE.search(text), FEMALE.search(text)


def test_a_page_with_no_sex_on_record_says_their(client: Client, demo: DemoSummary) -> None:
    text = words(html(client, graded_by_previous_grade("")))
    assert "their grade in the" in text
    assert not MALE.search(text), MALE.search(text)
    assert not FEMALE.search(text), FEMALE.search(text)


@pytest.mark.parametrize(
    ("more", "sex", "expected"),
    [
        (1, "", "1 more game by 31 December 2015 puts them on the January 2016 list"),
        (4, "", "4 more games by 31 December 2015 put them on the January 2016 list"),
        (1, "F", "1 more game by 31 December 2015 puts her on the January 2016 list"),
        (2, "M", "2 more games by 31 December 2015 put him on the January 2016 list"),
    ],
)
def test_the_games_still_needed_agree_with_their_number(more: int, sex: str, expected: str) -> None:
    n = SimpleNamespace(
        on_course="",
        to_stay=SimpleNamespace(more=more, category="F"),
        end=date(2015, 12, 31),
        label="January 2016",
    )
    from ecfgrading.web.templatetags.grading import pronouns

    said = render_to_string("web/players/_needed.html", {"n": n, "p": pronouns(sex)})
    assert expected in re.sub(r"<[^>]+>", "", said)


# --- rule ids out of the sentences (item 8) ------------------------------------------


def busy_player() -> Player:
    """The player in the current standard list with the most games counted."""
    entry = (
        ListEntry.objects.filter(version=current_version("standard"), published=True)
        .select_related("player")
        .order_by("-games_counted", "player__code")
        .first()
    )
    assert entry is not None
    return entry.player


def test_no_rule_id_is_left_in_the_sentences_and_each_links_to_the_help(
    client: Client, demo: DemoSummary
) -> None:
    help_page = client.get("/help/").content.decode()
    help_ids = set(re.findall(r'\bid="([^"]+)"', help_page))
    players = [busy_player(), newcomer(), graded_by_previous_grade("F")]
    footnoted = 0
    for player in players:
        page = html(client, player)
        bare = RULE_ID.findall(words(page))
        assert not bare, f"{player.ref}: rule ids in the sentences: {bare}"
        for sup in by_class(main_of(page), "sup", "rule-ref"):
            link = sup.find(f"{NS}a")
            assert link is not None and RULE_ID.search("".join(link.itertext()))
            path, _, anchor = link.get("href", "").partition("#")
            assert path == "/help/" and anchor in help_ids, link.get("href")
            footnoted += 1
    assert footnoted > 10  # the rules are still cited, for the curious


def estimated_opponent_game() -> tuple[Player, Player, float]:
    """(player, opponent, the opponent's starting grade) for a game of a player published
    in the current standard version whose opponent's starting grade there was estimated
    (G7), and not a whole number (which would tell nothing about the rounding)."""
    version = current_version("standard")
    published = ListEntry.objects.filter(version=version, published=True)
    estimated = (
        ListEntry.objects.filter(version=version, start_source="estimated")
        .exclude(start_grade=None)
        .order_by("player__code")
    )
    for entry in estimated:
        if entry.start_grade == int(entry.start_grade):
            continue
        theirs = Q(game__player1_id=entry.player_id) | Q(game__player2_id=entry.player_id)
        stored = (
            StoredGamePoints.objects.filter(theirs, version=version, period=0)
            .exclude(player_id=entry.player_id)
            .filter(player_id__in=published.values("player_id"))
            .select_related("player")
            .first()
        )
        if stored is not None:
            return stored.player, entry.player, float(entry.start_grade)
    raise AssertionError("the demo has no game against an estimated opponent")


def standard_games_rows(page: str) -> list[list[str]]:
    """The cells of each game of the current standard list, under Games."""
    main = main_of(page)
    section = next(
        e for e in main.iter(f"{NS}section") if e.get("aria-labelledby") == "games-standard"
    )
    return [
        [re.sub(r"\s+", " ", "".join(td.itertext())).strip() for td in tr.findall(f"{NS}td")]
        for table in by_class(section, "table", "games-table")
        for tr in table.iter(f"{NS}tr")
        if tr.findall(f"{NS}td")
    ]


def test_an_opponents_estimated_grade_is_a_whole_number_marked_estimated(
    client: Client, demo: DemoSummary
) -> None:
    player, opponent, start = estimated_opponent_game()
    shown = Decimal(str(start)).quantize(Decimal(1), rounding=ROUND_HALF_UP)  # as G22 rounds
    page = html(client, player)
    rows = [cells for cells in standard_games_rows(page) if opponent.ref in cells[2]]
    assert rows, f"no game against {opponent.ref}"
    assert rows[0][5] == f"{shown} estimated", rows[0]
    # The exact figure stays in the markup; the counted-as and points columns keep the
    # two places their arithmetic needs (G12).
    assert f'<data value="{start:.2f}">{shown}</data>' in page


def test_an_opponents_published_grade_is_a_whole_number_not_marked_estimated(
    client: Client, demo: DemoSummary
) -> None:
    version = current_version("standard")
    player = busy_player()
    sources = dict(
        ListEntry.objects.filter(version=version).values_list("player__code", "start_source")
    )
    rows = standard_games_rows(html(client, player))
    assert rows
    for cells in rows:
        code = re.search(r"\b(\d{6})[A-Z]\b", cells[2])
        assert code is not None, cells
        estimated = sources.get(int(code.group(1))) == "estimated"
        assert re.fullmatch(r"\d+ estimated" if estimated else r"\d+", cells[5]), cells


# --- the answer first, details folded (items 4, 7) ------------------------------------


def test_a_newcomers_page_leads_with_the_provisional_grade_not_ungraded_twice(
    client: Client, demo: DemoSummary, settings: Any
) -> None:
    settings.SITE_TODAY = world_today()  # before the next list's games are all played
    player = newcomer()
    main = main_of(html(client, player))
    cards = by_class(main, "article", "grade-card")
    first = "".join(cards[0].itertext())
    assert "Provisional grade" in first and "not a published grade" in first
    them = {"M": "him", "F": "her"}.get(player.sex, "them")
    needed = rf"\d+ more games? by \d+ \w+ \d{{4}} puts? {them} on the \w+ \d{{4}} list"
    assert re.search(needed, words(html(client, player)))
    big = [re.sub(r"\s+", " ", "".join(e.itertext())) for e in by_class(main, "span", "big")]
    assert not any("ungraded" in text for text in big)
    # Not in a list, then "From the" same list: a card without a grade names no source.
    assert "Not in the" in first and "From the" not in first


def test_history_games_how_and_next_are_folded_below_the_grades(
    client: Client, demo: DemoSummary
) -> None:
    main = main_of(html(client, busy_player()))
    folds = by_class(main, "details", "fold")
    assert [fold.get("open") for fold in folds] == [None] * 4  # folded until asked
    for wanted, fold in zip(("history", "games", "how", "next"), folds, strict=True):
        assert wanted in {e.get("id") for e in fold.iter()}, wanted
    # Both grade cards come before the first fold.
    everything = list(main.iter())
    cards = by_class(main, "article", "grade-card")
    assert len(cards) == 2
    assert max(map(everything.index, cards)) < everything.index(folds[0])


def test_rapid_games_of_the_current_list_are_listed_once(client: Client, demo: DemoSummary) -> None:
    """A next list whose period began before the current list's ended counts some of the
    same games again: they are listed under Games, not a second time under Next list."""
    player = busy_player()
    # The case is there: the next list's latest period, 2015 (G32, G37), began half a year
    # before the current list's, July 2014 to June 2015, ended.
    stored = StoredGamePoints.objects.filter(
        version=current_version("standard"), player=player, period=0, date__gte=date(2015, 1, 1)
    )
    assert stored.exists()
    page = html(client, player)
    listed: dict[str, int] = {}
    for tr in main_of(page).iter(f"{NS}tr"):
        cells = ["".join(td.itertext()).strip() for td in tr.findall(f"{NS}td")]
        if len(cells) >= 5:
            key = "|".join(cells[:5])  # date, event, opponent, colour, result
            listed[key] = listed.get(key, 0) + 1
    twice = {key: n for key, n in listed.items() if n > 1}
    assert not twice, list(twice)[:3]


# --- report a mistake (item 12) ---------------------------------------------------------


def test_every_player_page_links_to_report_a_mistake_with_the_code_filled_in(
    client: Client, demo: DemoSummary
) -> None:
    for player in (busy_player(), newcomer()):
        main = main_of(html(client, player))
        links = [a for a in main.iter(f"{NS}a") if "Report a mistake" in "".join(a.itertext())]
        assert [a.get("href") for a in links] == [f"/feedback/?code={player.ref}"]
        form = client.get(links[0].get("href", "")).content.decode()
        assert re.search(rf'name="code"[^>]*value="{player.ref}"|value="{player.ref}"', form)
