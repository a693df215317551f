"""A player's name as the federation writes it: ``Surname, Forenames``.

Results files (``NAME``), the published lists (``Name``) and every page write a name this
way (results-file.md); ``matching.names`` folds names for comparing, this writes one for
reading. The one place it is written, so that no copy can drift.
"""

from __future__ import annotations


def full_name(surname: str | None, forenames: str | None = None) -> str:
    """``Smith, John``; ``Smith`` for a record without forenames (never ``Smith, ``);
    ``""`` for no one (an outer join's ``None``)."""
    if surname and forenames:
        return f"{surname}, {forenames}"
    return surname or forenames or ""
