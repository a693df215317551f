"""Docs kept honest by machines (style.md 11)."""

from __future__ import annotations

from pathlib import Path

import scripts.cli_reference as cli_reference

ROOT = Path(__file__).resolve().parent.parent


def test_cli_reference_matches_the_cli() -> None:
    committed = (ROOT / "docs" / "cli.md").read_text()
    assert committed == cli_reference.reference(), "run `make docs` and commit docs/cli.md"


def test_readme_opens_with_the_two_commands() -> None:
    first_block = (ROOT / "README.md").read_text().split("```")[1]
    assert "make demo" in first_block
    assert "make test" in first_block
