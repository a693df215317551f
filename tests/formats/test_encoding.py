"""Bytes to text: UTF-8, Windows-1252 line by line, UTF-16 with or without a BOM, and
reports that stay bounded and storable whatever a file holds."""

from __future__ import annotations

import pytest

from ecfgrading.formats import read_grade_list_bytes, read_results_bytes
from ecfgrading.formats.encoding import decode
from ecfgrading.formats.problems import MAX_PROBLEMS, Problem, ProblemLog
from ecfgrading.formats.trf import TrfEvent, read_trf_bytes
from tests.formats.samples import SPEC_EXAMPLE, line_of

ACCENTED = SPEC_EXAMPLE.replace("Bloggs, Joe", "Müller, José")
TRF_EVENT = TrfEvent(code="XX777", submission_index=1)


def test_a_utf8_file_with_one_windows_1252_line_keeps_its_utf8_names() -> None:
    utf8_line = "#PIN=1#BCF CODE=261619B#NAME=Müller, José#CLUB CODE=7WAL"
    cp1252_line = "#PIN=2#NAME=Señor, Zoë#CLUB NAME=Anytown#DATE OF BIRTH=02/03/2001"
    text = ACCENTED.replace(
        "#PIN=2#NAME=Smith, Jane#CLUB NAME=Anytown#DATE OF BIRTH=02/03/2001", "@CP1252@"
    )
    data = text.encode("utf-8").replace(b"@CP1252@", cp1252_line.encode("cp1252"))
    decoded = decode(data)
    assert utf8_line in decoded.text and cp1252_line in decoded.text
    assert "Ã" not in decoded.text
    assert decoded.fallback_lines == (line_of(text, "@CP1252@"),)
    assert decoded.bad_lines == ()


def test_a_strict_reading_stops_at_a_line_in_no_encoding_and_never_raises() -> None:
    """A strict reading (the first error stops it) of a file (results, list or TRF) whose
    line is neither UTF-8 nor Windows-1252 returns no file and that line's problem; it
    raised StopReading."""
    text = SPEC_EXAMPLE.replace("Smith, Jane", "@NAME@")
    mixed = "Müller".encode() + b", " + "José".encode("cp1252")
    data = text.encode("utf-8").replace(b"@NAME@", mixed)
    results, report = read_results_bytes(data, strict=True)
    assert results is None
    assert [(p.code, p.line) for p in report.problems] == [
        ("bad-encoding", line_of(text, "@NAME@"))
    ]
    header = "Ref,Name,Sex,JrAge,Cat,Grade,Grade1,Games,RCat,RGrade,RGrade1,RGames\n"
    listed, list_report = read_grade_list_bytes(header.encode() + mixed, strict=True)
    assert listed is None
    assert [(p.code, p.line) for p in list_report.problems] == [("bad-encoding", 2)]
    trf_results, trf_report = read_trf_bytes(b"012 Town\n001 " + mixed, TRF_EVENT, strict=True)
    assert trf_results is None
    assert [(p.code, p.line) for p in trf_report.problems] == [("bad-encoding", 2)]


def test_a_windows_1252_line_in_a_utf8_file_is_a_warning_at_that_line() -> None:
    text = ACCENTED.replace("Smith, Jane", "@NAME@")
    data = text.encode("utf-8").replace(b"@NAME@", "Señor, Zoë".encode("cp1252"))
    results, report = read_results_bytes(data)
    assert results is not None
    assert [p.name for p in results.players] == ["Müller, José", "Señor, Zoë"]
    assert report.codes() == ["mixed-encoding"]
    problem = report.problems[0]
    assert (problem.line, problem.severity) == (line_of(text, "@NAME@"), "warning")
    assert report.ok


def test_a_line_mixing_utf8_and_windows_1252_is_an_error_at_that_line() -> None:
    text = SPEC_EXAMPLE.replace("Smith, Jane", "@NAME@")
    mixed = "Müller".encode() + b", " + "José".encode("cp1252")
    data = text.encode("utf-8").replace(b"@NAME@", mixed)
    _, report = read_results_bytes(data)
    assert report.codes() == ["bad-encoding"]
    assert report.problems[0].line == line_of(text, "@NAME@")
    assert not report.ok


def test_a_whole_windows_1252_file_reads_without_a_word() -> None:
    results, report = read_results_bytes(ACCENTED.encode("cp1252"))
    assert results is not None and report.problems == ()
    assert results.players[0].name == "Müller, José"
    assert decode(ACCENTED.encode("cp1252")).encoding == "windows-1252"


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be", "utf-16"])
def test_utf16_is_read_with_or_without_a_byte_order_mark(codec: str) -> None:
    results, report = read_results_bytes(ACCENTED.encode(codec))
    assert results is not None and report.problems == ()
    assert results.players[0].name == "Müller, José"


def test_a_utf16_file_without_a_bom_is_named_as_such() -> None:
    assert decode(SPEC_EXAMPLE.encode("utf-16-le")).encoding == "utf-16-le"
    assert decode(SPEC_EXAMPLE.encode("utf-16-be")).encoding == "utf-16-be"


def test_a_problem_escapes_a_nul_and_keeps_at_most_200_characters_of_a_bad_value() -> None:
    problem = Problem.make("bad-score", 3, "SCORE\x00", "10 or 01", "1\x00" + "x" * 500)
    assert "\x00" not in problem.got + problem.field + problem.message
    assert problem.got.startswith("1\\x00x")
    assert len(problem.got) <= 200


def test_a_log_lists_at_most_its_limit_and_counts_the_rest_as_one_error() -> None:
    log = ProblemLog(limit=3)
    for line in range(1, 4):
        log.add("bad-gender", line, "GENDER", "M or F", "X")  # warnings
    for line in range(4, 9):
        log.add("bad-score", line, "SCORE", "10", "1-0")  # 5 errors, none listed
    report = log.report()
    assert len(report) == 4
    extra = report.problems[-1]
    assert (extra.code, extra.line, extra.severity) == ("more-problems", 4, "error")
    assert "5 more errors and 0 more warnings" in extra.message
    assert not report.ok


def test_only_warnings_past_the_limit_leave_the_file_acceptable() -> None:
    log = ProblemLog(limit=1)
    for line in (1, 2, 3):
        log.add("bad-gender", line, "GENDER", "M or F", "X")
    report = log.report()
    assert report.codes() == ["bad-gender", "more-warnings"]
    assert report.ok


def test_a_file_of_junk_gets_a_bounded_report() -> None:
    junk = SPEC_EXAMPLE.replace("#FINISH\n", "#PIN1=1#SCORE=1-0#PIN2=2#ROUND=1\n" * 5000)
    _, report = read_results_bytes(junk.encode())
    assert len(report) <= MAX_PROBLEMS + 1
    assert "more-problems" in report.codes()
    assert not report.ok


def test_a_utf16_file_cut_mid_character_is_recognised_and_its_last_line_named() -> None:
    data = SPEC_EXAMPLE.encode("utf-16-le")[:-1]  # odd length: the last pair is cut
    decoded = decode(data)
    assert decoded.encoding == "utf-16-le"
    assert decoded.bad_lines == (line_of(SPEC_EXAMPLE, "#FINISH"),)
