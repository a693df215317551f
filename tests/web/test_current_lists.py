"""Which lists are current, named plainly (issue 23, item 14): the home page and /lists/
show one current standard list and one current rapid list, each with its version in
words ("July 2015, revised in August", "January 2015"), and a version's name keeps the
month's capital ("August version", never "august version").

Expected lists are read with plain queries: the latest list of each rate (G26: a list
replaces the one of its rate before it) and whether an August version of it is out.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Iterator

import pytest
from django.test import Client
from playwright.sync_api import Page

from ecfgrading.demo.summary import DemoSummary
from ecfgrading.registry.models import ListVersion
from tests.web.browser import Browser
from tests.web.live import Site

LATEST = """
    SELECT l.list_id, GROUP_CONCAT(v.name) FROM registry_gradinglist l
    JOIN registry_listversion v ON v.grading_list_id = l.id AND v.status = 'published'
    WHERE l.rate = ? GROUP BY l.list_id ORDER BY l.list_id DESC LIMIT 1
"""


def _in_words(list_id: str, names: set[str]) -> str:
    """'July 2015, revised in August' or 'January 2015': worked out from the list id."""
    year, month = list_id.split("-")
    label = f"{calendar.month_name[int(month)]} {year}"
    return f"{label}, revised in August" if "august" in names else label


def _expected_from(rows: dict[str, tuple[str, str]]) -> list[str]:
    return [
        f"Current {rate} list: {_in_words(list_id, set(names.split(',')))}"
        for rate, (list_id, names) in rows.items()
    ]


def _expected_orm() -> list[str]:
    rows: dict[str, tuple[str, str]] = {}
    for rate in ("standard", "rapid"):
        found = ListVersion.objects.filter(status="published", grading_list__rate=rate)
        latest = max(found.values_list("grading_list__list_id", flat=True))
        names = found.filter(grading_list__list_id=latest).values_list("name", flat=True)
        rows[rate] = (latest, ",".join(names))
    return _expected_from(rows)


def _text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


@pytest.mark.django_db
def test_the_home_page_names_one_current_list_of_each_rate_in_words(
    client: Client, demo: DemoSummary
) -> None:
    html = client.get("/").content.decode()

    headings = re.findall(r'<h3 id="list-[^"]+">(.*?)</h3>', html, re.S)
    assert [_text(h) for h in headings] == _expected_orm()
    assert len(re.findall(r'class="list-card[ "]', html)) == 2


@pytest.mark.django_db
def test_the_home_pages_twin_gives_the_words_too(client: Client, demo: DemoSummary) -> None:
    data = client.get("/", {"format": "json"}).json()
    shown = [f"Current {item['rate']} list: {item['in_words']}" for item in data["lists"]]
    assert shown == _expected_orm()


@pytest.mark.django_db
def test_the_lists_page_calls_only_the_two_current_versions_current(
    client: Client, demo: DemoSummary
) -> None:
    html = client.get("/lists/").content.decode()

    tags = re.findall(r'<span class="tag">(.*?)</span>', html)
    assert sorted(tags) == ["current rapid list", "current standard list"]
    summary = html[html.index('id="current-title"') : html.index('id="all-lists"')]
    for expected in _expected_orm():
        rate, words = expected.removeprefix("Current ").split(" list: ")
        assert f"{rate.capitalize()}: {words}" in _text(summary)


@pytest.mark.django_db
def test_no_page_writes_august_in_lower_case(client: Client, demo: DemoSummary) -> None:
    for path in ("/", "/lists/", "/players/?q=a", "/amendments/"):
        text = _text(client.get(path).content.decode())
        assert "august version" not in text, path
        assert "august revision" not in text, path
    assert "August version" in _text(client.get("/lists/").content.decode())


# What a person sees on a phone --------------------------------------------------------------


@pytest.fixture
def phone(browser: Browser) -> Iterator[Page]:
    opened = browser.page(390)
    yield opened
    opened.context.close()


@pytest.mark.sqlite
def test_on_a_phone_the_home_page_shows_one_current_list_of_each_rate_in_words(
    site: Site, phone: Page
) -> None:
    with site.database() as db:
        rows = {rate: db.execute(LATEST, (rate,)).fetchone() for rate in ("standard", "rapid")}
    expected = _expected_from(rows)

    phone.goto(site.url + "/")
    cards = phone.locator("#current-title ~ .list-cards .list-card h3")

    assert [" ".join(t.split()) for t in cards.all_inner_texts()] == expected
    for k in range(cards.count()):
        box = cards.nth(k).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390


def test_the_expected_words_are_worked_out_as_the_issue_says() -> None:
    """The rule the tests above apply, on the issue's own examples."""
    assert _in_words("2015-07", {"initial", "august"}) == "July 2015, revised in August"
    assert _in_words("2015-01", {"initial"}) == "January 2015"
