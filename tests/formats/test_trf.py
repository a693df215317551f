"""The FIDE TRF-16 reader (issue 11, item 8): a pairing program's report read into the
results model the results-file reader produces. Expected values are read off the file
below by hand."""

from __future__ import annotations

import datetime as dt

from hypothesis import given, settings
from hypothesis import strategies as st

from ecfgrading.engine.rateplay import TimeControl
from ecfgrading.engine.types import ResultCode
from ecfgrading.formats.results_model import Colour, GameResult, PartKind
from ecfgrading.formats.trf import TrfEvent, is_trf, parse_trf, read_trf_bytes

EVENT = TrfEvent(code="XX777", submission_index=1)
Round = tuple[int, str, str]  # opponent (0: none), colour w/b/-, result


def player(
    rank: int,
    name: str,
    rounds: list[Round],
    *,
    sex: str = "m",
    title: str = "",
    rating: str = "",
    fed: str = "ENG",
    fide: str = "",
    birth: str = "",
    points: str = "0.0",
) -> str:
    """A 001 line in TRF-16's columns (FIDE handbook C.04 annex 2)."""
    head = (
        f"001 {rank:>4} {sex:1}{title:>3} {name:<33} {rating:>4} {fed:<3} {fide:>11}"
        f" {birth:<10} {points:>4} {rank:>4}"
    )
    return head + "".join(f"  {o or '0000':>4} {c} {r}" for o, c, r in rounds)


# Rounds: 1 Adams-Bloggs 1-0, Smith-Jones draw, Brown a half-point bye; 2 Smith-Adams
# 0-1, Bloggs wins by forfeit against Brown, Jones a pairing-allocated bye; 3 Adams-Jones
# "not rated" (W/L), Smith-Bloggs draw, Brown a zero-point bye.
PLAYERS = [
    player(
        1,
        "Adams,Michael",
        [(2, "w", "1"), (3, "b", "1"), (4, "w", "W")],
        title="g",
        rating="2700",
        fide="400041",
        birth="1971/11/17",
        points="3.0",
    ),
    player(2, "Bloggs,Joe", [(1, "b", "0"), (5, "-", "+"), (3, "b", "=")], fide="0"),
    player(
        3,
        "Smith,Jane",
        [(4, "w", "="), (1, "w", "0"), (2, "w", "=")],
        sex="w",
        title="wf",
        fide="12345678",
        birth="2001/03/02",
    ),
    player(4, "Jones,Tom", [(3, "b", "="), (0, "-", "U"), (1, "b", "L")]),
    player(5, "Brown,Ann", [(0, "-", "H"), (2, "-", "-"), (0, "-", "Z")], sex="w"),
]
HEAD = [
    "012 Anytown Rapidplay 2013",
    "022 Anytown",
    "032 ENG",
    "042 2013/05/11",
    "052 2013/05/12",
    "102 A N Arbiter",
    "122 90+30",
]
ROUND_DATES = "132" + " " * 88 + "13/05/11  13/05/11  13/05/12"


def trf(players: list[str] = PLAYERS, head: list[str] = HEAD) -> str:
    return "\n".join([*head, ROUND_DATES, *players]) + "\n"


def test_a_trf_reads_into_the_results_model_with_each_game_once() -> None:
    results, report = parse_trf(trf(), EVENT)

    assert results is not None
    (part,) = results.parts
    assert part.kind is PartKind.SECTION and part.name == "Anytown Rapidplay 2013"
    day1, day2 = dt.date(2013, 5, 11), dt.date(2013, 5, 12)
    assert part.games == (
        GameResult(1, ResultCode.WIN, 2, Colour.WHITE, day1, round=1),
        GameResult(1, ResultCode.WIN, 3, Colour.BLACK, day1, round=2),
        GameResult(2, ResultCode.DEFAULT_WIN, 5, None, day1, round=2),  # forfeit: G1
        GameResult(2, ResultCode.DRAW, 3, Colour.BLACK, day2, round=3),
        GameResult(3, ResultCode.DRAW, 4, Colour.WHITE, day1, round=1),
    )
    # Adams-Jones is marked not rated: left out, and said.
    assert [(p.code, p.line, p.severity) for p in report] == [("trf-not-rated", 9, "warning")]


def test_the_forfeit_is_recorded_but_not_graded_and_byes_are_no_games() -> None:
    results, _ = parse_trf(trf(), EVENT)

    assert results is not None
    graded = [g for _, g in results.games() if g.score.graded]
    assert len(graded) == 4  # five games read, one of them a forfeit
    assert all(5 not in (g.pin1, g.pin2) or not g.score.graded for _, g in results.games())


def test_players_keep_their_fide_id_name_sex_title_and_birth_date() -> None:
    results, _ = parse_trf(trf(), EVENT)

    assert results is not None
    adams, bloggs, smith = results.players[:3]
    assert (adams.pin, adams.name, adams.fide_no, adams.title) == (
        1,
        "Adams, Michael",
        "400041",
        "g",
    )
    assert adams.date_of_birth == dt.date(1971, 11, 17) and adams.gender == "M"
    assert (bloggs.fide_no, bloggs.date_of_birth) == ("", None)  # FIDE id 0: none
    assert (smith.gender, smith.title, smith.fide_no) == ("F", "wf", "12345678")
    assert adams.line == 9 and smith.line == 11


def test_the_event_takes_its_code_and_index_from_the_caller_and_the_rest_from_the_file() -> None:
    results, _ = parse_trf(trf(), TrfEvent("XX777", 3))

    assert results is not None
    event = results.event
    assert (event.code, event.submission_index, event.name) == (
        "XX777",
        3,
        "Anytown Rapidplay 2013",
    )
    assert (event.event_date, event.final_result_date) == (
        dt.date(2013, 5, 11),
        dt.date(2013, 5, 12),
    )
    assert event.time_control == TimeControl.game(90, 30)  # 122 90+30


def test_the_registered_time_control_wins_over_the_122_line() -> None:
    registered = TimeControl.game(20, 10)
    head = [line for line in HEAD if not line.startswith("122")] + ["122 40/120, 60"]

    results, report = parse_trf(trf(head=head), TrfEvent("XX777", 1, registered))

    assert results is not None and results.event.time_control == registered
    assert "no-time-control" not in report.codes()


def test_a_122_line_it_cannot_read_without_a_registered_control_is_an_error() -> None:
    head = [line for line in HEAD if not line.startswith("122")] + ["122 40/120, 60"]

    _, report = parse_trf(trf(head=head), EVENT)

    (problem,) = report.errors
    assert (problem.code, problem.line, problem.got) == ("no-time-control", 7, "40/120, 60")


def test_lines_that_disagree_are_an_error_at_the_second_players_line() -> None:
    players = list(PLAYERS)
    players[1] = player(2, "Bloggs,Joe", [(1, "b", "1"), (5, "-", "+"), (3, "b", "=")])

    results, report = parse_trf(trf(players), EVENT)

    (problem,) = report.errors
    assert (problem.code, problem.line, problem.field) == ("trf-mismatch", 10, "round 1")
    assert problem.got == "1 b 1"
    assert results is not None and (1, 2) not in {(g.pin1, g.pin2) for _, g in results.games()}


def test_every_bad_line_is_reported_with_its_number() -> None:
    players = [
        player(1, "Adams,Michael", [(9, "w", "1")], birth="1971/13/17"),  # no rank 9; month
        player(2, "Bloggs,Joe", [(1, "x", "1")]),  # colour x
        player(2, "Bloggs,Jim", []),  # rank used twice
        "001 abcd",  # no start rank
    ]

    _, report = parse_trf(trf(players), EVENT)

    assert [(p.code, p.line) for p in report] == [
        ("bad-date", 9),
        ("unknown-pin", 9),
        ("trf-line", 10),
        ("duplicate-pin", 11),
        ("trf-line", 12),
    ]


def test_a_double_forfeit_is_a_double_default() -> None:
    players = [
        player(1, "Adams,Michael", [(2, "-", "-")]),
        player(2, "Bloggs,Joe", [(1, "-", "-")]),
    ]

    results, report = parse_trf(trf(players), EVENT)

    assert report.ok and results is not None
    assert [g.score for _, g in results.games()] == [ResultCode.DOUBLE_DEFAULT]


def test_a_file_without_player_lines_is_not_read() -> None:
    results, report = parse_trf("012 Nothing here\n", EVENT)

    assert results is None and report.codes() == ["empty-file"]


def test_trf_is_told_from_a_results_file_by_its_content() -> None:
    assert is_trf(trf().encode())
    assert is_trf(b"\xef\xbb\xbf" + trf().encode())
    assert not is_trf(b"#EVENT DETAILS\n#EVENT CODE=XX1\n")
    assert not is_trf(b"Dear grading team,\n001 is our club number\n")


def test_windows_1252_names_are_read() -> None:
    data = trf([player(1, "M\xfcller,J\xfcrgen", []), *PLAYERS[1:2]]).encode("cp1252")

    results, _ = read_trf_bytes(data, EVENT)

    assert results is not None and results.players[0].name == "Müller, Jürgen"


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(alphabet="001 2345wb=+-WDLHFUZ/.,abc", max_size=140), max_size=8))
def test_any_text_gives_a_report_and_never_raises(lines: list[str]) -> None:
    results, report = parse_trf("\n".join(lines), EVENT)

    assert results is None or results.event.code == "XX777"
    assert all(p.line >= 1 for p in report)
