"""Small results files for the format tests, and helpers to find lines in them."""

from __future__ import annotations

from ecfgrading.formats import Problem, Problems, parse_results

# The example of results-file.md, section 1, verbatim.
SPEC_EXAMPLE = """\
#EVENT DETAILS
#EVENT CODE=XX12345
#SUBMISSION INDEX=1
#EVENT NAME=Anytown Congress 2013 Open
#EVENT DATE=11/05/2013
#FINAL RESULT DATE=12/05/2013
#RESULTS OFFICER=A N Grader
#RESULTS OFFICER ADDRESS=1 High Street, Anytown
#TREASURER=A Treasurer
#TREASURER ADDRESS=2 High Street, Anytown
#MOVES FIRST SESSION=36
#MINUTES FIRST SESSION=90
#MINUTES REST OF GAME=15
#PLAYER LIST
#PIN=1#BCF CODE=261619B#NAME=Bloggs, Joe#CLUB CODE=7WAL
#PIN=2#NAME=Smith, Jane#CLUB NAME=Anytown#DATE OF BIRTH=02/03/2001
#SECTION RESULTS=Open
#WHITE ON=Unknown
#PIN1=1#SCORE=10#PIN2=2#ROUND=1#GAME DATE=11/05/2013#COLOUR=WHITE
#PIN1=2#SCORE=55#PIN2=1#ROUND=2#GAME DATE=12/05/2013#COLOUR=WHITE
#FINISH
"""

EVENT_HEAD = """\
#EVENT DETAILS
#EVENT CODE=XX12345
#SUBMISSION INDEX=1
#EVENT NAME=Anytown Rapidplay
#EVENT DATE=11/05/2013
#FINAL RESULT DATE=12/05/2013
#RESULTS OFFICER=A N Grader
#RESULTS OFFICER ADDRESS=1 High Street, Anytown
#TREASURER=A Treasurer
#TREASURER ADDRESS=2 High Street, Anytown
"""
TIME_CONTROL = "#MINUTES FOR GAME=90\n"
EVENT = EVENT_HEAD + TIME_CONTROL

# G28 examples that must validate: 233310H, 102807J, 155624B, 261619B.
PLAYERS = """\
#PLAYER LIST
#PIN=1#REF=233310H#NAME=Able, Ann
#PIN=2#REF=102807J#NAME=Baker, Bob
#PIN=3#REF=155624B#NAME=Cole, Cy
#PIN=4#REF=261619B#NAME=Dale, Di
"""

SECTION = """\
#SECTION RESULTS=Open
#PIN1=1#SCORE=10#PIN2=2#ROUND=1#GAME DATE=11/05/2013
#PIN1=3#SCORE=55#PIN2=4#ROUND=1#GAME DATE=11/05/2013
"""


def results_text(
    event: str = EVENT, players: str = PLAYERS, results: str = SECTION, finish: str = "#FINISH\n"
) -> str:
    return event + players + results + finish


def line_of(text: str, fragment: str, occurrence: int = 1) -> int:
    """The 1-based number of the line holding ``fragment`` (its n-th occurrence)."""
    found = [n for n, line in enumerate(text.split("\n"), 1) if fragment in line]
    return found[occurrence - 1]


def problems(text: str, code: str) -> list[Problem]:
    _, report = parse_results(text)
    return [problem for problem in report if problem.code == code]


def only(text: str, code: str) -> Problem:
    """The single problem of ``code``; fails if there are none or several."""
    found = problems(text, code)
    assert len(found) == 1, f"expected one {code}, got {found}"
    return found[0]


def report_of(text: str) -> Problems:
    return parse_results(text)[1]
