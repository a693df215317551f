"""G31 on the read side: every version names the rule set it was computed under, and every
output of a version shows it (the catalogue, the exports, a list's entries, a player's
grades); the help page's words about the three rule sets come from their values.

The lists are computed and published by the real pipeline (``rule_set_lists``); the
expected rule sets are read from the versions' rows, and the expected figures from the
rule sets themselves.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from openpyxl import load_workbook

from ecfgrading.cli import main
from ecfgrading.engine.eras import ERAS, first_list, rules_for
from ecfgrading.engine.periods import ListId
from ecfgrading.engine.rules import ECF_2009, ECF_2012, ECF_2015, Counting, RuleSet
from ecfgrading.engine.types import Rate
from ecfgrading.formats.gradelist import HEADER
from ecfgrading.lookups.exports import ABOUT_HEADER, ABOUT_SHEET, export_list
from ecfgrading.lookups.guide import era, eras, rule_set_facts, rule_sets
from ecfgrading.lookups.list_entries import list_page
from ecfgrading.lookups.lists import catalogue, published_versions
from ecfgrading.lookups.players import locate, player_games, player_history, player_summary
from ecfgrading.registry.models import GradingList, ListVersion
from tests.lookups.rule_set_lists import BLOGGS, LISTS, WORDS, Made, publish_eras

pytestmark = pytest.mark.django_db


@pytest.fixture
def made() -> Made:
    return publish_eras()


def recorded() -> dict[tuple[str, str, str], str]:
    """Each published version's rule set, by a plain query of its row."""
    rows = ListVersion.objects.filter(status="published").values_list(
        "grading_list__list_id", "grading_list__rate", "name", "rules_name"
    )
    return {(lid, rate, name): rules for lid, rate, name, rules in rows}


# Versions record their rule set ---------------------------------------------------------------


def test_g31_each_list_is_computed_and_published_under_the_rule_set_of_its_date(
    made: Made,
) -> None:
    assert {(lid, rate): rules for (lid, rate, _), rules in recorded().items()} == {
        (lid, rate.value): rules for lid, rate, rules in LISTS
    }
    for list_id, _rate, rules in LISTS:
        assert rules_for(ListId.parse(list_id)).name == rules


def test_the_catalogue_names_each_versions_rule_set(made: Made) -> None:
    found = {(v.list_id, v.rate.value, v.name): v.rules_name for v in published_versions()}
    assert found == recorded()
    listed = {
        (v.info.list_id, v.info.rate.value, v.info.name): v.info.rules_name
        for item in catalogue().lists
        for v in item.versions
    }
    assert listed == recorded()


def test_an_older_version_keeps_the_rule_set_it_names() -> None:
    """A version stored before the eras (when every version was ecf-2009) is shown as it
    says, not as its date would have it now."""
    grading_list = GradingList.objects.create(list_id="2013-07", rate="standard")
    ListVersion.objects.create(
        grading_list=grading_list,
        name="initial",
        rules_name="ecf-2009",
        status=ListVersion.Status.PUBLISHED,
        published_at="2013-07-15T12:00:00Z",
    )
    (version,) = published_versions()
    assert version.rules_name == "ecf-2009"


def test_g31_a_version_made_without_a_rule_set_records_that_of_its_date() -> None:
    for list_id, expected in (
        ("2011-07", "ecf-2009"),
        ("2013-07", "ecf-2012"),
        ("2015-01", "ecf-2015"),
    ):
        grading_list = GradingList.objects.create(list_id=list_id, rate="standard")
        version = ListVersion.objects.create(grading_list=grading_list, name="initial")
        assert version.rules_name == expected


# Exports ---------------------------------------------------------------------------------------


def test_every_json_entry_names_the_rule_set_of_its_version(made: Made) -> None:
    for list_id, rate, rules in LISTS:
        entries = json.loads(export_list(list_id, rates=[rate], fmt="json"))
        assert len(entries) == 2
        assert {(e["rate"], e["version"], e["rule_set"]) for e in entries} == {
            (rate.value, "initial", rules)
        }


def test_the_whole_lists_json_names_each_rates_rule_set(made: Made) -> None:
    entries = json.loads(export_list("2015-07", fmt="json"))
    assert {(e["rate"], e["rule_set"]) for e in entries} == {
        ("standard", "ecf-2015"),
        ("rapid", "ecf-2015"),
    }
    keys = list(entries[0])
    assert keys.index("rule_set") == keys.index("version") + 1


def test_the_spreadsheet_names_the_rule_sets_on_a_sheet_about_the_list(made: Made) -> None:
    book = load_workbook(io.BytesIO(export_list("2011-07", fmt="xlsx")))
    assert book.sheetnames == ["2011-07", ABOUT_SHEET]
    first = [cell.value for cell in next(book["2011-07"].iter_rows(max_row=1))]
    assert first[:20] == HEADER  # the list's own sheet starts with the CSV's 20 columns
    assert first[20:] == ["GamesLatest", "RGamesLatest"]  # then the latest games (G24)
    about = [tuple(row) for row in book[ABOUT_SHEET].iter_rows(values_only=True)]
    assert about[0] == ABOUT_HEADER
    version = made.versions[("2011-07", Rate.STANDARD)]
    assert [row[:3] + row[4:] for row in about[1:]] == [
        ("2011-07", "standard", "initial", "ecf-2009", WORDS["ecf-2009"]),
        ("2011-07", "rapid", "initial", "ecf-2009", WORDS["ecf-2009"]),
    ]
    assert about[1][3].date() == version.published_at.date()


def test_the_csv_keeps_the_federations_20_columns(made: Made) -> None:
    """results-file.md section 2 is a fixed layout: the rule set is not a column of it."""
    rows = list(csv.reader(io.StringIO(export_list("2013-07").decode())))
    assert rows[0] == HEADER and len(HEADER) == 20
    assert all(len(row) == 20 for row in rows)
    assert "ecf-" not in export_list("2013-07").decode()


def test_the_cli_exports_json_with_the_rule_set(made: Made, tmp_path: Path) -> None:
    out = tmp_path / "list.json"
    result = CliRunner().invoke(
        main, ["lists", "export", "--list", "2013-07", "--format", "json", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert {e["rule_set"] for e in json.loads(out.read_text())} == {"ecf-2012"}


# A list's entries and a player's grades ----------------------------------------------------------


def test_a_page_of_a_list_names_its_rule_set_at_the_top_and_in_every_entry(made: Made) -> None:
    found = list_page("2013-07", Rate.STANDARD)
    assert found.version.rules_name == "ecf-2012"
    assert {row.rule_set for row in found.page.items} == {"ecf-2012"}


def test_a_players_grades_name_the_rule_set_of_their_versions(made: Made) -> None:
    located = locate(BLOGGS)
    summary = player_summary(located)
    assert (summary.standard.list, summary.standard.rule_set) == ("2015-07", "ecf-2015")
    assert (summary.rapid.list, summary.rapid.rule_set) == ("2015-07", "ecf-2015")
    history = player_history(located)
    shown = {
        (row.list_id, point.rate.value): point.rule_set
        for row in history.lists
        for point in (row.standard, row.rapid)
        if point is not None
    }
    assert shown == {(lid, rate.value): rules for lid, rate, rules in LISTS}
    games = player_games(located, Rate.STANDARD, "2013-07")
    assert (games.version, games.rule_set) == ("initial", "ecf-2012")


# The help page's words, from the rule sets' values ----------------------------------------------


def test_each_rule_set_is_named_with_the_lists_of_its_era() -> None:
    assert [(e.name, e.first_list, e.last_list, e.words) for e in eras()] == [
        ("ecf-2009", None, "2011-07", WORDS["ecf-2009"]),
        ("ecf-2012", "2012-01", "2014-07", WORDS["ecf-2012"]),
        ("ecf-2015", "2015-01", None, WORDS["ecf-2015"]),
    ]
    for found in eras()[1:]:
        assert found.first_list == str(first_list(_rules(found.name)))
    assert era("ecf-2012").anchor == "rules-ecf-2012"


def test_a_rule_set_of_no_era_is_named_without_dates() -> None:
    found = era("what-if-rules")
    assert (found.name, found.words, found.anchor) == ("what-if-rules", "", "")


@pytest.mark.parametrize("rules", [ECF_2009, ECF_2012, ECF_2015], ids=lambda r: r.name)
def test_the_side_by_side_figures_are_the_rule_sets_own(rules: RuleSet) -> None:
    facts = rule_set_facts(rules)
    lowest = rules.adult_categories[-1]
    assert (facts.target_adult, facts.target_junior) == (rules.target_adult, rules.target_junior)
    assert facts.x_min_games == rules.x_min_games
    assert (facts.lowest_category, facts.lowest_games, facts.lowest_latest) == (
        lowest.category,
        lowest.min_n012,
        lowest.min_n0,
    )
    x_rates = {rate for rate in Rate if rules.x_applies(rate)}
    assert set(facts.x_rates) == x_rates
    letters = [row.category for row in rules.adult_categories]
    assert list(facts.categories) == (["X", *letters] if x_rates else letters)
    assert f"{rules.target_adult}" in facts.counted
    assert f"{lowest.min_n012} or more games" in facts.lowest


def test_the_table_compares_what_the_spec_summarises() -> None:
    """grading-rules-eras.md, section 1's summary table, read back from the rows."""
    rows = {row.label: row.cells for row in rule_sets().rows}
    assert rows["Lists"] == ("Up to July 2011", "January 2012 to July 2014", "From January 2015")
    assert rows["Standard lists"] == (
        "Once a year, in July",
        "Twice a year, in January and July",
        "Twice a year, in January and July",
    )
    assert rows["Categories"] == ("X, A, B, C, D, E", "X, A, B, C, D, E", "A, B, C, D, E, F")
    assert [cell.split(":")[0] for cell in rows["X grades"]] == [
        "Rapid only",
        "Standard and rapid",
        "None",
    ]
    assert [cell[:1] for cell in rows["Lowest category (who is listed)"]] == ["E", "E", "F"]
    assert "31 May for a July list" in rows["Games played up to"][0]
    assert "30 June for a July list" in rows["Games played up to"][1]
    assert "7 months, 1 June to 31 December 2011" in rows["Games played up to"][1]
    assert "the 30 most recent" in rows["Games counted"][1].lower()
    assert "whole half-years" in rows["Bringing games forward"][2]
    assert rule_sets().changed == "January 2012 and January 2015"
    assert rule_sets().half_yearly_standard_from == "January 2012"


def test_every_counting_method_has_its_own_words() -> None:
    by_method = {
        _rules_of(method).counting: rule_set_facts(_rules_of(method)) for method in Counting
    }
    assert len({(f.counted, f.forward) for f in by_method.values()}) == len(Counting)


def _rules(name: str) -> RuleSet:
    return next(rules for _first, rules in ERAS if rules.name == name)


def _rules_of(method: Counting) -> RuleSet:
    return next(rules for _first, rules in ERAS if rules.counting is method)
