"""What a person sees at the site's edges (issue 23, items 10 and 15), in Debian's Chromium
against the demo served by ``ecfgrading serve``: no text over text in a league match's
table, no sideways scrolling on a phone however long the query, gunicorn's bare "URI Too
Long" replaced by the site's own page, and pages sent gzipped through the real server.

Events and expectations are read from the served demo's database with plain SQL.
"""

from __future__ import annotations

import gzip
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page

from tests.web.browser import Browser
from tests.web.live import Site

pytestmark = pytest.mark.sqlite

PHONE, DESKTOP = 390, 1366
SITE_NAME = "ECF Grading Database"

# Every pair of visible text boxes in different cells of the event's result tables that
# overlap by more than half a pixel both ways: [text, text]. Each text node's own line
# boxes are compared (a cell's box never overlaps its neighbour; its text can run over).
# A visually hidden header (the phone's cards) is skipped.
OVERLAPS = """
() => {
  const boxes = [];
  document.querySelectorAll('table.games').forEach((table, t) => {
    table.querySelectorAll('th, td').forEach((cell, c) => {
      const head = cell.closest('thead');
      if (head && head.getBoundingClientRect().width <= 1) return;
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (!node.textContent.trim()) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        for (const r of range.getClientRects()) {
          if (r.width > 0 && r.height > 0) {
            boxes.push({cell: t + ':' + c, text: node.textContent.trim(),
                        l: r.left, r: r.right, t: r.top, b: r.bottom});
          }
        }
      }
    });
  });
  const clashes = [];
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i], b = boxes[j];
      if (a.cell === b.cell) continue;
      const across = Math.min(a.r, b.r) - Math.max(a.l, b.l);
      const down = Math.min(a.b, b.b) - Math.max(a.t, b.t);
      if (across > 0.5 && down > 0.5) clashes.push([a.text, b.text]);
    }
  }
  return clashes;
}
"""

# Every visible text of the event's result tables that runs out of its own cell by more
# than half a pixel, on either side: [text, cell]. A text over an empty stretch of the
# next cell is as wrong as one over another text: a longer name would be under it.
OUTSIDE = """
() => {
  const found = [];
  document.querySelectorAll('table.games').forEach((table) => {
    table.querySelectorAll('th, td').forEach((cell) => {
      const head = cell.closest('thead');
      if (head && head.getBoundingClientRect().width <= 1) return;
      const box = cell.getBoundingClientRect();
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (!node.textContent.trim()) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        for (const r of range.getClientRects()) {
          if (r.width > 0 && (r.left < box.left - 0.5 || r.right > box.right + 0.5)) {
            found.push([node.textContent.trim(), cell.className]);
          }
        }
      }
    });
  });
  return found;
}
"""

DEFAULT_RESULTS = ("1d", "d1", "dd")  # results-file.md: won by default, double default


def league_events_with_a_default(site: Site) -> list[str]:
    """League events whose matches hold a game won or lost by default."""
    marks = ",".join("?" * len(DEFAULT_RESULTS))
    with site.database() as db:
        rows = db.execute(
            f"""SELECT DISTINCT e.code FROM registry_game g
                JOIN registry_event e ON e.id = g.event_id
                WHERE e.kind = 'league' AND g.part_kind = 'match' AND g.result IN ({marks})
                ORDER BY e.code LIMIT 3""",
            DEFAULT_RESULTS,
        ).fetchall()
    return [code for (code,) in rows]


@pytest.fixture
def opened(browser: Browser) -> Iterator[Any]:
    pages: list[Page] = []

    def page(width: int) -> Page:
        pages.append(browser.page(width))
        return pages[-1]

    yield page
    for each in pages:
        each.context.close()


@pytest.mark.parametrize("width", [DESKTOP, 768, PHONE])
def test_no_two_texts_overlap_in_a_league_match_with_a_default(
    site: Site, opened: Any, width: int
) -> None:
    events = league_events_with_a_default(site)
    assert events, "the demo has league matches with defaults"
    page = opened(width)
    for code in events:
        page.goto(f"{site.url}/events/{code}/")
        labels = page.locator("table.games td.result").all_inner_texts()
        assert any("default" in label for label in labels)  # the long label is there

        assert page.evaluate(OVERLAPS) == [], code
        assert page.evaluate(OUTSIDE) == [], code


LONG = "x" * 200  # one 200-letter word: what a pasted text or a stuck key gives


@pytest.mark.parametrize(
    "path",
    [
        f"/players/?q={LONG}",
        f"/players/?q={LONG}&inactive=1",
        f"/clubs/?q={LONG}",
        f"/events/?season={LONG}",  # the error page repeats the bad value
        f"/clubs/{LONG}/",  # the 404 page repeats the code
    ],
)
def test_a_200_character_query_never_makes_the_phone_page_scroll_sideways(
    site: Site, opened: Any, path: str
) -> None:
    page = opened(PHONE)
    page.goto(site.url + path)

    assert LONG in page.inner_text("main")  # the query is shown, in pieces
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE


def fetch(url: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def test_the_server_answers_a_long_address_with_the_sites_414_page(site: Site, opened: Any) -> None:
    status, _, body = fetch(f"{site.url}/players/?q={'x' * 5000}", Accept="text/html")

    assert status == 414
    html = body.decode("utf-8")
    assert SITE_NAME in html and 'name="q"' in html  # the site's page, not gunicorn's
    page = opened(PHONE)
    page.goto(f"{site.url}/players/?q={'x' * 5000}")
    assert page.title() == f"Not understood - {SITE_NAME}"
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE


def test_the_server_sends_public_pages_gzipped_and_the_login_plain(site: Site) -> None:
    status, headers, body = fetch(site.url + "/", **{"Accept-Encoding": "gzip"})

    assert status == 200
    assert headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in headers["Vary"]
    assert b"<!DOCTYPE html>" in gzip.decompress(body)
    status, headers, body = fetch(site.url + "/backoffice/login/", **{"Accept-Encoding": "gzip"})
    assert status == 200
    assert "Content-Encoding" not in headers
    assert b"csrfmiddlewaretoken" in body
