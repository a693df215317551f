"""The forms' rate limits are exact under concurrency (issue 24, case 14): twenty
simultaneous feedback reports against a limit of five let exactly five through, counted
in the real Redis on loopback and in the database (the shared cache of one machine).

In the SQLite pass the reports go to ``ecfgrading serve`` (gunicorn's worker processes on
a SQLite file, as one machine runs); in the PostgreSQL pass, to threads of this process,
which need connections of their own and so commit (``transaction=True``). SQLite's
in-memory test database cannot take writes from several threads at once.
"""

from __future__ import annotations

import datetime as dt
import http.cookiejar
import re
import subprocess
import threading
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connections
from django.test import Client, override_settings

from ecfgrading.registry.models import Feedback, RateCount
from ecfgrading.services.limits import Rate, give_back, take
from tests.web.live import BIN, Site, environment, serving

REDIS = "redis://127.0.0.1:6379/15"
AT_ONCE = 20


def redis_cache() -> dict[str, Any]:
    prefix = f"test-limits-{uuid.uuid4().hex[:8]}"  # apart from any other run's keys
    return {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS} | {
        "KEY_PREFIX": prefix
    }


DATABASE_CACHE = {"BACKEND": "ecfgrading.web.table_cache.TableCache", "LOCATION": "web_cache"}


@pytest.fixture(params=["redis", "database"])
def shared_cache(request: pytest.FixtureRequest) -> Iterator[str]:
    """The site's shared cache as several app servers (Redis) or one machine has it."""
    config = redis_cache() if request.param == "redis" else DATABASE_CACHE
    with override_settings(CACHES={"default": config}):
        yield request.param


def at_once(work: Callable[[], Any], times: int = AT_ONCE) -> list[Any]:
    """``work`` in ``times`` threads released together; what each returned."""
    start = threading.Barrier(times)
    results: list[Any] = [None] * times

    def run(index: int) -> None:
        try:
            start.wait()
            results[index] = work()
        except Exception as error:  # shown by the assertion, not lost in a thread
            results[index] = error
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(times)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return results


def test_a_rate_is_read_as_the_settings_write_it() -> None:
    assert Rate.parse("5/h") == Rate(5, 3600)
    assert Rate.parse("3/10m") == Rate(3, 600)
    assert Rate.parse("20/d") == Rate(20, 86400)
    with pytest.raises(ValueError, match="expected a rate such as 5/h"):
        Rate.parse("5 per hour")


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_twenty_takes_at_once_against_five_allow_exactly_five(shared_cache: str) -> None:
    """Issue 24, case 14: one atomic increment decides each."""
    rate = Rate(5, 3600)

    waits = at_once(lambda: take("test", "192.0.2.1", rate))

    assert not [w for w in waits if isinstance(w, Exception)], waits
    assert waits.count(None) == 5
    assert all(isinstance(w, int) and 0 < w <= 3600 for w in waits if w is not None)


@pytest.mark.django_db(transaction=True)
def test_a_use_given_back_can_be_taken_again(shared_cache: str) -> None:
    rate = Rate(2, 3600)
    assert take("test", "192.0.2.2", rate) is None
    assert take("test", "192.0.2.2", rate) is None
    give_back("test", "192.0.2.2", rate)

    assert take("test", "192.0.2.2", rate) is None
    assert take("test", "192.0.2.2", rate) is not None
    assert take("test", "192.0.2.3", rate) is None  # another client counts apart


@pytest.mark.django_db(transaction=True)
def test_the_database_counter_keeps_no_address_and_forgets_past_windows() -> None:
    with override_settings(CACHES={"default": DATABASE_CACHE}):
        take("test", "192.0.2.4", Rate(5, 1))
        first = RateCount.objects.get()
        assert "192.0.2.4" not in first.key
        take("test", "192.0.2.4", Rate(5, 1), now=first.ends_at + dt.timedelta(seconds=5))

    assert first.ends_at not in RateCount.objects.values_list("ends_at", flat=True)


def _report() -> int:
    response = Client().post(
        "/feedback/",
        {"kind": "other", "message": "Is my rapid grade right?", "email": "zq@example.org"},
    )
    return response.status_code


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_twenty_reports_at_once_against_a_limit_of_five_store_exactly_five(
    shared_cache: str,
) -> None:
    """Issue 24, case 14: 8 of 20 got through before (a count read, then acted on)."""
    with override_settings(FEEDBACK_RATE="5/h"):
        statuses = at_once(_report)

    assert Counter(statuses) == {302: 5, 429: 15}
    assert Feedback.objects.count() == 5


# --- served: gunicorn's processes on a SQLite file ---------------------------------------


@pytest.fixture(scope="module")
def empty_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A site made by `ecfgrading init`: no data needed to send a report of kind other."""
    home = tmp_path_factory.mktemp("limits") / "home"
    env = environment(home) | {"ECFGRADING_SECRET_KEY": "a key for this test only"}
    subprocess.run([str(BIN / "ecfgrading"), "init"], env=env, check=True, capture_output=True)
    return home


def _served_report(site: Site, start: threading.Barrier) -> int:
    """A visitor's own session: the form (its CSRF cookie and token), then the report."""
    cookies = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(cookies))
    with opener.open(site.url + "/feedback/", timeout=60) as form:
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form.read().decode())
    assert token is not None
    report = {"kind": "other", "message": "Is my grade right?", "csrfmiddlewaretoken": token[1]}
    start.wait()
    try:
        with opener.open(site.url + "/feedback/", urllib.parse.urlencode(report).encode(), 60):
            return 200  # the status page the redirect leads to
    except urllib.error.HTTPError as error:
        return error.code


@pytest.mark.sqlite
@pytest.mark.parametrize("cache", ["database", "redis"])
def test_twenty_reports_at_once_to_the_served_site_store_exactly_five(
    empty_home: Path, cache: str
) -> None:
    """Issue 24, case 14: the default limit, 5/h, and four worker processes answering."""
    env = environment(empty_home) | {"ECFGRADING_SECRET_KEY": "a key for this test only"}
    if cache == "redis":
        env |= {"REDIS_URL": REDIS, "ECFGRADING_CACHE_PREFIX": f"test-{uuid.uuid4().hex[:8]}"}
    before = _stored_reports(empty_home)
    start = threading.Barrier(AT_ONCE)
    with serving(empty_home, env=env, workers=4) as site:
        statuses = at_once(lambda: _served_report(site, start))

    assert Counter(statuses) == {200: 5, 429: 15}
    assert _stored_reports(empty_home) == before + 5


def _stored_reports(home: Path) -> int:
    site = Site("", home)
    with site.database() as database:
        return int(database.execute("SELECT COUNT(*) FROM registry_feedback").fetchone()[0])
