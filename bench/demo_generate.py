"""Time the demo federation's generation and the saving of its files, and digest them.

    .venv/bin/python bench/demo_generate.py [--size national] [--seed 2009] [--out DIR]

It runs what ``build_demo`` runs before touching the database: ``generate`` and the
federation's ``stats``, then ``saved`` (the starting list and every results file under
``DIR``). It prints the CPU seconds of each step and the process's peak resident memory,
then one line per file written, with its SHA-256, and digests of what the federation
hands the build beside its files (each file's metadata and PINs, the stats), so that
two versions of the generator can be checked to produce the same bytes:

    .venv/bin/python bench/demo_generate.py --digests-only > before.txt

No database is touched (the generator does not need Django).
"""

from __future__ import annotations

import argparse
import hashlib
import resource
import tempfile
import time
from dataclasses import fields, replace
from pathlib import Path

import numpy as np

from ecfgrading.demo.generator import DemoFile, Federation, generate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="national")
    parser.add_argument("--seed", type=int, default=2009)
    parser.add_argument("--out", type=Path, help="where to save the files (default: a temp dir)")
    parser.add_argument("--digests-only", action="store_true", help="print no timings")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="demo-generate-") as temporary:
        folder = args.out or Path(temporary)
        started = time.process_time()
        federation = generate(args.size, args.seed)
        stats = federation.stats()
        federation = replace(federation, events=())  # as build_demo lets them go
        generated = time.process_time()
        saved = federation.saved(folder)
        done = time.process_time()
        lines = [
            *_digests(saved, folder),
            f"stats {_sha(stats.to_text().encode())}",
            f"world {_world(saved)}",
        ]
    if not args.digests_only:
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"size {args.size} seed {args.seed}")
        print(f"generate {generated - started:.2f} s CPU, save {done - generated:.2f} s CPU")
        print(f"peak RSS {peak:.0f} MB")
    print(f"all {_sha(chr(10).join(lines).encode())}")
    print("\n".join(lines))


def _digests(federation: Federation, folder: Path) -> list[str]:
    """A line for the starting list and for each results file, in the order written."""
    lines = []
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            lines.append(f"{path.relative_to(folder)} {_sha(path.read_bytes())}")
    lines += [f"meta {_meta(demo_file)}" for demo_file in federation.files]
    return lines


def _meta(demo_file: DemoFile) -> str:
    pins = ",".join(str(demo_file.pins[pin]) for pin in demo_file.pins)
    described = (
        demo_file.filename,
        demo_file.event_code,
        demo_file.event_name,
        demo_file.kind,
        demo_file.season,
        demo_file.submission_index,
        demo_file.received,
        demo_file.late,
        demo_file.first_day,
        demo_file.last_day,
        demo_file.games,
        demo_file.uncoded,
    )
    return f"{demo_file.filename} {_sha(repr(described).encode())} pins {_sha(pins.encode())}"


def _world(federation: Federation) -> str:
    """The players, clubs and starting list's flags the build reads beside the files."""
    digest = hashlib.sha256()
    for field in fields(federation.people):
        value = getattr(federation.people, field.name)
        digest.update(value.tobytes() if isinstance(value, np.ndarray) else repr(value).encode())
    digest.update(repr((federation.clubs, federation.counties)).encode())
    digest.update(federation.listed.tobytes())
    return digest.hexdigest()[:16]


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


if __name__ == "__main__":
    main()
