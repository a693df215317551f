"""The demo built end to end on the test database: files, imports, queue, lists in order."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.management import call_command

from ecfgrading.demo import build_demo
from ecfgrading.demo.summary import DemoSummary
from ecfgrading.registry.models import (
    Club,
    Event,
    ListEntry,
    ListVersion,
    PendingIdentification,
    Player,
    Submission,
)

pytestmark = pytest.mark.django_db

EXPECTED_ORDER = [
    ("rapid", "2010-01", "initial"),
    ("standard", "2010-07", "initial"),
    ("rapid", "2010-07", "initial"),
    ("standard", "2010-07", "august"),
    ("rapid", "2010-07", "august"),
    ("rapid", "2011-01", "initial"),
    ("standard", "2011-07", "initial"),
    ("rapid", "2011-07", "initial"),
    ("standard", "2011-07", "august"),
    ("rapid", "2011-07", "august"),
    ("rapid", "2012-01", "initial"),
    ("standard", "2012-07", "initial"),
    ("rapid", "2012-07", "initial"),
    ("standard", "2012-07", "august"),
    ("rapid", "2012-07", "august"),
]


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
        call_command("flush", interactive=False, verbosity=0)


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
    assert figures(text, f"identifications queued {NUMBER}: {NUMBER} linked, {NUMBER} created") == (
        cases.count(),
        cases.filter(status=PendingIdentification.Status.LINKED).count(),
        cases.filter(status=PendingIdentification.Status.CREATED).count(),
    )


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
            text, rf"{rate} +{list_id} {name} +{NUMBER} published \(.* players with games, .*\)"
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
        assert (
            sum(f.games for f in explanation.forward)
            + (len([g for g in explanation.games if g.in_h0 or not explanation.x_grade]))
            == counted
        )
        assert entry.player_id in names
        checked += 1
    assert checked > 500


def test_the_demo_registers_its_events_and_three_never_report(built: DemoSummary) -> None:
    from datetime import date

    from ecfgrading.lookups.reports import events_overdue
    from ecfgrading.registry.models import Event

    chase = events_overdue(date(2012, 7, 1))
    # Deadlines 28 days after the last day: 11, 17 and 18 June 2012.
    assert [e.code for e in chase.events] == ["LG129902", "CG129901", "CC129903"]
    assert [e.code for e in events_overdue(date(2012, 6, 17)).events] == ["LG129902"]
    kinds = set(Event.objects.values_list("kind", flat=True))
    assert {"league", "club", "congress", "junior"} <= kinds
