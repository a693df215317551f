"""What code the site runs: a digest of the package's files, so that a page cached by
one deployment is never served by another (issue 23).

A cached page is keyed by its address and the data token (``web.caching``); a new
deployment with other templates, styles or wording makes other pages from the same
data, and the shared cache (Redis) outlives the app servers. The digest joins the key,
and so the ETag: a browser's copy from before a deployment is not confirmed after it.
Computed once per process, from the files as deployed (a few megabytes, a few ms).
"""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

import ecfgrading

# Everything a page is made from: code, templates, styles and scripts, images.
SUFFIXES = frozenset({".py", ".html", ".css", ".js", ".svg", ".txt"})


@functools.cache
def site_build() -> str:
    """Twelve hex digits of the SHA-1 of every file the pages are made from, by path."""
    root = Path(ecfgrading.__file__).parent
    digest = hashlib.sha1()
    for path in sorted(_made_from(root)):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def _made_from(root: Path) -> list[Path]:
    return [
        path
        for path in root.rglob("*")
        if path.suffix in SUFFIXES and "__pycache__" not in path.parts and path.is_file()
    ]
