"""The back office's roles, by the names of the Django auth groups that hold them.

The groups are made by the back office's data migration; who holds which, and what each
may do, is read by ``lookups.roles``. Here, below both, so that the registry's admin can
refuse a login of the wrong role for a member's record.
"""

from __future__ import annotations

import enum


class Role(enum.StrEnum):
    """The back office's roles, by the names of their groups."""

    TEAM = "grading team"
    OFFICER = "grading officer"
    MEMBER = "direct member"
