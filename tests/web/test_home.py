"""The home page: the current lists with their dates, the lookups, the way onwards."""

from __future__ import annotations

import calendar
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from ecfgrading.demo.summary import DemoSummary
from ecfgrading.registry.models import ListVersion

pytestmark = pytest.mark.django_db


def _published(rate: str) -> dict[str, list[dict[str, Any]]]:
    """Published versions of a rate by list id, oldest first: a plain query."""
    rows = ListVersion.objects.filter(status="published", grading_list__rate=rate)
    found: dict[str, list[dict[str, Any]]] = {}
    for row in rows.order_by("published_at", "id").values(
        "name", "published_at", "grading_list__list_id"
    ):
        found.setdefault(row["grading_list__list_id"], []).append(row)
    return found


def _expected() -> list[tuple[str, str, list[str]]]:
    """(rate, list id, versions): the latest standard list and the latest rapid list, one
    of each: a list replaces the one of its rate before it (G26), so the January rapid
    list is no longer current once the July one is out (issue 23, item 14)."""
    chosen = []
    for rate in ("standard", "rapid"):
        found = _published(rate)
        latest = max(found)
        chosen.append((rate, latest, [v["name"] for v in found[latest]]))
    return chosen


def _label(list_id: str) -> str:
    year, month = list_id.split("-")
    return f"{calendar.month_name[int(month)]} {year}"


def test_home_lists_the_current_versions(client: Client, demo: DemoSummary) -> None:
    data = client.get("/", {"format": "json"}).json()

    found = [
        (item["rate"], item["list"], [v["version"] for v in item["versions"]])
        for item in data["lists"]
    ]
    assert found == _expected()
    for item in data["lists"]:
        assert item["current_version"] == item["versions"][-1]["version"]


def test_home_shows_each_current_list_with_its_publication_dates(
    client: Client, demo: DemoSummary
) -> None:
    html = client.get("/").content.decode()

    for rate, list_id, _ in _expected():
        assert f"{_label(list_id)} {rate} list" in html
        for version in _published(rate)[list_id]:
            day = timezone.localtime(version["published_at"]).date()
            assert f'datetime="{day.isoformat()}"' in html
    assert "August version" in html  # the July lists' definitive versions (G27)


def test_a_july_list_shows_its_august_revision_as_current(
    client: Client, demo: DemoSummary
) -> None:
    data = client.get("/", {"format": "json"}).json()
    july = [item for item in data["lists"] if item["list"].endswith("-07")]
    assert july
    for item in july:
        names = [v["version"] for v in item["versions"]]
        assert names[:2] == ["initial", "august"]


def test_home_has_both_lookup_boxes(client: Client, demo: DemoSummary) -> None:
    html = client.get("/").content.decode()
    assert 'action="/players/"' in html and 'name="inactive"' in html
    assert 'action="/clubs/"' in html


def test_home_links_to_events_lists_help_and_downloads(client: Client, demo: DemoSummary) -> None:
    html = client.get("/").content.decode()
    for href in ("/events/", "/lists/", "/help/", "/feedback/"):
        assert f'href="{href}"' in html
    rate, list_id, _ = _expected()[0]
    assert f'href="/downloads/grades{list_id.replace("-", "")}-{rate}.csv"' in html


def test_home_makes_the_same_few_queries_whatever_the_lists(
    client: Client, demo: DemoSummary
) -> None:
    with CaptureQueriesContext(connection) as queries:
        assert client.get("/").status_code == 200
    data = [q["sql"] for q in queries.captured_queries]
    data = [sql for sql in data if "web_cache" not in sql and "SAVEPOINT" not in sql]
    assert len(data) == 2  # the data token and the published versions
