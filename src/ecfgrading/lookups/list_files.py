"""Published lists as files: their names, which versions they hold, their bytes (G26, G27).

One grammar names every file, so a link on a page, a bookmark and a program's request
all mean the same thing::

    grades201207.csv                  the seeds' list file: every rate of July 2012, each
                                      at its current (latest published) version
    grades201207-standard.xlsx        one rate, at its current version
    grades201207-august.json          every rate at the august version
    grades201207-rapid-initial.csv    one rate, one version: a published version's file

The format is the file's extension: ``csv`` (the 20-column layout), ``json``, ``xlsx``.
Bytes come from ``exports.export_list`` and are kept in the shared cache, keyed by
the versions they hold and the format's revision (a new writer of the format makes a new
file: the CSV became ISO-8859-1 at revision 2). A version published with its snapshot
(``registry.models.snapshots``) is written only from what was frozen then, so its file
is the same bytes for ever and its key holds the time of that freezing; a version
published before snapshots existed reads names and clubs from the registry, so its key
holds the data token too, and a correction made since gives a new file, not a stale one.
"""

from __future__ import annotations

import gzip
import hashlib
import os
import re
import shutil
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

from django.conf import settings
from django.core.cache import cache

from ecfgrading.engine.types import Rate
from ecfgrading.errors import NotFound
from ecfgrading.lookups.exports import CHARSETS, FORMAT_REVISIONS, FORMATS, export_list
from ecfgrading.lookups.freshness import data_token
from ecfgrading.lookups.lists import VersionInfo, list_label, published_versions
from ecfgrading.registry.models import PublishedSnapshot

# The charset each file is written in (docs/formats.md, "Encodings"): the CSV's is
# ISO-8859-1, and JSON is UTF-8 by its RFC 8259.
CONTENT_TYPES = {
    "csv": f"text/csv; charset={CHARSETS['csv']}",
    "json": "application/json",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
}
_NAME = re.compile(
    r"^grades(?P<year>\d{4})(?P<month>01|07)(?:-(?P<rate>standard|rapid))?"
    r"(?:-(?P<version>initial|august|rev[1-9]\d*))?\.(?P<fmt>csv|json|xlsx)$"
)
EXAMPLE_NAMES = "grades201207.csv, grades201207-standard-august.xlsx or grades201201.json"
# An export of the national list takes seconds: one app server makes it while the others
# wait for it this long, polling the cache, before making it themselves.
_WAIT_SECONDS = 30.0
_POLL_SECONDS = 0.1
# Under the home: each file once made, kept for every worker of this server. A published
# version's file never changes, so it is never made again while the code is the same.
KEPT_FOLDER = "list-files"
FROZEN = "frozen:"  # a token made of the times the versions held were frozen
# Another deployment's folder of kept files that nothing was written to for this long is
# removed when a worker warms (forget_stale): its code or its database is gone.
STALE_AFTER = timedelta(days=7)


@dataclass(frozen=True)
class ListFile:
    """A file of a published list, as named by its file name."""

    list_id: str  # 2012-07
    rate: Rate | None  # None: every rate of the list
    version: str | None  # None: each rate's current version
    fmt: str  # csv, json or xlsx

    @property
    def filename(self) -> str:
        parts = [f"grades{self.list_id.replace('-', '')}"]
        parts += [part for part in (self.rate and self.rate.value, self.version) if part]
        return f"{'-'.join(parts)}.{self.fmt}"

    @property
    def content_type(self) -> str:
        return CONTENT_TYPES[self.fmt]


@dataclass(frozen=True)
class FileLink:
    """A list's file in one format, by name."""

    fmt: str
    filename: str


def links(
    list_id: str, rate: Rate | None = None, version: str | None = None
) -> tuple[FileLink, ...]:
    """The file in each format: of every rate at its current version, of one rate, or of
    one version."""
    return tuple(FileLink(fmt, ListFile(list_id, rate, version, fmt).filename) for fmt in FORMATS)


@dataclass(frozen=True)
class ResolvedFile:
    """A list file with the published versions it holds, one per rate."""

    file: ListFile
    versions: tuple[VersionInfo, ...]
    token: str  # when each version was frozen; else freshness.data_token() when resolved

    @property
    def fixed(self) -> bool:
        """Named by its version: it will hold the same versions whatever is published."""
        return self.file.version is not None

    @property
    def tag(self) -> str:
        """Changes whenever the bytes may: the versions held, the format and its revision
        (a published version's file made by a new writer is new bytes), the data token."""
        ids = "-".join(str(v.id) for v in self.versions)
        fmt = self.file.fmt
        text = f"{fmt}.{FORMAT_REVISIONS[fmt]}|{ids}|{self.token}"
        return hashlib.sha1(text.encode()).hexdigest()[:24]


def parse_filename(name: str) -> ListFile:
    """The file a name asks for; NotFound saying what names look like otherwise."""
    match = _NAME.match(name)
    if match is None:
        raise NotFound(f"expected a list file name such as {EXAMPLE_NAMES}, got {name!r}")
    rate = match["rate"]
    return ListFile(
        list_id=f"{match['year']}-{match['month']}",
        rate=Rate(rate) if rate else None,
        version=match["version"],
        fmt=match["fmt"],
    )


def resolve(file: ListFile, found: Sequence[VersionInfo] | None = None) -> ResolvedFile:
    """The published versions the file holds; NotFound when the list, the rate or the
    version named was never published."""
    every = published_versions() if found is None else found
    of_list = [v for v in every if v.list_id == file.list_id]
    rates = [file.rate] if file.rate else list(dict.fromkeys(v.rate for v in of_list))
    chosen = tuple(_version(file, rate, of_list) for rate in rates)
    if not chosen:
        raise NotFound(f"no list {list_label(file.list_id)} has been published")
    return ResolvedFile(file, chosen, _frozen_token(chosen) or data_token())


def _frozen_token(versions: Sequence[VersionInfo]) -> str | None:
    """When each version was frozen (a database rebuilt under the same ids froze them at
    another time); None unless every one of them was (issue 24, case 14)."""
    found = PublishedSnapshot.objects.filter(version__in=[v.id for v in versions])
    stamps = dict(found.values_list("version_id", "frozen_at"))
    if len(stamps) < len(versions):
        return None
    return FROZEN + ",".join(stamps[v.id].isoformat() for v in versions)


def _version(file: ListFile, rate: Rate, found: Sequence[VersionInfo]) -> VersionInfo:
    versions = [v for v in found if v.rate is rate]  # in version order (G26)
    if file.version is not None:
        versions = [v for v in versions if v.name == file.version]
    if not versions:
        named = f" {file.version}" if file.version else ""
        label = list_label(file.list_id)
        raise NotFound(f"the {label} {rate.value} list has no published{named} version")
    return versions[-1]


def file_bytes(resolved: ResolvedFile, build: str = "") -> bytes:
    """The file's bytes as kept on this server's disk, else from the shared cache, else
    made once by whichever server asks first while the others wait for it (an export of
    the national list takes seconds). ``build``: the code deployed (``web.deployed``),
    so that a file kept on disk is never served by a deployment that writes it otherwise."""
    kept = _kept_path(resolved, build)
    if kept is None:
        return _shared_bytes(resolved)
    try:
        return kept.read_bytes()
    except OSError:
        pass  # not made on this server yet
    body = _shared_bytes(resolved)
    _keep(kept, body)
    return body


def gzipped_bytes(resolved: ResolvedFile, build: str = "") -> bytes | None:
    """The kept file gzipped, made once beside it and kept too, so that a server does not
    compress megabytes of the same file for every download (180 ms each for a national
    CSV); None for a file that is not kept (``_kept_path``). The same bytes as
    ``file_bytes`` once unzipped; no timestamp in the header, so the same every time."""
    kept = _kept_path(resolved, build)
    if kept is None:
        return None
    zipped = kept.with_name(kept.name + ".gz")
    try:
        return zipped.read_bytes()
    except OSError:
        pass  # not made on this server yet
    body = gzip.compress(file_bytes(resolved, build), compresslevel=6, mtime=0)
    _keep(zipped, body)
    return body


def _shared_bytes(resolved: ResolvedFile) -> bytes:
    key = f"listfile:{resolved.tag}"
    body: bytes | None = cache.get(key)
    if body is not None:
        return body
    making = f"{key}:making"
    if not cache.add(making, 1, timeout=int(_WAIT_SECONDS) * 2):
        body = _wait_for(key, making)
        if body is not None:
            return body
    try:
        body = _export(resolved)
        cache.set(key, body)
    finally:
        cache.delete(making)
    return body


def warm_files(build: str = "") -> int:
    """Make and keep the newest list's whole files that will not change (its versions
    frozen), in every format, before anyone asks; the number made now (0 when all were
    kept already)."""
    found = published_versions()
    if not found:
        return 0
    newest = max(v.list_id for v in found)
    made = 0
    for link in links(newest):
        resolved = resolve(parse_filename(link.filename), found)
        kept = _kept_path(resolved, build)
        if kept is not None and not kept.is_file():
            file_bytes(resolved, build)
            made += 1
    return made


def _kept_path(resolved: ResolvedFile, build: str) -> Path | None:
    """Where this server keeps the file: under the home, by the code deployed, the
    database it was made from and the file's tag (its versions, format and when they
    were frozen); None for a version published before snapshots, whose file follows the
    registry (its tag holds the data token) and stays in the shared cache only."""
    if not resolved.token.startswith(FROZEN):
        return None
    return _own_folder(build) / f"{resolved.tag}.{resolved.file.fmt}"


def _own_folder(build: str) -> Path:
    """This deployment's folder of kept files: by its code and its database."""
    database = settings.DATABASES["default"]
    where = f"{build}|{database['ENGINE']}|{database.get('HOST', '')}|{database['NAME']}"
    return kept_root() / hashlib.sha1(where.encode()).hexdigest()[:16]


def forget_stale(build: str) -> list[Path]:
    """Remove the folders of kept files, other than this deployment's, that no file was
    written to for ``STALE_AFTER``: each deployment keeps its files apart (``_kept_path``),
    so every earlier deployment's stayed on disk for ever. The folders removed. A worker
    of an old deployment still running finds its file gone and makes it again."""
    root, own = kept_root(), _own_folder(build)
    if not root.is_dir():
        return []
    cutoff = time.time() - STALE_AFTER.total_seconds()
    gone = []
    for folder in root.iterdir():
        try:
            stale = folder.is_dir() and folder != own and folder.stat().st_mtime < cutoff
        except OSError:
            continue  # removed meanwhile by another worker
        if stale:
            shutil.rmtree(folder, ignore_errors=True)
            gone.append(folder)
    return gone


def kept_root() -> Path:
    """The folder of the files kept on this server, under the home."""
    return Path(settings.HOME) / KEPT_FOLDER


def _keep(path: Path, body: bytes) -> None:
    """Written whole or not at all (a temporary file renamed), so that another worker
    never reads half a file; a disk that refuses it only costs the next asker time."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, name = tempfile.mkstemp(dir=path.parent, suffix=".part")
    except OSError:
        return
    written = Path(name)
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(body)
        written.replace(path)
    except OSError:
        written.unlink(missing_ok=True)


def _wait_for(key: str, making: str) -> bytes | None:
    """The bytes another server is making; None if it gave up or takes too long."""
    deadline = time.monotonic() + _WAIT_SECONDS
    while time.monotonic() < deadline:
        time.sleep(_POLL_SECONDS)
        body: bytes | None = cache.get(key)
        if body is not None or cache.get(making) is None:
            return body
    return None


def _export(resolved: ResolvedFile) -> bytes:
    file = resolved.file
    rates = [version.rate for version in resolved.versions]
    return export_list(file.list_id, rates=rates, version=file.version, fmt=file.fmt)
