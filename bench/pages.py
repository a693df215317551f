"""Latency of the public pages and API in-process: Django's test client, no HTTP.

    .venv/bin/python bench/pages.py [--home DIR] [--database-url URL] [--samples 200]
                                    [--lists 5] [--seed 2009] [--json FILE]
                                    [--kinds 'county-team page,player page']

Made for the national demo (issues 9 and 10). ``--samples`` addresses of each kind are
drawn as ``bench/web.py`` draws them (current players, their codes and names as people
type them, clubs, the current lists' API pages); each is asked for twice:

Before timing, the data token is warmed as a served worker's warming thread warms it
(``web.warming``), and how long that took is printed.

- cold: the first time, with the page cache empty (a cache prefix of the run's own, one
  per kind, so nothing another process or kind cached is read, and nothing is cleared):
  the page is made, and the number of database queries it took is counted;
- warm: the second time, from the worker's memory of the pages it sent (``web.memory``;
  ETag not sent, so the body comes back);
- shared: a third time with that memory emptied, as another worker finds the page: from
  the shared cache.

A code typed in the player lookup is timed twice: its answer (a redirect to the player:
the lookup) and, as ``code lookup + player page``, followed as a browser follows it.

The full v2 ``rating_list`` (every player of the current lists) is asked for ``--lists``
times, and the newest list's whole file in CSV, JSON and XLSX once cold (exported) and
``--lists - 1`` times from the cache. Prints p50/p95/max and queries per kind against
the targets: issue 25's every public page and API answer p95 < 50 ms made cold (issues 9
and 10 had asked 100 ms of the player page), rating_list < 2 s.
The cache is the one the settings name: the database's table, or Redis with REDIS_URL.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from web import sample  # bench/web.py: the same addresses as the load test

# Which sampled kinds to time, and the p95 each must beat (ms); None: shown, no target.
KINDS: dict[str, float | None] = {
    "home": None,
    "player lookup (name)": 50.0,
    "player lookup (code)": 50.0,  # the lookup's answer: a redirect to the player
    "code lookup + player page": None,  # ... followed, as a browser does
    "club lookup": 50.0,
    "player page": 50.0,  # issue 23 asked 100 ms; issue 25 every public page under 50
    "club page": 50.0,
    "club page (sorted, inactive)": 50.0,
    "club list A-Z": 50.0,
    "counties": 50.0,
    "county page": 50.0,
    "county-team page": 50.0,
    "events received": 50.0,
    "events received (season, sort)": 50.0,
    "event page": 50.0,
    "league event page": 50.0,
    "tournament event page": 50.0,
    "county match page": 50.0,
    "lists": 50.0,
    "amendments": 50.0,
    "player page (?list=)": 50.0,
    "help": 50.0,
    "api player history": 50.0,
    "api player search": 50.0,
    "api player": 50.0,
    "api list page": 50.0,
    "v2 player by code": 50.0,
    "v2 player by name": 50.0,
}
RATING_LIST = "/v2/new/api.php?v2/rating_list"
RATING_LIST_SECONDS = 2.0
FILE_FORMATS = ("csv", "json", "xlsx")  # the newest list's whole file in each


def measure(
    samples: dict[str, list[str]], count: int, lists: int, kinds: Sequence[str] = tuple(KINDS)
) -> dict[str, Any]:
    """Each of ``kinds``' addresses cold then warm; the full rating list ``lists`` times."""
    from django.core.cache import cache
    from django.test import Client

    from ecfgrading.web.memory import MEMORY

    client = Client(HTTP_HOST="127.0.0.1")
    client.get("/help/")  # the first request of a process imports views and templates
    prefix = cache.key_prefix
    found: dict[str, Any] = {}
    for number, kind in enumerate(KINDS):
        if kind not in kinds:
            continue
        urls = list(dict.fromkeys(samples.get(kind, [])))[:count]
        if not urls:
            continue
        # An empty cache for each kind: a code looked up is followed to the player's
        # page, which must not warm the player pages timed next.
        cache.key_prefix = f"{prefix}-{number}"
        MEMORY.clear()
        follow = kind == "code lookup + player page"
        cold = [_timed(client, url, count_queries=True, follow=follow) for url in urls]
        warm = [_timed(client, url, follow=follow) for url in urls]  # the worker's memory
        MEMORY.clear()
        shared = [_timed(client, url, follow=follow) for url in urls]  # the shared cache
        found[kind] = {"cold": _summary(cold), "warm": _summary(warm), "shared": _summary(shared)}
        print(_line(kind, found[kind]), flush=True)
    if lists:
        cache.key_prefix = f"{prefix}-lists"
        timed = [_timed(client, RATING_LIST, count_queries=True) for _ in range(lists)]
        found["v2 rating_list"] = {
            "cold": _summary(timed[:1]),
            "warm": _summary(timed[1:] or timed),
        }
        print(_line("v2 rating_list", found["v2 rating_list"]), flush=True)
        for url in samples.get("list file", []):
            _keep_files_in(tempfile.mkdtemp(prefix="bench-pages-"))  # nothing kept yet
            exported = [_timed(client, url, count_queries=True)]  # made, then kept
            kept = [_timed(client, url) for _ in range(max(1, lists - 1))]  # this server's
            _keep_files_in(tempfile.mkdtemp(prefix="bench-pages-"))  # another server's
            shared = [_timed(client, url)]  # from the shared cache, then kept there
            found[url] = {
                "cold": _summary(exported),
                "warm": _summary(kept),
                "shared": _summary(shared),
            }
            print(_line(url, found[url]), flush=True)
        found["floor"] = floor = _file_floor()
        for url in samples.get("list file", []):
            made = found[url]["cold"]["p95"]
            print(f"  {url}: made {made:.0f} ms, {made / floor['ms']:.1f}x the floor")
    return found


def _statistics_as_served() -> None:
    """PostgreSQL plans by its statistics and reads an index alone only where its
    visibility map says the rows are visible to all, both of which autovacuum keeps on a
    served database; a server without it (a test server) serves a freshly built demo
    blind: a sequential scan of every game for a name search took 96 ms where its index
    takes 12, and the rating API's latest graded games (an index-only read) 100 ms at
    p95 where a vacuumed table gives 40. VACUUM (ANALYZE) once, as autovacuum would."""
    from django.db import connection

    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_user_tables WHERE relname LIKE 'registry_%%'"
            " AND last_vacuum IS NULL AND last_autovacuum IS NULL AND n_live_tup > 0"
        )
        (blind,) = cursor.fetchone()
        if blind:
            start = time.perf_counter()
            cursor.execute("VACUUM (ANALYZE)")
            seconds = time.perf_counter() - start
            print(
                f"{blind} tables never vacuumed (autovacuum off?): VACUUM (ANALYZE) {seconds:.1f} s"
            )


def _keep_files_in(folder: str) -> None:
    """Point the files kept on this server (``lookups.list_files``) at ``folder``."""
    from ecfgrading.lookups import list_files

    list_files.kept_root = lambda: Path(folder)  # type: ignore[assignment]


def _file_floor() -> dict[str, float]:
    """The floor of a list file: the newest list's entries read in one plain query and
    written by the csv module, in the same run (milliseconds)."""
    import csv
    import io

    from django.db import connection

    from ecfgrading.lookups.lists import catalogue

    newest = catalogue().lists[0]
    ids = [v.info.id for v in newest.versions if v.current]
    marks = ", ".join(["%s"] * len(ids))
    start = time.perf_counter()
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT p.code, p.surname, p.forenames, e.grade, e.category, e.games_counted"
            " FROM registry_listentry e JOIN registry_player p ON p.id = e.player_id"
            f" WHERE e.version_id IN ({marks}) ORDER BY p.surname, p.forenames",
            ids,
        )
        rows = cursor.fetchall()
    out = io.StringIO()
    csv.writer(out).writerows(rows)
    out.getvalue().encode("latin-1", "replace")
    ms = (time.perf_counter() - start) * 1000
    print(f"floor of a list file: {len(rows):,} entries read and written as CSV {ms:7.1f} ms")
    return {"rows": len(rows), "ms": ms}


def _timed(
    client: Any, url: str, *, count_queries: bool = False, follow: bool = False
) -> tuple[float, int, int]:
    """(milliseconds, status, queries) of one request, with the redirects it gives when
    ``follow`` (a code typed in the lookup, followed to the player's page).

    Statements are counted by a wrapper that only adds one, not by Django's
    ``CaptureQueriesContext``: that turns on the debug cursor, which formats each
    statement with its values as it runs (on PostgreSQL with server-side binding,
    composing it in Python), work a served page never does."""
    from django.db import connection

    made = 0

    def counted(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        nonlocal made
        made += 1
        return execute(sql, params, many, context)

    with connection.execute_wrapper(counted) if count_queries else contextlib.nullcontext():
        start = time.perf_counter()
        response = client.get(url, follow=follow)
        elapsed = time.perf_counter() - start
    if response.status_code not in (200, 302):  # 302: a code's lookup, not followed
        print(f"  {url}: status {response.status_code}", file=sys.stderr)
    return elapsed * 1000, response.status_code, made


def _summary(timed: list[tuple[float, int, int]]) -> dict[str, Any]:
    times = sorted(ms for ms, _, _ in timed)
    queries = sorted(made for _, _, made in timed)

    def at(share: float) -> float:
        return times[min(len(times) - 1, round(share * (len(times) - 1)))]

    return {
        "samples": len(times),
        "p50": at(0.50),
        "p95": at(0.95),
        "max": times[-1],
        "mean": statistics.fmean(times),
        "errors": sum(1 for _, status, _ in timed if status not in (200, 302)),
        "queries_median": statistics.median(queries),
        "queries_max": queries[-1],
    }


def _line(kind: str, figures: dict[str, Any]) -> str:
    cold, warm = figures["cold"], figures["warm"]
    shared = f"shared p95 {figures['shared']['p95']:6.1f}  " if "shared" in figures else ""
    target = KINDS.get(kind) if kind in KINDS else None
    if kind == "v2 rating_list":
        target = RATING_LIST_SECONDS * 1000
    verdict = ""
    if target is not None:
        verdict = "met" if cold["p95"] < target and warm["p95"] < target else "MISSED"
        verdict = f"  target p95 < {target:.0f}: {verdict}"
    return (
        f"{kind:22} n {cold['samples']:>4}  cold p50 {cold['p50']:7.1f} p95 {cold['p95']:7.1f} "
        f"max {cold['max']:7.1f} (queries {cold['queries_median']:.0f}-{cold['queries_max']})  "
        f"warm p50 {warm['p50']:6.1f} p95 {warm['p95']:6.1f} max {warm['max']:7.1f} "
        f"{shared}errors {cold['errors'] + warm['errors']}{verdict}"
    )


def main(argv: Sequence[str] | None = None) -> None:
    args = _arguments().parse_args(argv)
    if args.home:
        os.environ["ECFGRADING_HOME"] = str(Path(args.home).resolve())
    if args.database_url:
        os.environ["DATABASE_URL"] = args.database_url
    os.environ["ECFGRADING_CACHE_PREFIX"] = f"bench-pages-{os.getpid()}-{int(time.time())}"
    os.environ.pop("ECFGRADING_DEBUG", None)
    samples = sample(args.samples, args.seed, FILE_FORMATS)  # sets Django up
    whole = [url for url in samples["list download"] if "-" not in url]
    samples["list file"] = whole  # gradesYYYYMM.csv, .json, .xlsx: every rate
    samples["code lookup + player page"] = samples.get("player lookup (code)", [])
    samples |= _more_pages(samples, args.samples, args.seed)
    from django.core.management import call_command

    call_command("collectstatic", interactive=False, verbosity=0)  # as `serve` does
    from ecfgrading.web.statements import prepare_page_statements

    prepare_page_statements()  # as `serve` does for its workers, on PostgreSQL
    _statistics_as_served()
    _warmed_as_served()
    load_before = os.getloadavg()
    database = "PostgreSQL" if os.environ.get("DATABASE_URL") else "SQLite"
    cache = "Redis" if os.environ.get("REDIS_URL") else "database"
    print(f"database: {database}; cache: {cache}; load average {_load(load_before)}")
    kinds = _kinds(args.kinds)
    found = measure(samples, args.samples, args.lists, kinds)
    print(f"load average after {_load(os.getloadavg())}")
    if args.json:
        result = {"database": database, "cache": cache, "load_before": load_before}
        Path(args.json).write_text(json.dumps(result | {"kinds": found}, indent=2))


def _warmed_as_served() -> None:
    """What a served worker's warming thread does for a new data token before visitors
    ask (``web.warming``: the names index, the next lists, the club index with every
    county's team, the newest list's files), timed: a page made cold is then what a
    visitor waits for on a served site, not the work of the token's first request."""
    from ecfgrading.web.warming import warm_once

    started = time.perf_counter()
    warm_once("")
    print(f"warmed as served in {time.perf_counter() - started:.1f} s", flush=True)


def _kinds(asked: str | None) -> tuple[str, ...]:
    """The page kinds named, comma-separated (a kind's own comma, as in 'events received
    (season, sort)', is read as part of it), every one by default; an unknown one stops
    the run with the names known."""
    if not asked:
        return tuple(KINDS)
    named: list[str] = []
    pending = ""
    for piece in asked.split(","):
        pending = f"{pending},{piece}" if pending else piece
        if pending.strip() in KINDS:
            named.append(pending.strip())
            pending = ""
    if pending.strip():
        sys.exit(f"expected page kinds among {', '.join(KINDS)}; got {pending.strip()!r}")
    return tuple(named)


def _more_pages(samples: dict[str, list[str]], pool: int, seed: int) -> dict[str, list[str]]:
    """The public page kinds ``bench/web.py`` does not draw (issue 25): every page of the
    site's contract (web/urls.py), drawn with ``seed`` from the same database."""
    import random
    from urllib.parse import quote

    from django.db import connections

    from ecfgrading.lookups.club_browse import club_letters
    from ecfgrading.lookups.clubs import club_index
    from ecfgrading.lookups.lists import catalogue
    from ecfgrading.registry.models import Event

    rng = random.Random(seed)
    index = club_index()
    counties = sorted(index.county_keys.values())
    letters = [letter for letter, count in club_letters().items() if count]
    by_kind: dict[str, list[str]] = {}
    for kind, code in Event.objects.order_by("code").values_list("kind", "code"):
        by_kind.setdefault(kind, []).append(code)
    lists = [item.list_id for item in catalogue().lists]
    seasons = sorted({f"{int(x[:4]) - 1}-{x[2:4]}" for x in lists if x.endswith("-07")})
    players = [url.removesuffix("/") for url in samples.get("player page", [])]
    codes = [url.rsplit("/", 1)[-1] for url in players]
    listed = _lists_of([int(code[:-1]) for code in codes])
    connections.close_all()

    def events(kind: str) -> list[str]:
        chosen = _draw(by_kind.get(kind, []), pool, rng)
        return [f"/events/{quote(code, safe='')}/" for code in chosen]

    clubs = [url.removesuffix("/") for url in samples.get("club page", [])]
    return {
        "club page (sorted, inactive)": [
            f"{url}/?sort={rng.choice(('standard', 'rapid'))}&inactive=1" for url in clubs
        ],
        "club list A-Z": [f"/clubs/?browse={letter}" for letter in letters],
        "counties": ["/counties/"],
        "county-team page": [f"/counties/{quote(key)}/?team=1" for key in counties],
        "events received (season, sort)": [
            f"/events/?season={season}&sort={sort}" for season in seasons for sort in ("name",)
        ],
        "league event page": events(Event.Kind.LEAGUE),
        "tournament event page": events(Event.Kind.CONGRESS),
        "county match page": events(Event.Kind.COUNTY_MATCH),
        "amendments": ["/amendments/", *(f"/amendments/?list={x}" for x in lists)],
        "player page (?list=)": [
            f"{url}/?list={rng.choice(listed[int(code[:-1])])}"
            for url, code in zip(players, codes, strict=True)
            if listed.get(int(code[:-1]))
        ],
        "help": ["/help/"],
        "api player history": [f"/api/v1/players/{code}/history" for code in codes],
    }


def _lists_of(codes: list[int]) -> dict[int, list[str]]:
    """Player code -> the lists (by id) whose published versions grade him."""
    from ecfgrading.registry.models import ListEntry

    found: dict[int, set[str]] = {}
    rows = ListEntry.objects.filter(
        player__code__in=codes, published=True, version__status="published"
    )
    for code, list_id in rows.values_list("player__code", "version__grading_list__list_id"):
        found.setdefault(code, set()).add(list_id)
    return {code: sorted(ids) for code, ids in found.items()}


def _draw(items: list[str], pool: int, rng: Any) -> list[str]:
    return list(items) if len(items) <= pool else rng.sample(items, pool)


def _load(values: Sequence[float]) -> str:
    return "/".join(f"{value:.1f}" for value in values)


def _arguments() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--home", help="ECFGRADING_HOME of the database (default: as set)")
    parser.add_argument("--database-url", help="DATABASE_URL (default: as set, or SQLite)")
    parser.add_argument("--samples", type=int, default=200, help="addresses per kind")
    parser.add_argument("--lists", type=int, default=5, help="full rating_list requests")
    parser.add_argument("--seed", type=int, default=2009)
    parser.add_argument("--json", help="write the figures to this file as well")
    parser.add_argument("--kinds", help="only these page kinds, comma-separated (default: all)")
    return parser


if __name__ == "__main__":
    main()
