"""Cached pages (web/caching.py): ETags, 304s, the JSON twin apart, never a stale page.

A page of the test urlconf below shows what a publication or an import changes (the
current version of each rate, the files accepted), so that these tests do not wait for
the site's own pages. Both shared caches are exercised: the database cache and Redis
(the PostgreSQL pass of `make test` runs everything on Redis by REDIS_URL).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import date
from typing import Any

import pytest
import redis
from django.core.cache import cache
from django.core.management import call_command
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.test import Client, override_settings
from django.urls import path

from ecfgrading.demo.summary import DemoSummary
from ecfgrading.engine.types import Rate
from ecfgrading.lookups.lists import current_lists
from ecfgrading.registry.models import Player, Submission
from ecfgrading.services.grading.compute import compute_version, publish_version
from ecfgrading.services.results.ingest import import_files
from ecfgrading.web.caching import cached_page
from ecfgrading.web.render import wants_json
from tests.e2e.federation import Federation

pytestmark = [pytest.mark.django_db, pytest.mark.urls(__name__)]

REDIS_URL = "redis://127.0.0.1:6379/15"  # the tests' own Redis database (the Makefile's)
REDIS_PREFIX = "ecfgrading-caching-test"

MADE: list[str] = []  # each time the page below is made rather than taken from the cache


@cached_page
def state(request: HttpRequest) -> HttpResponse:
    MADE.append(request.get_full_path())
    data: dict[str, Any] = {
        "current": {
            rate.value: f"{c.list_id} {c.current.name}" for rate, c in current_lists().items()
        },
        "accepted": Submission.objects.filter(status=Submission.Status.ACCEPTED).count(),
    }
    if wants_json(request):
        return JsonResponse(data)
    rows = "".join(f"<li>{rate} {made}</li>" for rate, made in data["current"].items())
    return HttpResponse(f"<ul>{rows}</ul><p>{data['accepted']} files accepted</p>")


urlpatterns = [path("state/", state)]

JSON = {"Accept": "application/json"}


@pytest.fixture(autouse=True)
def _nothing_made_yet() -> None:
    MADE.clear()


BACKENDS = {
    "database": {"BACKEND": "ecfgrading.web.table_cache.TableCache", "LOCATION": "web_cache"},
    "redis": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL},
}


@pytest.fixture(params=sorted(BACKENDS))
def backend(request: pytest.FixtureRequest) -> Iterator[str]:
    """Each shared cache in turn, whichever REDIS_URL selected for the run."""
    chosen = {**BACKENDS[request.param], "KEY_PREFIX": REDIS_PREFIX, "TIMEOUT": 3600}
    with override_settings(CACHES={"default": chosen}):
        if request.param == "database":
            call_command("createcachetable", verbosity=0)  # the PostgreSQL pass made none
        cache.clear()
        yield request.param
        cache.clear()


def stored_pages(backend: str) -> int:
    """Entries in the shared cache, counted by the cache's own means, not through Django."""
    if backend == "redis":
        return len(redis.Redis.from_url(REDIS_URL).keys(f"{REDIS_PREFIX}:*"))
    with connection.cursor() as cursor:
        cursor.execute("SELECT COUNT(*) FROM web_cache")
        return int(cursor.fetchone()[0])


def test_a_page_is_made_once_then_served_from_the_shared_cache(
    client: Client, backend: str
) -> None:
    first = client.get("/state/")
    second = client.get("/state/")

    assert MADE == ["/state/"]
    assert stored_pages(backend) == 1
    assert (second.status_code, second.content) == (200, first.content)
    assert second["ETag"] == first["ETag"]
    assert first["Cache-Control"] == second["Cache-Control"] == "public, max-age=60"


def test_a_request_with_the_pages_etag_gets_304_and_nothing_is_made(
    client: Client, backend: str
) -> None:
    etag = client.get("/state/")["ETag"]

    same = client.get("/state/", headers={"If-None-Match": etag})
    weak = client.get("/state/", headers={"If-None-Match": f'"other", W/{etag}'})
    other = client.get("/state/", headers={"If-None-Match": '"something-else"'})

    assert (same.status_code, same.content, same["ETag"]) == (304, b"", etag)
    assert weak.status_code == 304
    assert other.status_code == 200
    assert MADE == ["/state/"]


def test_the_json_twin_is_cached_apart_from_the_page(client: Client, backend: str) -> None:
    page = client.get("/state/")
    twin = client.get("/state/", headers=JSON)
    again = [client.get("/state/").content, client.get("/state/", headers=JSON).content]

    assert page["Content-Type"].startswith("text/html")
    assert twin["Content-Type"] == "application/json"
    assert set(twin.json()) == {"current", "accepted"}
    assert twin["ETag"] != page["ETag"]
    assert page["Vary"] == twin["Vary"] == "Accept"
    assert again == [page.content, twin.content]
    assert len(MADE) == 2
    assert stored_pages(backend) == 2


def test_a_page_of_another_address_is_another_entry(client: Client) -> None:
    client.get("/state/")
    client.get("/state/?page=2")

    assert MADE == ["/state/", "/state/?page=2"]


def test_the_shared_cache_is_redis_when_redis_url_names_one_else_the_database() -> None:
    from django.conf import settings

    expected = "RedisCache" if os.environ.get("REDIS_URL") else "TableCache"
    assert settings.CACHES["default"]["BACKEND"].rsplit(".", 1)[-1] == expected


# -- nothing stale: what changes the data changes the token, the ETag and the page ----------


def an_event_between_two_players_on_record() -> tuple[str, bytes]:
    """A results file of the 2015-16 season, after every list the demo published."""
    first, second = Player.objects.order_by("code")[:2]
    return Federation().event([(first, "10", second, date(2015, 9, 15))], code="CACHE01")


def test_an_accepted_import_makes_a_new_etag_and_a_fresh_page(
    client: Client, demo: DemoSummary, backend: str
) -> None:
    before = client.get("/state/", headers=JSON)
    accepted = before.json()["accepted"]

    [outcome] = import_files([an_event_between_two_players_on_record()])

    assert outcome.accepted
    after = client.get("/state/", headers=JSON)
    assert after.json()["accepted"] == accepted + 1
    assert after["ETag"] != before["ETag"]
    asked = client.get("/state/", headers={**JSON, "If-None-Match": before["ETag"]})
    assert (asked.status_code, asked.json()) == (200, after.json())


def test_a_new_publication_makes_a_new_etag_and_a_fresh_page(
    client: Client, demo: DemoSummary, backend: str
) -> None:
    # The demo publishes every list up to July 2015 with its August version (G27).
    before = client.get("/state/")
    assert b"<li>standard 2015-07 august</li>" in before.content

    run = compute_version("2015-07", Rate.STANDARD)
    publish_version("2015-07", Rate.STANDARD, run.version)

    after = client.get("/state/")
    assert run.version == "rev1"  # the first revision after august (G26)
    assert b"<li>standard 2015-07 rev1</li>" in after.content
    assert after["ETag"] != before["ETag"]
    asked = client.get("/state/", headers={"If-None-Match": before["ETag"]})
    assert (asked.status_code, asked.content) == (200, after.content)
    assert MADE == ["/state/", "/state/"]  # once before, once after; then from the cache
