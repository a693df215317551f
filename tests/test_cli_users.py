"""`ecfgrading users`: back-office logins from the command line."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from django.contrib.auth import authenticate, get_user_model
from django.contrib.auth.models import Group
from django.test import override_settings

from ecfgrading.cli import main
from ecfgrading.engine.codes import GradingCode
from ecfgrading.lookups.roles import Role
from ecfgrading.registry.models import DirectMember, Player

pytestmark = pytest.mark.django_db(transaction=True)

GOOD = "a long demo passphrase 42"


@pytest.fixture(autouse=True)
def _roles() -> None:
    """The role groups (a transactional test's flush drops the migrations' rows)."""
    for role in Role:
        Group.objects.get_or_create(name=role.value)


def invoke(*args: str, given: str | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), input=given)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    return result.exit_code, result.output


def test_users_add_makes_a_login_in_its_role_with_a_hashed_password() -> None:
    code, output = invoke(
        "users", "add", "olga", "--role", "officer", "--email", "olga@club.example",
        "--password", GOOD,
    )  # fmt: skip

    assert (code, output) == (0, "olga: officer, olga@club.example\n")
    user = get_user_model().objects.get(username="olga")
    assert user.groups.get().name == "grading officer"
    assert user.password.startswith("pbkdf2_sha256$") or user.password.startswith("argon2")
    assert user.check_password(GOOD)


def test_users_add_asks_for_the_password_twice_when_not_given() -> None:
    code, output = invoke("users", "add", "tess", "--role", "team", given=f"{GOOD}\n{GOOD}\n")

    assert code == 0
    assert "tess: team" in output
    assert get_user_model().objects.get(username="tess").check_password(GOOD)


def test_a_weak_password_or_a_taken_name_is_a_clean_error() -> None:
    assert invoke("users", "add", "mia", "--role", "member", "--password", GOOD)[0] == 0

    weak = invoke("users", "add", "max", "--role", "member", "--password", "12345678")
    taken = invoke("users", "add", "mia", "--role", "member", "--password", GOOD)
    role = invoke("users", "add", "bob", "--role", "boss", "--password", GOOD)

    assert weak[0] == 1 and "expected a stronger password" in weak[1]
    assert not get_user_model().objects.filter(username="max").exists()
    assert taken[0] == 1 and "expected a new user name, got 'mia': it is taken" in taken[1]
    assert role[0] == 2  # not one of the roles: a usage error


def test_users_list_names_each_login_and_its_roles_without_addresses() -> None:
    invoke("users", "add", "tess", "--role", "team", "--email", "t@x.example", "--password", GOOD)
    invoke("users", "add", "mia", "--role", "member", "--password", GOOD)

    code, output = invoke("users", "list")

    assert code == 0
    assert output.splitlines() == [
        f"{'mia':24} direct member",
        f"{'tess':24} grading team",
        "2 logins",
    ]
    assert "t@x.example" not in output


@override_settings(AXES_ENABLED=False)
def test_users_set_password_changes_it() -> None:
    invoke("users", "add", "mia", "--role", "member", "--password", GOOD)

    code, output = invoke("users", "set-password", "mia", "--password", "another passphrase 43")
    missing = invoke("users", "set-password", "nobody", "--password", "another passphrase 43")

    assert (code, output) == (0, "password of mia changed\n")
    assert authenticate(username="mia", password="another passphrase 43") is not None
    assert missing[0] == 1 and "expected a login on record, got 'nobody'" in missing[1]


def test_a_members_login_is_made_with_his_member_record() -> None:
    Player.objects.create(code=261619, surname="Bloggs", forenames="Joe")

    code, output = invoke(
        "users", "add", "joe", "--role", "member", "--email", "joe@home.example",
        "--player", "261619B", "--number", "DM1001", "--password", GOOD,
    )  # fmt: skip
    half = invoke(
        "users", "add", "jim", "--role", "member", "--player", "261619B", "--password", GOOD
    )
    unknown = invoke(
        "users", "add", "ann", "--role", "member", "--player", str(GradingCode(123456)),
        "--number", "DM2", "--password", GOOD,
    )  # fmt: skip

    assert (code, output) == (0, "joe: member DM1001, Bloggs, Joe (261619B)\n")
    member = DirectMember.objects.get()
    assert (member.user.username, member.email, member.player.code) == (
        "joe",
        "joe@home.example",
        261619,
    )
    assert half[0] == 2
    assert unknown[0] == 1 and "expected the grading code of a player on record" in unknown[1]
    assert not get_user_model().objects.filter(username="ann").exists()
