"""Security headers, deployment settings, and errors that are pages, not tracebacks.

Pages that exist whatever the other pages' state: the 404 page (the site's base page
with the lookup boxes), Django's admin login, and a view that raises (a test urlconf).
Settings are read once per process from the environment, so the settings that depend on
it (ECFGRADING_HTTPS, ECFGRADING_DEBUG) are checked in fresh processes.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import subprocess
import sys
from pathlib import Path
from typing import Any

import html5lib
import pytest
from django.http import HttpRequest, HttpResponse
from django.test import Client, override_settings
from django.urls import include, path

import ecfgrading.urls

pytestmark = pytest.mark.django_db

NOT_FOUND = "/no/such/page/"


def policy(header: str) -> dict[str, list[str]]:
    """A Content-Security-Policy header as {directive: sources}."""
    parts = [part.split() for part in header.split(";") if part.strip()]
    return {name: sources for name, *sources in parts}


@pytest.mark.parametrize("url", [NOT_FOUND, "/admin/login/"])
def test_a_page_has_a_content_security_policy_without_inline_script_or_style(
    client: Client, url: str
) -> None:
    response = client.get(url)

    directives = policy(response["Content-Security-Policy"])
    assert directives["default-src"] == ["'self'"]
    assert directives["script-src"] == ["'self'"]
    assert directives["style-src"] == ["'self'"]
    assert directives["object-src"] == ["'none'"]
    assert directives["base-uri"] == ["'none'"]
    assert not any("unsafe" in source for sources in directives.values() for source in sources)


def test_the_base_page_itself_has_no_inline_script_style_or_handler(client: Client) -> None:
    """What the policy would block must not be there to begin with (every page extends it)."""
    page = html5lib.parse(client.get(NOT_FOUND).content, namespaceHTMLElements=False)

    scripts = page.findall(".//script")
    assert scripts, "the base page loads its script"
    assert all(script.get("src") and not (script.text or "").strip() for script in scripts)
    assert page.findall(".//style") == []
    for element in page.iter():
        assert not [name for name in element.attrib if name == "style" or name.startswith("on")]


def test_pages_are_not_sniffed_framed_or_referred_elsewhere(client: Client) -> None:
    response = client.get(NOT_FOUND)

    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"
    assert response["X-Frame-Options"] == "DENY"
    assert policy(response["Content-Security-Policy"])["frame-ancestors"] == ["'none'"]
    assert response["Cross-Origin-Opener-Policy"] == "same-origin"


# -- errors are pages ------------------------------------------------------------------------


def broken(request: HttpRequest) -> HttpResponse:
    raise ZeroDivisionError("a bug in a view")


urlpatterns = [path("broken/", broken), path("", include(ecfgrading.urls))]
handler404 = ecfgrading.urls.handler404
handler500 = ecfgrading.urls.handler500


def test_an_unknown_address_is_the_404_page_with_the_lookup_boxes(client: Client) -> None:
    response = client.get(NOT_FOUND)

    assert response.status_code == 404
    assert response["Content-Type"] == "text/html; charset=utf-8"
    page = html5lib.parse(response.content, namespaceHTMLElements=False)
    assert page.find(".//h1").text == "Not found"
    assert page.find(".//input[@name='q']") is not None  # a lookup box
    assert b"URLconf" not in response.content  # not Django's debugging page


def test_an_unknown_address_asked_as_json_is_a_json_error(client: Client) -> None:
    response = client.get(NOT_FOUND, headers={"Accept": "application/json"})

    assert response.status_code == 404
    assert response.json()["status"] == 404


@override_settings(ROOT_URLCONF=__name__)
def test_a_view_that_raises_is_the_500_page_and_the_error_is_logged(
    client: Client, caplog: pytest.LogCaptureFixture
) -> None:
    client.raise_request_exception = False

    response = client.get("/broken/")

    assert response.status_code == 500
    assert response["Content-Type"] == "text/html; charset=utf-8"
    assert b"<h1>Something went wrong</h1>" in response.content
    assert b"ZeroDivisionError" not in response.content
    assert b"Traceback" not in response.content
    logged = [r for r in caplog.records if r.name == "django.request" and r.exc_info]
    assert [r.exc_info[0] for r in logged if r.exc_info] == [ZeroDivisionError]


@override_settings(ROOT_URLCONF=__name__)
def test_a_view_that_raises_answers_a_json_client_in_json(client: Client) -> None:
    client.raise_request_exception = False

    response = client.get("/broken/", headers={"Accept": "application/json"})

    assert response.status_code == 500
    message = "the server could not answer; try again later"
    assert response.json() == {"status": 500, "kind": "server-error", "message": message}


# -- settings from the environment, in fresh processes ---------------------------------------

PROBE = """
import json, django
django.setup()
from django.conf import settings
from django.test import Client

client = Client(SERVER_NAME="localhost")
plain, secure = client.get("/admin/"), client.get("/admin/", secure=True)
print(json.dumps({
    "debug": settings.DEBUG,
    "session_cookie_secure": settings.SESSION_COOKIE_SECURE,
    "csrf_cookie_secure": settings.CSRF_COOKIE_SECURE,
    "plain": [plain.status_code, plain.get("Location")],
    "hsts": secure.get("Strict-Transport-Security"),
}))
"""


def fresh_process(tmp_path: Path, script: str, **env: str) -> subprocess.CompletedProcess[str]:
    """Python with the settings read from this environment (nothing of ours inherited)."""
    inherited = {k: v for k, v in os.environ.items() if not k.startswith("ECFGRADING_")}
    inherited.pop("DATABASE_URL", None)
    environment = {
        **inherited,
        "DJANGO_SETTINGS_MODULE": "ecfgrading.settings",
        "ECFGRADING_HOME": str(tmp_path / "home"),
        **env,
    }
    return subprocess.run(
        [sys.executable, "-c", script],
        env=environment,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )


def probe(tmp_path: Path, **env: str) -> dict[str, Any]:
    return dict(json.loads(fresh_process(tmp_path, PROBE, **env).stdout))


def test_debug_is_off_unless_asked_for(tmp_path: Path) -> None:
    assert probe(tmp_path)["debug"] is False
    assert probe(tmp_path, ECFGRADING_DEBUG="1")["debug"] is True


def test_behind_https_it_sends_hsts_secures_cookies_and_redirects_plain_http(
    tmp_path: Path,
) -> None:
    found = probe(tmp_path, ECFGRADING_HTTPS="1")

    assert found["hsts"] == "max-age=31536000; includeSubDomains"  # a year
    assert found["session_cookie_secure"] is True
    assert found["csrf_cookie_secure"] is True
    assert found["plain"] == [301, "https://localhost/admin/"]


def test_without_https_there_is_no_hsts_and_no_redirect(tmp_path: Path) -> None:
    found = probe(tmp_path)

    assert found["hsts"] is None
    assert (found["session_cookie_secure"], found["csrf_cookie_secure"]) == (False, False)
    assert found["plain"][0] == 302  # the admin sends a visitor to its login page


RATE_PROBE = """
import json, secrets, django
django.setup()
from django.test import RequestFactory
from django_ratelimit.core import is_ratelimited

group = "probe-" + secrets.token_hex(8)  # counters of its own in the shared Redis

def limited(client):  # every request arrives from the proxy's address, 10.0.0.1
    request = RequestFactory().post("/", REMOTE_ADDR="10.0.0.1", HTTP_X_REAL_IP=client)
    return is_ratelimited(request, group=group, key="ip", rate="1/h", increment=True)

print(json.dumps([limited("192.0.2.1"), limited("192.0.2.2"), limited("192.0.2.1")]))
"""


@pytest.mark.parametrize(
    ("header", "limited"),
    [("HTTP_X_REAL_IP", [False, False, True]), ("", [False, True, True])],
    ids=["client-ip-header", "connection-address"],
)
def test_behind_a_proxy_rate_limits_count_by_the_header_naming_the_client(
    tmp_path: Path, header: str, limited: list[bool]
) -> None:
    """One request an hour: with ECFGRADING_CLIENT_IP_HEADER two clients get one each;
    without it, they share the proxy's address and the second is refused."""
    env = {"ECFGRADING_CLIENT_IP_HEADER": header, "REDIS_URL": "redis://127.0.0.1:6379/15"}

    ran = fresh_process(tmp_path, RATE_PROBE, **env)

    assert json.loads(ran.stdout) == limited


def deploy_warnings(tmp_path: Path, **env: str) -> set[str]:
    """The ids `manage.py check --deploy` warns of."""
    script = "from django.core.management import execute_from_command_line as run; "
    script += "run(['manage.py', 'check', '--deploy'])"
    ran = fresh_process(tmp_path, script, **env)
    return set(re.findall(r"\((security\.W\d+)\)", ran.stdout + ran.stderr))


def test_the_deploy_check_passes_behind_https_with_a_real_secret_key(tmp_path: Path) -> None:
    key = secrets.token_urlsafe(50)

    warnings = deploy_warnings(tmp_path, ECFGRADING_HTTPS="1", ECFGRADING_SECRET_KEY=key)

    # W021: HSTS preload is left to the federation: the browsers' preload list commits its
    # whole domain and every subdomain to HTTPS for months, which is not ours to decide.
    assert warnings == {"security.W021"}


def test_the_deploy_check_flags_the_development_defaults(tmp_path: Path) -> None:
    warnings = deploy_warnings(tmp_path)

    # No HSTS (W004), no redirect (W008), the development key (W009), cookies sent over
    # plain HTTP (W012, W016): what ECFGRADING_HTTPS and ECFGRADING_SECRET_KEY turn off.
    assert warnings == {
        "security.W004",
        "security.W008",
        "security.W009",
        "security.W012",
        "security.W016",
    }
