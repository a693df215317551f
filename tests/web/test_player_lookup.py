"""/players/?q=...&inactive=1&page=N, the player lookup (issue 9, page 2), on the demo.

Expected players come from plain queries of the registry's rows in each test (surnames,
published entries of the latest published versions), never from the lookup's service.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from xml.etree.ElementTree import Element

import html5lib
import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from ecfgrading.demo.summary import DemoSummary
from ecfgrading.engine import GradingCode
from ecfgrading.registry.models import ListEntry, ListVersion, Player, PlayerAlias
from ecfgrading.registry.numbering import issue_codes
from tests.web.captured import page_statements

pytestmark = pytest.mark.django_db

SITE = "ECF Grading Database"
ENTRY_FIELDS = ("grade", "category", "junior_age", "games_latest", "games_counted", "published")


# Expectations by plain queries ---------------------------------------------------------------


def plain_letters(text: str) -> str:
    """'Smíth' -> 'smith' (accents stripped by Unicode decomposition)."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).lower()


def current_versions() -> dict[str, ListVersion]:
    """Each rate's latest published version of its latest list with one."""
    found = {}
    for rate in ("standard", "rapid"):
        published = ListVersion.objects.filter(status="published", grading_list__rate=rate)
        latest = published.order_by("-grading_list__list_id").first()
        assert latest is not None
        found[rate] = published.filter(grading_list=latest.grading_list).latest("published_at")
    return found


def graded_codes(version_ids: list[int] | None) -> set[str]:
    """Codes of players with a published entry in these versions (None: any published)."""
    entries = ListEntry.objects.filter(published=True, version__status="published")
    if version_ids is not None:
        entries = entries.filter(version_id__in=version_ids)
    players = Player.objects.filter(id__in=entries.values("player_id"), merged_into=None)
    return {str(GradingCode(code)) for code in players.values_list("code", flat=True)}


def codes_with_surname(start: str) -> set[str]:
    return {
        str(GradingCode(code))
        for code, surname in Player.objects.values_list("code", "surname")
        if plain_letters(surname).startswith(start)
    }


# Reading pages -------------------------------------------------------------------------------


def parse(html: str) -> Element:
    """The page, parsed strictly: invalid HTML fails the test."""
    parser = html5lib.HTMLParser(strict=True, namespaceHTMLElements=False)
    return parser.parse(html)


def text(element: Element) -> str:
    return " ".join("".join(element.itertext()).split())


def rows(html: str) -> list[Element]:
    """The result cards: each an item of the list of players found."""
    found = parse(html).find(".//ol[@class='players']")
    return [] if found is None else list(found)


def card_link(row: Element) -> Element:
    """The one link that is the whole card."""
    (link,) = row.findall("a")
    return link


def code_of(row: Element) -> str:
    href = card_link(row).get("href") or ""
    assert re.fullmatch(r"/players/\d{6}[A-Z]/", href), href
    return href.split("/")[2]


def row_codes(html: str) -> list[str]:
    return [code_of(row) for row in rows(html)]


def cell(row: Element, css_class: str) -> str:
    """The text of a card's part (``grade standard``, ``name``...)."""
    found = row.find(f".//span[@class='{css_class}']")
    assert found is not None, css_class
    return text(found)


def get(client: Any, query: str, **headers: str) -> Any:
    return client.get(f"/players/?{query}", **headers)


def page(client: Any, query: str) -> str:
    response = get(client, query)
    assert response.status_code == 200, response.content[:500]
    return response.content.decode()


# The demo ------------------------------------------------------------------------------------


def test_a_blank_lookup_shows_the_form_and_how_to_use_it(client, demo: DemoSummary) -> None:
    html = page(client, "")
    doc = parse(html)
    assert text(doc.find(".//title")) == f"Player lookup - {SITE}"  # type: ignore[arg-type]
    assert doc.find(".//form[@role='search']//input[@name='q']") is not None
    assert doc.find(".//input[@name='inactive'][@type='checkbox']") is not None
    assert "in either order" in text(doc) and "check letter" in text(doc)
    assert doc.find(".//ol[@class='players']") is None


def test_a_prefix_lists_the_active_players_whose_surname_starts_with_it(
    client, demo: DemoSummary
) -> None:
    active = graded_codes([v.id for v in current_versions().values()])
    expected = codes_with_surname("s") & active
    assert 0 < len(expected) <= 50  # one page

    html = page(client, "q=s")

    assert set(row_codes(html)) == expected
    assert len(row_codes(html)) == len(expected)
    title = text(parse(html).find(".//title"))  # type: ignore[arg-type]
    assert title == f"Players matching 's' - {SITE}"
    count = text(parse(html).find(".//p[@class='found-count']"))  # type: ignore[arg-type]
    assert f"1–{len(expected)} of {len(expected)}" in count


def test_rows_come_in_surname_order(client, demo: DemoSummary) -> None:
    names = [cell(row, "name") for row in rows(page(client, "q=s&inactive=1"))]
    surnames = [plain_letters(name.partition(",")[0]) for name in names]
    assert surnames == sorted(surnames)


def test_including_inactive_players_lists_everyone_ever_graded(client, demo: DemoSummary) -> None:
    expected = codes_with_surname("s") & graded_codes(None)
    active = codes_with_surname("s") & graded_codes([v.id for v in current_versions().values()])
    assert expected > active  # the demo has players no longer on a current list

    html = page(client, "q=s&inactive=1")

    assert set(row_codes(html)) == expected
    assert parse(html).find(".//input[@name='inactive'][@checked]") is not None


def test_a_row_shows_the_current_grades_with_categories(client, demo: DemoSummary) -> None:
    versions = current_versions()
    entry = (
        ListEntry.objects.filter(version=versions["standard"], published=True)
        .select_related("player")
        .order_by("player__code")
        .first()
    )
    assert entry is not None
    code = entry.player.ref

    html = page(client, f"q={entry.player.surname}, {entry.player.forenames}")

    (row,) = [r for r in rows(html) if code_of(r) == code]
    standard = cell(row, "grade standard")
    assert standard.startswith(f"Standard {entry.grade} {entry.category}")
    assert card_link(row).get("href") == f"/players/{code}/"


def with_an_accent(name: str) -> str:
    """'Baxstead' -> 'Báxstead': the first vowel accented."""
    accented = dict(zip("aeiouAEIOU", "áéíóúÁÉÍÓÚ", strict=True))
    at = next(i for i, c in enumerate(name) if c in accented)
    return name[:at] + accented[name[at]] + name[at + 1 :]


def test_case_and_accents_do_not_matter(client, demo: DemoSummary) -> None:
    graded = graded_codes(None)
    surname = min(Player.objects.filter(merged_into=None).values_list("surname", flat=True))
    expected = codes_with_surname(plain_letters(surname)) & graded
    assert expected
    for typed in (
        surname,
        surname.upper(),
        with_an_accent(surname),
        with_an_accent(surname).upper(),
    ):
        assert set(row_codes(page(client, f"q={typed}&inactive=1"))) == expected, typed


# Codes ---------------------------------------------------------------------------------------


def some_player() -> Player:
    player = Player.objects.filter(merged_into=None).order_by("code").first()
    assert player is not None
    return player


def test_a_code_goes_straight_to_the_player(client, demo: DemoSummary) -> None:
    player = some_player()
    full = player.ref
    for query in (full, full.lower(), f"{player.code:06d}"):
        response = get(client, f"q={query}")
        assert response.status_code == 302, query
        assert response["Location"] == f"/players/{full}/"


def test_a_wrong_check_letter_is_not_that_player(client, demo: DemoSummary) -> None:
    player = some_player()
    wrong = next(c for c in "ABCDEFGHJKL" if c != player.ref[-1])

    html = page(client, f"q={player.code:06d}{wrong}")

    assert "check letter is wrong" in html
    assert f"take {player.ref[-1]}" in html
    assert row_codes(html) == []


def test_a_merged_code_goes_to_the_surviving_player(client, demo: DemoSummary) -> None:
    survivor = some_player()
    code, alias = issue_codes(2)
    Player.objects.create(code=code.number, surname="Dup", forenames="X", merged_into=survivor)
    PlayerAlias.objects.create(code=alias.number, player=survivor)
    for query in (str(code), f"{code.number:06d}", str(alias)):
        response = get(client, f"q={query}")
        assert response.status_code == 302
        assert response["Location"] == f"/players/{survivor.ref}/"


# G27, pages, and an accented name: a revision of the current standard list -----------------


@pytest.fixture
def revision(demo: DemoSummary) -> Iterator[dict[str, Any]]:
    """``rev1`` of the current standard list: August's entries with one grade changed,
    plus 60 players named Zyxwell and a Müller, on the list only since August."""
    august = current_versions()["standard"]
    assert august.name == "august"
    rev1 = ListVersion.objects.create(grading_list=august.grading_list, name="rev1")
    entries = list(
        ListEntry.objects.filter(version=august, published=True)
        .select_related("player")
        .order_by("player__code")
    )
    changed, unchanged = entries[0], entries[-1]
    assert changed.player.surname != unchanged.player.surname
    copies = [
        ListEntry(
            version=rev1,
            player_id=e.player_id,
            **{f: getattr(e, f) for f in ENTRY_FIELDS if f != "grade"},
            grade=e.grade + 5 if e is changed else e.grade,
        )
        for e in entries
    ]
    codes = iter(issue_codes(61))
    new = [
        Player.objects.create(code=next(codes).number, surname="Zyxwell", forenames=f"P{n:02d}")
        for n in range(1, 61)
    ]
    muller = Player.objects.create(code=next(codes).number, surname="Müller", forenames="Hans")
    copies += [
        ListEntry(version=rev1, player=p, grade=100, category="E", published=True)
        for p in [*new, muller]
    ]
    ListEntry.objects.bulk_create(copies)
    rev1.status, rev1.published_at = "published", timezone.now()
    rev1.save()
    yield {"changed": changed, "unchanged": unchanged, "zyxwells": new, "muller": muller}


def test_g27_a_revised_row_is_highlighted_and_says_so(client, revision) -> None:
    changed: ListEntry = revision["changed"]
    player = changed.player

    html = page(client, f"q={player.surname}")

    revised = [r for r in rows(html) if r.get("class") == "player revised"]
    assert [code_of(r) for r in revised] == [player.ref]
    standard = cell(revised[0], "grade standard")
    assert standard.startswith(f"Standard {changed.grade + 5} {changed.category}")
    assert f"revised since August (August {changed.grade})" in standard
    legend = parse(html).find(".//p[@class='legend']")
    assert legend is not None and "revised since August" in text(legend)


def test_g27_no_legend_without_a_revised_row(client, revision) -> None:
    unchanged: ListEntry = revision["unchanged"]
    html = page(client, f"q={unchanged.player.surname}")
    assert unchanged.player.ref in row_codes(html)
    assert 'class="legend"' not in html and 'class="player revised"' not in html


def test_g27_a_player_on_the_list_only_since_august_is_marked_too(client, revision) -> None:
    (row,) = rows(page(client, "q=muller"))
    assert row.get("class") == "player revised"
    assert "revised since August (not on the August list)" in text(row)


def test_a_name_stored_with_an_accent_is_found_without_it(client, revision) -> None:
    assert row_codes(page(client, "q=muller")) == [revision["muller"].ref]
    assert row_codes(page(client, "q=M%C3%9CLLER%2C+h")) == [revision["muller"].ref]


def test_a_long_result_is_paginated_fifty_to_a_page(client, revision) -> None:
    zyxwells = [p.ref for p in revision["zyxwells"]]  # P01..P60: forename order

    first, second = page(client, "q=zyx"), page(client, "q=zyx&page=2")

    assert row_codes(first) == zyxwells[:50] and row_codes(second) == zyxwells[50:]
    assert "1–50 of 60" in first and "51–60 of 60" in second
    assert 'rel="next" href="?q=zyx&amp;page=2"' in first
    assert 'rel="prev" href="?q=zyx&amp;page=1"' in second


def test_the_query_count_does_not_grow_with_the_rows(client, revision) -> None:
    # A search finding few players reads the names on record once per data token (the
    # process keeps them): read them before counting.
    page(client, "q=zzzq")
    counts = []
    for query in ("q=zyx", "q=muller", "q=zyx&inactive=1", "q=muller&inactive=1"):
        cache.clear()
        with CaptureQueriesContext(connection) as queries:
            html = page(client, query)
        counts.append((len(row_codes(html)), len(page_statements(queries))))
    assert [rows for rows, _ in counts] == [50, 1, 50, 1]
    assert counts[0][1] == counts[1][1] == counts[2][1] == counts[3][1]


# Nothing found -------------------------------------------------------------------------------


def test_an_empty_search_says_so_and_suggests_what_to_try(client, demo: DemoSummary) -> None:
    html = page(client, "q=zzzq")
    notice = parse(html).find(".//div[@class='notice']")
    assert notice is not None
    assert "No active players match ‘zzzq’" in text(notice)
    hrefs = [a.get("href") for a in notice.iter("a")]
    assert "/players/?q=zzzq&inactive=1" in hrefs  # the inactive toggle
    assert "/players/?q=zzz" in hrefs  # a shorter prefix
    assert row_codes(html) == []


# The JSON twin -------------------------------------------------------------------------------


def test_the_json_twin_gives_the_same_players(client, revision) -> None:
    html_codes = row_codes(page(client, "q=zyx&page=2"))
    changed: ListEntry = revision["changed"]

    data = json.loads(get(client, "q=zyx&page=2&format=json").content)
    by_header = get(client, "q=zyx&page=2", HTTP_ACCEPT="application/json")

    assert json.loads(by_header.content) == data
    assert (data["query"], data["inactive"]) == ("zyx", False)
    assert data["page"] == {
        "page": 2,
        "per_page": 50,
        "total": 60,
        "pages": 2,
        "first": 51,
        "last": 60,
    }
    assert [p["code"] for p in data["players"]] == html_codes
    first = data["players"][0]
    assert set(first) >= {"code", "name", "clubs", "standard", "rapid", "junior_age"}
    assert first["standard"]["grade"] == 100 and first["standard"]["category"] == "E"
    assert {"august_grade", "revised", "list"} <= set(first["standard"])
    revised = json.loads(get(client, f"q={changed.player.ref}&format=json").content)
    assert revised["code"] == changed.player.ref
    (only,) = revised["players"]
    assert only["standard"]["revised"] is True
    assert only["standard"]["august_grade"] == changed.grade


def test_the_json_twin_is_the_apis_lookup_with_the_pages_row_numbers(
    client, demo: DemoSummary
) -> None:
    """Field for field /api/v1/players' answer to the same query (one name per fact: the
    current lists' ``list`` and ``version`` as everywhere in the API)."""
    for twin_query, api_query in (
        ("q=s&inactive=1&page=2", "q=s&inactive=true&page=2"),
        ("q=zzzzz", "q=zzzzz"),  # nothing found: the shorter query to try
    ):
        twin = json.loads(get(client, f"{twin_query}&format=json").content)
        api = json.loads(client.get(f"/api/v1/players?{api_query}").content)
        assert {k: v for k, v in twin.items() if k != "page"} == {
            k: v for k, v in api.items() if k != "page"
        }
        assert twin["page"] == {
            **api["page"],
            "first": twin["page"]["first"],
            "last": twin["page"]["last"],
        }
    assert {"list", "rate", "version", "rule_set", "published_at"} == set(twin["lists"][0])


def test_a_code_query_in_json_answers_with_its_player(client, demo: DemoSummary) -> None:
    player = some_player()
    response = get(client, f"q={player.code:06d}&format=json")
    assert response.status_code == 200
    data = json.loads(response.content)
    assert data["code"] == player.ref
    assert [p["code"] for p in data["players"]] == [player.ref]


# Privacy, validity, the page's rules ---------------------------------------------------------


def test_no_date_of_birth_on_the_page_or_its_twin(client, demo: DemoSummary) -> None:
    births = Player.objects.exclude(date_of_birth=None).values_list("date_of_birth", flat=True)
    for query in ("q=s&inactive=1", "q=s&inactive=1&format=json"):
        content = page(client, query)
        assert "birth" not in content.lower()
        for born in births:
            assert born.isoformat() not in content
            assert f"{born.day} {born:%B %Y}" not in content


def test_every_state_of_the_page_is_valid_html_without_inline_script_or_style(
    client, revision
) -> None:
    player = revision["changed"].player
    for query in ("", "q=zyx", f"q={player.surname}", "q=zzzq", "q=123456Z", "q=s&inactive=1"):
        html = page(client, query)
        parse(html)  # strict: raises on any parse error
        assert not re.search(r"<script(?![^>]*\bsrc=)", html), query
        assert " style=" not in html and "<style" not in html, query
        assert "web/suggest.js" in html and "web/lookup.css" in html


def test_the_suggestions_script_is_small_and_our_own() -> None:
    script = Path(__file__).parents[2] / "src/ecfgrading/web/static/web/suggest.js"
    source = script.read_text()
    assert len(source.encode()) < 8_000
    assert "innerHTML" not in source  # names go in as text, never as markup
    assert "aria-live" in source and "polite" in source


# Suggestions as you type, in a real browser on a served demo --------------------------------


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    from tests.web.live import build, serving

    home = tmp_path_factory.mktemp("lookup-served")
    build(home)
    with serving(home) as site:
        yield site


@pytest.mark.sqlite
@pytest.mark.parametrize("width", [390, 1280])
def test_suggestions_appear_as_you_type_and_work_by_keyboard(
    served: Any, width: int, tmp_path: Path
) -> None:
    from tests.web.browser import open_browser

    with served.database() as db:
        (surname,) = db.execute(
            "SELECT surname FROM registry_player WHERE merged_into_id IS NULL "
            "GROUP BY surname ORDER BY COUNT(*) DESC, surname LIMIT 1"
        ).fetchone()
    typed = surname[:3]
    _, body = served.get(f"/players/?q={typed}&format=json")
    answer = json.loads(body)
    expected = [f"/players/{p['code']}/" for p in answer["players"][:8]]
    assert expected  # the demo has active players with the commonest surname's letters

    with open_browser() as browser:
        tab = browser.page(width)
        problems: list[str] = []
        tab.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
        tab.goto(served.url + "/players/")
        tab.type("#player-q", typed, delay=40)
        tab.wait_for_selector("#player-q-suggestions li a")
        links = tab.eval_on_selector_all("#player-q-suggestions a", "a => a.map(x => x.pathname)")
        status = tab.text_content("[aria-live='polite']") or ""
        browser.screenshot(tab, tmp_path, f"suggestions-{width}")

        tab.keyboard.press("ArrowDown")
        focused = tab.evaluate("document.activeElement.pathname")
        tab.keyboard.press("Escape")
        hidden = tab.eval_on_selector("#player-q-suggestions", "ul => ul.hidden")
        back_in_box = tab.evaluate("document.activeElement.id")
        tab.context.close()

    assert links == expected
    assert status.startswith(f"{len(expected)} of {answer['page']['total']}")
    assert focused == expected[0]
    assert hidden and back_in_box == "player-q"
    assert problems == []
