"""A season written by ``bench/ingest.py --season-dir DIR``, brought into this process's
database: the benches that import it in process share these two steps."""

from __future__ import annotations

import json
import os
from pathlib import Path


def starting_list(season: Path) -> None:
    """Django set up (the settings' database, ECFGRADING_HOME as the caller left it),
    ``migrate``, and the season's starting list imported."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ecfgrading.settings")
    import django

    django.setup()
    from django.core.management import call_command

    from ecfgrading.services.lists.imports import import_grade_list

    info = json.loads((season / "season.json").read_text(encoding="utf-8"))
    call_command("migrate", verbosity=0)
    data = (season / info["list_file"]).read_bytes()
    import_grade_list(data, list_id=info["list_id"], filename=info["list_file"], actor="bench")


def season_files(season: Path, first: int | None = None) -> list[tuple[str, bytes]]:
    """The season's results files (name, bytes) in the order received, or its ``first``."""
    order = (season / "order").read_text(encoding="utf-8").splitlines()
    names = [line.split("\t")[0] for line in order if line.strip()][:first]
    return [(name, (season / "results" / name).read_bytes()) for name in names]
