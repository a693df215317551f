"""The demo built end to end on the test database: files, imports, queue, lists in order."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.db.models import Q

from ecfgrading.demo import build_demo
from ecfgrading.demo.summary import DemoSummary
from ecfgrading.registry.models import (
    Amendment,
    Club,
    Event,
    Game,
    ListEntry,
    ListVersion,
    PendingIdentification,
    Player,
    Submission,
)
from tests.flushing import flush_database

pytestmark = pytest.mark.django_db


def _july(year: int) -> list[tuple[str, str, str]]:
    """A July list: both rates, initial then august (G43)."""
    return [
        (rate, f"{year}-07", version)
        for version in ("initial", "august")
        for rate in ("standard", "rapid")
    ]


def _january(year: int) -> list[tuple[str, str, str]]:
    """A January list: rapid only before 2012, both rates from 2012-01; initial only (G43)."""
    rates = ("standard", "rapid") if year >= 2012 else ("rapid",)
    return [(rate, f"{year}-01", "initial") for rate in rates]


EXPECTED_ORDER = [entry for year in range(2010, 2016) for entry in _january(year) + _july(year)]
RULE_SETS = {  # G31: the rule set of each list, by its date
    **{f"{year}-{month}": "ecf-2009" for year in (2010, 2011) for month in ("01", "07")},
    **{f"{year}-{month}": "ecf-2012" for year in (2012, 2013, 2014) for month in ("01", "07")},
    **{f"2015-{month}": "ecf-2015" for month in ("01", "07")},
}


@pytest.fixture(scope="module")
def built(
    django_db_setup: None, django_db_blocker: Any, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[DemoSummary]:
    """One build for the module (it takes seconds), flushed away afterwards."""
    stages: list[str] = []
    home = tmp_path_factory.mktemp("demo-home")
    with django_db_blocker.unblock():
        summary = build_demo(
            home, size="tiny", seed=3, progress=lambda done, total, stage: stages.append(stage)
        )
        assert "load list 2009-07" in stages
        yield summary
        flush_database()


def test_the_demo_publishes_every_list_in_date_order_with_its_version_name(
    built: DemoSummary,
) -> None:
    assert [(e.rate, e.list_id, e.version) for e in built.lists] == EXPECTED_ORDER
    published = ListVersion.objects.filter(status=ListVersion.Status.PUBLISHED).order_by(
        "published_at", "id"
    )
    names = [(v.grading_list.rate, v.grading_list.list_id, v.name) for v in published]
    # The starting list (both rates, loaded as published 'initial' versions) comes first.
    assert sorted(names[:2]) == [
        ("rapid", "2009-07", "initial"),
        ("standard", "2009-07", "initial"),
    ]
    assert names[2:] == EXPECTED_ORDER


def test_the_demo_crosses_both_changes_of_method_to_the_july_2015_list(
    built: DemoSummary,
) -> None:
    """G31, G43: 34 versions from 2010-01 to 2015-07 August, each computed under the
    rule set of its date; standard January lists from 2012-01, never an august version."""
    assert len(EXPECTED_ORDER) == 34
    assert ("standard", "2012-01", "initial") in EXPECTED_ORDER
    assert ("standard", "2011-01", "initial") not in EXPECTED_ORDER
    assert not [e for e in EXPECTED_ORDER if e[1].endswith("-01") and e[2] == "august"]
    for entry in built.lists:
        assert entry.rule_set == RULE_SETS[entry.list_id], entry
    versions = ListVersion.objects.exclude(grading_list__list_id="2009-07")
    assert {
        (v.grading_list.list_id, v.rules_name) for v in versions.select_related("grading_list")
    } == {(list_id, RULE_SETS[list_id]) for _, list_id, _ in EXPECTED_ORDER}


def _categories(rate: str, rule_set: str) -> dict[str, set[str]]:
    """Published categories of each list of a rate computed under a rule set."""
    found: dict[str, set[str]] = {}
    entries = ListEntry.objects.filter(
        published=True,
        version__grading_list__rate=rate,
        version__rules_name=rule_set,
        version__status=ListVersion.Status.PUBLISHED,
    ).exclude(version__grading_list__list_id="2009-07")
    rows = entries.values_list("version__grading_list__list_id", "version__name", "category")
    for list_id, name, category in rows.distinct():
        found.setdefault(f"{list_id} {name}", set()).add(category)
    return found


def test_regulars_of_the_congress_circuit_are_graded_x_in_the_standard_ecf_2012_lists(
    built: DemoSummary,
) -> None:
    """G36: 30 or more standard games in a half-year; the circuit's regulars play 35."""
    lists = _categories("standard", "ecf-2012")
    assert len(lists) == 9  # 2012-01 to 2014-07: three January lists, three July lists twice
    with_x = [name for name, categories in lists.items() if "X" in categories]
    assert len(with_x) >= 7, lists
    assert all("F" not in categories for categories in lists.values())


def test_the_ecf_2015_lists_have_a_and_f_grades_and_no_x(built: DemoSummary) -> None:
    """G37, G39, G40: A on all the games of the latest 12 months, F on 5 games, no X."""
    for rate in ("standard", "rapid"):
        lists = _categories(rate, "ecf-2015")
        assert len(lists) == 3  # 2015-01 initial, 2015-07 initial and august
        for name, categories in lists.items():
            assert "X" not in categories, (rate, name)
            assert "F" in categories, (rate, name)
    standard = _categories("standard", "ecf-2015")
    assert all("A" in categories for categories in standard.values()), standard
    for rate in ("standard", "rapid"):
        for rule_set in ("ecf-2009", "ecf-2012"):
            for name, categories in _categories(rate, rule_set).items():
                assert "F" not in categories, (rate, name)
    for name, categories in _categories("standard", "ecf-2009").items():
        assert "X" not in categories, name  # X was rapid only (G16)


def test_the_lists_have_players_once_the_system_has_a_season_of_games(
    built: DemoSummary,
) -> None:
    july = [entry for entry in built.lists if entry.list_id.endswith("-07")]
    assert all(entry.published > 0 for entry in july)


def test_every_file_is_written_and_accepted_and_the_queue_is_emptied(
    built: DemoSummary,
) -> None:
    results = sorted(built.results_folder.rglob("*.txt"))
    assert len(results) == built.federation.files == built.imports.files
    assert built.start_list.is_file()
    assert built.imports.rejected == 0
    assert Submission.objects.filter(status=Submission.Status.REJECTED).count() == 0
    assert built.imports.queued > 0  # namesakes and slips the import could not decide
    assert built.imports.queued == built.imports.linked + built.imports.created
    assert not PendingIdentification.objects.filter(
        status=PendingIdentification.Status.OPEN
    ).exists()


def test_the_corrected_file_replaces_its_first_submission(built: DemoSummary) -> None:
    assert Submission.objects.filter(status=Submission.Status.SUPERSEDED).count() == 1


def figures(text: str, pattern: str) -> tuple[int, ...]:
    """The numbers of the one summary line that matches ``pattern`` (1,234 -> 1234)."""
    (found,) = [m for line in text.splitlines() if (m := re.fullmatch(pattern, line.strip()))]
    return tuple(int(group.replace(",", "")) for group in found.groups())


NUMBER = r"([\d,]+)"


def test_the_summarys_import_figures_are_what_the_files_and_the_database_hold(
    built: DemoSummary,
) -> None:
    text = built.to_text()
    written = sorted(built.results_folder.rglob("*.txt"))
    assert figures(text, f"files {NUMBER}: {NUMBER} accepted, {NUMBER} rejected") == (
        len(written),
        Submission.objects.exclude(status=Submission.Status.REJECTED).count(),
        0,
    )
    # Every game the generator played is on record once (a replaced file's games once),
    # and every one it meant to be graded is: the import lost nothing and added nothing.
    drawn = built.federation
    assert figures(text, f"games {NUMBER} imported, {NUMBER} graded") == (
        sum(drawn.games.values()),
        sum(drawn.graded.values()),
    )
    cases = PendingIdentification.objects
    queued = f"identifications queued {NUMBER}: {NUMBER} linked, {NUMBER} created"
    assert figures(text, queued + f", then {NUMBER} merged into another record") == (
        cases.count(),
        cases.filter(status=PendingIdentification.Status.LINKED).count(),
        cases.filter(status=PendingIdentification.Status.CREATED).count(),
        Player.objects.filter(merged_into__isnull=False).count(),
    )


def test_the_player_put_on_record_twice_is_merged_into_his_first_record(
    built: DemoSummary,
) -> None:
    """G28, issue 23: the demo's merged record. Its first queued case of a player on
    record is decided as new, then the second record is merged into the first before the
    next list: the only merge, recorded as an amendment saying why, in no list itself."""
    (second,) = Player.objects.filter(merged_into__isnull=False)
    first = second.merged_into
    assert first is not None and first.merged_into is None
    assert (second.surname, second.forenames) == (first.surname, first.forenames)
    assert PendingIdentification.objects.filter(
        status=PendingIdentification.Status.CREATED, resolved_player=second
    ).exists()
    assert Game.objects.filter(Q(player1=second) | Q(player2=second), graded=True).exists()
    assert not ListEntry.objects.filter(player=second).exists()  # merged before any list
    (amendment,) = Amendment.objects.filter(what__contains="merged into")
    assert second.ref in amendment.what and first.ref in amendment.what
    assert "a second time" in amendment.why


def test_the_summarys_registry_figures_are_read_back_from_the_database(
    built: DemoSummary,
) -> None:
    text = built.to_text()
    players, clubs, events = figures(
        text, f"{NUMBER} players on record, {NUMBER} clubs, {NUMBER} events"
    )
    assert players == Player.objects.filter(merged_into__isnull=True).count()
    assert clubs == Club.objects.count()
    # An event per results file's code, and the three registered that never report.
    codes = {
        re.search(rb"#EVENT CODE=([^\r\n#]+)", path.read_bytes()).group(1)  # type: ignore[union-attr]
        for path in built.results_folder.rglob("*.txt")
    }
    assert events == Event.objects.count() == len(codes) + 3


def test_the_summary_lists_each_published_version_with_its_published_entries(
    built: DemoSummary,
) -> None:
    text = built.to_text()
    for rate, list_id, name in EXPECTED_ORDER:
        (published,) = figures(
            text,
            rf"{rate} +{list_id} {name} +{RULE_SETS[list_id]} +{NUMBER} published "
            r"\(.* players with games, .* games\): .*",
        )
        version = ListVersion.objects.get(
            grading_list__rate=rate, grading_list__list_id=list_id, name=name
        )
        assert published == ListEntry.objects.filter(version=version, published=True).count()


def test_every_published_grade_is_explained_by_its_stored_breakdown(built: DemoSummary) -> None:
    """Section 10: the breakdown of each published entry adds up to its grade."""
    from ecfgrading.lookups.explain import explain_entry

    computed = ListEntry.objects.filter(
        published=True, version__status=ListVersion.Status.PUBLISHED, calculated__isnull=False
    ).exclude(start_source="")  # lists loaded from a file have no games to show
    checked = 0
    for entry in computed.select_related("version__grading_list", "player"):
        explanation, names = explain_entry(entry)
        counted = explanation.entry.games_counted
        assert explanation.points_total / counted == pytest.approx(entry.calculated, abs=1e-6)
        # X counts the H0 games (G16, G36); ecf-2012 may leave older P0 games out (G35).
        kept = [g for g in explanation.games if (g.in_h0 if explanation.x_grade else g.counted)]
        assert sum(f.games for f in explanation.forward) + len(kept) == counted
        assert entry.player_id in names
        checked += 1
    assert checked > 500


def test_the_demo_registers_its_events_and_three_never_report(built: DemoSummary) -> None:
    from datetime import date

    from ecfgrading.lookups.reports import events_overdue
    from ecfgrading.registry.models import Event

    chase = events_overdue(date(2015, 7, 1))
    # Deadlines 28 days after the last day: 8, 14 and 15 June 2015.
    assert [e.code for e in chase.events] == ["LG159902", "CG159901", "CC159903"]
    assert [e.code for e in events_overdue(date(2015, 6, 14)).events] == ["LG159902"]
    kinds = set(Event.objects.values_list("kind", flat=True))
    assert {"league", "club", "congress", "junior"} <= kinds


def test_each_event_registration_is_audited_as_the_demo_s(built: DemoSummary) -> None:
    """issue 25: registered in bulk, each as ``register_event`` registers one."""
    from ecfgrading.registry.models import AuditLog, Event

    audited = AuditLog.objects.filter(action="register event", actor="demo")
    assert sorted(audited.values_list("details__event", flat=True)) == sorted(
        Event.objects.values_list("code", flat=True)
    )


def test_the_summary_prints_each_steps_seconds_and_the_peak_memory_so_far(
    built: DemoSummary,
) -> None:
    """issue 25: the demo's figures are printed by the demo itself."""
    text = built.to_text()
    assert len(built.peaks) == len(built.timings) > 40
    assert list(built.peaks) == sorted(built.peaks)  # a peak never falls
    assert 20 * 2**20 < built.peaks[-1] < 4 * 2**30
    for name, _ in built.timings:
        assert re.search(rf"^  {re.escape(name)} +\d+\.\d\d s +[\d,]+ MB$", text, re.M), name
    assert re.search(r"^  total +\d+\.\d\d s +[\d,]+ MB$", text, re.M)
