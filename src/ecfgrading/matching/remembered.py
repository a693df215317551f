"""The grading team's identification decisions, remembered (issue 24, case 3).

Pure: no Django, no database. A decision of the team (a link, a new player, a merge)
is remembered as the file's spelling of the name, with its club and its event, naming
the player; the import service loads those its file may meet and asks ``recall``
about each player the matcher could not decide by itself.

The rule (docs/team.md, "Remembered decisions"): a remembered decision answers only
where the matcher would queue the player or put him on record as new, never against a
grading code that identifies someone or a confident match by name.

- In the same event (a resubmission, a later file of a league), the same spelling with
  the same club, or with no club on either side, is the player the team chose.
- In another event the evidence must be as strong: the file gives no grading code, it
  gives the club and the club agrees, and every decision remembered for that spelling
  at that club names the same player.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date

from ecfgrading.matching.identify import Decision, DecisionKind, Received
from ecfgrading.matching.names import parse_name

# What the matcher leaves to a person, or to a new record: a remembered decision may say.
_UNDECIDED = frozenset({DecisionKind.PENDING, DecisionKind.CREATE_NEW})


def undecided(decision: Decision) -> bool:
    """Whether the matcher left the player to a person or to a new record: the only
    players a remembered decision may identify (the module's rule)."""
    return decision.kind in _UNDECIDED


def spelling_key(written: str) -> str:
    """A name as written, folded: 'SMYTH, J.' and 'Smyth, J' agree; 'Smyth, John' not."""
    name = parse_name(written)
    return f"{name.surname},{' '.join(name.forenames)}"


@dataclass(frozen=True)
class Remembered:
    """A decision of the team: this spelling, at this club, in this event, is the player."""

    player_id: int  # the surviving record (merges followed)
    event_id: int
    spelling_key: str
    club_code: str  # folded as ``Received`` folds it ('' for none)
    club_name: str
    decided_on: date

    def club_agrees(self, entry: Received) -> bool:
        """Codes compared when both give one, else names; no club on both sides agrees."""
        if self.club_code and entry.club_code:
            return self.club_code == entry.club_code
        return self.club_name == entry.club_name

    def same_spelling(self, entry: Received) -> bool:
        return self.spelling_key == spelling_key(entry.written)


def recall(
    entry: Received, decision: Decision, event_id: int | None, remembered: Iterable[Remembered]
) -> Remembered | None:
    """The team's decision that identifies ``entry`` in the event ``event_id``, if any.

    ``decision`` is the matcher's; the team's decision is taken only where the matcher
    could not decide by itself (the module's rule).
    """
    if not undecided(decision):
        return None
    met = [one for one in remembered if one.same_spelling(entry) and one.club_agrees(entry)]
    here = [one for one in met if one.event_id == event_id]
    if here:
        return max(here, key=lambda one: one.decided_on)  # the latest word of the team
    return _elsewhere(entry, met)


def _elsewhere(entry: Received, met: list[Remembered]) -> Remembered | None:
    """A decision of another event: only as strong evidence as the event's own."""
    given_club = bool(entry.club_code or entry.club_name)
    if entry.code is not None or not given_club or not met:
        return None
    if len({one.player_id for one in met}) != 1:
        return None  # the team chose differently in different events: ask again
    return max(met, key=lambda one: one.decided_on)


def as_decision(entry: Received, remembered: Remembered) -> Decision:
    """The link the remembered decision makes, saying so."""
    message = (
        f"'{entry.written}' identified as the team decided on {remembered.decided_on:%d/%m/%Y}"
    )
    return Decision(DecisionKind.LINK, remembered.player_id, messages=(message,))
