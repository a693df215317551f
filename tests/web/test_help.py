"""/help/: the rules in plain words, with the seeds' categories and numbers (G1, G2, G12,
G14-G20, G23, G26, G27, G29), sections other pages can link to, and a JSON twin."""

from __future__ import annotations

import re

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

SECTIONS = (
    "categories",
    "calculation",
    "juniors",
    "estimation",
    "rates",
    "not-graded",
    "conversions",
    "revisions",
    "clubs",
    "inactive",
)


# The seeds' two category tables, word for word (grading-database-help-2009.txt,
# "Category"); the repository does not carry the seeds, so they are quoted here.
SEED_ADULT = """
X - Rapidplay only. Grade based on 30 or more games in the latest half-season
A - Grade based on 30 or more games in the latest season
B - Grade based on 30 games in the two latest seasons, of which at least 20 were played in the latest season
C - Grade based on 30 games in the latest three seasons, of which at least 10 were played in the latest season
D - Grade based on 15 or more games in the latest three seasons, of which at least 5 were in the latest season
E - Grade based on 9 or more games in the latest three seasons, of which at least 1 was played in the latest season
"""  # noqa: E501 (quoted word for word)
SEED_JUNIOR = """
X - Rapidplay only. Grade based on 30 or more games in the latest half-season
A - Grade based on 30 or more games in the latest season
B - Grade based on 20 or more games in the latest season
C - Grade based on 20 or more games in the latest two seasons, including at least 10 in the latest season
D - Grade based on 15 or more games in the latest three seasons, including at least 5 in the latest season
E - Grade based on 9 or more games in the latest three seasons, including at least 1 in the latest season
"""  # noqa: E501 (quoted word for word)


def _seed_categories() -> dict[str, list[tuple[str, str]]]:
    tables = {"adult": SEED_ADULT, "junior": SEED_JUNIOR}
    return {
        name: [(line[0], line[4:]) for line in text.strip().splitlines()]
        for name, text in tables.items()
    }


def _help_rows(html: str, table_id: str) -> dict[str, str]:
    table = html[html.index(f'id="{table_id}"') :]
    table = table[: table.index("</table>")]
    rows = re.findall(r'<th scope="row" class="cat">(\w)</th><td>([^<]+)</td>', table)
    return dict(rows)


@pytest.mark.parametrize("table", ["adult", "junior"])
def test_g23_help_gives_every_category_with_the_seeds_figures(client: Client, table: str) -> None:
    html = client.get("/help/").content.decode()
    seeds = _seed_categories()[table]
    shown = _help_rows(html, f"categories-{table}")

    assert [letter for letter, _ in seeds] == list("XABCDE")
    assert list(shown) == list("XABCDE")
    for letter, words in seeds:
        text = shown[letter]
        assert re.findall(r"\d+", text) == re.findall(r"\d+", words), (letter, text, words)
        for span in ("half-season", "three seasons", "two", "latest season"):
            assert (span in text) == (span in words), (letter, span, text, words)
    assert "Rapid only" in shown["X"]


def test_help_explains_grades_in_the_seeds_words(client: Client) -> None:
    text = " ".join(client.get("/help/").content.decode().split())
    for words in (
        "1 June to 31 May",  # the season
        "ungraded",
        "plus 50",  # G12
        "minus 50",
        "40-point rule",
        "exactly 30",  # G14: made up to exactly thirty
        "Stage 1",  # G8
        "Stage 2",  # G9
        "lightning",  # G2
        "correspondence",  # G1
        "defaults, byes, walkovers and forfeits",
        "August revision",  # G26, G27
        "eligibility in season-long competitions",
        "The minimum published FIDE Elo is 1200",  # G29
        "asterisk",  # C3
        "include inactive players",
    ):
        assert words in text, words


def test_g12_worked_example_by_hand(client: Client) -> None:
    # 120 plays 170: 170 counts as 120 + 40 = 160 for him; a win scores 210, a draw 160,
    # a loss 110; for the 170 player, 120 counts as 170 - 40 = 130.
    text = " ".join(client.get("/help/").content.decode().split())
    assert "You are graded 120 and play someone graded 170." in text
    assert "For you he counts as 160: a win scores 210, a draw 160, a loss 110." in text
    assert "For him, you count as 130." in text


def test_g20_junior_bonus_table(client: Client) -> None:
    html = client.get("/help/").content.decode()
    assert '<th scope="row">10 or under</th><td class="num">+10</td>' in html
    assert '<th scope="row">11 to 17</th><td class="num">+5</td>' in html


@pytest.mark.parametrize(
    ("control", "outcome"),
    [
        ("90 min + 30 s/move", "standard"),  # T = 120 (G2's worked examples)
        ("55 min + 5 s/move", "standard"),  # T = 60
        ("15 min + 10 s/move", "rapid"),  # T = 25
        ("10 min + 5 s/move", "rapid"),  # T = 15
        ("5 min + 3 s/move", "not graded (lightning)"),  # T = 8
    ],
)
def test_g2_rates_of_play_examples(client: Client, control: str, outcome: str) -> None:
    html = client.get("/help/").content.decode()
    row = re.search(
        rf'<th scope="row">{re.escape(control)}</th><td class="num">[\d.]+</td><td>([^<]+)</td>',
        html,
    )
    assert row is not None, control
    assert row.group(1) == outcome


def test_every_section_has_an_anchor_and_a_contents_link(client: Client) -> None:
    html = client.get("/help/").content.decode()
    for anchor in SECTIONS:
        assert f'<h2 id="{anchor}">' in html, anchor
        assert f'href="#{anchor}"' in html, anchor


def test_the_json_twin_lists_the_sections_and_the_rules_numbers(client: Client) -> None:
    data = client.get("/help/", {"format": "json"}).json()
    ids = [section["id"] for section in data["sections"]]
    assert set(SECTIONS) <= set(ids)
    assert data["sections"][ids.index("juniors")]["url"] == "/help/#juniors"
    rules = data["rules"]
    assert (rules["margin"], rules["cap"], rules["target_adult"], rules["target_junior"]) == (
        50,
        40,
        30,
        20,
    )
    assert [(line["ages"], line["bonus"]) for line in rules["bonus"]] == [
        ("10 or under", 10),
        ("11 to 17", 5),
    ]
