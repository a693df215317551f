"""Who may do what in the back office: the roles a login holds.

A role is a Django auth group, made by the back office's data migration: the grading
team (everything), grading officers (their own events only) and direct members (their
own games). The public has no account. Accounts are made by ``services.accounts``.
"""

from __future__ import annotations

from typing import Any

from ecfgrading.registry.roles import Role

__all__ = ["Role", "has_role", "roles_of"]


def roles_of(user: Any) -> frozenset[Role]:
    """The roles a user holds; superusers count as the grading team."""
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        return frozenset()
    names = set(user.groups.values_list("name", flat=True))
    held = {role for role in Role if role.value in names}
    if user.is_superuser:
        held.add(Role.TEAM)
    return frozenset(held)


def has_role(user: Any, *roles: Role) -> bool:
    """Whether the user holds any of these roles."""
    return bool(roles_of(user) & set(roles))
