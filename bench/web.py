"""The public website and API under load: locust against ``ecfgrading serve`` on loopback.

    .venv/bin/python bench/web.py [--home DIR] [--database-url URL] [--users 50]
                                  [--seconds 60] [--max-requests 200000] [--rate 0]
                                  [--workers N] [--threads 1] [--pool 1000] [--warm]
                                  [--formats csv [json xlsx]] [--kinds KIND ...]
                                  [--seed 2009] [--json FILE]

Made for the national demo (``ecfgrading demo --size national``, issues 9 and 10):

1. Samples addresses from the database the server will read (``--home`` and
   ``--database-url`` as the CLI takes them): ``--pool`` current players (their codes and
   surname prefixes in the forms people type), clubs, counties, events, the current lists'
   API pages, and the newest list's files in ``--formats`` (CSV, the seeds' download, by
   default: exporting the national list as XLSX takes longer than gunicorn lets a worker
   take on a busy machine).
2. Starts ``ecfgrading serve --workers N`` on the first free port of 8110-8119 on
   127.0.0.1, with a cache prefix of its own (ECFGRADING_CACHE_PREFIX): the shared cache
   starts cold and nothing another server cached is read or cleared.
3. With ``--warm``, fetches every sampled address once (4 at a time) and reports those
   first fetches, then runs the load: every later request is a repeat, served from the
   shared cache where the site caches it (a code typed in the lookup, whose answer is a
   redirect, and the v2 API's answers are made again each time).
4. Runs locust headless (its Python API, ``FastHttpUser``) in a child process:
   ``--users`` users from the start, each picking a kind of request by the weights of
   ``MIX`` (or among ``--kinds``) and an address of that kind at random, with no pause
   between requests, or with ``--rate R`` offering R requests a second in all (locust's
   constant throughput).
   The run stops after ``--seconds`` or ``--max-requests``, whichever comes first.
5. Prints requests a second, p50/p95/p99 per kind (split into first fetches, which the
   server has to make, and repeats, which come from the shared cache), errors, the load
   average before and after, the CPU seconds the server, PostgreSQL's backends for the
   database and locust used, and what the server logged; stops the server.

Any status other than 200 is an error, after redirects (a code typed in the player
lookup is a 302 to the player's page, counted as one request). Load generator and server
share the machine: on two cores locust's own CPU time is part of the figures.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

# The console script installed beside the interpreter (pip install -e . puts it there).
ECFGRADING = Path(sys.executable).with_name("ecfgrading")
PORTS = range(8110, 8120)  # this benchmark's ports on the shared development machine
HOST = "127.0.0.1"
READY_SECONDS = 180  # collectstatic and loading the site before the first answer
STOP_SECONDS = 30
SHOWN_LOG_LINES = 30

# What the public asks for, by weight (percent): lookups and player pages most, then
# clubs and events, a few list files; programs calling the API take a fifth.
MIX: dict[str, int] = {
    "home": 3,
    "player lookup (name)": 12,
    "player lookup (code)": 4,
    "player page": 23,
    "club lookup": 6,
    "club page": 7,
    "county page": 2,
    "events received": 2,
    "event page": 8,
    "lists": 2,
    "list download": 1,
    "api player search": 7,
    "api player": 8,
    "api list page": 5,
    "v2 player by code": 10,
    "v2 player by name": 0,  # not in the mix: unpaged, uncached (--kinds)
}
TARGET_RPS = 300.0  # issue 9: 300 requests a second or more ...
TARGET_P95_MS = 100.0  # ... with p95 under 100 ms and no errors


# --- addresses to ask for ----------------------------------------------------------------


def sample(pool: int, seed: int, formats: Sequence[str] = ("csv",)) -> dict[str, list[str]]:
    """Addresses of each kind in ``MIX``, read from the database in a few queries; the
    same ``seed`` on the same data gives the same addresses. List files are the newest
    list's, whole and of each version, in ``formats``."""
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ecfgrading.settings")
    django.setup()
    from django.db import connections

    try:
        return _sampled(pool, random.Random(seed), formats)
    finally:
        connections.close_all()


def _sampled(pool: int, rng: random.Random, formats: Sequence[str]) -> dict[str, list[str]]:
    from ecfgrading.lookups.clubs import club_index
    from ecfgrading.lookups.list_entries import ENTRIES_PER_PAGE
    from ecfgrading.lookups.list_files import links
    from ecfgrading.lookups.lists import catalogue, current_lists
    from ecfgrading.registry.models import Event, ListEntry, Player

    current = current_lists()
    if not current:
        raise SystemExit("nothing is published in this database: build the demo first")
    versions = [each.current.id for each in current.values()]
    graded = sorted(
        set(ListEntry.objects.filter(version_id__in=versions).values_list("player_id", flat=True))
    )
    players = list(
        Player.objects.filter(pk__in=rng.sample(graded, min(pool, len(graded)))).order_by("pk")
    )
    codes = [player.ref for player in players]
    index = club_index()
    clubs = sorted(pk for pk, row in index.clubs.items() if row.merged_into_id is None)
    counties = sorted(index.county_keys)
    events = sorted(Event.objects.values_list("code", flat=True))
    pages = []
    for rate, each in current.items():
        entries = ListEntry.objects.filter(version_id=each.current.id).count()
        last = max(1, -(-entries // ENTRIES_PER_PAGE))
        pages += [f"/api/v1/lists/{each.list_id}/{rate.value}?page={n}" for n in range(1, last + 1)]
    latest = catalogue().lists[0]  # the newest list: its whole files and each version's
    shown = [links(v.info.list_id, v.info.rate, v.info.name) for v in latest.versions]
    every = [*links(latest.list_id), *(link for files in shown for link in files)]
    files = [link.filename for link in every if link.fmt in formats]
    return {
        "home": ["/"],
        "player lookup (name)": [
            f"/players/?q={quote(_typed(p.surname, p.forenames, rng))}" for p in players
        ],
        "player lookup (code)": [f"/players/?q={_code_typed(code, rng)}" for code in codes],
        "player page": [f"/players/{code}/" for code in codes],
        "club lookup": [
            f"/clubs/?q={quote(_club_typed(index.clubs[pk].name, rng))}"
            for pk in _some(clubs, pool, rng)
        ],
        "club page": [f"/clubs/{quote(index.club(pk).key)}/" for pk in _some(clubs, pool, rng)],
        "county page": [f"/counties/{quote(index.county(pk).key)}/" for pk in counties],
        "events received": ["/events/"],
        "event page": [f"/events/{quote(code, safe='')}/" for code in _some(events, pool, rng)],
        "lists": ["/lists/"],
        "list download": [f"/downloads/{name}" for name in files],
        "api player search": [
            f"/api/v1/players?q={quote(_typed(p.surname, p.forenames, rng))}" for p in players
        ],
        "api player": [f"/api/v1/players/{code}" for code in codes],
        "api list page": _some(pages, pool, rng),
        "v2 player by code": [f"/v2/new/api.php?v2/players/code/{code}" for code in codes],
        "v2 player by name": [
            f"/v2/new/api.php?v2/players/name/{quote(p.surname[:4])}" for p in players
        ],
    }


def _some(items: Sequence[Any], pool: int, rng: random.Random) -> list[Any]:
    return list(items) if len(items) <= pool else rng.sample(list(items), pool)


def _typed(surname: str, forenames: str, rng: random.Random) -> str:
    """A name as people type it in the lookup: ``smi``, ``smith, j``, ``Smith,John``."""
    first = forenames.split()[0] if forenames.split() else ""
    forms = [surname[:3].lower(), surname, f"{surname.lower()}, {first[:1].lower()}"]
    if first:
        forms.append(f"{surname},{first}")
    return rng.choice(forms)


def _code_typed(code: str, rng: random.Random) -> str:
    """A grading code with its check letter or without it (G28)."""
    return code if rng.random() < 0.5 else code[:6]


def _club_typed(name: str, rng: random.Random) -> str:
    """The start of a word of a club's name, as typed in the club lookup."""
    words = [word for word in name.split() if word[:1].isalpha()] or [name]
    word = rng.choice(words)
    return word[: rng.randint(3, max(3, len(word)))]


# --- the server ------------------------------------------------------------------------


def free_port() -> int:
    """The first port of this benchmark's range that nothing listens on."""
    for port in PORTS:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
            try:
                probe.bind((HOST, port))
            except OSError:
                continue
            return port
    raise SystemExit(f"every port of {PORTS.start}-{PORTS.stop - 1} is taken")


@contextmanager
def served(
    env: dict[str, str], workers: int | None, threads: int, log: Path
) -> Iterator[tuple[str, int]]:
    """``ecfgrading serve`` on loopback until the block ends; yields its address and the
    process id of gunicorn's master (``serve`` runs it in its own process)."""
    port = free_port()
    command = [str(ECFGRADING), "serve", "--host", HOST, "--port", str(port)]
    command += ["--threads", str(threads)] + (["--workers", str(workers)] if workers else [])
    with log.open("wb") as out:
        server = subprocess.Popen(command, env=env, stdout=out, stderr=subprocess.STDOUT)
    base = f"http://{HOST}:{port}"
    try:
        _wait_ready(server, base, log)
        yield base, server.pid
    finally:
        _stop(server)


def _wait_ready(server: subprocess.Popen[bytes], base: str, log: Path) -> None:
    deadline = time.monotonic() + READY_SECONDS
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"the server stopped (exit {server.returncode}):\n{log.read_text()}")
        try:
            with urllib.request.urlopen(f"{base}/help/", timeout=5) as answer:
                if answer.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            time.sleep(0.5)
    raise SystemExit(f"the server did not answer within {READY_SECONDS} s:\n{log.read_text()}")


def _stop(server: subprocess.Popen[bytes]) -> None:
    """gunicorn's master stops its workers on SIGTERM; killed if it does not."""
    if server.poll() is None:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(STOP_SECONDS)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of a process and its children now alive (the workers)."""
    import psutil  # locust's dependency

    try:
        process = psutil.Process(pid)
        family = [process, *process.children(recursive=True)]
    except psutil.NoSuchProcess:
        return 0.0
    total = 0.0
    for member in family:
        try:
            times = member.cpu_times()
        except psutil.NoSuchProcess:
            continue
        total += times.user + times.system
    return total


def database_cpu(url: str | None) -> dict[int, float]:
    """CPU seconds of each PostgreSQL backend serving the database ``url`` names, when the
    server runs on this machine (its processes show the database in their titles)."""
    import psutil

    if not url:
        return {}
    name = f" {urlsplit(url).path.lstrip('/')} "
    found = {}
    for process in psutil.process_iter(["name", "cmdline", "cpu_times"]):
        title = " ".join(process.info["cmdline"] or ())
        if title.startswith("postgres:") and name in f"{title} " and process.info["cpu_times"]:
            found[process.pid] = process.info["cpu_times"].user + process.info["cpu_times"].system
    return found


def machine_busy() -> float:
    """CPU seconds every process of the machine has spent so far (all cores, not idle)."""
    import psutil

    times = psutil.cpu_times()._asdict()
    waiting = ("idle", "iowait", "steal", "guest", "guest_nice")  # guest is in user already
    return float(sum(value for name, value in times.items() if name not in waiting))


def _spent(before: dict[int, float], after: dict[int, float]) -> float:
    return sum(seconds - before.get(pid, 0.0) for pid, seconds in after.items())


# --- warming: every sampled address once -------------------------------------------------


def warm(base: str, samples: dict[str, list[str]], threads: int = 4) -> dict[str, Any]:
    """Fetch every address once, ``threads`` at a time: the first fetches, which fill the
    shared cache; their latencies are the cold figures at low concurrency."""
    jobs = [(kind, url) for kind, urls in samples.items() for url in dict.fromkeys(urls)]
    started = time.monotonic()
    with ThreadPoolExecutor(threads) as pool:
        timed = list(pool.map(lambda job: (job[0], _timed_get(base + job[1])), jobs))
    by_kind: dict[str, list[float]] = {}
    errors: dict[str, int] = {}
    for kind, (status, ms) in timed:
        by_kind.setdefault(kind, []).append(ms)
        if status != 200:
            errors[kind] = errors.get(kind, 0) + 1
    kinds = {
        kind: _summary(times) | {"errors": errors.get(kind, 0)} for kind, times in by_kind.items()
    }
    return {
        "seconds": time.monotonic() - started,
        "threads": threads,
        "requests": len(jobs),
        "kinds": kinds,
    }


def _timed_get(url: str) -> tuple[int, float]:
    start = time.perf_counter()
    try:
        with urllib.request.urlopen(url, timeout=120) as answer:
            answer.read()
            status = answer.status
    except urllib.error.HTTPError as error:
        status = error.code
    except (OSError, http.client.HTTPException):  # refused, reset, cut short: an error
        status = 0
    return status, (time.perf_counter() - start) * 1000


def _summary(times: list[float]) -> dict[str, float]:
    ordered = sorted(times)

    def at(share: float) -> float:
        return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]

    return {
        "requests": len(ordered),
        "p50": at(0.50),
        "p95": at(0.95),
        "p99": at(0.99),
        "max": ordered[-1],
        "mean": statistics.fmean(ordered),
    }


# --- the load (in a child process: locust patches the standard library with gevent) -----


def run_load(config: dict[str, Any], workdir: Path) -> dict[str, Any]:
    """Run ``load`` in a fresh interpreter and read back what it measured."""
    given, answer = workdir / "load-config.json", workdir / "load-result.json"
    given.write_text(json.dumps(config))
    subprocess.run([sys.executable, __file__, "--load", str(given), str(answer)], check=True)
    result: dict[str, Any] = json.loads(answer.read_text())
    return result


def load(config: dict[str, Any]) -> dict[str, Any]:
    """locust headless: ``users`` users for ``seconds`` or ``max_requests``, whichever
    first; statistics per kind of request, first fetches and repeats apart."""
    import gevent
    import psutil
    from locust import FastHttpUser, constant, constant_throughput, task
    from locust.env import Environment

    samples: dict[str, list[str]] = config["samples"]
    kinds = [kind for kind in MIX if samples.get(kind)]
    weights = [MIX[kind] for kind in kinds]
    if not any(weights):  # only kinds of weight 0 chosen (--kinds): equally
        weights = [1] * len(kinds)
    seen: set[str] = set(config["warmed"])
    rng = random.Random(config["seed"])
    users, rate = config["users"], config["rate"]

    class Visitor(FastHttpUser):
        host = config["host"]
        wait_time = constant_throughput(rate / users) if rate else constant(0)
        network_timeout = 60.0
        connection_timeout = 10.0

        @task
        def visit(self) -> None:
            kind = rng.choices(kinds, weights)[0]
            url = rng.choice(samples[kind])
            when = "repeat" if url in seen else "first"
            seen.add(url)
            with self.client.get(url, name=f"{kind}|{when}", catch_response=True) as answer:
                if answer.status_code != 200:
                    answer.failure(f"status {answer.status_code}")

    env = Environment(user_classes=[Visitor])
    runner = env.create_local_runner()
    me = psutil.Process()
    cpu_before = sum(me.cpu_times()[:2])
    runner.start(users, spawn_rate=users)
    deadline = time.monotonic() + config["seconds"]
    while time.monotonic() < deadline and env.stats.total.num_requests < config["max_requests"]:
        gevent.sleep(0.2)
    runner.quit()
    return _stats(env, kinds, sum(me.cpu_times()[:2]) - cpu_before)


def _stats(env: Any, kinds: list[str], cpu: float) -> dict[str, Any]:
    from locust.stats import StatsEntry

    total = env.stats.total
    elapsed = max(1e-9, total.last_request_timestamp - total.start_time)
    per_kind: dict[str, Any] = {}
    for kind in kinds:
        merged = StatsEntry(env.stats, kind, "GET", use_response_times_cache=False)
        parts = {}
        for when in ("first", "repeat"):
            entry = env.stats.entries.get((f"{kind}|{when}", "GET"))
            if entry is not None and entry.num_requests:
                merged.extend(entry)
                parts[when] = _entry(entry)
        if merged.num_requests:
            per_kind[kind] = _entry(merged) | parts
    firsts = StatsEntry(env.stats, "first", "GET", use_response_times_cache=False)
    repeats = StatsEntry(env.stats, "repeat", "GET", use_response_times_cache=False)
    for (name, _), entry in env.stats.entries.items():
        (firsts if name.endswith("|first") else repeats).extend(entry)
    errors = [
        {"name": error.name, "error": str(error.error), "occurrences": error.occurrences}
        for error in env.stats.errors.values()
    ]
    return {
        "seconds": elapsed,
        "rps": total.num_requests / elapsed,
        "total": _entry(total),
        "first": _entry(firsts) if firsts.num_requests else None,
        "repeat": _entry(repeats) if repeats.num_requests else None,
        "kinds": per_kind,
        "errors": errors,
        "locust_cpu_seconds": cpu,
    }


def _entry(entry: Any) -> dict[str, Any]:
    return {
        "requests": entry.num_requests,
        "failures": entry.num_failures,
        "p50": entry.get_response_time_percentile(0.50),
        "p95": entry.get_response_time_percentile(0.95),
        "p99": entry.get_response_time_percentile(0.99),
        "max": entry.max_response_time,
        "mean": entry.avg_response_time,
    }


# --- the report --------------------------------------------------------------------------


def report(result: dict[str, Any]) -> str:
    """What a run measured, as plain text (and the verdict against issue 9's target)."""
    lines = [f"database: {result['database']}; cache: {result['cache']}"]
    pace = f"{result['rate']:.0f} requests/s offered" if result["rate"] else "no pause"
    lines.append(
        f"server: {result['workers']} workers x {result['threads']} threads; "
        f"{result['users']} users, {pace}"
    )
    before, after = _load_text(result["load_before"]), _load_text(result["load_after"])
    lines.append(f"load average before {before}, after {after}")
    if result.get("warm"):
        warmed = result["warm"]
        lines.append(
            f"\nwarming: {warmed['requests']} first fetches, {warmed['threads']} at a time, in "
            f"{warmed['seconds']:.1f} s"
        )
        lines += _table(warmed["kinds"], split=False)
    load_ = result["load"]
    lines.append(
        f"\nload: {load_['total']['requests']} requests in {load_['seconds']:.1f} s = "
        f"{load_['rps']:.0f} requests/s; failures {load_['total']['failures']}"
    )
    lines += _table(load_["kinds"], split=True)
    for label in ("first", "repeat", "total"):
        entry = load_.get(label)
        if entry:
            lines.append(_row(f"all ({label})", entry))
    for error in load_["errors"]:
        lines.append(f"error: {error['name']}: {error['error']} x{error['occurrences']}")
    lines.append(
        f"CPU seconds: server {result['server_cpu_seconds']:.0f}, PostgreSQL "
        f"{result['database_cpu_seconds']:.0f}, locust "
        f"{load_['locust_cpu_seconds']:.0f}, other processes {_others(result):.0f} (of "
        f"{2 * load_['seconds']:.0f} on two cores)"
    )
    met = (
        load_["rps"] >= TARGET_RPS
        and load_["total"]["p95"] < TARGET_P95_MS
        and not load_["total"]["failures"]
    )
    lines.append(
        f"target ({TARGET_RPS:.0f}/s, p95 < {TARGET_P95_MS:.0f} ms, no errors): "
        f"{'met' if met else 'missed'}"
    )
    return "\n".join(lines)


def _others(result: dict[str, Any]) -> float:
    """CPU the rest of the machine took meanwhile: what the benchmark did not have."""
    ours = result["server_cpu_seconds"] + result["database_cpu_seconds"]
    return max(
        0.0, result.get("machine_cpu_seconds", 0.0) - ours - result["load"]["locust_cpu_seconds"]
    )


def _table(kinds: dict[str, Any], *, split: bool) -> list[str]:
    lines = [f"  {'kind':34} {'n':>6} {'err':>4} {'p50':>6} {'p95':>6} {'p99':>6} {'max':>6}  ms"]
    for kind, entry in kinds.items():
        lines.append(_row(kind, entry))
        if split:
            for when in ("first", "repeat"):
                if when in entry and len([w for w in ("first", "repeat") if w in entry]) > 1:
                    lines.append(_row(f"  {when}", entry[when]))
    return lines


def _row(label: str, entry: dict[str, Any]) -> str:
    failures = entry.get("failures", entry.get("errors", 0))
    return (
        f"  {label:34} {entry['requests']:>6} {failures:>4} {entry['p50']:>6.0f} "
        f"{entry['p95']:>6.0f} {entry['p99']:>6.0f} {entry['max']:>6.0f}"
    )


def _load_text(values: Sequence[float]) -> str:
    return "/".join(f"{value:.1f}" for value in values)


# --- the command -------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> None:
    args = _arguments().parse_args(argv)
    if args.load:
        given, answer = args.load
        Path(answer).write_text(json.dumps(load(json.loads(Path(given).read_text()))))
        return
    env = _environment(args)
    os.environ.update(env)
    samples = sample(args.pool, args.seed, args.formats)
    if args.kinds:
        unknown = set(args.kinds) - set(MIX)
        if unknown:
            raise SystemExit(f"unknown kinds {sorted(unknown)}; expected some of {list(MIX)}")
        samples = {kind: urls for kind, urls in samples.items() if kind in args.kinds}
    else:
        samples = {kind: urls for kind, urls in samples.items() if MIX[kind]}
    counts = ", ".join(f"{kind} {len(urls)}" for kind, urls in samples.items())
    print(f"sampled addresses: {counts}", flush=True)
    with tempfile.TemporaryDirectory(prefix="bench-web-") as scratch:
        workdir = Path(scratch)
        with served(env, args.workers, args.threads, workdir / "server.log") as (base, server):
            result: dict[str, Any] = {
                "database": "PostgreSQL" if env.get("DATABASE_URL") else "SQLite",
                "cache": "Redis" if env.get("REDIS_URL") else "database",
                "workers": args.workers or "default",
                "threads": args.threads,
                "users": args.users,
                "rate": args.rate,
                "load_before": os.getloadavg(),
            }
            warmed = list({url for urls in samples.values() for url in urls}) if args.warm else []
            if args.warm:
                print("warming: every sampled address once ...", flush=True)
                result["warm"] = warm(base, samples)
            cpu_before, database_before = cpu_seconds(server), database_cpu(env.get("DATABASE_URL"))
            machine_before = machine_busy()
            print(f"load: {args.users} users for {args.seconds} s against {base} ...", flush=True)
            result["load"] = run_load(
                {
                    "host": base,
                    "samples": samples,
                    "warmed": warmed,
                    "users": args.users,
                    "rate": args.rate,
                    "seconds": args.seconds,
                    "max_requests": args.max_requests,
                    "seed": args.seed,
                },
                workdir,
            )
            result["server_cpu_seconds"] = cpu_seconds(server) - cpu_before
            database_after = database_cpu(env.get("DATABASE_URL"))
            result["database_cpu_seconds"] = _spent(database_before, database_after)
            result["machine_cpu_seconds"] = machine_busy() - machine_before
            result["load_after"] = os.getloadavg()
            logged = (workdir / "server.log").read_text(errors="replace").splitlines()
    print(report(result))
    said = [line for line in logged if not line.startswith("serving on ")]
    if said:  # worker timeouts, errors: gunicorn and Django log them to stderr
        timeouts = sum("WORKER TIMEOUT" in line for line in said)
        print(f"\nthe server logged {len(said)} lines ({timeouts} worker timeouts), the last:")
        print("\n".join(said[-SHOWN_LOG_LINES:]))
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2))


def _environment(args: argparse.Namespace) -> dict[str, str]:
    """The server's environment: this one, the database named, and a cache prefix of the
    run's own (a cold cache that shares nothing with another server's pages)."""
    env = dict(os.environ)
    if args.home:
        env["ECFGRADING_HOME"] = str(Path(args.home).resolve())
    if args.database_url:
        env["DATABASE_URL"] = args.database_url
    env["ECFGRADING_CACHE_PREFIX"] = f"bench-web-{os.getpid()}-{int(time.time())}"
    env.pop("ECFGRADING_DEBUG", None)
    return env


def _arguments() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--home", help="ECFGRADING_HOME of the database (default: as set)")
    parser.add_argument("--database-url", help="DATABASE_URL (default: as set, or SQLite)")
    parser.add_argument("--users", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--max-requests", type=int, default=200_000)
    parser.add_argument(
        "--rate", type=float, default=0.0, help="requests a second offered in all (0: no pause)"
    )
    parser.add_argument("--workers", type=int, help="server workers (default: serve's)")
    parser.add_argument("--threads", type=int, default=1, help="threads per server worker")
    parser.add_argument("--pool", type=int, default=1000, help="addresses sampled per kind")
    parser.add_argument("--warm", action="store_true", help="fetch every address once first")
    parser.add_argument(
        "--kinds", nargs="+", metavar="KIND", help="only these kinds of MIX, e.g. 'player page'"
    )
    parser.add_argument(
        "--formats",
        nargs="+",
        choices=("csv", "json", "xlsx"),
        default=["csv"],
        help="list files downloaded (default: csv, the seeds' format)",
    )
    parser.add_argument("--seed", type=int, default=2009)
    parser.add_argument("--json", help="write the figures to this file as well")
    parser.add_argument("--load", nargs=2, help=argparse.SUPPRESS)  # the child process
    return parser


if __name__ == "__main__":
    main()
