"""How cost grows: import, grading and the public pages at 1x, 2x and 4x the national size.

    .venv/bin/python bench/scale.py [--factors 1,2,4] [--size national] [--seed 2009]
                                    [--postgres URL] [--scratch scale_bench]
                                    [--skip-pages] [--samples 50] [--season-dir DIR]
                                    [--workdir DIR] [--code SRC] [--json FILE]
                                    [--report FILE] [--tiny]
                                    [--regrade] [--regrade-size default | --regrade-home DIR]

For each factor the demo size (``--size``, national by default: 60,000 players on record,
200,000 games a season) is scaled, players and games together, and the demo federation's
first season is generated as ``bench/ingest.py`` makes it (the starting list 2009-07 and
every results file of 2009-10), in a child process. Then, in a child process of its own
on a fresh database (a temporary ECFGRADING_HOME on SQLite, or with ``--postgres URL`` a
scratch database on that server whose name starts "scale", dropped after):

1. the starting list through ``services.lists.imports.import_grade_list``;
2. every results file through ``services.results.import_files``, in one batch as
   ``results import`` runs it (queued identifications are left undecided);
3. one grading run, ``compute_version`` of the season's standard list (2010-07), with
   its load / engine / store split;
4. ``publish_version`` of that draft;
5. unless ``--skip-pages``, ``--samples`` public addresses of each kind, drawn as
   ``bench/web.py`` draws them and timed by ``bench/pages.py`` (cold: the page made, the
   cache empty; then warm and shared), in process with Django's test client.

Each write's floor is measured in the same child, after the steps: the rows the step
added (``bench/step_floor.py``) inserted again plainly in one transaction, into empty
tables with the same columns and indexes (SQLite: ``executemany``, a fresh file in WAL
mode with a 256 MB page cache; PostgreSQL: ``COPY``). Each child's peak memory
(``ru_maxrss``) is printed; before a factor, its peak is estimated from the last one and
the factor is skipped, with the rest, when that exceeds what the machine has available.

The table gives each step at each factor: seconds, microseconds per game (per row for
the list import; graded games for grading and publishing), CPU seconds (the child's and,
on PostgreSQL, its server process's, as ``bench/ingest.py`` counts them: on a busy shared
machine the wall clock mostly measures waiting, CPU seconds hardly move), the floor and
the ratios, wall and CPU; then the growth from one factor to the next: the ratio of
seconds (of CPU seconds in brackets) against the ratio of sizes (2.0 from 1x to 2x:
linear). A step whose CPU seconds grow more than 15 % faster than its size (2.3 for
twice the games) is flagged ``!``; a page (whose cost should not depend on the size of
the database) whose p95 cold grows more than 1.5 times as well. A step that mostly
changes rows (publishing) has a floor of only the few rows it adds.

The seasons are written to a temporary folder, or kept in ``--season-dir`` (one folder
per size and seed, read again by later runs: a season generated once serves every run,
and the table then shows the seconds its generation took when it was written).
``--code SRC`` makes the children import ``ecfgrading`` from SRC, as ``bench/ingest.py``
does (``git archive COMMIT src | tar -x -C DIR``: an older commit timed by the same
script). ``--json FILE`` writes the figures after each factor (a run cut short keeps
what it measured); ``--report FILE`` prints the tables of such a file.

``--regrade`` runs ``bench/regrade.py`` afterwards (every list of the demo's span,
regraded: issue 13) on a demo of ``--regrade-size`` it builds, or a copy of the demo in
``--regrade-home``. ``--tiny`` (for the tests) scales the tiny demo with few samples.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
if str(BENCH) not in sys.path:
    sys.path.append(str(BENCH))  # bench/ingest.py, pages.py and web.py import so

import ingest  # noqa: E402  (bench/ingest.py: the season, children's environments)

MARK = ingest.MARK
SCRATCH = "scale_bench"
LINEAR_SLACK = 1.15  # a step growing faster than its size by more than this is flagged
PAGE_GROWTH = 1.5  # a page's p95 growing more than this between two factors is flagged
MEMORY_MARGIN = 1.25  # the next factor's estimated peak, with this margin, must fit
PAGE_KINDS = (  # the pages in the growth table (all are in the table of pages)
    "player page",
    "player lookup (name)",
    "club page",
    "county page",
    "county-team page",
    "event page",
    "league event page",
    "api player",
)
STEPS = ("list import", "results import", "grading run", "publish")


# Sizes ------------------------------------------------------------------------------------


def scaled(base: Any, factor: float) -> Any:
    """The demo size ``factor`` times ``base``: players on record and games a season."""
    return replace(
        base,
        name=f"{base.name} x{factor:g}",
        players=round(base.players * factor),
        games=round(base.games * factor),
    )


def factors_given(text: str) -> list[float]:
    values = [float(part) for part in text.split(",") if part.strip()]
    if not values or any(value <= 0 for value in values) or values != sorted(set(values)):
        raise argparse.ArgumentTypeError(f"expected increasing factors such as 1,2,4, got {text}")
    return values


def season_list_id(label: str) -> str:
    """The standard list a season's games are graded in: 2009-10 -> 2010-07."""
    return f"{int(label[:4]) + 1}-07"


# Growth -----------------------------------------------------------------------------------


def growth(smaller: float, larger: float) -> float | None:
    return larger / smaller if smaller > 0 else None


def worse_than_linear(ratio: float | None, size_ratio: float) -> bool:
    """True when a cost grew more than ``LINEAR_SLACK`` times faster than its size."""
    return ratio is not None and ratio > size_ratio * LINEAR_SLACK


def page_grew(ratio: float | None) -> bool:
    return ratio is not None and ratio > PAGE_GROWTH


def fits(peak_kib: int, factor: float, next_factor: float, available_kib: int) -> bool:
    """Whether a child's peak at ``factor``, grown linearly to ``next_factor`` and with a
    margin, fits in what is available."""
    return peak_kib * next_factor / factor * MEMORY_MARGIN <= available_kib


def available_kib() -> int:
    """MemAvailable of /proc/meminfo (KiB), or a large number where there is none."""
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 1 << 40


# The children -----------------------------------------------------------------------------


def run(command: list[str], env: dict[str, str]) -> dict[str, Any]:
    """Run a child (its progress on stderr) and return its figures, the last MARK line."""
    done = subprocess.run(command, env=env, stdout=subprocess.PIPE, text=True, check=False)
    lines = [line for line in done.stdout.splitlines() if line.startswith(MARK)]
    if done.returncode != 0 or not lines:
        raise SystemExit(f"{' '.join(command[1:4])} ... failed (exit {done.returncode})")
    figures: dict[str, Any] = json.loads(lines[-1][len(MARK) :])
    return figures


def season(directory: Path, size: Any, args: argparse.Namespace) -> dict[str, Any]:
    """The season of ``size`` in ``directory`` (generated in a child unless there)."""
    sized = json.dumps({"name": size.name, "players": size.players, "games": size.games})
    command = [sys.executable, __file__, "--generate", str(directory), "--sized", sized]
    command += ["--size", size.name.split()[0], "--seed", str(args.seed)]
    return run(command, ingest.child_env(args.code))


def generate(directory: Path, args: argparse.Namespace) -> dict[str, Any]:
    """In the child: the season written, or found written by an earlier run, with the
    seconds the demo took to generate it and (when written now) the peak memory."""
    from ecfgrading.demo.sizes import SIZES

    given = json.loads(args.sized)
    size = replace(SIZES[args.size], **given)
    written = not (directory / ingest.SEASON).exists()
    info = ingest.season_on_disk(directory, size, args.seed)
    peak = _maxrss() if written else 0  # 0: not known, made by an earlier run
    return {**info, "seconds": info["generate_seconds"], "maxrss": peak}


@contextlib.contextmanager
def database(args: argparse.Namespace) -> Iterator[dict[str, str]]:
    """A child's environment on a fresh database: SQLite, or a PostgreSQL scratch one."""
    with tempfile.TemporaryDirectory(prefix="scale-home-", dir=args.workdir) as home:
        (Path(home) / "static").symlink_to(args.static)  # collected once, by the first
        env = ingest.child_env(args.code, ECFGRADING_HOME=home)
        env.pop("REDIS_URL", None)  # the cache: the database's table, as the default site
        if not args.postgres:
            yield env
            return
        with ingest.scratch_database(args.postgres, args.scratch) as url:
            yield {**env, "DATABASE_URL": url}


def measure(directory: Path, args: argparse.Namespace) -> dict[str, Any]:
    with database(args) as env:
        command = [sys.executable, __file__, "--worker", str(directory)]
        command += ["--samples", str(0 if args.skip_pages else args.samples)]
        return run(command, env)


# The worker: one database, every step -----------------------------------------------------


def worker(directory: Path, args: argparse.Namespace) -> dict[str, Any]:
    os.environ["DJANGO_SETTINGS_MODULE"] = "ecfgrading.settings"
    import django
    from django.core.management import call_command

    import step_floor

    django.setup()
    call_command("migrate", verbosity=0)
    call_command("createcachetable", verbosity=0)
    info = json.loads((directory / ingest.SEASON).read_text(encoding="utf-8"))
    steps: dict[str, dict[str, Any]] = {}
    ranges: dict[str, list[step_floor.Added]] = {}
    for name, step in (
        ("list import", _list_import),
        ("results import", _results_import),
        ("grading run", _grading_run),
        ("publish", _publish),
    ):
        _say(f"{name} ...")
        before = step_floor.marks()
        with ingest.cpu_used() as used:  # CPU: hardly moved by other work on the machine
            figures = step(directory, info, steps)
        steps[name] = figures | {"cpu": sum(used), "maxrss": _maxrss()}
        ranges[name] = step_floor.added(before, step_floor.marks())
    pages = _pages(args.samples) if args.samples else {}
    peak = _maxrss()  # before the floors, which hold each step's rows in memory
    for name, added in ranges.items():
        _say(f"floor of {name} ...")
        floor = step_floor.floor_of(added)
        steps[name] |= {"floor": floor.seconds, "floor_cpu": floor.cpu, "floor_rows": floor.rows}
    return {"steps": steps, "pages": pages, "maxrss": peak, "vendor": _vendor()}


def _list_import(directory: Path, info: dict[str, Any], _: Any) -> dict[str, Any]:
    from ecfgrading.services.lists.imports import import_grade_list

    data = (directory / info["list_file"]).read_bytes()
    start = time.perf_counter()
    result = import_grade_list(
        data, list_id=info["list_id"], filename=info["list_file"], actor="bench"
    )
    seconds = time.perf_counter() - start
    rows = result.players_created + result.players_updated + result.players_unchanged
    return {"seconds": seconds, "units": rows, "unit": "row", "ok": bool(result.ok)}


def _results_import(directory: Path, info: dict[str, Any], _: Any) -> dict[str, Any]:
    from ecfgrading.registry.models import Game
    from ecfgrading.services.results import import_files

    names = [name for name, _ in ingest.ordered_files(directory)]
    files = [(name, (directory / "results" / name).read_bytes()) for name in names]
    start = time.perf_counter()
    results = import_files(files, sender="bench")
    seconds = time.perf_counter() - start
    accepted = sum(1 for result in results if result.accepted)
    games = sum(data.count(b"#PIN1=") for _, data in files)  # one line per game
    return {
        "seconds": seconds,
        "units": games,
        "unit": "game",
        "recorded": Game.objects.count(),
        "accepted": accepted,
        "files": len(files),
    }


def _grading_run(directory: Path, info: dict[str, Any], _: Any) -> dict[str, Any]:
    from ecfgrading.engine import Rate
    from ecfgrading.services.grading.compute import compute_version

    start = time.perf_counter()
    run = compute_version(season_list_id(info["label"]), Rate.STANDARD, actor="bench")
    seconds = time.perf_counter() - start
    return {
        "seconds": seconds,
        "units": run.games,
        "unit": "game",
        "version": run.version,
        "players": run.players,
        "split": run.seconds,
    }


def _publish(directory: Path, info: dict[str, Any], done: dict[str, Any]) -> dict[str, Any]:
    from ecfgrading.engine import Rate
    from ecfgrading.services.grading.compute import publish_version

    graded = done["grading run"]
    start = time.perf_counter()
    publish_version(season_list_id(info["label"]), Rate.STANDARD, graded["version"], actor="bench")
    seconds = time.perf_counter() - start
    return {"seconds": seconds, "units": graded["units"], "unit": "game"}


def _pages(samples: int) -> dict[str, Any]:
    """bench/pages.py's measure of every kind on ``samples`` addresses drawn as
    bench/web.py draws them (its lines on stderr); no full rating list or files."""
    from django.conf import settings
    from django.core.management import call_command

    import pages
    from web import sample

    _say("pages ...")
    if not (Path(settings.STATIC_ROOT) / "staticfiles.json").exists():
        call_command("collectstatic", interactive=False, verbosity=0)  # as `serve` does
    drawn = sample(samples, 2009)
    drawn["code lookup + player page"] = drawn.get("player lookup (code)", [])
    more = getattr(pages, "_more_pages", None)  # the kinds bench/web.py does not draw
    if more is not None:
        try:
            drawn |= more(drawn, samples, 2009)
        except ImportError as error:  # older code (--code) without what they read
            _say(f"pages bench/web.py does not draw left out ({error})")
    with contextlib.redirect_stdout(sys.stderr):
        found: dict[str, Any] = pages.measure(drawn, samples, 0)
    return found


def _maxrss() -> int:
    """This process's peak resident memory so far, in KiB (Linux)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def _vendor() -> str:
    from django.db import connection

    return str(connection.vendor)


def _say(text: str) -> None:
    print(f"  [{time.strftime('%H:%M:%S')}] {text}", file=sys.stderr, flush=True)


# The table --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Measured:
    """One factor's figures: the season's and the database child's."""

    factor: float
    season: dict[str, Any]
    figures: dict[str, Any]


def step_lines(measured: list[Measured]) -> list[list[str]]:
    """step x factor: amount, seconds and CPU seconds, per unit, the floor and the ratio
    (wall and CPU), peak memory."""
    heads = ["step", "factor", "amount", "seconds", "us/unit", "cpu s", "floor s"]
    lines = [[*heads, "floor cpu s", "x floor", "x floor cpu", "peak MB"]]
    for each in measured:
        info = each.season
        amount = f"{info['games']:,} games, {info['files']:,} files"
        peak = f"{info['maxrss'] / 1024:,.0f}" if info["maxrss"] else "-"
        lines.append(["generate season", f"{each.factor:g}x", amount, f"{info['seconds']:.2f}"])
        lines[-1] += ["", "", "", "", "", "", peak]
        for name in STEPS:
            step = each.figures["steps"][name]
            lines.append(_step_line(name, each.factor, step))
            if name == "grading run":
                for part, seconds in step["split"].items():
                    lines.append([f"  {part}", "", "", f"{seconds:.2f}", _per(seconds, step)])
    return lines


def _per(seconds: float, step: dict[str, Any]) -> str:
    return f"{seconds / step['units'] * 1e6:.1f}" if step["units"] else "-"


def _step_line(name: str, factor: float, step: dict[str, Any]) -> list[str]:
    seconds, cpu = step["seconds"], step.get("cpu", 0.0)
    floor, floor_cpu = step.get("floor", 0.0), step.get("floor_cpu", 0.0)
    return [
        name,
        f"{factor:g}x",
        f"{step['units']:,} {step['unit']}s",
        f"{seconds:.2f}",
        _per(seconds, step),
        f"{cpu:.2f}",
        f"{floor:.2f}",
        f"{floor_cpu:.2f} ({step.get('floor_rows', 0):,} rows)",
        f"{seconds / floor:.1f}" if floor else "-",
        f"{cpu / floor_cpu:.1f}" if floor_cpu else "-",
        f"{step['maxrss'] / 1024:,.0f}",
    ]


def growth_lines(measured: list[Measured]) -> list[list[str]]:
    """From one factor to the next: each step's seconds (CPU seconds in brackets) against
    its size's growth, and its floor's; pages' p95."""
    pairs = list(itertools.pairwise(measured))
    heads = [f"{b.factor:g}x/{a.factor:g}x" for a, b in pairs]
    lines = [["growth: seconds (cpu), linear = size", *heads]]
    games = (_ratio(a.season["games"], b.season["games"]) for a, b in pairs)
    lines.append(["  size (games a season)", *games])
    lines.append(["generate season", *(_season_growth(a, b) for a, b in pairs)])
    for name in STEPS:
        lines.append(
            [f"  size ({_unit(measured, name)}s)", *(_units(name, a, b) for a, b in pairs)]
        )
        lines.append([name, *(_step_growth(name, a, b) for a, b in pairs)])
        lines.append(["  its floor", *(_step_growth(name, a, b, "floor") for a, b in pairs)])
    for kind in _page_kinds(measured):
        lines.append([f"page {kind} (p95 cold)", *(_page_growth(kind, a, b) for a, b in pairs)])
    return lines


def _unit(measured: list[Measured], name: str) -> str:
    return str(measured[0].figures["steps"][name]["unit"])


def _units(name: str, a: Measured, b: Measured) -> str:
    return _ratio(a.figures["steps"][name]["units"], b.figures["steps"][name]["units"])


def _ratio(smaller: float, larger: float) -> str:
    ratio = growth(smaller, larger)
    return "-" if ratio is None else f"{ratio:.2f}"


def _season_growth(a: Measured, b: Measured) -> str:
    ratio = growth(a.season["seconds"], b.season["seconds"])
    size = growth(a.season["games"], b.season["games"]) or 0.0
    flag = " !" if worse_than_linear(ratio, size) else ""
    return _ratio(a.season["seconds"], b.season["seconds"]) + flag


def _step_growth(name: str, a: Measured, b: Measured, which: str = "") -> str:
    """Seconds and CPU seconds grown; flagged when the CPU seconds (the seconds, where
    none were counted) grew faster than linearly."""
    step_a, step_b = a.figures["steps"][name], b.figures["steps"][name]
    size = growth(step_a["units"], step_b["units"]) or 0.0
    wall, cpu = (which, f"{which}_cpu") if which else ("seconds", "cpu")
    ratios = [growth(step_a.get(key, 0.0), step_b.get(key, 0.0)) for key in (wall, cpu)]
    judged = ratios[1] if ratios[1] is not None else ratios[0]
    flag = " !" if not which and worse_than_linear(judged, size) else ""
    shown = ["-" if r is None else f"{r:.2f}" for r in ratios]
    return f"{shown[0]} ({shown[1]}){flag}"


def _page_kinds(measured: list[Measured]) -> list[str]:
    return [kind for kind in PAGE_KINDS if all(kind in m.figures["pages"] for m in measured)]


def _page_growth(kind: str, a: Measured, b: Measured) -> str:
    ratio = growth(a.figures["pages"][kind]["cold"]["p95"], b.figures["pages"][kind]["cold"]["p95"])
    flag = " !" if page_grew(ratio) else ""
    return ("-" if ratio is None else f"{ratio:.2f}") + flag


def page_lines(measured: list[Measured]) -> list[list[str]]:
    """p95 cold (ms) and queries of every page kind timed, at each factor."""
    kinds = sorted({kind for m in measured for kind in m.figures["pages"]})
    lines = [["page (p95 cold ms, queries)", *(f"{m.factor:g}x" for m in measured)]]
    for kind in kinds:
        cells = []
        for each in measured:
            cold = each.figures["pages"].get(kind, {}).get("cold")
            cells.append(f"{cold['p95']:.1f} ({cold['queries_max']})" if cold else "-")
        lines.append([kind, *cells])
    return lines


def print_table(lines: list[list[str]]) -> None:
    widths = [max(len(line[k]) for line in lines if k < len(line)) for k in range(len(lines[0]))]
    for n, line in enumerate(lines):
        cells = [
            cell.ljust(widths[k]) if k == 0 else cell.rjust(widths[k])
            for k, cell in enumerate(line)
        ]
        print("  ".join(cells).rstrip())
        if n == 0:
            print("  ".join("-" * width for width in widths))
    print()


# Main -------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> None:
    args = parse(argv)
    if args.generate is not None:
        print(MARK + json.dumps(generate(args.generate, args)), flush=True)
        return
    if args.worker is not None:
        print(MARK + json.dumps(worker(args.worker, args)), flush=True)
        return
    if args.report is not None:
        measured = [Measured(**each) for each in json.loads(args.report.read_text())]
    else:
        measured = scale(args)
    report(measured)
    if args.regrade:
        regrade(args)


def report(measured: list[Measured]) -> None:
    """The tables: every step at every factor, the growth, and the pages."""
    vendor = measured[0].figures["vendor"] if measured else "-"
    loads = ", ".join(f"{m.factor:g}x {_load(m.figures.get('load', ()))}" for m in measured)
    print(f"database: {vendor}; load average after each factor: {loads}")
    print_table(step_lines(measured))
    if len(measured) > 1:
        print_table(growth_lines(measured))
    if any(m.figures["pages"] for m in measured):
        print_table(page_lines(measured))


def _load(values: Any) -> str:
    return "/".join(f"{value:.1f}" for value in values)


def scale(args: argparse.Namespace) -> list[Measured]:
    """Every factor in turn, while the last one's memory says the next one fits."""
    from ecfgrading.demo.sizes import SIZES

    base = SIZES["tiny" if args.tiny else args.size]
    measured: list[Measured] = []
    with contextlib.ExitStack() as stack:
        run = Path(
            stack.enter_context(tempfile.TemporaryDirectory(prefix="scale-", dir=args.workdir))
        )
        root = args.season_dir or run
        args.static = run / "static"  # the site's static files, shared by the children
        args.static.mkdir()
        for factor in args.factors:
            if measured and not _fits(measured[-1], factor):
                break
            size = scaled(base, factor)
            _say(f"{size.name}: {size.players:,} players, {size.games:,} games a season")
            directory = root / f"{base.name}-x{factor:g}-seed{args.seed}"
            info = season(directory, size, args)
            figures = measure(directory, args)
            measured.append(Measured(factor, info, figures | {"load": os.getloadavg()}))
            if args.json is not None:  # after each factor: a run cut short keeps its figures
                args.json.write_text(json.dumps([vars(each) for each in measured], indent=1))
    return measured


def _fits(last: Measured, factor: float) -> bool:
    peak = max(last.season["maxrss"], last.figures["maxrss"])
    free = available_kib()
    if fits(peak, last.factor, factor, free):
        return True
    need = peak * factor / last.factor * MEMORY_MARGIN / 1024**2
    print(
        f"{factor:g}x does not fit in memory here: about {need:.1f} GB needed "
        f"({last.factor:g}x peaked at {peak / 1024**2:.1f} GB), {free / 1024**2:.1f} GB "
        "available; stopping at what fits"
    )
    return False


def regrade(args: argparse.Namespace) -> None:
    """bench/regrade.py on a demo it builds, or on a copy of ``--regrade-home``."""
    command = [sys.executable, str(BENCH / "regrade.py")]
    command += (
        ["--home", str(args.regrade_home)] if args.regrade_home else ["--size", args.regrade_size]
    )
    print(f"regrade of every list of the demo's span: {' '.join(command[1:])}", flush=True)
    subprocess.run(command, env=ingest.child_env(args.code), check=False)


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--factors", type=factors_given, default=[1.0, 2.0, 4.0])
    parser.add_argument("--size", default="national", help="the demo size scaled")
    parser.add_argument("--seed", type=int, default=2009)
    parser.add_argument("--postgres", metavar="URL", help="a server for a scratch database")
    parser.add_argument("--scratch", default=SCRATCH, help="its name, starting 'scale'")
    parser.add_argument("--skip-pages", action="store_true")
    parser.add_argument("--samples", type=int, default=50, help="addresses per page kind")
    parser.add_argument("--season-dir", type=Path, help="keep the seasons here for later runs")
    parser.add_argument("--workdir", type=Path, help="temporary homes here (default: TMPDIR)")
    parser.add_argument("--regrade", action="store_true", help="then run bench/regrade.py")
    parser.add_argument("--regrade-size", default="default", help="the demo it builds")
    parser.add_argument("--regrade-home", type=Path, help="an existing demo's home instead")
    parser.add_argument("--code", type=Path, help="the children's ecfgrading from this src/")
    parser.add_argument("--json", type=Path, help="write the figures here after each factor")
    parser.add_argument("--report", type=Path, help="print the tables of a --json file only")
    parser.add_argument("--tiny", action="store_true", help="the tiny demo scaled (tests)")
    parser.add_argument("--generate", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--sized", help=argparse.SUPPRESS)
    parser.add_argument("--worker", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if not args.scratch.startswith("scale"):
        parser.error(f"expected a scratch database name starting 'scale', got {args.scratch}")
    if args.code is not None and not (args.code / "ecfgrading").is_dir():
        parser.error(f"expected --code to name a src/ folder holding ecfgrading, got {args.code}")
    if args.workdir is not None:
        if args.workdir.exists() and not args.workdir.is_dir():
            parser.error(f"expected --workdir to name a folder, got the file {args.workdir}")
        args.workdir.mkdir(parents=True, exist_ok=True)  # a new folder is made, not refused
    if args.tiny:
        args.samples = min(args.samples, 5)
    return args


if __name__ == "__main__":
    main()
