"""What building the demo did: where the files are, what went in, what was published."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from itertools import zip_longest
from pathlib import Path
from typing import TYPE_CHECKING

from ecfgrading.demo.generator import FederationStats

if TYPE_CHECKING:
    from ecfgrading.demo.logins import DemoLogin


CATEGORY_ORDER = "XABCDEF"


@dataclass(frozen=True)
class PublishedList:
    """One list version computed and published by the demo."""

    list_id: str
    rate: str
    version: str
    published: int  # players in the published list
    players: int  # players with a graded game in P0
    games: int
    rule_set: str = ""  # G31: the rule set it was computed under
    categories: Mapping[str, int] = field(default_factory=dict)  # published, by category

    def __str__(self) -> str:
        counts = ", ".join(
            f"{category} {self.categories[category]:,}"
            for category in CATEGORY_ORDER
            if self.categories.get(category)
        )
        return (
            f"{self.rate:8} {self.list_id} {self.version:8} {self.rule_set:8} "
            f"{self.published:7,} published ({self.players:,} players with games, "
            f"{self.games:,} games): {counts or 'none'}"
        )


@dataclass(frozen=True)
class ImportCounts:
    files: int = 0
    accepted: int = 0
    rejected: int = 0
    games: int = 0  # recorded, graded or not
    graded: int = 0
    queued: int = 0  # players sent to the pending-identification queue
    linked: int = 0  # queued players the demo's grading team linked to a player on record
    created: int = 0  # queued players it put on record as new players
    merged: int = 0  # records it then found to be another's and merged (G28)


@dataclass(frozen=True)
class DemoSummary:
    home: Path
    folder: Path  # home / 'demo'
    start_list: Path
    results_folder: Path
    size: str
    seed: int
    federation: FederationStats
    players: int  # on record in the database at the end
    clubs: int
    events: int
    imports: ImportCounts
    lists: tuple[PublishedList, ...]
    timings: tuple[tuple[str, float], ...]
    rejected_files: tuple[str, ...] = ()
    logins: tuple[DemoLogin, ...] = ()  # the back office's demo logins (demo/logins.py)
    # The process's peak memory (resident, bytes) when each step ended, beside
    # ``timings``; empty where the system does not tell it.
    peaks: tuple[int, ...] = ()
    # The process's CPU seconds in each step, beside ``timings``: on a shared machine the
    # wall clock says how busy the others were, the CPU what the demo itself took.
    cpu: tuple[float, ...] = ()

    @property
    def seconds(self) -> float:
        return sum(seconds for _, seconds in self.timings)

    def to_text(self) -> str:
        counts = self.imports
        lines = [
            f"Demo federation ({self.size}, seed {self.seed}) in {self.folder}",
            f"  starting list {self.start_list.name}; results files under {self.results_folder}",
            *(f"  {line}" for line in self.federation.to_text().splitlines()),
            "Database:",
            f"  {self.players:,} players on record, {self.clubs:,} clubs, {self.events:,} events",
            f"  files {counts.files:,}: {counts.accepted:,} accepted, {counts.rejected:,} rejected"
            + (f" ({', '.join(self.rejected_files)})" if self.rejected_files else ""),
            f"  games {counts.games:,} imported, {counts.graded:,} graded",
            f"  identifications queued {counts.queued:,}: {counts.linked:,} linked, "
            f"{counts.created:,} created"
            + (f", then {counts.merged:,} merged into another record" if counts.merged else ""),
            "Lists published, in order:",
            *(f"  {entry}" for entry in self.lists),
            "Timings (and the peak memory so far):",
            *(
                f"  {name:32} {seconds:8.2f} s{_megabytes(peak)}"
                for (name, seconds), peak in zip_longest(
                    self.timings, self.peaks[: len(self.timings)]
                )
            ),
            f"  {'total':32} {self.seconds:8.2f} s{_megabytes(max(self.peaks, default=None))}",
            *self._phases(),
        ]
        if self.logins:
            lines += [
                "Back-office logins (demo passwords; sign in at /backoffice/):",
                *(f"  {login}" for login in self.logins),
            ]
        return "\n".join(lines)

    def _phases(self) -> list[str]:
        """The steps summed by kind (issue 25's figures): seconds, CPU seconds, and the
        whole build's against the target of a national demo."""
        if len(self.cpu) != len(self.timings):
            return []
        wall: dict[str, float] = {}
        cpu: dict[str, float] = {}
        for (name, seconds), used in zip(self.timings, self.cpu, strict=True):
            phase = phase_of(name)
            wall[phase] = wall.get(phase, 0.0) + seconds
            cpu[phase] = cpu.get(phase, 0.0) + used
        peak = max(self.peaks, default=0)
        return [
            "By phase (wall and CPU seconds):",
            *(f"  {phase:32} {wall[phase]:8.2f} s {cpu[phase]:8.2f} s CPU" for phase in wall),
            f"  {'total':32} {self.seconds:8.2f} s {sum(self.cpu):8.2f} s CPU"
            + (f", peak {peak / 2**20:,.0f} MB" if peak else ""),
        ]


# Step names (build.py) by the phase they belong to, by their first words.
PHASES = (
    ("generate", "generate"),
    ("save files", "generate"),
    ("load list", "load the starting list"),
    ("register events", "register events"),
    ("import for", "import results"),
    ("identify for", "identify queued players"),
    ("grade ", "grade and publish"),
)


def phase_of(step: str) -> str:
    """The phase a step of the build belongs to; other steps are their own phase."""
    return next((phase for prefix, phase in PHASES if step.startswith(prefix)), step)


def _megabytes(peak: int | None) -> str:
    return f" {peak / 2**20:8,.0f} MB" if peak else ""


@dataclass
class Stopwatch:
    """Seconds per named step (wall clock and CPU), in the order the steps ran, and the
    process's peak memory when each ended."""

    laps: list[tuple[str, float]] = field(default_factory=list)
    peaks: list[int] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)

    @contextmanager
    def step(self, name: str) -> Iterator[None]:
        started, used = time.perf_counter(), time.process_time()
        try:
            yield
        finally:
            self.laps.append((name, time.perf_counter() - started))
            self.cpu.append(time.process_time() - used)
            if (peak := peak_memory()) is not None:
                self.peaks.append(peak)


def peak_memory() -> int | None:
    """The most resident memory this process has held, in bytes (None where unknown)."""
    try:
        import resource
    except ImportError:  # Windows
        return None
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak if sys.platform == "darwin" else peak * 1024  # bytes on macOS, KiB else
