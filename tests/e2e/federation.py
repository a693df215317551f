"""A small federation for end-to-end tests: results files written by hand, in code.

Players are referenced by grading code; opponents are one-off players whose starting
grade is assigned (G6) so that each golden player's figures can be worked out by hand.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from itertools import count

from ecfgrading.engine import GradingCode, Rate
from ecfgrading.registry.models import Player
from ecfgrading.services.grading.assignments import assign_starting_grade

STANDARD_CONTROL = "#MOVES FIRST SESSION=40\n#MINUTES FIRST SESSION=100\n#MINUTES REST OF GAME=30"
RAPID_CONTROL = "#MINUTES FOR GAME=25\n#SECONDS PER MOVE=10"


@dataclass
class Federation:
    """Players on record and the results files of their events."""

    codes: count[int] = field(default_factory=lambda: count(100_001))
    events: count[int] = field(default_factory=lambda: count(1))
    assigned_from: str = "2009-07"  # the first list opponents' assigned grades apply to

    def player(self, surname: str, forenames: str = "A", born: date | None = None) -> Player:
        return Player.objects.create(
            code=next(self.codes), surname=surname, forenames=forenames, date_of_birth=born
        )

    def opponent(self, rate: Rate, grade: float) -> Player:
        """A one-off opponent whose starting grade is assigned from the first list on."""
        player = self.player(f"Opponent{grade:g}", f"No{next(self.codes)}")
        assign_starting_grade(player.ref, rate, valid_from=self.assigned_from, grade=grade)
        return player

    def event(
        self,
        games: list[tuple[Player, str, Player, date]],
        *,
        rate: Rate = Rate.STANDARD,
        code: str | None = None,
        index: int = 1,
    ) -> tuple[str, bytes]:
        """A results file with OTHER RESULTS: (player1, SCORE, player2, game date)."""
        code = code or f"E2E{next(self.events):04d}"
        players = {p.id: p for g in games for p in (g[0], g[2])}
        pins = {pid: pin for pin, pid in enumerate(players, start=1)}
        days = [g[3] for g in games]
        lines = [
            "#EVENT DETAILS",
            f"#EVENT CODE={code}",
            f"#SUBMISSION INDEX={index}",
            f"#EVENT NAME=Test event {code}",
            f"#EVENT DATE={min(days):%d/%m/%Y}",
            f"#FINAL RESULT DATE={max(days):%d/%m/%Y}",
            "#RESULTS OFFICER=A N Grader",
            "#RESULTS OFFICER ADDRESS=1 High Street",
            "#TREASURER=A Treasurer",
            "#TREASURER ADDRESS=2 High Street",
            STANDARD_CONTROL if rate is Rate.STANDARD else RAPID_CONTROL,
            "#PLAYER LIST",
        ]
        lines += [
            f"#PIN={pins[p.id]}#REF={GradingCode(p.code)}#NAME={p.surname}, {p.forenames}"
            for p in players.values()
        ]
        lines.append("#OTHER RESULTS=Games")
        lines += [
            f"#PIN1={pins[a.id]}#SCORE={score}#PIN2={pins[b.id]}#GAME DATE={day:%d/%m/%Y}"
            for a, score, b, day in games
        ]
        lines.append("#FINISH")
        return f"{code}.txt", "\n".join(lines).encode()

    def against(
        self,
        me: Player,
        scores: list[str],
        grade: float,
        day: date,
        rate: Rate = Rate.STANDARD,
    ) -> list[tuple[Player, str, Player, date]]:
        """Games of ``me`` against fresh opponents assigned ``grade``, one per score."""
        return [(me, score, self.opponent(rate, grade), day) for score in scores]
