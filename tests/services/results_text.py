"""Results files written by hand for service tests (results-file.md layout)."""

from __future__ import annotations

HEADER = """#EVENT DETAILS
#EVENT CODE={code}
#SUBMISSION INDEX={index}
#EVENT NAME={name}
#EVENT DATE={start}
#FINAL RESULT DATE={end}
#RESULTS OFFICER=A N Grader
#RESULTS OFFICER ADDRESS=1 High Street, Anytown
#TREASURER=A Treasurer
#TREASURER ADDRESS=2 High Street, Anytown
{control}
#PLAYER LIST
"""

STANDARD = "#MOVES FIRST SESSION=36\n#MINUTES FIRST SESSION=90\n#MINUTES REST OF GAME=15"
RAPID = "#MINUTES FOR GAME=20\n#SECONDS PER MOVE=10"
LIGHTNING = "#MINUTES FOR GAME=5\n#SECONDS PER MOVE=3"


def results_file(
    players: list[str],
    games: list[str],
    *,
    code: str = "XX12345",
    index: int = 1,
    name: str = "Anytown Congress",
    start: str = "11/05/2013",
    end: str = "12/05/2013",
    control: str = STANDARD,
    part: str = "#SECTION RESULTS=Open",
) -> bytes:
    """A file with one player set per line of ``players`` and one result per ``games``."""
    head = HEADER.format(code=code, index=index, name=name, start=start, end=end, control=control)
    body = "\n".join(players) + "\n" + part + "\n" + "\n".join(games) + "\n#FINISH\n"
    return (head + body).encode()
