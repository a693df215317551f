"""Back-office accounts, each made in one role (``lookups.roles``). Passwords are hashed
by Django.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import IntegrityError, transaction

from ecfgrading.lookups.roles import Role
from ecfgrading.registry.models import AuditLog
from ecfgrading.services.errors import ErrorKind, ServiceError

ROLE_WORDS = {"team": Role.TEAM, "officer": Role.OFFICER, "member": Role.MEMBER}


class AccountError(ServiceError):
    """An account that cannot be made: a name taken, an unknown role."""


def role_named(word: str) -> Role:
    """A role from its short word (team, officer, member) or its group name."""
    value = word.strip().lower()
    if value in ROLE_WORDS:
        return ROLE_WORDS[value]
    try:
        return Role(value)
    except ValueError:
        raise AccountError(f"expected a role of {', '.join(ROLE_WORDS)}, got {word!r}") from None


def create_user(
    username: str,
    *,
    role: Role,
    email: str = "",
    password: str | None = None,
    first_name: str = "",
    last_name: str = "",
    actor: str = "",
) -> Any:
    """A new login in one role. Without a password the account cannot log in until its
    owner sets one by the password-reset e-mail."""
    name = username.strip()
    if not name:
        raise AccountError("expected a user name, got nothing")
    model = get_user_model()
    try:
        with transaction.atomic():
            user = model.objects.create_user(
                name,
                email=email,
                password=password,
                first_name=first_name,
                last_name=last_name,
            )
            # The roles' migration made the group; a database flushed since (a test, a
            # demo rebuilt in place) has lost it, and the role's name is all it holds.
            user.groups.add(Group.objects.get_or_create(name=role.value)[0])
            AuditLog.record("create account", user, actor=actor or "accounts", role=role.value)
    except IntegrityError:
        raise AccountError(
            f"expected a new user name, got {name!r}: it is taken", kind=ErrorKind.CONFLICT
        ) from None
    return user
