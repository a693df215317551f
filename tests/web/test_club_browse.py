"""The club lookup's ways in (issue 23, item 11): its examples come from the clubs on
record, so each finds something (the old "Bath", "district" and "7WAL" found nothing in
the demo), and A-Z lists of clubs and a list of counties can be browsed.

Expected clubs and counties are read with plain queries of the registry.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from html import unescape
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest
from django.test import Client
from playwright.sync_api import Page

from ecfgrading.demo.summary import DemoSummary
from ecfgrading.registry.models import Club, County
from tests.web.browser import Browser
from tests.web.live import Site

EXAMPLE = re.compile(r'<a href="\?q=([^"]+)"><kbd>')


def _examples(html: str) -> list[str]:
    explain = html[html.index('class="examples"') :]
    explain = explain[: explain.index("</p>")]
    return [parse_qs(f"q={q}")["q"][0] for q in EXAMPLE.findall(unescape(explain))]


def _found(client: Client, query: str) -> list[dict[str, Any]]:
    data = client.get("/clubs/", {"q": query, "format": "json"}).json()
    results: list[dict[str, Any]] = data["results"]
    return results


def _address(club: Club) -> str:
    """A club's address as the web contract gives it: its code, else club-<id>."""
    code = club.code or ""
    return code.upper() if code.isalnum() and code.isascii() else f"club-{club.pk}"


@pytest.mark.django_db
def test_each_example_the_lookup_gives_finds_something(client: Client, demo: DemoSummary) -> None:
    html = client.get("/clubs/").content.decode()
    examples = _examples(html)

    assert len(examples) == 4  # the start of a name, a word inside it, a code, a county
    for query in examples:
        assert _found(client, query), query
    start, word, code, county = examples
    names = [club.name.lower() for club in Club.objects.all()]
    assert sum(name.startswith(start) for name in names) >= 2  # a town with several clubs
    assert sum(word in name.split() for name in names) >= 2
    assert _found(client, code)[0]["club"]["code"] == code
    assert any(r["kind"] == "county" for r in _found(client, county))
    assert f'placeholder="e.g. {start}, {county} or {code}"' in html


@pytest.mark.django_db
def test_the_home_pages_club_box_suggests_a_name_that_finds_clubs(
    client: Client, demo: DemoSummary
) -> None:
    html = client.get("/").content.decode()
    suggested = re.search(r'id="club-q"[^>]*placeholder="e\.g\. ([^"]+)"', html, re.S)
    assert suggested is not None
    assert _found(client, suggested.group(1))


@pytest.mark.django_db
def test_the_a_to_z_lists_hold_every_club_once(client: Client, demo: DemoSummary) -> None:
    letters = client.get("/clubs/", {"browse": "A", "format": "json"}).json()["letters"]
    listed: list[str] = []
    for letter, count in letters.items():
        page, seen = 1, 0
        while True:
            data = client.get("/clubs/", {"browse": letter, "page": page, "format": "json"})
            body = data.json()
            keys = [r["club"]["key"] for r in body["results"]]
            assert body["browse"] == letter
            for result in body["results"]:
                name = result["club"]["name"]
                first = name.strip()[:1].upper()
                assert first == letter or (letter == "other" and not first.isalpha()), name
            listed += keys
            seen += len(keys)
            if page >= body["page"]["pages"]:
                break
            page += 1
        assert seen == count, letter

    assert len(listed) == len(set(listed))
    assert set(listed) == {_address(club) for club in Club.objects.all()}


@pytest.mark.django_db
def test_the_counties_page_lists_every_county_by_name(client: Client, demo: DemoSummary) -> None:
    data = client.get("/counties/", {"format": "json"}).json()
    names = [county["name"] for county in data["counties"]]

    assert names == sorted(County.objects.values_list("name", flat=True), key=str.lower)
    for county in data["counties"]:
        expected = Club.objects.filter(county__name=county["name"]).count()
        assert county["clubs"] == expected
        assert client.get(county["links"]["members"]).status_code == 200


@pytest.mark.django_db
def test_the_lookup_page_links_each_letter_that_has_clubs(
    client: Client, demo: DemoSummary
) -> None:
    html = client.get("/clubs/").content.decode()
    linked = set(re.findall(r'href="/clubs/\?browse=([A-Za-z]+)"', html))
    firsts = {c.name.strip()[:1].upper() for c in Club.objects.all() if c.name[:1].isalpha()}
    assert linked == firsts
    assert 'href="/counties/"' in html


# In the browser --------------------------------------------------------------------------------


@pytest.fixture
def phone(browser: Browser) -> Iterator[Page]:
    opened = browser.page(390)
    yield opened
    opened.context.close()


@pytest.mark.sqlite
def test_on_a_phone_each_example_and_a_letter_lead_to_clubs(site: Site, phone: Page) -> None:
    phone.goto(site.url + "/clubs/")
    examples = phone.locator(".examples a")
    assert examples.count() == 4
    hrefs = [examples.nth(k).get_attribute("href") or "" for k in range(examples.count())]
    for href in hrefs:
        phone.goto(site.url + "/clubs/" + href)
        rows = phone.locator("table.clubs-found tbody tr")
        assert rows.count() >= 1, href

    phone.goto(site.url + "/clubs/")
    first_letter = phone.locator("nav.letters li a").first
    letter = parse_qs(urlparse(first_letter.get_attribute("href") or "").query)["browse"][0]
    first_letter.click()
    with site.database() as db:
        (count,) = db.execute(
            "SELECT COUNT(*) FROM registry_club WHERE UPPER(SUBSTR(TRIM(name), 1, 1)) = ?",
            (letter,),
        ).fetchone()
    assert phone.locator("table.clubs-found tbody tr").count() == count
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
