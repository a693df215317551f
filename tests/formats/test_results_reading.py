"""Reading results files: the spec's example and every variant results-file.md accepts."""

from __future__ import annotations

import io
from datetime import date

import pytest

from ecfgrading.engine.codes import GradingCode
from ecfgrading.engine.rateplay import Session, TimeControl, rate_of_play
from ecfgrading.engine.types import Rate, ResultCode
from ecfgrading.formats import (
    Colour,
    EventDetails,
    GameResult,
    PartKind,
    PlayerEntry,
    ResultsFile,
    WhiteOn,
    parse_results,
    read_results,
    read_results_bytes,
)
from tests.formats.samples import (
    EVENT,
    EVENT_HEAD,
    SECTION,
    SPEC_EXAMPLE,
    line_of,
    results_text,
)


def read_ok(text: str) -> ResultsFile:
    results, report = parse_results(text)
    assert report.problems == ()
    assert results is not None
    return results


def event_of(text: str) -> EventDetails:
    return read_ok(text).event


# -- the example of results-file.md ------------------------------------------------------


@pytest.fixture(scope="module")
def example() -> ResultsFile:
    results, report = read_results(io.StringIO(SPEC_EXAMPLE))
    assert report.ok and len(report) == 0
    assert results is not None
    return results


def test_the_spec_example_has_its_event_details(example: ResultsFile) -> None:
    event = example.event
    assert event.code == "XX12345"
    assert event.submission_index == 1
    assert event.name == "Anytown Congress 2013 Open"
    assert event.event_date == date(2013, 5, 11)
    assert event.final_result_date == date(2013, 5, 12)
    assert event.results_officer == "A N Grader"
    assert event.results_officer_address == ("1 High Street, Anytown",)
    assert event.treasurer == "A Treasurer"
    assert event.treasurer_address == ("2 High Street, Anytown",)


def test_the_spec_example_is_36_moves_in_90_minutes_then_15_so_standard(
    example: ResultsFile,
) -> None:
    control = example.event.time_control
    assert control == TimeControl((Session(90, 36),), rest_minutes=15)
    assert rate_of_play(control) is Rate.STANDARD  # G2: T = 105


def test_the_spec_example_has_its_two_players(example: ResultsFile) -> None:
    bloggs, smith = example.players
    assert bloggs == PlayerEntry(
        pin=1, code_text="261619B", code=GradingCode(261619), name="Bloggs, Joe", club_code="7WAL"
    )
    assert smith == PlayerEntry(
        pin=2, name="Smith, Jane", club_name="Anytown", date_of_birth=date(2001, 3, 2)
    )
    assert (bloggs.line, smith.line) == (15, 16)


def test_the_spec_example_has_one_section_of_two_games(example: ResultsFile) -> None:
    (part,) = example.parts
    assert (part.kind, part.name, part.white_on) == (PartKind.SECTION, "Open", WhiteOn.UNKNOWN)
    first, second = part.games
    assert first == GameResult(1, ResultCode.WIN, 2, Colour.WHITE, date(2013, 5, 11), round=1)
    assert second == GameResult(2, ResultCode.DRAW, 1, Colour.WHITE, date(2013, 5, 12), round=2)
    assert (first.line, second.line) == (19, 20)


# -- lexical rules ---------------------------------------------------------------------


def test_field_names_ignore_case_and_spaces() -> None:
    text = SPEC_EXAMPLE.replace("#EVENT CODE=", "#Event Code=").replace(
        "#SUBMISSION INDEX=", "#SUBMISSIONINDEX="
    )
    text = text.replace("#GAME DATE=", "#game  date=")
    results = read_ok(text)
    assert results.event.code == "XX12345"
    assert results.event.submission_index == 1
    assert results.parts[0].games[0].game_date == date(2013, 5, 11)


def test_fields_may_stand_one_per_line() -> None:
    text = SPEC_EXAMPLE.replace("#PIN1=1#SCORE=10#PIN2=2#", "#PIN1=1\n#SCORE=10\n#PIN2=2\n#")
    game = read_ok(text).parts[0].games[0]
    assert (game.pin1, game.score, game.pin2, game.round) == (1, ResultCode.WIN, 2, 1)


def test_values_are_trimmed() -> None:
    text = SPEC_EXAMPLE.replace("#EVENT NAME=Anytown", "#EVENT NAME =   Anytown")
    text = text.replace("#PIN=2#", "#PIN= 2 #")
    results = read_ok(text.replace("Open\n", "Open   \n"))
    assert results.event.name == "Anytown Congress 2013 Open"
    assert results.players[1].pin == 2


@pytest.mark.parametrize("finish", ["#FINISH", "#FINISH#", "#Finish", "#FINISH\n\n"])
def test_every_spelling_of_finish_ends_the_file(finish: str) -> None:
    read_ok(SPEC_EXAMPLE.replace("#FINISH\n", finish))


def test_anything_after_finish_is_ignored() -> None:
    text = SPEC_EXAMPLE + "#NOT A FIELD=x\nsome trailing notes\n#PIN1=9#SCORE=xx\n"
    assert read_ok(text) == read_ok(SPEC_EXAMPLE)


def test_finish_may_follow_event_details_directly() -> None:
    results = read_ok(SPEC_EXAMPLE.split("#PLAYER LIST")[0] + "#FINISH\n")
    assert results.players == ()
    assert results.parts == ()
    assert results.event.code == "XX12345"


def test_crlf_line_endings_read_like_lf() -> None:
    assert read_ok(SPEC_EXAMPLE.replace("\n", "\r\n")) == read_ok(SPEC_EXAMPLE)


def test_it_reads_utf8_bytes_and_drops_a_byte_order_mark() -> None:
    text = SPEC_EXAMPLE.replace("Smith, Jane", "Smíth, Jané")
    results, report = read_results_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    assert report.problems == ()
    assert results is not None and results.players[1].name == "Smíth, Jané"
    assert results.event.line == 1


def test_it_falls_back_to_windows_1252_for_old_files() -> None:
    text = SPEC_EXAMPLE.replace("Smith, Jane", "Smith, Zoë")
    results, report = read_results_bytes(text.encode("cp1252"))
    assert report.problems == ()
    assert results is not None and results.players[1].name == "Smith, Zoë"


def test_a_text_handle_drops_a_byte_order_mark_too() -> None:
    results, report = read_results(io.StringIO("\ufeff" + SPEC_EXAMPLE))
    assert report.problems == ()
    assert results is not None and results.event.code == "XX12345"


@pytest.mark.parametrize(
    ("written", "expected"),
    [
        ("11/05/2013", date(2013, 5, 11)),
        ("1/5/2013", date(2013, 5, 1)),
        ("01/5/2013", date(2013, 5, 1)),
    ],
)
def test_dates_are_dd_mm_yyyy_or_d_m_yyyy(written: str, expected: date) -> None:
    text = EVENT.replace("#EVENT DATE=11/05/2013", f"#EVENT DATE={written}")
    text = text.replace("#FINAL RESULT DATE=12/05/2013", "#FINAL RESULT DATE=31/05/2013")
    assert event_of(results_text(event=text, results="")).event_date == expected


def test_final_results_date_is_another_spelling_of_final_result_date() -> None:
    text = EVENT.replace("#FINAL RESULT DATE=", "#FINAL RESULTS DATE=")
    assert event_of(results_text(event=text)).final_result_date == date(2013, 5, 12)


def test_address_fields_may_repeat() -> None:
    text = EVENT.replace(
        "#RESULTS OFFICER ADDRESS=1 High Street, Anytown\n",
        "#RESULTS OFFICER ADDRESS=1 High Street\n#RESULTS OFFICER ADDRESS=Anytown\n",
    ).replace("#TREASURER ADDRESS=2 High Street, Anytown\n", "#TREASURER ADDRESS=2 High St\n" * 3)
    event = event_of(results_text(event=text))
    assert event.results_officer_address == ("1 High Street", "Anytown")
    assert event.treasurer_address == ("2 High St",) * 3


# -- time controls (results-file.md; rate by G2) ----------------------------------------


def control_of(fields: str) -> TimeControl | None:
    return event_of(results_text(event=EVENT_HEAD + fields)).time_control


def test_combination_a_is_minutes_for_game() -> None:
    assert control_of("#MINUTES FOR GAME=90\n") == TimeControl((Session(90),))


def test_combination_b_is_a_first_session_and_a_rest_of_game() -> None:
    fields = "#MOVES FIRST SESSION=40\n#MINUTES FIRST SESSION=100\n#MINUTES REST OF GAME=30\n"
    control = control_of(fields)
    assert control == TimeControl((Session(100, 40),), rest_minutes=30)
    assert control is not None and control.total_minutes() == 130  # G2 worked example


def test_combination_c_is_two_sessions_with_an_optional_rest_of_game() -> None:
    two = (
        "#MOVES FIRST SESSION=40#MINUTES FIRST SESSION=120\n"
        "#MOVES SECOND SESSION=20#MINUTES SECOND SESSION=60\n"
    )
    sessions = (Session(120, 40), Session(60, 20))
    assert control_of(two) == TimeControl(sessions)
    assert control_of(two + "#MINUTES REST OF GAME=15\n") == TimeControl(sessions, rest_minutes=15)


def test_seconds_per_move_is_the_increment() -> None:
    control = control_of("#MINUTES FOR GAME=15\n#SECONDS PER MOVE=10\n")
    assert control == TimeControl((Session(15),), increment_seconds=10)
    assert control is not None and rate_of_play(control) is Rate.RAPID  # G2: 15 min + 10 s


def test_environment_defaults_to_otb_and_is_carried_by_the_time_control() -> None:
    assert control_of("#MINUTES FOR GAME=90\n") == TimeControl((Session(90),), environment="OTB")
    results, report = parse_results(results_text(event=EVENT + "#ENVIRONMENT=Online\n"))
    assert results is not None and results.event.time_control is not None
    assert results.event.time_control.environment == "Online"
    assert report.codes() == ["not-graded"]


def test_minutes_may_have_a_fraction() -> None:
    assert control_of("#MINUTES FOR GAME=92.5\n") == TimeControl((Session(92.5),))


def test_adjudicated_and_inform_fields_are_recorded_with_or_without_a_value() -> None:
    text = EVENT + "#ADJUDICATED=N\n#INFORM FIDE\n#INFORM GRAND PRIX=Y#INFORM UNION=Y\n"
    event = event_of(results_text(event=text + "#INFORM CHESSMOVES=\n"))
    assert event.adjudicated == "N"
    assert event.inform_fide == ""
    assert event.inform_grand_prix == "Y"
    assert event.inform_union == "Y"
    assert event.inform_chessmoves == ""
    assert event_of(results_text()).inform_fide is None


def test_event_details_remember_the_line_of_each_field() -> None:
    event = event_of(results_text())
    assert event.field_lines["SUBMISSION INDEX"] == 3
    assert event.field_lines["MINUTES FOR GAME"] == 11


# -- player sets ------------------------------------------------------------------------


def player_of(fields: str) -> PlayerEntry:
    (player,) = read_ok(results_text(players=f"#PLAYER LIST\n{fields}\n", results="")).players
    return player


@pytest.mark.parametrize("name", ["REF", "ECF CODE", "BCF CODE", "ecf code"])
def test_ref_ecf_code_and_bcf_code_all_give_the_grading_code(name: str) -> None:
    player = player_of(f"#PIN=1#{name}=155624B#NAME=Cole, Cy")
    assert player.code == GradingCode(155624)
    assert player.code_text == "155624B"


def test_the_older_surname_forename_and_initials_make_the_full_name() -> None:
    player = player_of("#PIN=7#SURNAME=Bloggs#FORENAME=Joe#INITIALS=A#CLUB=Anytown")
    assert (player.surname, player.forename, player.initials) == ("Bloggs", "Joe", "A")
    assert player.name == ""
    assert player.full_name == "Bloggs, Joe A"
    assert player.club_name == "Anytown"  # CLUB is an alias of CLUB NAME


def test_every_player_field_is_read() -> None:
    player = player_of(
        "#PIN=12#ECF CODE=233310H#NAME=Able, Ann#GENDER=F#TITLE=WFM#DATE OF BIRTH=1/2/1990"
        "#CLUB CODE=7WAL#CLUB NAME=Anytown#CLUB COUNTY=Midshire#ECF NO=M12345#FIDE NO=400041"
        "#COMMENT=new member"
    )
    assert player == PlayerEntry(
        pin=12,
        code_text="233310H",
        code=GradingCode(233310),
        name="Able, Ann",
        gender="F",
        title="WFM",
        date_of_birth=date(1990, 2, 1),
        club_code="7WAL",
        club_name="Anytown",
        club_county="Midshire",
        membership_no="M12345",
        fide_no="400041",
        comment="new member",
    )


def test_bcf_no_is_another_name_for_the_membership_number() -> None:
    assert player_of("#PIN=1#NAME=Cole, Cy#CLUB CODE=7WAL#BCF NO=A99").membership_no == "A99"


def test_a_player_set_may_spread_over_several_lines() -> None:
    player = player_of("#PIN=3\n#NAME=Cole, Cy\n#REF=155624B")
    assert (player.pin, player.name, str(player.code)) == (3, "Cole, Cy", "155624B")


# -- results parts ----------------------------------------------------------------------


def test_match_results_carry_boards_and_white_on() -> None:
    part_text = (
        "#MATCH RESULTS=Anytown v Otherton\n#WHITE ON=ODD\n#RESULTS DATE=11/05/2013\n"
        "#PIN1=1#SCORE=01#PIN2=2#BOARD=1\n#PIN1=3#SCORE=1d#PIN2=4#BOARD=2\n"
    )
    (part,) = read_ok(results_text(results=part_text)).parts
    assert (part.kind, part.name, part.white_on) == (
        PartKind.MATCH,
        "Anytown v Otherton",
        WhiteOn.ODD,
    )
    assert part.results_date == date(2013, 5, 11)
    assert [(g.score, g.board) for g in part.games] == [
        (ResultCode.LOSS, 1),
        (ResultCode.DEFAULT_WIN, 2),
    ]


def test_other_results_carry_a_date_for_every_game() -> None:
    text = results_text(
        results="#OTHER RESULTS=Friendlies\n#PIN1=1#SCORE=d1#PIN2=2#GAME DATE=12/05/2013\n"
    )
    (part,) = read_ok(text).parts
    assert part.kind is PartKind.OTHER
    assert part.games == (GameResult(1, ResultCode.DEFAULT_LOSS, 2, game_date=date(2013, 5, 12)),)


@pytest.mark.parametrize(
    ("score", "code"),
    [
        ("10", ResultCode.WIN),
        ("01", ResultCode.LOSS),
        ("55", ResultCode.DRAW),
        ("1d", ResultCode.DEFAULT_WIN),
        ("d1", ResultCode.DEFAULT_LOSS),
        ("dd", ResultCode.DOUBLE_DEFAULT),
        ("1D", ResultCode.DEFAULT_WIN),
    ],
)
def test_each_score_code_is_read(score: str, code: ResultCode) -> None:
    text = results_text(results=f"#SECTION RESULTS=Open\n#PIN1=1#SCORE={score}#PIN2=2\n")
    assert read_ok(text).parts[0].games[0].score is code


@pytest.mark.parametrize(
    ("written", "colour"),
    [("WHITE", Colour.WHITE), ("W", Colour.WHITE), ("BLACK", Colour.BLACK), ("b", Colour.BLACK)],
)
def test_colour_is_white_black_w_or_b(written: str, colour: Colour) -> None:
    text = results_text(
        results=f"#SECTION RESULTS=Open\n#PIN1=1#SCORE=10#PIN2=2#COLOUR={written}\n"
    )
    assert read_ok(text).parts[0].games[0].colour is colour


def test_a_result_set_carries_a_comment() -> None:
    text = results_text(
        results="#SECTION RESULTS=A\n#PIN1=1#SCORE=55#PIN2=2#ROUND=99#COMMENT=agreed\n"
    )
    game = read_ok(text).parts[0].games[0]
    assert (game.round, game.comment) == (99, "agreed")


def test_a_file_may_hold_several_parts_of_different_kinds() -> None:
    results = "#SECTION RESULTS=Open\n#PIN1=1#SCORE=10#PIN2=2#ROUND=1\n" + (
        "#SECTION RESULTS=Minor\n#PIN1=3#SCORE=01#PIN2=4#ROUND=1\n"
        "#MATCH RESULTS=A v B\n#PIN1=1#SCORE=55#PIN2=4#BOARD=1\n"
    )
    parts = read_ok(results_text(results=results)).parts
    assert [(p.kind, p.name, len(p.games)) for p in parts] == [
        (PartKind.SECTION, "Open", 1),
        (PartKind.SECTION, "Minor", 1),
        (PartKind.MATCH, "A v B", 1),
    ]


def test_game_lines_are_the_lines_their_sets_start_on() -> None:
    text = results_text()
    games = read_ok(text).parts[0].games
    assert [g.line for g in games] == [line_of(text, "#PIN1=1"), line_of(text, "#PIN1=3")]


# -- the table shorthand ----------------------------------------------------------------


TABLE = """\
#SECTION RESULTS=Open
#COLUMN=PIN1#COLUMN=SCORE#COLUMN=PIN2#COLUMN=ROUND#COLUMN=GAME DATE
#TABLE START
#1#10#2#1#11/05/2013
#3#55#4#1#11/05/2013
#TABLE END
"""


def test_a_table_reads_like_the_same_result_sets_written_out() -> None:
    assert read_ok(results_text(results=TABLE)) == read_ok(results_text(results=SECTION))


def test_table_rows_keep_their_own_lines() -> None:
    text = results_text(results=TABLE)
    games = read_ok(text).parts[0].games
    assert [g.line for g in games] == [line_of(text, "#1#10"), line_of(text, "#3#55")]


def test_a_table_may_hold_players_too() -> None:
    players = (
        "#PLAYER LIST\n#COLUMN=PIN#COLUMN=NAME#COLUMN=REF\n#TABLE START\n"
        "#1#Able, Ann#233310H\n#2#Baker, Bob#102807J\n#3#Cole, Cy#155624B\n#4#Dale, Di#261619B\n"
        "#TABLE END\n"
    )
    assert read_ok(results_text(players=players)) == read_ok(results_text())


def test_table_values_may_spread_over_lines_in_any_way() -> None:
    table = TABLE.replace("#1#10#2#1#11/05/2013\n#3#55#4", "#1#10#2\n#1#11/05/2013#3\n#55#4")
    games = read_ok(results_text(results=table)).parts[0].games
    assert [(g.pin1, g.score, g.pin2) for g in games] == [
        (1, ResultCode.WIN, 2),
        (3, ResultCode.DRAW, 4),
    ]
