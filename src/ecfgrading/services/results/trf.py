"""A FIDE TRF sent in place of a results file (issue 11, item 8): what the file lacks
(its event code, submission index and registered time control) comes from the event the
officer chose; its players' FIDE ids find the players on record; and the file is then
checked and imported like a results file (services.results.ingest)."""

from __future__ import annotations

from dataclasses import replace

from ecfgrading.engine.rateplay import TimeControl
from ecfgrading.formats.problems import Problem, Problems
from ecfgrading.formats.results_model import PlayerEntry, ResultsFile
from ecfgrading.formats.results_reader import Reading
from ecfgrading.formats.trf import TrfEvent, read_trf_bytes
from ecfgrading.matching.names import names_agree, parse_name
from ecfgrading.registry.models import Event, Player, Submission


def read_trf(data: bytes, event_code: str) -> Reading:
    """The TRF read for the event ``event_code``; without one, a report that asks for it
    (a TRF carries no event code)."""
    code = event_code.strip().upper()
    if not code:
        expected = "the event chosen with a TRF file (a TRF carries no event code)"
        return None, Problems((Problem.make("missing-field", 1, "EVENT CODE", expected, ""),))
    results, report = read_trf_bytes(data, trf_event(code))
    return (with_codes_by_fide_id(results) if results is not None else None), report


def with_codes_by_fide_id(results: ResultsFile) -> ResultsFile:
    """A TRF names players by FIDE id and name: a player whose FIDE id one player on
    record holds, under a name that agrees (matching.names, the test a grading code
    passes), gets that player's grading code, and identification links him by it. Any
    other is identified by name, as a results file's player without a code is."""
    ids = {int(p.fide_no) for p in results.players if p.fide_no.isdigit()}
    holders: dict[int, list[Player]] = {}
    for player in Player.objects.filter(fide_id__in=ids, merged_into__isnull=True):
        holders.setdefault(int(player.fide_id or 0), []).append(player)
    players = tuple(_coded(entry, holders) for entry in results.players)
    return replace(results, players=players)


def _coded(entry: PlayerEntry, holders: dict[int, list[Player]]) -> PlayerEntry:
    found = holders.get(int(entry.fide_no), []) if entry.fide_no.isdigit() else []
    if len(found) != 1 or not names_agree(parse_name(entry.name), parse_name(found[0].name)):
        return entry
    code = found[0].grading_code
    return replace(entry, code=code, code_text=str(code))


def trf_event(code: str) -> TrfEvent:
    """The next SUBMISSION INDEX of the event, and its registered time control."""
    last = (
        Submission.objects.filter(event_code=code, status__in=("accepted", "superseded"))
        .order_by("-submission_index")
        .values_list("submission_index", flat=True)
        .first()
    )
    event = Event.objects.filter(code=code).first()
    return TrfEvent(code, (last or 0) + 1, _registered_control(event))


def _registered_control(event: Event | None) -> TimeControl | None:
    """The time control the event was registered with (G2), as the officer's form took it."""
    return None if event is None else event.time_control()
