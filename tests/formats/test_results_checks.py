"""Every check of results-file.md "What a check must catch", one small file each."""

from __future__ import annotations

import pytest

from ecfgrading.formats import (
    PROBLEM_CODES,
    Problem,
    code_of_another_player,
    parse_results,
    read_results_bytes,
    stale_submission_index,
)
from tests.formats.samples import (
    EVENT,
    EVENT_HEAD,
    PLAYERS,
    SPEC_EXAMPLE,
    line_of,
    only,
    problems,
    report_of,
    results_text,
)


def section(*result_lines: str, name: str = "Open") -> str:
    return f"#SECTION RESULTS={name}\n" + "".join(f"{line}\n" for line in result_lines)


def assert_problem(problem: Problem, line: int, field: str, severity: str = "error") -> None:
    assert (problem.line, problem.field, problem.severity) == (line, field, severity)


# -- messages and the report ------------------------------------------------------------


def test_it_rejects_a_score_of_1_0_saying_what_was_expected() -> None:
    text = results_text(results=section("#PIN1=1#SCORE=1-0#PIN2=2"))
    problem = only(text, "bad-score")
    line = line_of(text, "SCORE=1-0")
    assert_problem(problem, line, "SCORE")
    assert (problem.expected, problem.got) == ("10, 01, 55, 1d, d1 or dd", "1-0")
    assert problem.message == f"expected SCORE 10, 01, 55, 1d, d1 or dd, got '1-0' (line {line})"
    assert str(problem) == problem.message


def test_a_valid_file_has_an_empty_report() -> None:
    report = report_of(SPEC_EXAMPLE)
    assert report.ok
    assert (report.errors, report.warnings, len(report)) == ((), (), 0)


def test_every_problem_code_is_described() -> None:
    for code, kind in PROBLEM_CODES.items():
        assert kind.severity in ("error", "warning"), code
        assert kind.description, code


def test_a_file_with_many_mistakes_reports_every_one_in_line_order() -> None:
    text = (
        EVENT.replace("#SUBMISSION INDEX=1", "#SUBMISSION INDEX=one")  # line 3
        + "#EVNT NAME=typo\n"  # line 12
        + "#PLAYER LIST\n"
        + "#PIN=1#REF=233310A#NAME=Able, Ann\n"  # line 14: check letter
        + "#PIN=2#NAME=Baker, Bob\n"  # line 15: no code or club
        + "#PIN=2#NAME=Cole, Cy#CLUB=Anytown\n"  # line 16: PIN used twice
        + "#PIN=4#REF=261619B#DATE OF BIRTH=30/02/2001#NAME=Dale, Di\n"  # line 17: no such day
        + "#SECTION RESULTS=Open\n"
        + "#PIN1=1#SCORE=1-0#PIN2=2#ROUND=1\n"  # line 19
        + "#PIN1=1#SCORE=10#PIN2=9#ROUND=2\n"  # line 20: PIN 9 unknown
        + "#PIN1=4#SCORE=55#PIN2=4#ROUND=1#COLOUR=RED\n"  # line 21: himself, colour
        + "#PIN1=1#SCORE=01#PIN2=2#ROUND=100\n"  # line 22: round
        + "#PIN1=2#SCORE=10#PIN2=1#ROUND=3\n"
        + "#PIN1=1#SCORE=10#PIN2=2#ROUND=3#GAME DATE=13/06/2013\n"  # line 24: date, pair
    )  # and no #FINISH: line 24
    found = [(p.code, p.line) for p in report_of(text)]
    assert found == [
        ("bad-number", 3),
        ("unknown-field", 12),
        ("bad-check-letter", 14),
        ("no-code-or-club", 15),
        ("duplicate-pin", 16),
        ("bad-date", 17),
        ("bad-score", 19),
        ("unknown-pin", 20),
        ("bad-colour", 21),
        ("plays-himself", 21),
        ("bad-round", 22),
        ("missing-finish", 24),
        ("date-outside-event", 24),
        ("repeated-pairing", 24),
    ]


def test_a_file_with_errors_still_returns_what_could_be_read() -> None:
    text = results_text(results=section("#PIN1=1#SCORE=1-0#PIN2=2", "#PIN1=3#SCORE=55#PIN2=4"))
    results, report = parse_results(text)
    assert not report.ok
    assert results is not None
    assert [(g.pin1, g.pin2) for g in results.parts[0].games] == [(3, 4)]


def test_strict_mode_stops_at_the_first_error_and_returns_no_file() -> None:
    text = results_text(results=section("#PIN1=1#SCORE=1-0#PIN2=2", "#PIN1=3#SCORE=xx#PIN2=4"))
    results, report = parse_results(text, strict=True)
    assert results is None
    assert report.codes() == ["bad-score"]


def test_strict_mode_goes_on_past_warnings() -> None:
    text = results_text(results=section("#PIN1=1#SCORE=10#PIN2=2#GAME DATE=01/01/2014"))
    results, report = parse_results(text, strict=True)
    assert results is not None
    assert report.codes() == ["date-outside-event"]


# -- layout -----------------------------------------------------------------------------


def test_it_reports_an_unknown_field_name() -> None:
    text = results_text(event=EVENT + "#EVENT VENUE=Town Hall\n")
    assert_problem(only(text, "unknown-field"), line_of(text, "VENUE"), "EVENT VENUE")


def test_it_reports_an_unknown_column_of_a_table_once() -> None:
    table = "#SECTION RESULTS=Open\n#COLUMN=PIN1#COLUMN=SCORE#COLUMN=PIN2#COLUMN=SEAT\n"
    table += "#TABLE START\n#1#10#2#4\n#3#55#4#5\n#TABLE END\n"
    text = results_text(results=table)
    assert_problem(only(text, "unknown-field"), line_of(text, "SEAT"), "COLUMN")


def test_it_reports_a_known_field_in_the_wrong_section() -> None:
    text = results_text(players=PLAYERS + "#SCORE=10\n")
    assert_problem(only(text, "misplaced-field"), line_of(text, "#SCORE=10"), "SCORE")


def test_it_reports_a_file_not_starting_with_event_details() -> None:
    text = results_text(event=EVENT.replace("#EVENT DETAILS\n", ""))
    assert_problem(only(text, "missing-section"), 1, "EVENT DETAILS")
    assert report_of(text).codes() == ["missing-section"]


def test_it_reports_results_without_a_player_list() -> None:
    text = results_text(players="")
    problem = only(text, "missing-section")
    assert_problem(problem, line_of(text, "#SECTION RESULTS"), "PLAYER LIST")


def test_it_reports_event_details_after_the_player_list() -> None:
    text = results_text(players=PLAYERS + "#EVENT DETAILS\n")
    problem = only(text, "section-order")
    assert_problem(problem, line_of(text, "#EVENT DETAILS", 2), "EVENT DETAILS")


def test_it_reports_a_missing_finish() -> None:
    text = results_text(finish="")
    assert_problem(only(text, "missing-finish"), line_of(text, "#PIN1=3"), "FINISH")


def test_it_warns_of_text_outside_any_field() -> None:
    text = results_text(event=EVENT.replace("Anytown\n", "Anytown\nAnyshire\n", 1))
    assert_problem(only(text, "stray-text"), line_of(text, "Anyshire"), "", "warning")


def test_it_reports_a_table_without_columns() -> None:
    text = results_text(results="#SECTION RESULTS=A\n#TABLE START\n#1#10#2\n#TABLE END\n")
    assert_problem(only(text, "bad-table"), line_of(text, "#TABLE START"), "COLUMN")


def test_it_reports_a_table_not_closed() -> None:
    text = results_text(
        results="#SECTION RESULTS=A\n#COLUMN=PIN1#COLUMN=SCORE#COLUMN=PIN2\n#TABLE START\n#1#10#2\n"
    )
    assert_problem(only(text, "bad-table"), line_of(text, "#1#10#2"), "TABLE END")


def test_it_reports_a_table_whose_values_are_not_a_multiple_of_its_columns() -> None:
    table = "#SECTION RESULTS=A\n#COLUMN=PIN1#COLUMN=SCORE#COLUMN=PIN2\n#TABLE START\n"
    text = results_text(results=table + "#1#10#2\n#3#55\n#TABLE END\n")
    problem = only(text, "table-size")
    assert_problem(problem, line_of(text, "#3#55"), "TABLE END")
    assert problem.got == "5"


# -- sets -------------------------------------------------------------------------------


def test_it_reports_a_missing_mandatory_event_field_on_the_event_details_line() -> None:
    text = results_text(event=EVENT.replace("#TREASURER=A Treasurer\n", ""))
    assert_problem(only(text, "missing-field"), 1, "TREASURER")


def test_it_reports_an_empty_mandatory_event_field() -> None:
    text = results_text(event=EVENT.replace("#EVENT NAME=Anytown Rapidplay", "#EVENT NAME="))
    assert_problem(only(text, "missing-field"), line_of(text, "#EVENT NAME"), "EVENT NAME")


def test_it_reports_a_result_set_without_pin2() -> None:
    text = results_text(results=section("#PIN1=1#SCORE=10#ROUND=1"))
    assert_problem(only(text, "missing-field"), line_of(text, "#PIN1=1"), "PIN2")


def test_other_results_need_a_game_date() -> None:
    text = results_text(results="#OTHER RESULTS=Friendlies\n#PIN1=1#SCORE=10#PIN2=2\n")
    assert_problem(only(text, "missing-field"), line_of(text, "#PIN1=1"), "GAME DATE")


def test_it_reports_score_out_of_order_in_a_result_set() -> None:
    text = results_text(results=section("#PIN1=1#ROUND=1#SCORE=10#PIN2=2"))
    problem = only(text, "field-order")
    assert_problem(problem, line_of(text, "#PIN1=1"), "SCORE")
    assert problem.got == "ROUND"


def test_it_reports_pin2_before_score() -> None:
    text = results_text(results=section("#PIN1=1\n#PIN2=2\n#SCORE=10"))
    assert [(p.field, p.line) for p in problems(text, "field-order")] == [
        ("PIN2", line_of(text, "#PIN2=2")),
        ("SCORE", line_of(text, "#SCORE=10")),
    ]


def test_it_reports_a_player_field_before_any_pin() -> None:
    text = results_text(players=PLAYERS.replace("#PLAYER LIST\n", "#PLAYER LIST\n#NAME=Nobody\n"))
    assert_problem(only(text, "field-order"), line_of(text, "Nobody"), "PIN")


def test_it_reports_a_result_field_before_any_pin1() -> None:
    text = results_text(results=section("#ROUND=3", "#PIN1=1#SCORE=10#PIN2=2"))
    assert_problem(only(text, "field-order"), line_of(text, "#ROUND=3"), "PIN1")


def test_it_reports_a_field_given_twice_in_a_set() -> None:
    text = results_text(results=section("#PIN1=1#SCORE=10#PIN2=2#ROUND=1#ROUND=2"))
    assert_problem(only(text, "repeated-field"), line_of(text, "#ROUND=2"), "ROUND")


# -- values -----------------------------------------------------------------------------


@pytest.mark.parametrize("written", ["2013-05-11", "11/05/13", "11.05.2013", "11/05/2013x"])
def test_it_rejects_a_date_not_written_dd_mm_yyyy(written: str) -> None:
    text = results_text(results=section(f"#PIN1=1#SCORE=10#PIN2=2#GAME DATE={written}"))
    assert_problem(only(text, "bad-date"), line_of(text, "GAME DATE"), "GAME DATE")


@pytest.mark.parametrize(
    "written", ["31/02/2013", "29/02/2013", "00/05/2013", "11/13/2013", "11/05/0213"]
)
def test_it_rejects_a_day_that_does_not_exist(written: str) -> None:
    text = results_text(event=EVENT.replace("#EVENT DATE=11/05/2013", f"#EVENT DATE={written}"))
    assert_problem(only(text, "bad-date"), 5, "EVENT DATE")


def test_it_rejects_a_colour_not_in_the_list() -> None:
    text = results_text(results=section("#PIN1=1#SCORE=10#PIN2=2#COLOUR=RED"))
    assert_problem(only(text, "bad-colour"), line_of(text, "RED"), "COLOUR")


@pytest.mark.parametrize("written", ["0", "100", "x", "-1"])
def test_it_rejects_a_round_outside_1_to_99(written: str) -> None:
    text = results_text(results=section(f"#PIN1=1#SCORE=10#PIN2=2#ROUND={written}"))
    assert_problem(only(text, "bad-round"), line_of(text, "#ROUND"), "ROUND")


def test_it_rejects_a_white_on_not_in_the_list() -> None:
    text = results_text(results=section("#WHITE ON=SOMETIMES", "#PIN1=1#SCORE=10#PIN2=2"))
    assert_problem(only(text, "bad-white-on"), line_of(text, "SOMETIMES"), "WHITE ON")


@pytest.mark.parametrize(
    ("field", "value"), [("PIN", "A"), ("SUBMISSION INDEX", "one"), ("BOARD", "1a")]
)
def test_it_rejects_a_number_that_is_not_a_whole_number(field: str, value: str) -> None:
    text = results_text(
        event=EVENT.replace("#SUBMISSION INDEX=1", f"#SUBMISSION INDEX={value}")
        if field == "SUBMISSION INDEX"
        else EVENT,
        players=PLAYERS.replace("#PIN=4#", f"#PIN={value}#") if field == "PIN" else PLAYERS,
        results=(
            "#MATCH RESULTS=A v B\n#PIN1=1#SCORE=10#PIN2=2#BOARD=1a\n" if field == "BOARD" else ""
        ),
    )
    assert_problem(only(text, "bad-number"), line_of(text, f"#{field}={value}"), field)


def test_it_warns_of_a_gender_other_than_m_or_f() -> None:
    text = results_text(players=PLAYERS.replace("#NAME=Able, Ann", "#NAME=Able, Ann#GENDER=X"))
    assert_problem(only(text, "bad-gender"), line_of(text, "GENDER"), "GENDER", "warning")


def test_it_warns_of_a_club_code_not_of_four_characters() -> None:
    text = results_text(
        players=PLAYERS.replace("#NAME=Able, Ann", "#NAME=Able, Ann#CLUB CODE=7WALX")
    )
    assert_problem(only(text, "bad-club-code"), line_of(text, "7WALX"), "CLUB CODE", "warning")


def test_it_warns_of_a_board_outside_match_results() -> None:
    text = results_text(results=section("#PIN1=1#SCORE=10#PIN2=2#BOARD=1"))
    assert_problem(only(text, "field-not-for-part"), line_of(text, "BOARD"), "BOARD", "warning")


def test_it_warns_of_a_round_outside_section_results() -> None:
    text = results_text(results="#MATCH RESULTS=A v B\n#PIN1=1#SCORE=10#PIN2=2#ROUND=1\n")
    assert_problem(only(text, "field-not-for-part"), line_of(text, "ROUND"), "ROUND", "warning")


# -- grading codes (G28) ----------------------------------------------------------------


@pytest.mark.parametrize("code", ["23331", "2333100H", "23331OH", "H233310", "233310"])
def test_it_rejects_a_grading_code_of_the_wrong_shape(code: str) -> None:
    text = results_text(players=PLAYERS.replace("233310H", code))
    assert_problem(only(text, "bad-code"), line_of(text, "Able"), "REF")


def test_it_rejects_a_grading_code_with_a_wrong_check_letter() -> None:
    text = results_text(players=PLAYERS.replace("#REF=261619B", "#BCF CODE=261619C"))
    problem = only(text, "bad-check-letter")
    assert_problem(problem, line_of(text, "261619C"), "BCF CODE")
    assert "check letter B" in problem.expected  # G28's own example is 261619B


def test_an_invalid_code_keeps_its_text_for_the_grading_team() -> None:
    results, _ = parse_results(results_text(players=PLAYERS.replace("261619B", "261619C")))
    assert results is not None
    assert (results.players[3].code_text, results.players[3].code) == ("261619C", None)


# -- time control and rate of play (G1, G2) ---------------------------------------------


def test_it_reports_an_event_without_a_time_control() -> None:
    text = results_text(event=EVENT_HEAD)
    assert_problem(only(text, "no-time-control"), 1, "MINUTES FOR GAME")


def test_it_reports_two_time_controls() -> None:
    fields = "#MINUTES FOR GAME=90\n#MOVES FIRST SESSION=40\n#MINUTES FIRST SESSION=100\n"
    text = results_text(event=EVENT_HEAD + fields + "#MINUTES REST OF GAME=30\n")
    problem = only(text, "two-time-controls")
    assert_problem(problem, line_of(text, "#MOVES FIRST"), "MOVES FIRST SESSION")


def test_it_reports_a_first_session_without_the_rest_of_the_game() -> None:
    text = results_text(event=EVENT_HEAD + "#MOVES FIRST SESSION=40\n#MINUTES FIRST SESSION=100\n")
    problem = only(text, "incomplete-time-control")
    assert_problem(problem, line_of(text, "#MOVES FIRST"), "MINUTES REST OF GAME")


def test_it_reports_a_second_session_without_its_moves() -> None:
    fields = "#MOVES FIRST SESSION=40\n#MINUTES FIRST SESSION=100\n#MINUTES SECOND SESSION=50\n"
    problem = only(results_text(event=EVENT_HEAD + fields), "incomplete-time-control")
    assert problem.field == "MOVES SECOND SESSION"


def test_it_warns_that_nothing_is_graded_at_lightning_rate() -> None:
    # G2 worked example: 5 min + 3 s -> T = 8 -> not graded.
    text = results_text(event=EVENT_HEAD + "#MINUTES FOR GAME=5\n#SECONDS PER MOVE=3\n")
    problem = only(text, "not-graded")
    assert_problem(problem, line_of(text, "#MINUTES FOR GAME"), "MINUTES FOR GAME", "warning")
    assert problem.got == "lightning"
    assert "nothing in this file will be graded" in problem.message


def test_it_warns_that_nothing_is_graded_online() -> None:
    text = results_text(event=EVENT + "#ENVIRONMENT=ONLINE\n")
    problem = only(text, "not-graded")
    assert_problem(problem, line_of(text, "ONLINE"), "ENVIRONMENT", "warning")


def test_ten_minutes_and_five_seconds_is_rapid_so_no_warning() -> None:
    # G2 worked example: 10 min + 5 s -> T = 15 -> rapid.
    text = results_text(event=EVENT_HEAD + "#MINUTES FOR GAME=10\n#SECONDS PER MOVE=5\n")
    assert report_of(text).problems == ()


def test_it_reports_a_final_result_date_before_the_event_date() -> None:
    text = results_text(
        event=EVENT.replace("#FINAL RESULT DATE=12/05/2013", "#FINAL RESULT DATE=10/05/2013"),
        results="",
    )
    problem = only(text, "dates-reversed")
    assert_problem(problem, line_of(text, "#FINAL RESULT DATE"), "FINAL RESULT DATE")


# -- players and games ------------------------------------------------------------------


def test_it_reports_a_pin_used_twice() -> None:
    text = results_text(players=PLAYERS.replace("#PIN=4#", "#PIN=2#"))
    problem = only(text, "duplicate-pin")
    assert_problem(problem, line_of(text, "Dale"), "PIN")
    assert f"line {line_of(text, 'Baker')}" in problem.expected  # where PIN 2 was first used


def test_it_reports_a_player_without_a_name() -> None:
    text = results_text(players=PLAYERS.replace("#NAME=Cole, Cy", ""))
    assert_problem(only(text, "missing-name"), line_of(text, "155624B"), "NAME")


def test_it_reports_a_player_with_neither_code_nor_club() -> None:
    text = results_text(players=PLAYERS.replace("#REF=155624B", ""))
    assert_problem(only(text, "no-code-or-club"), line_of(text, "Cole"), "ECF CODE")


def test_a_club_is_enough_without_a_code() -> None:
    text = results_text(players=PLAYERS.replace("#REF=155624B", "#CLUB CODE=7WAL"))
    assert report_of(text).problems == ()


def test_it_reports_a_result_naming_a_pin_not_in_the_player_list() -> None:
    text = results_text(results=section("#PIN1=1#SCORE=10\n#PIN2=7"))
    assert_problem(only(text, "unknown-pin"), line_of(text, "#PIN2=7"), "PIN2")


def test_it_reports_a_player_playing_himself() -> None:
    text = results_text(results=section("#PIN1=3#SCORE=10#PIN2=3"))
    assert_problem(only(text, "plays-himself"), line_of(text, "#PIN1=3"), "PIN2")


def test_it_reports_the_same_pair_meeting_twice_in_one_round() -> None:
    text = results_text(
        results=section("#PIN1=1#SCORE=10#PIN2=2#ROUND=1", "#PIN1=2#SCORE=55#PIN2=1#ROUND=1")
    )
    problem = only(text, "repeated-pairing")
    assert_problem(problem, line_of(text, "#PIN1=2"), "ROUND")
    assert problem.got == "2 v 1"


def test_the_same_pair_may_meet_in_different_rounds_or_sections() -> None:
    text = results_text(
        results=section("#PIN1=1#SCORE=10#PIN2=2#ROUND=1", "#PIN1=2#SCORE=55#PIN2=1#ROUND=2")
        + section("#PIN1=1#SCORE=10#PIN2=2#ROUND=1", name="Blitz play-off")
    )
    assert report_of(text).problems == ()


def test_it_warns_of_a_game_dated_outside_the_event() -> None:
    text = results_text(results=section("#PIN1=1#SCORE=10#PIN2=2\n#GAME DATE=10/05/2013"))
    problem = only(text, "date-outside-event")
    assert_problem(problem, line_of(text, "GAME DATE"), "GAME DATE", "warning")
    assert problem.expected == "from 11/05/2013 to 12/05/2013"


# -- whole files ------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["", "\n\n", "hello world\n"])
def test_a_file_without_any_field_gives_no_results(text: str) -> None:
    results, report = parse_results(text)
    assert results is None
    assert "empty-file" in report.codes()


def test_it_rejects_a_line_of_bytes_that_are_neither_utf8_nor_windows_1252() -> None:
    data = SPEC_EXAMPLE.replace("Smith", "Sm\x81th").encode("latin-1")
    _, report = read_results_bytes(data)
    assert report.codes() == ["bad-encoding"]
    assert_problem(report.problems[0], line_of(SPEC_EXAMPLE, "Smith"), "", "error")
    assert not report.ok


# -- the two checks that need the database: problems made for the import service -------


def test_a_code_belonging_to_another_name_is_an_error_naming_the_record() -> None:
    results, _ = parse_results(SPEC_EXAMPLE)
    assert results is not None
    problem = code_of_another_player(results.players[0], "Jones, Tom")
    assert_problem(problem, 15, "ECF CODE", "error")
    assert "'Jones, Tom'" in problem.message and problem.got == "261619B"


def test_a_submission_index_not_above_the_last_is_an_error_on_its_line() -> None:
    results, _ = parse_results(SPEC_EXAMPLE)
    assert results is not None
    problem = stale_submission_index(results.event, last_received=1)
    assert (problem.code, problem.line, problem.field, problem.got) == (
        "stale-submission-index",
        3,
        "SUBMISSION INDEX",
        "1",
    )
    assert problem.severity == "error"


def test_a_submission_index_of_0_is_an_error_on_its_line() -> None:
    text = SPEC_EXAMPLE.replace("#SUBMISSION INDEX=1", "#SUBMISSION INDEX=0")
    problem = only(text, "bad-number")
    assert_problem(problem, 3, "SUBMISSION INDEX")
    assert problem.expected == "1 or more"


def test_the_same_code_under_two_pins_is_an_error_at_the_second() -> None:
    text = SPEC_EXAMPLE.replace(
        "#PIN=2#NAME=Smith, Jane", "#PIN=2#BCF CODE=261619B#NAME=Bloggs, Joe"
    )
    problem = only(text, "duplicate-code")
    assert_problem(problem, line_of(text, "#PIN=2"), "ECF CODE")
    assert (
        problem.expected
        == f"a grading code on one PIN only (PIN 1, line {line_of(text, '#PIN=1')})"
    )
