"""The ``ecfgrading`` command: a thin layer over the service functions.

Exit status: 0 success, 1 a domain error (bad file, unknown player...), 2 usage (or an
environment variable the settings cannot read). A service reports a user's mistake as a
``ServiceError``; the command group turns it into "Error: message" in one place.
Anything else is a bug and shows its traceback.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ecfgrading.errors import ServiceError  # the standard library only: --help stays fast
from ecfgrading.progress import Progress

if TYPE_CHECKING:
    from ecfgrading.lookups.exports import ExportedFile


class DomainError(click.ClickException):
    """A user's mistake or a refused operation: a clear message, exit status 1."""

    exit_code = 1


class SettingError(click.ClickException):
    """An environment variable the settings cannot read: its one line, exit status 2."""

    exit_code = 2


def _django(*, creating: bool = False) -> None:
    """Configure Django on first use, so --help stays fast, and make sure the database is
    there: only ``init`` and ``demo`` (``creating``) may make it."""
    _configure()
    from ecfgrading.services.database import check_database

    check_database(creating=creating)


def _configure() -> None:
    """Settings that cannot be read (a malformed DATABASE_URL, a typo in a flag) are the
    settings' one-line message, exit 2."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ecfgrading.settings")
    import django
    from django.core.exceptions import ImproperlyConfigured

    try:
        django.setup()
    except ImproperlyConfigured as error:
        raise SettingError(str(error)) from None


class _Commands(click.Group):
    """The one place a service's refusal becomes a clean message and exit status 1."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except ServiceError as error:
            raise DomainError(error.message) from None


@click.group(cls=_Commands)
@click.version_option(package_name="ecfgrading")
def main() -> None:
    """ecfgrading: the grading system of a national chess federation."""


@main.command()
def init() -> None:
    """Create or migrate the database (DATABASE_URL, default a SQLite file in ./var/)."""
    _django(creating=True)
    from django.conf import settings
    from django.core.management import call_command

    call_command("migrate", interactive=False, verbosity=0)
    call_command("createcachetable", verbosity=0)  # the shared cache, unless Redis
    database = settings.DATABASES["default"]
    click.echo(f"database ready: {database['ENGINE'].rsplit('.', 1)[-1]} {database['NAME']}")


# --- results files ------------------------------------------------------------------


@main.group()
def results() -> None:
    """Check and import results files."""


def _read_files(paths: tuple[Path, ...]) -> list[tuple[str, bytes]]:
    return [(str(path), path.read_bytes()) for path in paths]


_FILES = click.argument(
    "files", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path)
)
_AS_JSON = click.option("--json", "as_json", is_flag=True, help="Print the reports as JSON.")


@results.command("check")
@_FILES
@_AS_JSON
def results_check(files: tuple[Path, ...], as_json: bool) -> None:
    """Check results files against the rules and the records; write nothing."""
    _django()
    from ecfgrading.services.results.ingest import check_results

    reports = check_results(_read_files(files))
    _print_reports(reports, as_json)
    if any(not report.ok for report in reports):
        raise DomainError(f"{sum(not r.ok for r in reports)} of {len(reports)} files have errors")


@results.command("import")
@_FILES
@_AS_JSON
@click.option("--sender", default="", help="Who sent the files (kept with each submission).")
def results_import(files: tuple[Path, ...], as_json: bool, sender: str) -> None:
    """Import results files; each is accepted whole or rejected whole, and kept."""
    _django()
    from ecfgrading.services.results.ingest import import_files

    with _progress("importing", len(files)) as advance:
        outcomes = import_files(
            _read_files(files), sender=sender, progress=advance, told=_telling(as_json)
        )
    _finish_batch(outcomes, as_json)


def _telling(as_json: bool) -> Callable[[Any], None] | None:
    """Each file's report as soon as it is known, so a long batch shows where it is."""
    return None if as_json else lambda outcome: click.echo(outcome.report.to_text())


def _finish_batch(outcomes: list[Any], as_json: bool) -> None:
    if as_json:
        _print_reports([o.report for o in outcomes], as_json)
    skipped = sum(o.already for o in outcomes)
    rejected = sum(not o.accepted for o in outcomes)
    accepted = len(outcomes) - skipped - rejected
    click.echo(
        f"{accepted} accepted, {skipped} already accepted (skipped), {rejected} rejected",
        err=True,
    )
    if rejected:
        raise DomainError(f"{rejected} of {len(outcomes)} files rejected (kept on record)")


@results.command("interrupted")
@_AS_JSON
def results_interrupted(as_json: bool) -> None:
    """Files stored but never accepted or rejected (an import was killed, or is running)."""
    _django()
    from ecfgrading.services.results.ingest import interrupted

    waiting = interrupted()
    if as_json:
        import json

        rows = [
            {"submission": s.id, "filename": s.filename, "received_at": s.received_at}
            for s in waiting
        ]
        click.echo(json.dumps(rows, indent=2, default=str))
        return
    for s in waiting:
        click.echo(f"submission {s.id}  {s.received_at:%Y-%m-%d %H:%M}  {s.filename}")
    click.echo(
        f"{len(waiting)} files waiting; `ecfgrading results retry N` imports one, "
        "`ecfgrading results reject N` rejects it"
    )


_SUBMISSIONS = click.argument("submissions", nargs=-1, required=True, type=int)


@results.command("retry")
@_SUBMISSIONS
@_AS_JSON
def results_retry(submissions: tuple[int, ...], as_json: bool) -> None:
    """Import again files an interrupted import left stored but undecided."""
    _django()
    from ecfgrading.services.results.ingest import retry

    _finish_batch(retry(submissions, told=_telling(as_json)), as_json)


@results.command("reject")
@_SUBMISSIONS
@click.option("--reason", default="", help="Why (kept in the submission's report).")
def results_reject(submissions: tuple[int, ...], reason: str) -> None:
    """Reject files an interrupted import left stored but undecided; they stay on record."""
    _django()
    from ecfgrading.services.results.ingest import reject_waiting

    for s in reject_waiting(submissions, reason=reason):
        click.echo(f"submission {s.id} ({s.filename}) rejected")


def _print_reports(reports: list[Any], as_json: bool) -> None:
    if as_json:
        import json

        click.echo(json.dumps([r.as_dict() for r in reports], indent=2, default=str))
        return
    for report in reports:
        click.echo(report.to_text())


@contextmanager
def _progress(label: str, total: int) -> Iterator[Progress]:
    """A rich progress bar on stderr when there is enough work to watch; ``what`` (the
    file, the address) is shown as the bar's label."""
    from rich.console import Console
    from rich.progress import Progress

    console = Console(stderr=True)
    if total < 2 or not console.is_terminal:
        yield lambda done, total, name: None
        return
    with Progress(console=console, transient=True) as bar:
        task = bar.add_task(label, total=total)
        yield lambda done, total, name: bar.update(task, completed=done, description=name or label)


# --- grading lists ------------------------------------------------------------------


@main.group("lists")
def lists_group() -> None:
    """Load and export grading lists."""


@lists_group.command("import")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--list", "list_id", required=True, help="The list the file is, e.g. 2009-07.")
@click.option(
    "--rate", type=click.Choice(["standard", "rapid", "both"]), default="both", show_default=True
)
def lists_import(file: Path, list_id: str, rate: str) -> None:
    """Load a published grading list CSV as the starting point (a published version)."""
    _django()
    from ecfgrading.engine.types import Rate
    from ecfgrading.services.lists.imports import import_grade_list

    rates = (Rate.STANDARD, Rate.RAPID) if rate == "both" else (Rate(rate),)
    outcome = import_grade_list(file.read_bytes(), list_id=list_id, rates=rates, filename=str(file))
    for problem in outcome.report:
        click.echo(f"{problem.severity}: {problem.message}")
    if not outcome.ok:
        raise DomainError(f"{file}: nothing was imported")
    entries = ", ".join(f"{rate} {n:,}" for rate, n in outcome.entries.items())
    click.echo(
        f"list {outcome.list_id} published from {file.name}: entries {entries}; players "
        f"{outcome.players_created:,} new, {outcome.players_updated:,} updated; "
        f"clubs {outcome.clubs_created:,} new"
    )


# --- grading runs ---------------------------------------------------------------------

_LIST = click.option("--list", "list_id", required=True, help="The list, e.g. 2010-07.")
_RATE = click.option(
    "--rate", type=click.Choice(["standard", "rapid"]), required=True, help="Rate of play."
)


@main.command()
@_LIST
@_RATE
@click.option("--version", help="initial, august, revN (default: the next one due).")
@click.option(
    "--rule-set",
    "rules_name",
    help="Compute under another rule set (ecf-2009, ecf-2012, ecf-2015): a what-if draft, "
    "never published as the list's own (default: the rule set of the list's date, G31).",
)
def grade(list_id: str, rate: str, version: str | None, rules_name: str | None) -> None:
    """Compute a list version (a draft) from the results on record."""
    _django()
    from ecfgrading.engine.types import Rate
    from ecfgrading.services.grading.compute import compute_version

    run = compute_version(list_id, Rate(rate), version, actor="cli", rules_name=rules_name)
    click.echo(run.to_text())


@main.command()
@click.option("--from", "first", required=True, help="The first list, e.g. 2010-01.")
@click.option("--to", "last", required=True, help="The last list, e.g. 2016-07.")
@click.option(
    "--rule-set",
    "rules_name",
    help="Recompute every list under this rule set (a what-if; default: each list's own, G31).",
)
@click.option("--again", is_flag=True, help="Recompute lists an interrupted run already did.")
@click.option(
    "--as-published",
    is_flag=True,
    help="Read only the results received by the time each published version was computed "
    "(default: every result on record now, late ones included).",
)
def regrade(first: str, last: str, rules_name: str | None, again: bool, as_published: bool) -> None:
    """Recompute every published list of a span in order as drafts, and compare.

    Each list's draft is compared with its published version: how many grades differ,
    and the largest differences. By default each draft reads every result on record now,
    so results received since a list was published show as differences; with
    --as-published it reads only the results its published version had, so that any
    difference is the code's or the rule set's. Interrupt it at any time (Ctrl-C): run the
    same command again to go on from where it stopped.
    """
    _django()
    from ecfgrading.services.grading.regrade import check_span, span
    from ecfgrading.services.grading.regrade import regrade as run

    check_span(first, last)
    checks = recomputed = differing = 0
    try:
        with _progress("regrade", len(span(first, last))) as progress:
            for check in run(
                first,
                last,
                rules_name=rules_name,
                again=again,
                as_published=as_published,
                progress=progress,
            ):
                click.echo(check.to_text())  # each list as it is done: the run's progress
                checks += 1
                recomputed += int(bool(check.draft))
                differing += int(check.differs > 0)
    except KeyboardInterrupt:
        click.echo(f"interrupted after {checks} lists: run the same command to go on", err=True)
        sys.exit(130)
    click.echo(
        f"{recomputed} lists recomputed, {checks - recomputed} skipped; "
        f"{differing} differ from their published versions"
    )


@main.command()
@_LIST
@_RATE
@click.option("--version", required=True, help="The draft to publish: initial, august, revN.")
@click.option(
    "--allow-unanchored",
    is_flag=True,
    help="Publish even if most players are unanchored (G11), as in a first list.",
)
def publish(list_id: str, rate: str, version: str, allow_unanchored: bool) -> None:
    """Publish a draft version: it becomes immutable and the list's current version."""
    _django()
    from ecfgrading.engine.types import Rate
    from ecfgrading.services.grading.compute import publish_version

    published = publish_version(
        list_id, Rate(rate), version, allow_unanchored=allow_unanchored, actor="cli"
    )
    click.echo(f"published {published.grading_list} {published.name}")


@main.command()
@click.argument("code")
@click.option("--list", "list_id", help="The list (default: the latest with a grade).")
def player(code: str, list_id: str | None) -> None:
    """A player's grade and how it was calculated, game by game."""
    _django()
    from ecfgrading.engine.explain import format_explanation
    from ecfgrading.lookups.explain import breakdowns

    found = breakdowns(code, list_id)
    click.echo("\n\n".join(format_explanation(expl, names) for expl, names in found))


@main.command()
@click.argument("code")
@_RATE
@click.option("--from", "valid_from", required=True, help="First list it applies to, e.g. 2010-07.")
@click.option("--grade", type=float, help="The starting grade.")
@click.option("--fide", type=int, help="A FIDE rating to convert (G29, G30).")
@click.option("--reason", default="", help="Why (shown in explanations).")
def assign(
    code: str, rate: str, valid_from: str, grade: float | None, fide: int | None, reason: str
) -> None:
    """Assign a starting grade to a player (G6), e.g. from a FIDE rating (G30)."""
    _django()
    from ecfgrading.engine.types import Rate
    from ecfgrading.services.grading.assignments import assign_starting_grade

    made = assign_starting_grade(
        code,
        Rate(rate),
        valid_from=valid_from,
        grade=grade,
        fide=fide,
        reason=reason,
        actor="cli",
    )
    click.echo(f"assigned: {made}")


@lists_group.command("export")
@_LIST
@click.option("--rate", type=click.Choice(["standard", "rapid"]), help="Default: both.")
@click.option("--version", help="A published version (default: the current one).")
@click.option(
    "--format", "fmt", type=click.Choice(["csv", "json", "xlsx"]), default="csv", show_default=True
)
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    callback=lambda ctx, param, out: _in_a_folder(out),
    help="Default: stdout.",
)
def lists_export(
    list_id: str, rate: str | None, version: str | None, fmt: str, out: Path | None
) -> None:
    """Export a published list (both rates of a July list in one CSV by default).

    The CSV is ISO-8859-1, as graders' tools read it: names it cannot write are
    transliterated, and counted on stderr (docs/formats.md, "Encodings")."""
    _django()
    from ecfgrading.engine.types import Rate
    from ecfgrading.lookups.exports import export_file

    rates = (Rate(rate),) if rate else None
    exported = export_file(list_id, rates=rates, version=version, fmt=fmt)
    data = exported.data
    if out is None:
        sys.stdout.buffer.write(data)
    else:
        try:
            out.write_bytes(data)
        except OSError as error:
            raise DomainError(f"cannot write {out}: {error.strerror}") from None
        click.echo(f"wrote {out} ({len(data):,} bytes)", err=True)
    if fmt == "csv":
        click.echo(_transliterated(exported), err=True)


def _transliterated(exported: ExportedFile) -> str:
    """How many player and club names ISO-8859-1 could not write, and the first few."""
    players, clubs = exported.count("player"), exported.count("club")
    line = (
        f"ISO-8859-1 (Latin-1): {players} player name{'' if players == 1 else 's'} and "
        f"{clubs} club name{'' if clubs == 1 else 's'} transliterated"
    )
    shown = [f"  {each.name!r} as {each.written!r}" for each in exported.transliterated[:5]]
    more = len(exported.transliterated) - len(shown)
    return "\n".join([line, *shown, *([f"  and {more} more"] if more > 0 else [])])


def _in_a_folder(out: Path | None) -> Path | None:
    """An output file's folder is checked before the work, not found missing after it."""
    if out is not None and not out.parent.is_dir():
        raise click.BadParameter(f"folder {out.parent} does not exist: create it first")
    return out


# --- events ---------------------------------------------------------------------------


@main.group()
def events() -> None:
    """Registered events."""


_DAY = click.DateTime(["%Y-%m-%d"])


@events.command("register")
@click.argument("code")
@click.option("--name", required=True)
@click.option(
    "--kind",
    type=click.Choice(["congress", "league", "club", "county-match", "junior", "other"]),
    default="other",
    show_default=True,
)
@_RATE
@click.option("--start", type=_DAY, required=True, help="First day, YYYY-MM-DD.")
@click.option("--end", type=_DAY, required=True, help="Last day, YYYY-MM-DD.")
@click.option("--deadline", type=_DAY, help="Results due by, YYYY-MM-DD.")
@click.option("--officer", default="", help="The grading officer's name.")
def events_register(
    code: str, name: str, kind: str, rate: str, start: Any, end: Any, deadline: Any, officer: str
) -> None:
    """Register an event so that its results can be expected and chased."""
    _django()
    from ecfgrading.engine.types import Rate
    from ecfgrading.services.events import register_event

    event = register_event(
        code,
        name=name,
        kind=kind,
        rate=Rate(rate),
        start=start.date(),
        end=end.date(),
        deadline=deadline.date() if deadline else None,
        officer=officer,
        actor="cli",
    )
    click.echo(f"registered {event.code} {event.name}")


# --- reports for the grading team -------------------------------------------------------


@main.group()
def report() -> None:
    """Reports for the grading team (add --json for machine-readable output)."""


_VERSION = click.option("--version", help="Default: the latest published (else draft) version.")


def _show(made: Any, as_json: bool) -> None:
    import json

    click.echo(json.dumps(made.as_dict(), indent=2, default=str) if as_json else made.to_text())


@report.command("jumps")
@_LIST
@_RATE
@_VERSION
@click.option("--threshold", type=int, default=25, show_default=True, help="Grade points.")
@_AS_JSON
def report_jumps(
    list_id: str, rate: str, version: str | None, threshold: int, as_json: bool
) -> None:
    """Players whose grade moved by the threshold or more, with the games behind it."""
    _django()
    from ecfgrading.engine.types import Rate
    from ecfgrading.lookups.reports import large_jumps

    made = large_jumps(list_id, Rate(rate), threshold=threshold, version=version)
    _show(made, as_json)


@report.command("integrity")
@_LIST
@_RATE
@_VERSION
@_AS_JSON
def report_integrity(list_id: str, rate: str, version: str | None, as_json: bool) -> None:
    """Grade distribution, categories, and whether results agree with the grades."""
    _django()
    from ecfgrading.engine.types import Rate
    from ecfgrading.lookups.reports import integrity

    made = integrity(list_id, Rate(rate), version=version)
    _show(made, as_json)


@report.command("attention")
@_LIST
@_RATE
@_VERSION
@_AS_JSON
def report_attention(list_id: str, rate: str, version: str | None, as_json: bool) -> None:
    """Unanchored players (G11), who need assigned grades, and players published at 0."""
    _django()
    from ecfgrading.engine.types import Rate
    from ecfgrading.lookups.reports import unanchored_and_zero

    made = unanchored_and_zero(list_id, Rate(rate), version=version)
    _show(made, as_json)


@report.command("overdue")
@click.option("--today", type=click.DateTime(["%Y-%m-%d"]), help="Default: today.")
@_AS_JSON
def report_overdue(today: Any, as_json: bool) -> None:
    """The chase list: registered events whose results are past their deadline."""
    _django()
    from datetime import date

    from ecfgrading.lookups.reports import events_overdue

    _show(events_overdue(today.date() if today else date.today()), as_json)


@report.command("received")
@click.option(
    "--season", type=click.IntRange(1900, 2999), required=True, help="The season's ending year."
)
@_AS_JSON
def report_received(season: int, as_json: bool) -> None:
    """Events received for grading in a season (1 June to 31 May)."""
    _django()
    from ecfgrading.lookups.reports import events_received

    made = events_received(season)
    _show(made, as_json)


# --- the demo federation --------------------------------------------------------------


@main.command()
@click.option(
    "--size",
    type=click.Choice(["tiny", "default", "national"]),
    default="default",
    show_default=True,
    help="default: 6,000 players and 14,000 games a season; national: 60,000 and 200,000.",
)
@click.option("--seed", type=int, default=2009, show_default=True)
@click.option("--fresh", is_flag=True, help="Delete the SQLite database first.")
def demo(size: str, seed: int, fresh: bool) -> None:
    """Build the demo federation: six seasons imported, graded and published."""
    _configure()
    if fresh:
        _delete_sqlite_database()
    _django(creating=True)
    from django.conf import settings
    from django.core.management import call_command

    from ecfgrading.demo import build_demo

    call_command("migrate", interactive=False, verbosity=0)
    call_command("createcachetable", verbosity=0)
    _write_demo_secret_key(Path(settings.HOME))
    with _stages() as progress:
        summary = build_demo(Path(settings.HOME), size=size, seed=seed, progress=progress)
    click.echo(summary.to_text())


def _write_demo_secret_key(home: Path) -> None:
    """The demo's home gets a random key of its own, kept across rebuilds, so that
    `ecfgrading serve` serves it without one in the environment (issue 24, case 13)."""
    import secrets

    from django.conf import settings

    file = home / settings.SECRET_KEY_FILENAME
    if not file.is_file():
        file.write_text(secrets.token_urlsafe(50) + "\n")
        file.chmod(0o600)


def _delete_sqlite_database() -> None:
    """--fresh: only ever a SQLite file of ours; a server database is never dropped."""
    from django.conf import settings

    database = settings.DATABASES["default"]
    if "sqlite" not in database["ENGINE"]:
        raise DomainError("--fresh deletes a SQLite file only; drop a server database yourself")
    for suffix in ("", "-wal", "-shm", "-turn"):
        Path(f"{database['NAME']}{suffix}").unlink(missing_ok=True)


@contextmanager
def _stages() -> Iterator[Progress]:
    """One rich progress bar per stage of a long job (each ``what`` it names), on stderr."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    console = Console(stderr=True)
    columns = (*Progress.get_default_columns()[:2], MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, BarColumn(), console=console, disable=not console.is_terminal) as bar:
        tasks: dict[str, Any] = {}

        def update(done: int, total: int, stage: str) -> None:
            if stage not in tasks:
                tasks[stage] = bar.add_task(stage, total=total)
            bar.update(tasks[stage], completed=done, total=total)

        yield update


@main.command()
@click.argument("absorbed")
@click.option("--into", required=True, help="The grading code of the record that stays.")
@click.option(
    "--why",
    default="",
    help="Shown on the public amendments page (default: two records of the same player).",
)
def merge(absorbed: str, into: str, why: str) -> None:
    """Merge two records of one person: the first becomes part of --into.

    Like the back office's merge, it is recorded as an amendment."""
    _django()
    from ecfgrading.services.merge import merge_players

    kept = merge_players(absorbed, into, why=why, actor="cli")
    click.echo(f"{absorbed} is now part of {kept.ref} {kept.name}; grade again to see it")


# --- identification -------------------------------------------------------------------


@main.group()
def identify() -> None:
    """The pending-identification queue."""


@identify.command("list")
def identify_list() -> None:
    """Open cases, their candidates and the games waiting on them."""
    _django()
    from ecfgrading.lookups.identification import open_case_list

    cases = open_case_list()
    for case in cases:
        click.echo(
            f"case {case.id}: {case.name} (PIN {case.pin}, {case.club or '-'}) in {case.source},"
            f" {case.games} games waiting"
        )
        for candidate in case.candidates:
            click.echo(f"    {candidate.code} {candidate.name}  score {candidate.score}")
    click.echo(f"{len(cases)} open cases")


@identify.command("resolve")
@click.argument("case", type=int)
@click.option("--code", help="Link to the player holding this grading code.")
@click.option("--new", "create", is_flag=True, help="Create a new player with a new code.")
def identify_resolve(case: int, code: str | None, create: bool) -> None:
    """Decide a case: link it to a player on record, or create a new player."""
    if (code is None) == (not create):
        raise click.UsageError("expected either --code CODE or --new, not both or neither")
    _django()
    from ecfgrading.services.results.queue import resolve

    player = resolve(case, code=code, create=create, actor="cli")
    click.echo(f"case {case}: {player.ref} {player.name}; its games now count for him")


# --- mail: the outbox and its worker ------------------------------------------------------


@main.group("mail")
def mail_group() -> None:
    """The outbox: send what is queued, run the worker, mail members their games."""


@mail_group.command("send")
@click.option("--dry-run", is_flag=True, help="List what would be sent; send nothing.")
def mail_send(dry_run: bool) -> None:
    """Deliver the queued messages that are due, now, through the SMTP server."""
    _django()
    from ecfgrading.lookups.outbox import due, waiting_rows
    from ecfgrading.services import mail

    if dry_run:
        rows = waiting_rows()
        for row in rows:
            click.echo(f"{row.id:6}  {row.kind:10} {row.to:32} {row.subject}")
        click.echo(f"{len(rows)} messages would be sent (dry run: nothing sent)")
        return
    with _progress("sending", len(due())) as advance:
        done = mail.deliver_due(progress=advance)
    if done.next_attempt_at is not None:
        from ecfgrading.services.mail import request_delivery

        request_delivery(at=done.next_attempt_at)  # the worker tries them again then
    click.echo(done.to_text())


@mail_group.command("worker")
@click.option("--batch", is_flag=True, help="Run what is waiting, then stop.")
@click.option(
    "--interval", type=float, default=5.0, show_default=True, help="Seconds between looks."
)
def mail_worker(batch: bool, interval: float) -> None:
    """Run the background worker: mail delivery and mailings queued by the back office.

    This is django-tasks' database worker (`db_worker`); run one beside `ecfgrading serve`.
    """
    _django()
    from django.core.management import call_command

    arguments = ["--interval", str(interval)] + (["--batch"] if batch else [])
    call_command("db_worker", *arguments)


# The architecture's name for the one worker process (docs/mail.md): the same command.
main.add_command(mail_worker, "worker")


@mail_group.command("games")
@click.option("--list", "list_id", required=True, help="The July list, e.g. 2013-07.")
@click.option(
    "--before",
    type=click.Choice(["initial", "august"]),
    required=True,
    help="The mailing before the initial list, or before its August revision.",
)
@click.option("--dry-run", is_flag=True, help="Count who would be mailed; queue nothing.")
def mail_games(list_id: str, before: str, dry_run: bool) -> None:
    """Queue every direct member's games received for a list (once per member)."""
    _django()
    from ecfgrading.registry.models import DirectMember
    from ecfgrading.services.members import mail_games as queue_games

    with _progress("members", DirectMember.objects.count()) as advance:
        made = queue_games(list_id, before, dry_run=dry_run, progress=advance)
    click.echo(made.to_text())
    if made.queued and not dry_run:
        click.echo("`ecfgrading mail send` (or the worker) sends them")


# --- users: back-office logins ------------------------------------------------------------


@main.group()
def users() -> None:
    """Back-office logins: the grading team, grading officers, direct members."""


@users.command("add")
@click.argument("name")
@click.option(
    "--role", type=click.Choice(["team", "officer", "member"]), required=True, help="Its role."
)
@click.option("--email", default="", help="For password resets and mail (private).")
@click.option(
    "--password",
    prompt=True,
    hide_input=True,
    confirmation_prompt=True,
    help="Asked for when not given.",
)
@click.option("--player", help="A member's grading code: his direct member record is made.")
@click.option("--number", help="A member's membership number (with --player).")
def users_add(
    name: str, role: str, email: str, password: str, player: str | None, number: str | None
) -> None:
    """Make a login in one role; a member's login with his member record (--player,
    --number), so that he sees his own games."""
    if (player is None) != (number is None) or (player and role != "member"):
        raise click.UsageError("expected --player and --number together, for a member only")
    _django()
    from ecfgrading.services.accounts import role_named
    from ecfgrading.services.logins import add_login, add_member_login

    if player and number:
        member = add_member_login(name, player, number, email=email, password=password)
        click.echo(f"{name}: member {member.number}, {member.player.name} ({member.player.ref})")
        return
    made = add_login(name, role=role_named(role), email=email, password=password)
    click.echo(f"{made.username}: {role}{f', {email}' if email else ''}")


@users.command("list")
def users_list() -> None:
    """Every login with its roles (e-mail addresses are not shown)."""
    _django()
    from ecfgrading.services.logins import logins

    rows = logins()
    for row in rows:
        state = "" if row.active else "  (inactive)"
        click.echo(f"{row.username:24} {', '.join(row.roles) or '-'}{state}")
    click.echo(f"{len(rows)} logins")


@users.command("set-password")
@click.argument("name")
@click.option("--password", prompt=True, hide_input=True, confirmation_prompt=True)
def users_set_password(name: str, password: str) -> None:
    """Set a login's password (checked by the password rules)."""
    _django()
    from ecfgrading.services.logins import set_password

    set_password(name, password)
    click.echo(f"password of {name} changed")


# --- serving the public website -------------------------------------------------------

# gunicorn's advice is 2 x cores + 1 workers; the cap keeps a large machine from holding
# more database connections (one per worker) than PostgreSQL's default 100 allows when a
# few app servers share it.
MAX_DEFAULT_WORKERS = 12


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option(
    "--port", type=click.IntRange(1, 65535), default=8000, show_default=True, help="Port."
)
@click.option(
    "--workers",
    type=click.IntRange(1, 64),
    help=f"Worker processes (default: 2 x cores + 1, at most {MAX_DEFAULT_WORKERS}).",
)
@click.option(
    "--threads",
    type=click.IntRange(1, 64),
    default=1,
    show_default=True,
    help="Threads per worker; more than 1 keeps connections alive for slow clients.",
)
@click.option("--access-log", is_flag=True, help="Log every request to stderr.")
def serve(host: str, port: int, workers: int | None, threads: int, access_log: bool) -> None:
    """Serve the public website with gunicorn, static files by whitenoise.

    Collects the static files into ECFGRADING_HOME/static first. The database must be
    made (`ecfgrading init` or `ecfgrading demo`); several app servers may share one
    behind a load balancer: see docs/deploy.md.
    """
    os.environ["ECFGRADING_SERVED"] = "1"  # its workers' lock waits end before they do
    _django()
    _check_secret_key()
    _check_shared_cache()
    _check_port(host, port)
    workers = workers or _default_workers()
    from django.conf import settings
    from django.core.management import call_command

    call_command("collectstatic", interactive=False, verbosity=0)  # whitenoise's manifest
    from ecfgrading.web.statements import prepare_page_statements

    prepare_page_statements()  # the workers' own connections, on PostgreSQL
    _advise_beyond_this_machine(host)
    plural = "s" if workers > 1 else ""
    click.echo(f"serving on {_url(host, port)} with {workers} worker{plural} (Ctrl-C stops)")
    _gunicorn(
        bind=_address(host, port),
        workers=workers,
        threads=threads,
        accesslog="-" if access_log else None,
        timeout=settings.WORKER_TIMEOUT,  # beyond the workers' lock waits (settings)
        # gunicorn's maximum: addresses past 4 KB reach the site, which answers them with
        # its own 414 page (web.middleware.addresses) instead of gunicorn's bare one.
        limit_request_line=8190,
    )


def _default_workers() -> int:
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return min(2 * (cores or 1) + 1, MAX_DEFAULT_WORKERS)


def _address(host: str, port: int) -> str:
    return f"{f'[{host}]' if ':' in host else host}:{port}"  # an IPv6 address in brackets


def _url(host: str, port: int) -> str:
    return f"http://{_address(host, port)}/"


def _check_secret_key() -> None:
    """Never serve on the development key everyone can read (issue 24, case 13), wherever
    the server listens: behind a proxy it listens on loopback and serves the world."""
    from django.conf import settings

    if not settings.SECRET_KEY_GIVEN:
        raise SettingError(settings.NO_SECRET_KEY)


def _check_shared_cache() -> None:
    """Cached pages and rate-limit counters live in the shared cache: a server that cannot
    reach it would answer every page with an error, so it is asked before serving."""
    from django.conf import settings
    from django.core.cache import caches

    probe = caches.create_connection("default")  # not kept: workers make their own
    try:
        probe.get("serve:probe")
    except Exception as error:
        if "redis" in settings.CACHES["default"]["BACKEND"].lower():
            what = "the Redis server REDIS_URL names: start it, or unset REDIS_URL"
        else:
            what = "its table in the database: run `ecfgrading init`"
        raise DomainError(f"the shared cache does not answer ({error}); check {what}") from None
    finally:
        probe.close()


def _check_port(host: str, port: int) -> None:
    """A port another server holds is a message now, not gunicorn retrying and a trace."""
    import errno
    import socket

    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
    except socket.gaierror as error:
        raise DomainError(f"cannot listen on {host!r}: {error.strerror}") from None
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as gunicorn binds
        try:
            probe.bind(address)
        except OSError as error:
            if error.errno == errno.EADDRINUSE:
                raise DomainError(
                    f"port {port} on {host} is taken (another server listens there): stop "
                    "it, or choose another port with --port"
                ) from None
            raise DomainError(f"cannot listen on {host} port {port}: {error.strerror}") from None


def _advise_beyond_this_machine(host: str) -> None:
    """Served beyond loopback, the host names need setting."""
    import ipaddress

    from django.conf import settings

    try:
        loopback = host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = False
    if loopback:
        return
    click.echo(
        f"ECFGRADING_ALLOWED_HOSTS: {', '.join(settings.ALLOWED_HOSTS)} (the names visitors "
        "may use; see docs/deploy.md)",
        err=True,
    )


def _warm_in_worker(server: Any, worker: Any) -> None:
    """Each worker keeps the per-data-token lookups warm (``web.warming``)."""
    from ecfgrading.web.warming import start_warming

    start_warming()


def _gunicorn(**options: Any) -> None:
    """gunicorn in this process on the application loaded once (then forked): workers
    share its memory and each opens its own database and cache connections."""
    import logging

    from django.db import connections
    from django.urls import get_resolver
    from gunicorn.app.base import BaseApplication
    from gunicorn.glogging import Logger

    from ecfgrading.wsgi import application  # after collectstatic: whitenoise reads it

    class Log(Logger):
        """gunicorn writes an access log named "-" to stdout; ours joins stderr."""

        def setup(self, cfg: Any) -> None:
            super().setup(cfg)
            for handler in self.access_log.handlers:
                if isinstance(handler, logging.StreamHandler) and handler.stream is sys.stdout:
                    handler.setStream(sys.stderr)

    class Server(BaseApplication):
        def load_config(self) -> None:
            settings = {
                "preload_app": True,
                "loglevel": "warning",
                "proc_name": "ecfgrading",
                "post_fork": _warm_in_worker,  # threads do not survive the fork
            }
            for key, value in {**settings, "logger_class": Log, **options}.items():
                self.cfg.set(key, value)

        def load(self) -> Any:
            return application

    get_resolver().url_patterns  # noqa: B018 import the views once, not in each worker
    connections.close_all()  # never share the master's connection with forked workers
    sys.stdout.flush()
    Server().run()
