"""Events registered with the federation before they are played, as organisers do.

Registration gives each event its kind and a results deadline, so the grading team's
chase list has something to chase: a few events of the last season never send results.
"""

from __future__ import annotations

from datetime import date

from ecfgrading.demo.events import EventKind
from ecfgrading.demo.generator import Federation
from ecfgrading.engine.rateplay import rate_of_play
from ecfgrading.engine.types import Rate
from ecfgrading.formats import parse_results
from ecfgrading.registry.models import Event
from ecfgrading.services.events import register_events as register
from ecfgrading.services.officers import results_deadline
from ecfgrading.services.results.write import store_time_control

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
MISSING = (  # registered, played in the last season, never reported: the chase list's content
    ("CG159901", "Midsummer Weekend Congress 2015", date(2015, 5, 15), date(2015, 5, 17)),
    ("LG159902", "County League Division 3 2014-15", date(2014, 9, 15), date(2015, 5, 11)),
    ("CC159903", "Riverside Club Championship 2014-15", date(2014, 10, 6), date(2015, 5, 18)),
)


def register_events(federation: Federation, actor: str) -> int:
    """Register every event of the demo (and the three that never report) in bulk,
    audited as done by ``actor``.

    The dates are those the event's results file gives (EVENT DATE, FINAL RESULT DATE):
    its first and last games.
    """
    events = {}
    for demo_file in federation.files:
        if demo_file.event_code in events:
            continue  # a corrected second submission of an event already registered
        events[demo_file.event_code] = _event(
            demo_file.event_code, demo_file.event_name, _KIND[demo_file.kind],
            demo_file.first_day, demo_file.last_day,
        )  # fmt: skip
        _registered_rate(events[demo_file.event_code], demo_file.data)
    for code, name, start, end in MISSING:
        kind = {"CG": "congress", "LG": "league"}.get(code[:2], "club")
        events[code] = _event(code, name, kind, start, end)
    return len(register(events.values(), actor=actor))


def _registered_rate(event: Event, data: bytes) -> None:
    """The organiser registers the time control his file will give (issue 24, case 4:
    the registered rate is the contract a file is held to), read from its header."""
    head = data.split(b"#PLAYER LIST", 1)[0].decode("utf-8", errors="replace")
    results, _ = parse_results(head)
    control = results.event.time_control if results is not None else None
    if control is None:
        return
    store_time_control(event, control)
    event.environment = control.environment
    found = rate_of_play(control)
    event.rate = found.value if isinstance(found, Rate) else "none"
    event.not_graded_reason = "" if isinstance(found, Rate) else found.value


def _event(code: str, name: str, kind: str, start: date, end: date) -> Event:
    # Standard until the organiser's time control says otherwise (_registered_rate).
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
