"""G31 on the site: every list page, file, /api/v1 answer and player page names the rule set
its version was computed under, and the help page compares the three side by side.

The site is the package's demo federation (``tests/web/conftest.py``), graded list after
list by the real pipeline, each list under the rule set of its date. What each page
should name is read from the versions' rows by plain queries; the help page's figures
from the rule sets themselves.
"""

from __future__ import annotations

import io
import json
import re
from typing import Any

import pytest
from django.test import Client
from openpyxl import load_workbook

from ecfgrading.demo.summary import DemoSummary
from ecfgrading.engine.eras import rules_for
from ecfgrading.engine.periods import ListId
from ecfgrading.engine.rules import ECF_2012, ECF_2015
from ecfgrading.lookups.exports import ABOUT_SHEET
from ecfgrading.registry.models import ListEntry, ListVersion, Player

pytestmark = pytest.mark.django_db

API = "/api/v1"
HEADER = (
    "Ref,Name,Sex,JrAge,Cat,Grade,Grade1,Games,RCat,RGrade,RGrade1,RGames,"
    "ClubNam1,ClubNam2,ClubNam3,ClubNam4,ClubNam5,ClubNam6,FIDECode,Nation"
)
WORDS = {
    "ecf-2009": "rules up to July 2011",
    "ecf-2012": "rules of January 2012 to July 2014",
    "ecf-2015": "rules from January 2015",
}


def recorded() -> dict[tuple[str, str, str], str]:
    """Each published version's rule set, by a plain query of its row."""
    rows = ListVersion.objects.filter(status="published").values_list(
        "grading_list__list_id", "grading_list__rate", "name", "rules_name"
    )
    return {(lid, rate, name): rules for lid, rate, name, rules in rows}


def current() -> dict[tuple[str, str], ListVersion]:
    """Each list's current version, by rate: its latest published one (G26)."""
    found: dict[tuple[str, str], ListVersion] = {}
    published = ListVersion.objects.filter(status="published").select_related("grading_list")
    for version in published.order_by("published_at", "id"):
        found[(version.grading_list.list_id, version.grading_list.rate)] = version
    return found


def one_of_each_rule_set() -> list[ListVersion]:
    """The latest current version computed under each rule set on record."""
    chosen: dict[str, ListVersion] = {}
    versions = current()
    for key in sorted(versions):
        chosen[versions[key].rules_name] = versions[key]
    return list(chosen.values())


def text(html: str) -> str:
    """A page's words, tags left out and spaces folded."""
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def said(name: str) -> str:
    """How a page names a rule set: linked to its column of the help page."""
    return f'computed under <a href="/help/#rules-{name}">{name}</a> ({WORDS[name]})'


def test_the_demo_grades_each_list_under_the_rule_set_of_its_date(demo: DemoSummary) -> None:
    found = recorded()
    assert len(set(found.values())) >= 2  # lists of more than one era (2009-07 on)
    for (list_id, _rate, _name), rules in found.items():
        assert rules == rules_for(ListId.parse(list_id)).name, list_id


# The lists page and the home page ---------------------------------------------------------------


def test_every_version_on_the_lists_page_says_which_rule_set_made_it(
    client: Client, demo: DemoSummary
) -> None:
    html = client.get("/lists/").content.decode()
    for (list_id, rate, name), rules in recorded().items():
        body = html[html.index(f'<tbody id="list-{list_id}">') :]
        body = body[: body.index("</tbody>")]
        row = next(r for r in body.split("<tr") if f"{rate}, {_title(name)}" in r)
        assert said(rules) in " ".join(row.split()), (list_id, rate, name)
    assert 'href="/help/#rule-sets"' in html
    assert "changed its method with the lists of January 2012 and January 2015" in text(html)


def _title(name: str) -> str:
    """As the page names a version in a sentence (the month keeps its capital)."""
    if name in ("initial", "august"):
        return "initial version" if name == "initial" else "August version"
    return f"revision {name.removeprefix('rev')}"


def test_the_lists_twin_and_the_api_name_each_versions_rule_set(
    client: Client, demo: DemoSummary
) -> None:
    for answer in (
        client.get("/lists/", {"format": "json"}).json(),
        client.get(f"{API}/lists").json(),
    ):
        shown = {
            (v["list"], v["rate"], v["version"]): v["rule_set"]
            for item in answer["lists"]
            for v in item["versions"]
        }
        assert shown == recorded()
        for each in answer["current"]:
            key = (each["list"], each["rate"], each["version"])
            assert each["rule_set"] == recorded()[key], key


def test_the_home_page_says_which_rule_set_made_each_current_list(
    client: Client, demo: DemoSummary
) -> None:
    data = client.get("/", {"format": "json"}).json()
    html = " ".join(client.get("/").content.decode().split())
    assert data["lists"]
    for item in data["lists"]:
        shown = next(v for v in item["versions"] if v["version"] == item["current_version"])
        rules = recorded()[(item["list"], item["rate"], item["current_version"])]
        assert shown["rule_set"] == rules
        card = html[html.index(f'id="list-{item["rate"]}-{item["list"]}"') :]
        card = card[: card.index("</article>")]
        assert said(rules).replace("computed", "Computed", 1) in card


def test_every_link_to_a_rule_set_finds_its_column_on_the_help_page(
    client: Client, demo: DemoSummary
) -> None:
    help_page = client.get("/help/").content.decode()
    paths = ("/", "/lists/", f"/players/{graded_now().ref}/")
    pages = (client.get(path).content.decode() for path in paths)
    anchors = {a for page in pages for a in re.findall(r'href="/help/#([\w-]+)"', page)}
    expected = {f"rules-{rules}" for rules in recorded().values()}
    assert expected | {"rule-sets"} <= anchors
    for anchor in anchors:
        assert f'id="{anchor}"' in help_page, anchor


# Files ------------------------------------------------------------------------------------------


def _file(list_id: str, *parts: str, fmt: str) -> str:
    return "/downloads/" + "-".join([f"grades{list_id.replace('-', '')}", *parts]) + f".{fmt}"


def test_the_json_download_names_the_rule_set_in_every_entry(
    client: Client, demo: DemoSummary
) -> None:
    for version in one_of_each_rule_set():
        list_id, rate = version.grading_list.list_id, version.grading_list.rate
        for path in (_file(list_id, fmt="json"), _file(list_id, rate, version.name, fmt="json")):
            response = client.get(path)
            assert response.status_code == 200, path
            entries = json.loads(response.content)
            assert entries, path
            for entry in entries:
                key = (entry["list"], entry["rate"], entry["version"])
                assert entry["rule_set"] == recorded()[key], (path, key)


def test_the_spreadsheet_download_names_it_and_the_csv_keeps_its_columns(
    client: Client, demo: DemoSummary
) -> None:
    for version in one_of_each_rule_set():
        list_id = version.grading_list.list_id
        book = load_workbook(io.BytesIO(client.get(_file(list_id, fmt="xlsx")).content))
        assert book.sheetnames == [list_id, ABOUT_SHEET]
        about = list(book[ABOUT_SHEET].iter_rows(values_only=True))[1:]
        assert about
        for list_shown, rate, name, _published, rules, words in about:
            assert rules == recorded()[(list_shown, rate, name)]
            assert words == WORDS[rules]
        lines = client.get(_file(list_id, fmt="csv")).content.decode("iso-8859-1").splitlines()
        assert lines[0] == HEADER
        assert "ecf-" not in "\n".join(lines)


# /api/v1 ----------------------------------------------------------------------------------------


def test_a_lists_entries_name_its_rule_set(client: Client, demo: DemoSummary) -> None:
    for version in one_of_each_rule_set():
        list_id, rate = version.grading_list.list_id, version.grading_list.rate
        found = client.get(f"{API}/lists/{list_id}/{rate}", {"per_page": 5}).json()
        assert (found["version"], found["rule_set"]) == (version.name, version.rules_name)
        assert found["entries"]
        assert {e["rule_set"] for e in found["entries"]} == {version.rules_name}


def test_a_lists_entries_are_still_its_json_export(client: Client, demo: DemoSummary) -> None:
    for version in one_of_each_rule_set():
        list_id, rate = version.grading_list.list_id, version.grading_list.rate
        exported = client.get(_file(list_id, rate, fmt="json")).json()
        entries = client.get(f"{API}/lists/{list_id}/{rate}", {"per_page": 200}).json()
        by_code = {e["code"]: e for e in exported}
        assert entries["entries"]
        for entry in entries["entries"]:
            assert entry == by_code[entry["code"]]


def graded_now() -> Player:
    """A player published in the current version of the latest standard list."""
    versions = current()
    latest = max((k for k in versions if k[1] == "standard"), key=lambda k: k[0])
    entry = ListEntry.objects.filter(version=versions[latest], published=True).first()
    assert entry is not None
    return entry.player


def test_a_players_grades_name_their_rule_sets(client: Client, demo: DemoSummary) -> None:
    code = graded_now().ref
    player = client.get(f"{API}/players/{code}").json()
    for rate in ("standard", "rapid"):
        now = player[rate]
        if now["list"] is None:
            assert now["rule_set"] is None
        else:
            assert now["rule_set"] == recorded()[(now["list"], rate, now["version"])]
    history = client.get(f"{API}/players/{code}/history").json()
    points = [row[rate] for row in history["lists"] for rate in ("standard", "rapid") if row[rate]]
    assert points
    for point in points:
        assert point["rule_set"] == recorded()[(point["list"], point["rate"], point["version"])]
    games = client.get(f"{API}/players/{code}/games").json()
    assert games["rule_set"] == recorded()[(games["list"], "standard", games["version"])]
    lookup = client.get(f"{API}/players", {"q": code}).json()
    assert lookup["lists"]
    for listed in lookup["lists"]:
        key = (listed["list"], listed["rate"], listed["version"])
        assert listed["rule_set"] == recorded()[key]


def test_the_schema_documents_rule_set_wherever_a_version_is_named(client: Client) -> None:
    schemas = client.get(f"{API}/openapi.json").json()["components"]["schemas"]
    for name in (
        "VersionOut",
        "ListVersionOut",
        "CurrentOut",
        "ListEntriesOut",
        "ListEntryOut",
        "RateNowOut",
        "PointOut",
        "PlayerGamesOut",
    ):
        field: dict[str, Any] = schemas[name]["properties"]["rule_set"]
        assert "rule_set" in schemas[name]["required"], name
        assert "ecf-2012 (lists January 2012 to July 2014)" in field["description"], name


# The player page -------------------------------------------------------------------------------


def test_the_player_page_names_the_rule_set_of_each_grades_list(
    client: Client, demo: DemoSummary
) -> None:
    code = graded_now().ref
    html = " ".join(client.get(f"/players/{code}/").content.decode().split())
    twin = client.get(f"/players/{code}/", {"format": "json"}).json()
    lines = re.findall(r'<p class="from">(.*?)</p>', html)
    # A card names the list its grade is from; a card without a grade names none.
    cards = [twin[r] for r in ("standard", "rapid") if twin[r]["grade"] is not None]
    assert len(lines) == len(cards) >= 1
    for line, card in zip(lines, cards, strict=True):
        rules = recorded()[(card["list"], card["rate"], card["version"])]
        assert card["rule_set"] == rules
        assert line.startswith("From the ")
        assert line.endswith(f', <span class="rules">{said(rules)}</span>.')
    api = client.get(f"{API}/players/{code}").json()
    assert [twin[r]["rule_set"] for r in ("standard", "rapid")] == [
        api[r]["rule_set"] for r in ("standard", "rapid")
    ]


# The help page ---------------------------------------------------------------------------------


def test_the_help_page_compares_the_three_rule_sets_with_their_dates(client: Client) -> None:
    html = client.get("/help/").content.decode()
    assert '<h2 id="rule-sets">' in html and 'href="#rule-sets"' in html
    table = html[html.index('<table class="rule-sets">') :]
    table = table[: table.index("</table>")]
    heads = re.findall(r'<th scope="col" id="(rules-[\w-]+)">([\w-]+)</th>', table)
    assert heads == [(f"rules-{n}", n) for n in ("ecf-2009", "ecf-2012", "ecf-2015")]
    rows = {
        label: [" ".join(cell.split()) for cell in cells]
        for label, cells in (
            (m.group(1), re.findall(r"<td>(.*?)</td>", m.group(2), re.S))
            for m in re.finditer(r'<th scope="row">([^<]+)</th>(.*?)</tr>', table, re.S)
        )
    }
    assert rows["Lists"] == ["Up to July 2011", "January 2012 to July 2014", "From January 2015"]
    assert f"The {ECF_2012.target_adult} most recent games" in rows["Games counted"][1]
    lowest = ECF_2015.adult_categories[-1]
    assert rows["Lowest category (who is listed)"][2].startswith(
        f"{lowest.category}: {lowest.min_n012} or more games"
    )
    assert rows["X grades"][1].startswith(f"Standard and rapid: {ECF_2012.x_min_games} or more")
    assert rows["Categories"][2] == ", ".join(r.category for r in ECF_2015.adult_categories)


def test_the_help_twin_gives_the_rule_sets(client: Client) -> None:
    data = client.get("/help/", {"format": "json"}).json()
    found = data["rule_sets"]["rule_sets"]
    assert [(f["era"]["name"], f["era"]["first_list"], f["era"]["last_list"]) for f in found] == [
        ("ecf-2009", None, "2011-07"),
        ("ecf-2012", "2012-01", "2014-07"),
        ("ecf-2015", "2015-01", None),
    ]
    assert [f["x_rates"] for f in found] == [["rapid"], ["standard", "rapid"], []]
    assert [f["lowest_games"] for f in found] == [9, 9, 5]
    assert data["rules"]["era"]["name"] == "ecf-2009"
    assert any(s["id"] == "rule-sets" for s in data["sections"])


def test_the_help_page_says_how_what_ifs_and_replays_are_made(client: Client) -> None:
    """Issue 21: ``grade --rule-set`` and ``regrade`` are explained on the help page, and a
    what-if is said never to replace the list's own version."""
    html = client.get("/help/").content.decode()
    section = html[html.index('<h3 id="re-checking">') :]
    words = text(section[: section.index("</section>")])
    assert "A published list never changes" in words
    assert "can never be published as that list" in words
    assert "ecfgrading grade --list 2013-07 --rate standard --rule-set ecf-2015" in words
    assert "ecfgrading regrade --from 2010-01 --to 2015-07" in words
