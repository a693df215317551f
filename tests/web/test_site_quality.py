"""Every page of the served demo, as a browser and a validator see it: accessible (axe-core,
no serious or critical violation), valid HTML (html5lib, strict), and never a date of
birth, in HTML or in its JSON twin.

The pages are found by following links from the home page, a few of each kind, so a new
page is checked as soon as it is linked.
"""

from __future__ import annotations

import datetime as dt
import re
from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit

import html5lib
import pytest

from tests.web.browser import Browser
from tests.web.live import Site

pytestmark = pytest.mark.sqlite

PER_KIND = 3  # pages of each kind checked (a kind: /players/<code>/, /clubs/?q=...)
MAX_PAGES = 120
WIDTHS = {"phone": 390, "desktop": 1280}


@pytest.fixture(scope="module")
def pages(site: Site) -> list[str]:
    """Paths found from the home page and the lookups, a few of each kind."""
    return crawl(site, ["/", "/players/?q=a", "/clubs/?q=a", "/events/", "/feedback/"])


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


def crawl(site: Site, starts: list[str]) -> list[str]:
    seen: dict[str, int] = {}
    queue, found = list(starts), []
    while queue and len(found) < MAX_PAGES:
        path = queue.pop(0)
        if path in found or seen.get(kind(path), 0) >= PER_KIND:
            continue
        status, body = site.get(path)
        if status != 200:
            continue
        seen[kind(path)] = seen.get(kind(path), 0) + 1
        found.append(path)
        parser = _Links()
        parser.feed(body)
        for href in parser.links:
            target = urlsplit(urljoin(site.url + path, href))
            local = target.path + (f"?{target.query}" if target.query else "")
            if target.netloc == urlsplit(site.url).netloc and _page(local):
                queue.append(local)
    return found


def _page(path: str) -> bool:
    """Pages, not downloads, static files or the admin."""
    return not path.startswith(("/static/", "/admin/", "/downloads/")) and not re.search(
        r"\.(csv|json|xlsx)(\?|$)|format=json", path
    )


def test_the_crawl_reaches_every_kind_of_page(pages: list[str]) -> None:
    kinds = {kind(p).split("?")[0] for p in pages}
    for expected in (
        "",
        "players",
        "players/*",
        "clubs",
        "clubs/*",
        "counties/*",
        "events",
        "events/*",
        "lists",
        "help",
        "feedback",
        "amendments",
    ):
        assert expected in kinds, f"no page of kind /{expected} was reached: {sorted(kinds)}"


def test_every_page_is_valid_html(site: Site, pages: list[str]) -> None:
    errors = {}
    for path in [*pages, "/players/999999Z/"]:
        _, body = site.get(path)
        parser = html5lib.HTMLParser(strict=True)
        try:
            parser.parse(body)
        except html5lib.html5parser.ParseError as error:
            errors[path] = str(error)
    assert not errors, errors


@pytest.mark.parametrize("width", WIDTHS.values(), ids=WIDTHS.keys())
def test_no_page_has_a_serious_accessibility_violation(
    site: Site, pages: list[str], browser: Browser, width: int
) -> None:
    problems = {}
    for path in [*pages, "/players/999999Z/"]:
        found = browser.axe(site.url + path, width)
        serious = [v for v in found if v["impact"] in ("serious", "critical")]
        if serious:
            problems[path] = [f"{v['id']}: {v['help']} ({len(v['nodes'])})" for v in serious]
    assert not problems, problems


def birth_dates(site: Site) -> set[dt.date]:
    """Every date of birth on record that is not also a date an event or game shows."""
    with site.database() as db:
        births = {
            dt.date.fromisoformat(d)
            for (d,) in db.execute(
                "SELECT date_of_birth FROM registry_player WHERE date_of_birth IS NOT NULL"
            )
        }
        shown = {
            dt.date.fromisoformat(d)
            for (d,) in db.execute(
                "SELECT game_date FROM registry_game UNION SELECT start_date FROM registry_event"
                " UNION SELECT end_date FROM registry_event"
            )
        }
    return births - shown


def spellings(day: dt.date) -> tuple[str, ...]:
    return (day.isoformat(), f"{day.day} {day:%B %Y}", f"{day:%d/%m/%Y}", f"{day:%d %b %Y}")


def test_no_page_or_json_twin_shows_a_date_of_birth(site: Site, pages: list[str]) -> None:
    births = birth_dates(site)
    assert len(births) > 50  # the demo records many; the test would prove nothing otherwise
    leaks = {}
    for path in pages:
        twin = f"{path}{'&' if '?' in path else '?'}format=json"
        for shown in (path, twin):
            _, body = site.get(shown)
            found = [s for day in births for s in spellings(day) if s in body]
            if found:
                leaks[shown] = found[:5]
    assert not leaks, leaks
