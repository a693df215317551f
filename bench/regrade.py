"""Benchmark: ``regrade`` over the demo federation's whole span (G31: three rule sets).

Builds the demo federation (``--size``, default ``default``) in a temporary home, or
copies the SQLite database of an existing one (``--home``), then times
``services.grading.regrade.regrade`` from its first to its last graded list: every
published list recomputed in order as a draft and compared with its published version.

Beside the total it prints the floor of the same work measured in the same run: the
engine's own computations of those lists (``compute_list`` on the loaded inputs, no
database), and the loading and storing that each grading run reported.

    .venv/bin/python bench/regrade.py                    # builds the default demo first
    .venv/bin/python bench/regrade.py --home var/demo    # an existing demo, copied
    .venv/bin/python bench/regrade.py --home var/demo --code /tmp/old/src   # other code

``--code SRC`` imports ``ecfgrading`` from SRC (a ``src/`` folder, such as a ``git archive``
of an earlier commit) instead of this checkout's, to time the same regrade before and after.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATABASE = "ecfgrading.sqlite3"


def main() -> None:
    args = _arguments()
    home = Path(tempfile.mkdtemp(prefix="ecfgrading-bench-regrade-"))
    os.environ["ECFGRADING_HOME"] = str(home)
    os.environ.pop("DATABASE_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ecfgrading.settings")
    sys.path.insert(0, str(args.code or ROOT / "src"))
    if args.home:
        shutil.copy(Path(args.home) / DATABASE, home / DATABASE)
    import django

    django.setup()
    from django.core.management import call_command

    import ecfgrading

    print(f"code: {Path(ecfgrading.__file__).parent}")
    call_command("migrate", verbosity=0)
    if not args.home:
        from ecfgrading.demo.build import build_demo

        started = time.perf_counter()
        build_demo(home, size=args.size)
        print(f"set-up: the {args.size} demo built in {time.perf_counter() - started:.1f} s")
    try:
        for as_published in (False, True):
            _time_regrade(as_published)
    finally:
        shutil.rmtree(home)  # a national demo's copy is a gigabyte


def _time_regrade(as_published: bool) -> None:
    from ecfgrading.engine import ListId, Rate, compute_list
    from ecfgrading.lookups import versions
    from ecfgrading.lookups.list_inputs import load_inputs
    from ecfgrading.registry.models import GradingList, ListVersion
    from ecfgrading.services.grading.regrade import regrade

    graded = GradingList.objects.filter(
        versions__status=ListVersion.Status.PUBLISHED, versions__report__has_key="seconds"
    ).values_list("list_id", flat=True)
    first, last = min(graded), max(graded)
    started = time.perf_counter()
    checks = list(regrade(first, last, again=True, as_published=as_published))
    total = time.perf_counter() - started
    made = [c for c in checks if c.draft]
    drafts = ListVersion.objects.filter(status=ListVersion.Status.DRAFT, report__has_key="regrade")
    split = {"load": 0.0, "engine": 0.0, "store": 0.0}
    for draft in drafts:
        for step, seconds in draft.report.get("seconds", {}).items():
            split[step] += seconds
    engine = 0.0
    for check in made:
        lid, rate = ListId.parse(check.list_id), Rate(check.rate)
        published = versions.published(str(lid), rate)
        received_by = published.computed_at if as_published and published else None
        inputs = load_inputs(lid, rate, received_by=received_by).inputs
        at = time.perf_counter()
        compute_list(inputs)
        engine += time.perf_counter() - at
    rule_sets = sorted({c.rule_set for c in made})
    differing = sum(1 for c in made if c.differs)
    results = "the results each published version had" if as_published else "every result now"
    print(
        f"regrade {first} .. {last} on {results}: {len(made)} lists recomputed "
        f"({', '.join(rule_sets)}), {differing} differ, in {total:.2f} s"
    )
    print(
        f"  runs reported: load {split['load']:.2f} s, engine {split['engine']:.2f} s, "
        f"store {split['store']:.2f} s; comparisons and the rest "
        f"{total - sum(split.values()):.2f} s"
    )
    print(f"  floor: the engine alone on the same inputs {engine:.2f} s")
    for check in made:
        print(f"    {check.rate:8} {check.list_id} {check.rule_set}  {check.seconds:.2f} s")


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="default", help="demo size to build (tiny, default)")
    parser.add_argument("--home", help="an existing demo's ECFGRADING_HOME to copy instead")
    parser.add_argument("--code", type=Path, help="import ecfgrading from this src/ directory")
    args = parser.parse_args()
    if args.code and not (args.code / "ecfgrading").is_dir():
        parser.error(f"expected --code to name a src/ folder holding ecfgrading, got {args.code}")
    return args


if __name__ == "__main__":
    main()
