"""Replaying history (``regrade``): every list of a span recomputed in order as drafts,
compared with its published version, resumable after an interruption (G31)."""

from __future__ import annotations

from datetime import date
from itertools import islice

import pytest

from ecfgrading.engine import Rate
from ecfgrading.errors import ErrorKind
from ecfgrading.lookups.versions import VersionError
from ecfgrading.registry.models import ListEntry, ListVersion, Player
from ecfgrading.services.grading.compute import compute_version, publish_version
from ecfgrading.services.grading.regrade import check_span, regrade, span
from ecfgrading.services.results.ingest import import_files
from ecfgrading.services.results.registry_cache import RegistryCache
from tests.e2e.federation import Federation

pytestmark = pytest.mark.django_db

STANDARD, RAPID = Rate.STANDARD, Rate.RAPID


def _published(list_id: str) -> None:
    name = compute_version(list_id, STANDARD).version
    publish_version(list_id, STANDARD, name, allow_unanchored=True)


def _history() -> tuple[Federation, Player]:
    """Standard lists 2011-07 (ecf-2009), 2012-01 and 2012-07 (ecf-2012), published.

    Keen (opponents assigned 150) draws 10 in October 2010, 10 in October 2011 and 10
    in March 2012: every list grades him, each on its own periods (G32).
    """
    fed = Federation(assigned_from="2010-07")
    keen = fed.player("Keen", "Kim")
    for day in (date(2010, 10, 2), date(2011, 10, 1), date(2012, 3, 3)):
        import_files([fed.event(fed.against(keen, ["55"] * 10, 150, day))])
    for list_id in ("2011-07", "2012-01", "2012-07"):
        _published(list_id)
    return fed, keen


def test_the_span_runs_in_date_order_standard_first_january_standard_only_from_2012() -> None:
    assert [f"{lid} {rate}" for lid, rate in span("2011-01", "2012-07")] == [
        "2011-01 rapid",  # G31: no standard January list before 2012-01
        "2011-07 standard",
        "2011-07 rapid",
        "2012-01 standard",
        "2012-01 rapid",
        "2012-07 standard",
        "2012-07 rapid",
    ]


def test_a_span_backwards_or_with_nothing_published_is_refused() -> None:
    with pytest.raises(VersionError, match="expected --from 2012-07 to come before --to 2011-07"):
        span("2012-07", "2011-07")
    with pytest.raises(VersionError) as refused:
        check_span("2011-07", "2012-07")
    assert refused.value.kind is ErrorKind.NOT_FOUND


def test_regrading_unchanged_history_finds_every_grade_the_same() -> None:
    _history()
    checks = list(regrade("2011-07", "2012-07"))

    done = [(c.list_id, c.rate, c.rule_set, c.draft) for c in checks if c.draft]
    assert done == [
        ("2011-07", "standard", "ecf-2009", "august"),
        ("2012-01", "standard", "ecf-2012", "rev1"),  # G43: no august for January lists
        ("2012-07", "standard", "ecf-2012", "august"),
    ]
    assert all(c.differs == 0 for c in checks)
    assert [c.players for c in checks if c.draft] == [1, 1, 1]  # Keen (the rest unanchored)
    skipped = [f"{c.list_id} {c.rate}" for c in checks if not c.draft]
    assert skipped == ["2011-07 rapid", "2012-01 rapid", "2012-07 rapid"]
    assert "not published, skipped" in next(c for c in checks if not c.draft).to_text()


def test_a_result_on_record_since_publication_shows_as_a_difference() -> None:
    fed, keen = _history()
    # A late loss of March 2012 (S for 2012-07 is his 2012-01 grade, 150, G33): scores
    # 100. 2012-07 (P0 June 2011 .. June 2012) had 20 draws at 150 and 10 from P1 (G35):
    # 150, B (n0 20, n0 + n1 30). Now 21 in P0, 3100 points, and the 9 most recent of
    # P1 at 150: (3100 + 1350) / 30 = 148.33 -> 148, B.
    import_files([fed.event(fed.against(keen, ["01"], 150, date(2012, 3, 10)))])

    checks = {(c.list_id, c.rate): c for c in regrade("2011-07", "2012-07")}

    assert checks[("2011-07", "standard")].differs == 0
    assert checks[("2012-01", "standard")].differs == 0  # March 2012 is after its cut-off
    july = checks[("2012-07", "standard")]
    assert (july.changed, july.new, july.dropped) == (1, 0, 0)
    (change,) = july.largest
    assert (change.code, change.old, change.new) == (keen.ref, "150B", "148B")
    assert f"{keen.ref} Keen, Kim: 150B -> 148B" in july.to_text()


def test_as_published_a_result_received_since_publication_is_left_out() -> None:
    """The same late loss as above: read on the results each published version had, the
    2012-07 list comes out as published (150B), as unchanged code must."""
    fed, keen = _history()
    import_files([fed.event(fed.against(keen, ["01"], 150, date(2012, 3, 10)))])

    checks = list(regrade("2011-07", "2012-07", as_published=True))

    done = [c for c in checks if c.draft]
    assert [c.list_id for c in done] == ["2011-07", "2012-01", "2012-07"]
    assert all(c.differs == 0 for c in checks)
    july = done[-1]
    assert "against standard 2012-07 initial (on its results): 0 of 1" in july.to_text()
    draft = ListVersion.objects.get(
        grading_list__list_id="2012-07", grading_list__rate="standard", name=july.draft
    )
    assert ListEntry.objects.get(version=draft, player=keen).grade == 150
    published = ListVersion.objects.get(
        grading_list__list_id="2012-07", grading_list__rate="standard", name="initial"
    )
    assert draft.report["received_by"] == published.computed_at.isoformat()
    # The run's drafts are its own: the default run after it recomputes, late loss and all.
    again = {c.list_id: c for c in regrade("2011-07", "2012-07") if c.draft}
    assert not any(c.resumed for c in again.values())
    assert again["2012-07"].changed == 1


def test_as_published_a_date_of_birth_learnt_since_publication_is_left_out() -> None:
    """A later file gives Keen's date of birth: he is a junior of 2012-07 (G20) now, but
    the published version did not know it, and read as published neither does its replay."""
    _fed, keen = _history()
    RegistryCache.load().note_births({keen.id: date(1996, 1, 1)})  # as an import does

    assert all(c.differs == 0 for c in regrade("2011-07", "2012-07", as_published=True))
    now = {c.list_id: c for c in regrade("2011-07", "2012-07") if c.draft}
    assert now["2012-07"].changed == 1  # read as on record now, he is a junior


def test_an_interrupted_run_goes_on_where_it_stopped() -> None:
    _history()
    first = list(islice(regrade("2011-07", "2012-07"), 3))  # then the run is stopped
    assert [c.resumed for c in first] == [False, False, False]

    again = list(regrade("2011-07", "2012-07"))

    resumed = [(c.list_id, c.rate) for c in again if c.resumed]
    assert resumed == [("2011-07", "standard"), ("2012-01", "standard")]
    assert "already recomputed by this run" in again[0].to_text()
    assert not any(c.resumed for c in regrade("2011-07", "2012-07", again=True))


def test_a_what_if_replay_records_its_rule_set_and_cannot_be_published() -> None:
    _history()
    checks = [c for c in regrade("2012-01", "2012-07", rules_name="ecf-2015") if c.draft]

    assert {c.rule_set for c in checks} == {"ecf-2015"}
    draft = ListVersion.objects.get(grading_list__list_id="2012-07", name="august")
    assert draft.rules_name == "ecf-2015"
    with pytest.raises(VersionError, match="what-if draft and cannot be published"):
        publish_version("2012-07", STANDARD, "august")
    published = ListEntry.objects.filter(version__status=ListVersion.Status.PUBLISHED)
    assert {e.version.rules_name for e in published.select_related("version")} == {
        "ecf-2009",
        "ecf-2012",
    }
