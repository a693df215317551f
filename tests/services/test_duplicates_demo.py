"""Issue 24, case 1, on the demo federation: one of its accepted files sent again under
a new code with a surname spelt otherwise, and a superset of it, are both flagged at
check time with the event and the count of games already on record (worked out by
plain SQL on the games the first file put on record)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connection

from ecfgrading.demo import build_demo
from ecfgrading.formats import read_results_bytes
from ecfgrading.registry.models import Submission
from ecfgrading.services.results.ingest import check_results
from tests.flushing import flush_database


@pytest.fixture(scope="module")
def demo_file(
    django_db_setup: None, django_db_blocker: Any, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Submission, int]]:
    """The tiny demo, and its accepted file with the most graded games, each between two
    players on record, with that number."""
    home: Path = tmp_path_factory.mktemp("demo-duplicates")
    with django_db_blocker.unblock():
        build_demo(home, size="tiny", seed=3)
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT s.id, COUNT(*) FROM registry_submission s"
                " JOIN registry_game g ON g.submission_id = s.id"
                " WHERE s.status = 'accepted' AND g.graded"
                " AND g.player1_id IS NOT NULL AND g.player2_id IS NOT NULL"
                " GROUP BY s.id ORDER BY COUNT(*) DESC, s.id LIMIT 1"
            )
            sid, games = cursor.fetchone()
        yield Submission.objects.get(id=sid), games
        flush_database()


def check(data: bytes) -> list[tuple[str, str]]:
    (report,) = check_results([("again.txt", data)])
    assert report.ok, report.to_text()
    return [(p.code, p.got) for p in report.problems]


def renamed(submission: Submission) -> bytes:
    """The file under the new code ZZ999, one player given by name only misspelt
    ('Surname' as 'Surnamee'): not the spelling on record."""
    raw = re.sub(rb"(#EVENT CODE=)[^#\r\n]*", rb"\g<1>ZZ999", bytes(submission.raw), count=1)
    results, _ = read_results_bytes(raw)
    assert results is not None
    uncoded = [e for e in results.players if e.code is None and e.full_name.isascii()]
    assert uncoded, "the demo's largest file gives every player's code"
    name = uncoded[0].full_name.encode()
    surname, _, rest = name.partition(b",")
    assert raw.count(b"=" + name) == 1
    return raw.replace(b"=" + name, b"=" + surname + b"e," + rest)


@pytest.mark.django_db
def test_a_demo_file_resent_under_a_new_code_with_a_surname_misspelt_is_flagged(
    demo_file: tuple[Submission, int],
) -> None:
    submission, games = demo_file
    held = f"{submission.event_code} (submission {submission.submission_index})"
    found = check(renamed(submission))
    assert (
        "games-already-received",
        f"{games} of its {games} graded games, on record under {held}",
    ) in found


@pytest.mark.django_db
def test_a_superset_of_a_demo_file_is_flagged_with_the_games_on_record(
    demo_file: tuple[Submission, int],
) -> None:
    submission, games = demo_file
    raw = renamed(submission)
    results, _ = read_results_bytes(raw)
    assert results is not None
    pins = sorted(e.pin for e in results.players)
    day = results.event.final_result_date or results.event.event_date
    assert day is not None
    extra = "".join(
        f"#PIN1={one}#SCORE=10#PIN2={two}#GAME DATE={day:%d/%m/%Y}\n"
        for one, two in ((pins[0], pins[1]), (pins[2], pins[3]))
    ).encode()
    larger = raw.replace(b"#FINISH", extra + b"#FINISH", 1)
    held = f"{submission.event_code} (submission {submission.submission_index})"
    found = check(larger)
    assert (
        "games-already-received",
        f"{games} of its {games + 2} graded games, on record under {held}",
    ) in found
