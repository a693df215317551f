"""Write docs/cli.md from the CLI's own --help, so the reference cannot drift."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ecfgrading.cli import main

HEADER = """# CLI reference

Generated from `ecfgrading --help` by `make docs` (`scripts/cli_reference.py`); a test
fails when this file and the CLI disagree. Exit status: 0 success, 1 a domain error
(bad file, unknown player, refused operation), 2 a usage error or a bad environment
variable (one line naming it).
"""


def _commands(group: click.Group, prefix: list[str]) -> list[tuple[list[str], click.Command]]:
    found: list[tuple[list[str], click.Command]] = [(prefix, group)]
    for name in sorted(group.commands):
        command = group.commands[name]
        if isinstance(command, click.Group):
            found += _commands(command, [*prefix, name])
        else:
            found.append(([*prefix, name], command))
    return found


def reference() -> str:
    parts = [HEADER]
    for path, command in _commands(main, ["ecfgrading"]):
        with click.Context(command, info_name=" ".join(path), terminal_width=80) as ctx:
            text = command.get_help(ctx)
        parts.append(f"## `{' '.join(path)}`\n\n```\n{text}\n```\n")
    return "\n".join(parts)


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("docs/cli.md")
    target.write_text(reference())
    print(f"wrote {target}")
