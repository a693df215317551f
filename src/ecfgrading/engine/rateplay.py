"""Rate of play from a time control (G2) and which games are graded (G1)."""

from __future__ import annotations

from dataclasses import dataclass, field, fields

from ecfgrading.engine.rules import ECF_2009, RuleSet
from ecfgrading.engine.types import NotGraded, Rate


@dataclass(frozen=True)
class Session:
    """One time control: ``minutes`` for ``moves`` moves (None: the rest of the game)."""

    minutes: float
    moves: int | None = None


@dataclass(frozen=True)
class TimeControl:
    """What each player has: sessions, a quickplay finish and an increment."""

    sessions: tuple[Session, ...] = field(default_factory=tuple)
    rest_minutes: float = 0.0  # quickplay finish ('MINUTES REST OF GAME')
    increment_seconds: float = 0.0  # Fischer mode ('SECONDS PER MOVE')
    environment: str = "OTB"
    clocks: bool = True

    @classmethod
    def game(cls, minutes: float, increment_seconds: float = 0.0) -> TimeControl:
        """All moves in ``minutes`` ('MINUTES FOR GAME'), plus an increment."""
        return cls((Session(minutes),), increment_seconds=increment_seconds)

    def total_minutes(self, rules: RuleSet = ECF_2009) -> float:
        """G2: T = sessions + quickplay finish + increment over an assumed 60 moves."""
        sessions = sum(s.minutes for s in self.sessions)
        return sessions + self.rest_minutes + self.increment_seconds * rules.assumed_moves / 60

    def __str__(self) -> str:
        parts = [
            f"{s.moves} moves in {s.minutes:g} min" if s.moves else f"{s.minutes:g} min"
            for s in self.sessions
        ]
        if self.rest_minutes:
            parts.append(f"then {self.rest_minutes:g} min")
        text = ", ".join(parts) or "no time limit"
        return f"{text} + {self.increment_seconds:g} s/move" if self.increment_seconds else text


@dataclass(frozen=True)
class TimeControlInput:
    """A time control as the results file's header gives it (one of its combinations), in
    whole minutes and seconds: what an event records and an officer's form takes."""

    minutes_for_game: int | None = None
    moves_first_session: int | None = None
    minutes_first_session: int | None = None
    moves_second_session: int | None = None
    minutes_second_session: int | None = None
    minutes_rest_of_game: int | None = None
    seconds_per_move: int | None = None

    def as_engine(self) -> TimeControl:
        sessions: list[Session] = []
        if self.minutes_for_game:
            sessions.append(Session(self.minutes_for_game))
        if self.minutes_first_session:
            sessions.append(Session(self.minutes_first_session, self.moves_first_session))
        if self.minutes_second_session:
            sessions.append(Session(self.minutes_second_session, self.moves_second_session))
        return TimeControl(
            tuple(sessions),
            rest_minutes=float(self.minutes_rest_of_game or 0),
            increment_seconds=float(self.seconds_per_move or 0),
        )


# The header's time-control fields, each named as results-file.md names it
# ('minutes_for_game' is MINUTES FOR GAME): the event's columns too.
CONTROL_FIELDS = tuple(f.name for f in fields(TimeControlInput))


def rate_of_play(tc: TimeControl, rules: RuleSet = ECF_2009) -> Rate | NotGraded:
    """G2: standard, rapid, or the reason the games are not graded."""
    environment = tc.environment.strip().upper()
    if environment in ("CORRESPONDENCE", "CORR"):
        return NotGraded.CORRESPONDENCE
    if environment != "OTB":
        return NotGraded.ONLINE
    if not tc.clocks:
        return NotGraded.NO_CLOCK
    total = tc.total_minutes(rules)
    if total < rules.rapid_min_minutes:
        return NotGraded.LIGHTNING
    return Rate.RAPID if total < rules.standard_min_minutes else Rate.STANDARD
