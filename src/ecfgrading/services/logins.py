"""Back-office logins from the command line (``ecfgrading users``): make one with a
role, list them, set a password. Passwords pass Django's password rules first."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError

from ecfgrading.lookups.roles import Role, roles_of
from ecfgrading.registry.models import AuditLog
from ecfgrading.services.accounts import AccountError, create_user
from ecfgrading.services.errors import ErrorKind


def _checked(password: str, user: Any = None) -> None:
    try:
        validate_password(password, user)
    except ValidationError as error:
        raise AccountError("expected a stronger password: " + " ".join(error.messages)) from None


def add_login(
    username: str, *, role: Role, email: str = "", password: str, actor: str = "cli"
) -> Any:
    """A login in one role, its password checked by the password rules."""
    model = get_user_model()
    _checked(password, model(username=username, email=email))
    return create_user(username, role=role, email=email, password=password, actor=actor)


def add_member_login(
    username: str, code: str, number: str, *, email: str = "", password: str, actor: str = "cli"
) -> Any:
    """A direct member's login with his member record, linked to the player of ``code``."""
    from ecfgrading.services.members import create_member

    model = get_user_model()
    _checked(password, model(username=username, email=email))
    return create_member(
        code, number, email=email, username=username, password=password, actor=actor
    )


@dataclass(frozen=True)
class Login:
    username: str
    roles: tuple[str, ...]
    active: bool


def logins() -> list[Login]:
    """Every login by name, with its roles."""
    users = get_user_model().objects.prefetch_related("groups").order_by("username")
    return [
        Login(u.get_username(), tuple(sorted(r.value for r in roles_of(u))), u.is_active)
        for u in users
    ]


def set_password(username: str, password: str, *, actor: str = "cli") -> None:
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        raise AccountError(
            f"expected a login on record, got {username!r}", kind=ErrorKind.NOT_FOUND
        )
    _checked(password, user)
    user.set_password(password)
    user.save(update_fields=["password"])
    AuditLog.record("set password", user, actor=actor)
