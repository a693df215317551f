"""Every public surface of the demo, scanned for every private field on record (issue 24,
case 7): membership numbers, e-mail addresses, dates of birth (ISO and British spellings)
and postal addresses never appear on a public page, its JSON twin, an /api/v1 answer, a
compatible (/v2, /api) answer or a published list file (CSV, JSON, XLSX).

The tiny demo is built here with the real pipeline, and its direct member then reports an
event played abroad, which the grading team accepts: the code of such an event was once
built from his membership number. The pages are found by following links from the home
page (a bounded number of each kind, every kind reached), the API answers by filling in
each route of the schema with the demo's records, the files from the lists page.
"""

from __future__ import annotations

import datetime as dt
import io
import json
import re
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import urljoin, urlsplit

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client, override_settings

from ecfgrading.demo import build_demo
from ecfgrading.demo.schedule import world_today
from ecfgrading.engine.rateplay import TimeControlInput
from ecfgrading.registry.models import (
    Club,
    County,
    DirectMember,
    Feedback,
    ForeignResult,
    ListEntry,
    OutboxMessage,
    PendingIdentification,
    Player,
    Submission,
)
from ecfgrading.services.abroad import AbroadEvent, AbroadGame, accept_abroad, submit_abroad
from tests.flushing import flush_database

pytestmark = pytest.mark.django_db

PER_KIND = 10  # pages of each kind (a kind: /players/<code>/, /clubs/?q=...)
MAX_PAGES = 1500
STARTS = ["/", "/players/?q=a", "/clubs/?q=a", "/events/", "/lists/", "/feedback/"]


@dataclass(frozen=True)
class Private:
    """Every private value on record, as text a surface could show."""

    numbers: frozenset[str]  # membership numbers
    emails: frozenset[str]
    births: frozenset[dt.date]
    addresses: frozenset[str]


@dataclass(frozen=True)
class Scan:
    surfaces: dict[str, str]  # address -> the text it answered (a file's text unpacked)
    private: Private
    member_page: str
    abroad_page: str


@pytest.fixture(scope="module")
def scan(
    django_db_setup: None, django_db_blocker: Any, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Scan]:
    home: Path = tmp_path_factory.mktemp("privacy-demo")
    with django_db_blocker.unblock(), override_settings(SITE_TODAY=world_today()):
        build_demo(home, size="tiny", seed=11)
        member, code = _report_an_event_abroad()
        _give_membership_numbers()
        cache.clear()
        client = Client()
        surfaces = dict(_pages(client, [f"/players/{member}/", f"/events/{code}/"]))
        surfaces |= dict(_api_v1(client, member, code))
        surfaces |= dict(_compatible(client, member))
        yield Scan(surfaces, _private(), f"/players/{member}/", f"/events/{code}/")
        flush_database()


def _give_membership_numbers() -> None:
    """The demo's players carry no membership numbers; a federation's do (the compatible
    API's ``member_no``): give some to published players, the member's too."""
    published = ListEntry.objects.filter(published=True).values_list("player_id", flat=True)
    chosen = sorted(set(published))[:5]
    for number, pk in enumerate(chosen, start=900001):
        Player.objects.filter(pk=pk).update(membership_no=f"ME{number}")
    member = DirectMember.objects.get(user__username="member")
    Player.objects.filter(pk=member.player_id).update(membership_no=member.number)


def _report_an_event_abroad() -> tuple[str, str]:
    """The demo's direct member reports three weeks ago's event abroad; the team accepts."""
    member = DirectMember.objects.select_related("player").get(user__username="member")
    start = world_today() - dt.timedelta(days=21)
    games = (
        AbroadGame(1, start, "Jonsson, Petur", "win", "white", "2300123", 2210),
        AbroadGame(2, start + dt.timedelta(days=1), "Olafsdottir, Anna", "draw", "black"),
    )
    control = TimeControlInput(minutes_for_game=90, seconds_per_move=30)
    end = start + dt.timedelta(days=1)
    event = AbroadEvent("Reykjavik Open", "Iceland", start, end, control, games)
    result = submit_abroad(member, event, user=member.user)
    grader = get_user_model().objects.get(username="grader")
    assert accept_abroad(result.id, user=grader).accepted
    result.refresh_from_db()
    return member.player.ref, ForeignResult.objects.get(pk=result.pk).event_code


# --- what is private ---------------------------------------------------------------------


def _private() -> Private:
    numbers = {*DirectMember.objects.values_list("number", flat=True)}
    numbers |= {*Player.objects.exclude(membership_no="").values_list("membership_no", flat=True)}
    emails = {*get_user_model().objects.exclude(email="").values_list("email", flat=True)}
    for model, field in ((DirectMember, "email"), (Feedback, "email"), (OutboxMessage, "to")):
        emails |= {*model.objects.exclude(**{field: ""}).values_list(field, flat=True)}
    births = {*Player.objects.exclude(date_of_birth=None).values_list("date_of_birth", flat=True)}
    cases = PendingIdentification.objects.exclude(date_of_birth=None)
    births |= {*cases.values_list("date_of_birth", flat=True)}
    return Private(frozenset(numbers), frozenset(emails), frozenset(births), _addresses())


ADDRESS = re.compile(rb"#(?:RESULTS OFFICER|TREASURER) ADDRESS=([^#\r\n]+)")


def _addresses() -> frozenset[str]:
    """The postal addresses the results files on record give (their only home)."""
    found: set[str] = set()
    for raw in Submission.objects.values_list("raw", flat=True).iterator():
        found |= {m.decode("utf-8", "replace").strip() for m in ADDRESS.findall(bytes(raw))}
    return frozenset(a for a in found if a)


# --- the surfaces ------------------------------------------------------------------------


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        href = dict(attrs).get("href")
        if tag == "a" and href:
            self.links.append(href)


def kind(path: str) -> str:
    """/players/123456A/ and /players/654321B/ are one kind; so are two lookups."""
    parts = urlsplit(path)
    segments = [s for s in parts.path.split("/") if s]
    shape = "/".join(segments[:1] + ["*"] * (len(segments) - 1))
    return f"{shape}?{'&'.join(sorted(k.split('=')[0] for k in parts.query.split('&') if k))}"


def _pages(client: Client, musts: list[str]) -> Iterator[tuple[str, str]]:
    """Pages from the home page (with their JSON twins) and the files they link to."""
    seen: dict[str, int] = {}
    queue, done = [*musts, *STARTS], set()
    while queue and len(done) < MAX_PAGES:
        path = queue.pop(0)
        if path in done or (path not in musts and seen.get(kind(path), 0) >= PER_KIND):
            continue
        done.add(path)
        response = client.get(path)
        if response.status_code != 200:
            continue
        seen[kind(path)] = seen.get(kind(path), 0) + 1
        if path.startswith("/downloads/"):
            yield path, _text(response)
            continue
        body = response.content.decode()
        yield path, body
        twin = f"{path}{'&' if '?' in path else '?'}format=json"
        yield twin, _text(client.get(twin))
        queue += _links(path, body)


def _links(path: str, body: str) -> list[str]:
    parser = _Links()
    parser.feed(body)
    found = []
    for href in parser.links:
        target = urlsplit(urljoin("http://testserver" + path, href))
        local = target.path + (f"?{target.query}" if target.query else "")
        if target.netloc == "testserver" and not local.startswith(("/static/", "/admin/")):
            found.append(local)
    return found


def _text(response: Any) -> str:
    """What an answer shows: JSON with its escapes undone, an XLSX's sheets unpacked."""
    content: bytes = response.content if hasattr(response, "content") else b"".join(response)
    kind_ = response.get("Content-Type", "")
    if content[:2] == b"PK":
        with zipfile.ZipFile(io.BytesIO(content)) as book:
            return "\n".join(book.read(n).decode("utf-8") for n in book.namelist())
    if "json" in kind_:
        return json.dumps(json.loads(content), ensure_ascii=False)
    return content.decode("utf-8", "replace")


def _api_v1(client: Client, member: str, code: str) -> Iterator[tuple[str, str]]:
    """Every route of /api/v1 filled in with the demo's records, and every published
    list's entries and files that its list of lists names."""
    lists = json.loads(client.get("/api/v1/lists").content)
    versions = [v for found in lists["lists"] for v in found["versions"]]
    files = {_local(url) for v in versions for url in v["downloads"].values()}
    files |= {_local(url) for found in lists["lists"] for url in found["downloads"].values()}
    entries = [_local(v["entries"]) for v in versions]
    for path in [*_routes(member, code), *entries, f"{entries[0]}&page=2", *sorted(files)]:
        response = client.get(path)
        assert response.status_code == 200, path
        yield path, _text(response)


def _local(url: str) -> str:
    parts = urlsplit(url)
    return parts.path + (f"?{parts.query}" if parts.query else "")


def _routes(member: str, code: str) -> list[str]:
    club = Club.objects.filter(code__isnull=False, is_location=False).order_by("code")[0].code
    county = County.objects.order_by("code")[0].code
    return [
        "/api/v1/players?q=a",
        f"/api/v1/players/{member}",
        f"/api/v1/players/{member}/history",
        f"/api/v1/players/{member}/games",
        f"/api/v1/players/{member}/games?rate=rapid",
        "/api/v1/clubs?q=a",
        f"/api/v1/clubs/{club}",
        f"/api/v1/clubs/{club}/members",
        f"/api/v1/counties/{county}",
        f"/api/v1/counties/{county}/members",
        "/api/v1/events",
        f"/api/v1/events/{code}",
        "/api/v1/lists",
        "/api/v1/conversions",
    ]


def _compatible(client: Client, member: str) -> Iterator[tuple[str, str]]:
    from tests.web.test_api_compat import every_route

    player = Player.objects.get(code=int(member[:6]))
    club = Club.objects.filter(code__isnull=False, is_location=False).order_by("code")[0]
    for path in every_route(player, str(club.code)):
        response = client.get(path)
        assert response.status_code == 200, path
        yield path, _text(response)


# --- the tests ---------------------------------------------------------------------------


def test_the_scan_reaches_every_kind_of_surface_and_has_private_values_to_look_for(
    scan: Scan,
) -> None:
    found = scan.surfaces
    assert scan.member_page in found and scan.abroad_page in found
    assert f"{scan.abroad_page}?format=json" in found
    shapes = {kind(p).split("?")[0] for p in found}
    for expected in ("", "players/*", "clubs/*", "counties/*", "events/*", "lists", "amendments"):
        assert expected in shapes, f"no page of kind /{expected}: {sorted(shapes)}"
    files = [p for p in found if p.startswith("/downloads/")]
    for ending in (".csv", ".json", ".xlsx"):
        assert any(p.endswith(ending) for p in files), f"no published {ending} file"
    assert any(p.startswith("/api/v1/") for p in found)
    assert any(p.startswith("/v2/") for p in found) and any(p.startswith("/api/") for p in found)
    private = scan.private
    assert private.numbers and len(private.emails) >= 4
    assert len(private.births) > 50 and len(private.addresses) > 20


def test_every_route_of_the_api_is_scanned(scan: Scan) -> None:
    schema = json.loads(Client().get("/api/v1/openapi.json").content)
    scanned = {urlsplit(p).path for p in scan.surfaces if p.startswith("/api/v1/")}
    for route in schema["paths"]:
        pattern = re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(route))
        assert any(re.fullmatch(pattern, p) for p in scanned), f"{route} was not scanned"


def test_no_public_surface_shows_a_membership_number(scan: Scan) -> None:
    leaks = {
        path: [n for n in scan.private.numbers if n in text]
        for path, text in scan.surfaces.items()
        if any(n in text for n in scan.private.numbers)
    }
    assert not leaks, leaks


EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")


def test_no_public_surface_shows_an_email_address(scan: Scan) -> None:
    leaks = {}
    for path, text in scan.surfaces.items():
        shown = {m.lower() for m in EMAIL.findall(text)}
        found = [e for e in scan.private.emails if e.lower() in shown]
        if found:
            leaks[path] = found
    assert not leaks, leaks


MONTHS = "January|February|March|April|May|June|July|August|September|October|November|December"
SHORT = "Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept|Sep|Oct|Nov|Dec"
DAYS = re.compile(
    r"(?P<iso>\d{4}-\d{2}-\d{2})|(?P<british>\d{1,2}/\d{1,2}/\d{4})"
    rf"|(?P<words>\d{{1,2}} (?:{MONTHS}|{SHORT}) \d{{4}})"
)


def _days(text: str) -> set[dt.date]:
    """Every day a text spells: 2001-02-03, 3/2/2001, 03/02/2001, 3 February 2001, 3 Feb 2001."""
    found = set()
    for match in DAYS.finditer(text):
        try:
            if match["iso"]:
                found.add(dt.date.fromisoformat(match["iso"]))
            elif match["british"]:
                found.add(dt.datetime.strptime(match["british"], "%d/%m/%Y").date())
            else:
                found.add(_in_words(match["words"]))
        except ValueError:
            continue
    return found


def _in_words(text: str) -> dt.date:
    day, month, year = text.replace("Sept", "Sep").split()
    shape = "%d %b %Y" if len(month) == 3 else "%d %B %Y"
    return dt.datetime.strptime(f"{day} {month} {year}", shape).date()


def test_the_spellings_of_a_day_are_all_read() -> None:
    day = dt.date(2001, 2, 3)
    texts = ["2001-02-03", "3/2/2001", "03/02/2001", "3 February 2001", "3 Feb 2001"]
    assert [_days(f"born {t}.") for t in texts] == [{day}] * 5
    assert _days("9 Sept 2001") == {dt.date(2001, 9, 9)}


def test_no_public_surface_shows_a_date_of_birth(scan: Scan) -> None:
    births = scan.private.births
    leaks = {}
    for path, text in scan.surfaces.items():
        found = sorted(births & _days(text))
        if found:
            leaks[path] = [d.isoformat() for d in found[:5]]
    assert not leaks, leaks


def test_no_public_surface_shows_a_postal_address(scan: Scan) -> None:
    leaks = {}
    for path, text in scan.surfaces.items():
        found = [a for a in scan.private.addresses if a in text]
        if found:
            leaks[path] = found[:5]
    assert not leaks, leaks
