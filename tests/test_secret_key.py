"""No default secret key is ever served (issue 24, case 13): `ecfgrading serve`, bound to
loopback behind a proxy as docs/deploy.md sets it up, and `gunicorn ecfgrading.wsgi`
refuse to start without a key of the site's own, saying how to make one; the demo's
home has a random key of its own."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_settings import load_settings

ECFGRADING = Path(sys.executable).with_name("ecfgrading")
HOW = "python3 -c 'import secrets; print(secrets.token_urlsafe(50))'"


def environment(home: Path, **extra: str) -> dict[str, str]:
    """This machine's environment without any key or database of its own."""
    dropped = ("ECFGRADING_", "DATABASE_URL", "REDIS_URL")
    base = {k: v for k, v in os.environ.items() if not k.startswith(dropped)}
    return {**base, "ECFGRADING_HOME": str(home), **extra}


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A site made by `ecfgrading init`, with no key."""
    made = tmp_path_factory.mktemp("keyless") / "home"
    init = subprocess.run(
        [str(ECFGRADING), "init"], env=environment(made), capture_output=True, timeout=300
    )
    assert init.returncode == 0, init.stderr
    return made


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.sqlite
def test_serve_on_loopback_without_a_key_refuses_and_says_how_to_make_one(home: Path) -> None:
    """Issue 24, case 13: the set-up of docs/deploy.md, on 127.0.0.1 behind a proxy."""
    ran = subprocess.run(
        [str(ECFGRADING), "serve", "--host", "127.0.0.1", "--port", str(_free_port())],
        env=environment(home),
        capture_output=True,
        text=True,
        timeout=60,
    )

    assert ran.returncode == 2
    assert ran.stdout == ""
    assert ran.stderr.startswith("Error: expected ECFGRADING_SECRET_KEY, got nothing: ")
    assert HOW in ran.stderr
    assert str(home / "secret_key") in ran.stderr
    assert "Traceback" not in ran.stderr


@pytest.mark.sqlite
def test_the_wsgi_application_refuses_the_development_key(home: Path) -> None:
    """Issue 24, case 13: `gunicorn ecfgrading.wsgi` loads this module first."""
    ran = subprocess.run(
        [sys.executable, "-c", "import ecfgrading.wsgi"],
        env=environment(home),
        capture_output=True,
        text=True,
        timeout=120,
    )

    assert ran.returncode != 0
    assert "ImproperlyConfigured: expected ECFGRADING_SECRET_KEY, got nothing" in ran.stderr


def test_without_a_key_the_settings_say_so_and_hold_only_the_development_key(
    monkeypatch, tmp_path
) -> None:
    settings = load_settings(monkeypatch, ECFGRADING_HOME=str(tmp_path), ECFGRADING_SECRET_KEY="")

    assert settings["SECRET_KEY_GIVEN"] is False
    assert settings["SECRET_KEY"].startswith("django-insecure-")


def test_the_key_comes_from_the_environment_before_the_homes_file(monkeypatch, tmp_path) -> None:
    (tmp_path / "secret_key").write_text("from-the-file\n")

    from_file = load_settings(
        monkeypatch, ECFGRADING_HOME=str(tmp_path), ECFGRADING_SECRET_KEY=None
    )
    from_environment = load_settings(
        monkeypatch, ECFGRADING_HOME=str(tmp_path), ECFGRADING_SECRET_KEY="from-the-environment"
    )

    assert (from_file["SECRET_KEY"], from_file["SECRET_KEY_GIVEN"]) == ("from-the-file", True)
    assert from_environment["SECRET_KEY"] == "from-the-environment"
