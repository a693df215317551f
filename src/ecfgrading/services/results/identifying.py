"""A file's players identified on an index of the registry: a function of the file and
the index alone, so that the same decisions come of it in the importer or, for a batch,
ahead of it in the reading process, on the copy of the index that process was forked
with (services.results.reading, issue 25).
"""

from __future__ import annotations

from dataclasses import dataclass

from ecfgrading.formats.problems import Problem
from ecfgrading.formats.results_checks import code_of_another_player
from ecfgrading.formats.results_model import PlayerEntry, ResultsFile
from ecfgrading.matching.identify import (
    Decision,
    DecisionKind,
    IndexChanges,
    MatchPolicy,
    Received,
    RecordIndex,
    identify,
)


@dataclass(frozen=True)
class Identification:
    """Each player of a file identified: what identification read of him, its decision,
    and the problems it found in the file."""

    received: dict[int, Received]  # PIN -> the entry, as identification reads it
    decisions: dict[int, Decision]  # PIN -> decision
    problems: tuple[Problem, ...]


def identify_players(
    results: ResultsFile,
    given: tuple[Received | None, ...],
    index: RecordIndex,
    policy: MatchPolicy,
    earlier: Identification | None = None,
    changes: IndexChanges | None = None,
) -> Identification:
    """Each player's decision on ``index`` (``given``: the file's player sets, in the
    order of its list, None for a malformed code, already an error of the file).

    ``earlier``: the file identified before on ``index`` as it stood then (or on a copy
    of it), which has taken in ``changes`` since; only the players those concern are
    identified again, the others' decisions being what identification now would make
    (IndexChanges)."""
    received: dict[int, Received] = {}
    decisions: dict[int, Decision] = {}
    problems: list[Problem] = []
    for entry, one in zip(results.players, given, strict=True):
        if one is None:
            continue
        before = earlier.decisions.get(entry.pin) if earlier is not None else None
        if earlier is not None and before is not None:
            one = earlier.received[entry.pin]
            concerned = changes is not None and changes.concern(one, before, policy)
            decision = identify(one, index, policy) if concerned else before
        else:
            decision = identify(one, index, policy)
        received[entry.pin] = one
        decisions[entry.pin] = decision
        if decision.kind in _TOLD and (problem := _problem(entry, decision, index)) is not None:
            problems.append(problem)  # a season's 80,000 decisions: no call for the rest
    return Identification(received, decisions, tuple(problems))


# Decisions that are a problem of the file, when it gives a code.
_TOLD = frozenset({DecisionKind.CODE_NAME_MISMATCH, DecisionKind.CREATE_WITH_CODE})


def _problem(entry: PlayerEntry, decision: Decision, index: RecordIndex) -> Problem | None:
    if decision.kind is DecisionKind.CREATE_WITH_CODE:
        return _code_not_on_record(entry)
    if entry.code is None:
        return None
    holder = index.holder(entry.code.number)
    return code_of_another_player(entry, holder.written if holder else "?")


def _code_not_on_record(entry: PlayerEntry) -> Problem:
    expected = "a grading code on record (records older than the system may lack it)"
    return Problem.make("code-not-on-record", entry.line, "ECF CODE", expected, entry.code_text)
