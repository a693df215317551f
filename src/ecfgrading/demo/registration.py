"""Events registered with the federation before they are played, as organisers do.

Registration gives each event its kind and a results deadline, so the grading team's
chase list has something to chase: a few events of the last season never send results.
"""

from __future__ import annotations

from datetime import date

from ecfgrading.demo.events import EventKind
from ecfgrading.demo.generator import Federation
from ecfgrading.formats import read_results_bytes
from ecfgrading.registry.models import Event
from ecfgrading.services.officers import results_deadline

_KIND: dict[EventKind, str] = {  # Event.Kind values
    EventKind.LEAGUE: "league",
    EventKind.COUNTY: "county-match",
    EventKind.CLUB: "club",
    EventKind.CONGRESS: "congress",
    EventKind.RAPIDPLAY: "congress",
    EventKind.JUNIOR: "junior",
    EventKind.LIGHTNING: "other",
    EventKind.ONLINE: "other",
}
MISSING = (  # registered, played, never reported: the chase list's content
    ("CG129901", "Midsummer Weekend Congress 2012", date(2012, 5, 18), date(2012, 5, 20)),
    ("LG129902", "County League Division 3 2011-12", date(2011, 9, 12), date(2012, 5, 14)),
    ("CC129903", "Riverside Club Championship 2011-12", date(2011, 10, 3), date(2012, 5, 21)),
)


def register_events(federation: Federation) -> int:
    """Register every event of the demo (and the three that never report) in bulk."""
    events = {}
    for demo_file in federation.files:
        if demo_file.event_code in events:
            continue  # a corrected second submission of an event already registered
        results, _report = read_results_bytes(demo_file.data)
        details = results.event if results else None
        if details is None or details.event_date is None or details.final_result_date is None:
            continue
        events[demo_file.event_code] = _event(
            demo_file.event_code, demo_file.event_name, _KIND[demo_file.kind],
            details.event_date, details.final_result_date,
        )  # fmt: skip
    for code, name, start, end in MISSING:
        kind = {"CG": "congress", "LG": "league"}.get(code[:2], "club")
        events[code] = _event(code, name, kind, start, end)
    Event.objects.bulk_create(events.values(), batch_size=2000)
    return len(events)


def _event(code: str, name: str, kind: str, start: date, end: date) -> Event:
    # The rate is confirmed by the results file's time control (G2) when it arrives.
    return Event(
        code=code,
        name=name,
        kind=kind,
        rate="standard",
        start_date=start,
        end_date=end,
        results_deadline=results_deadline(end),
        status=Event.Status.REGISTERED,
    )
