"""Running the Node and PHP replicas as their programs run: one process each, the demo's
address passed in the environment (``ECF_BASE``, the only change to what they request),
bounded by a timeout.

Each replica prints what its program prints (its console lines, PHP's warnings on
stderr) and, as its last line of standard output, one JSON value: what the program
would show or store. CI installs node and php (.ci/run); a machine without them fails
here with the package to install, rather than skipping the clients.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).parent
TIMEOUT = 120  # seconds for one program run; each makes at most a few hundred requests
PACKAGES = {"node": "nodejs", "php": "php-cli"}


@dataclass(frozen=True)
class Ran:
    """A program's run: its log lines (standard output before the result), its
    standard error, and the JSON result it printed last."""

    log: list[str]
    stderr: str
    result: Any


def interpreter(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        pytest.fail(
            f"the client compatibility suite needs {name}: install Debian's "
            f"{PACKAGES[name]} (apt-get install {PACKAGES[name]}; .ci/run does)",
            pytrace=False,
        )
    return found


def run(
    command: list[str], base: str, env: dict[str, str] | None = None, timeout: int = TIMEOUT
) -> Ran:
    """Run a replica with ECF_BASE set to ``base`` and the extra environment ``env``."""
    environment = {**os.environ, "ECF_BASE": base, "TZ": "Europe/London", **(env or {})}
    done = subprocess.run(
        command, env=environment, capture_output=True, text=True, timeout=timeout, check=False
    )
    lines = done.stdout.rstrip("\n").split("\n")
    assert done.returncode == 0, (done.returncode, done.stdout[-2000:], done.stderr[-2000:])
    try:
        result = json.loads(lines[-1])
    except (ValueError, IndexError):
        raise AssertionError(f"no JSON result line: {done.stdout[-2000:]!r}") from None
    return Ran(lines[:-1], done.stderr, result)


def node(script: str, base: str, *args: str, env: dict[str, str] | None = None) -> Ran:
    return run([interpreter("node"), str(HERE / "node" / script), *args], base, env)


def php(script: str, base: str, *args: str, env: dict[str, str] | None = None) -> Ran:
    """PHP with every notice and warning shown on stderr, as a developer would see them."""
    options = ["-d", "error_reporting=E_ALL", "-d", "display_errors=stderr"]
    options += ["-d", "allow_url_fopen=1"]
    return run([interpreter("php"), *options, str(HERE / "php" / script), *args], base, env)
