"""The audit log and the public amendments page in Debian's Chromium, on the tiny demo
served by ``ecfgrading serve``: a team member signs in, filters the log by an event and
by a player, and the public page shows amendments; axe-core finds no serious violation
at phone and desktop widths, and html5lib finds the pages valid. Screenshots are left in
var/test-output/screenshots/backoffice."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import html5lib
import pytest
from playwright.sync_api import Page, expect

from tests.backoffice.conftest import PASSWORD
from tests.web.browser import Browser, open_browser
from tests.web.live import BIN, Site, build, environment, serving

pytestmark = pytest.mark.sqlite

SHOTS = Path("var/test-output/screenshots/backoffice")
WIDTHS = {"phone": 390, "desktop": 1280}
# A team login, two amendments (one carried by nothing yet) beside the demo's own (its
# merge, G28), and one entry naming a player.
PREPARE = f"""
from ecfgrading.registry.models import Event, Player, Submission
from ecfgrading.lookups.roles import Role
from ecfgrading.services.accounts import create_user
from ecfgrading.services.amendments import record_amendment
tess = create_user("tess", role=Role.TEAM, email="tess@team.example", password={PASSWORD!r})
player = Player.objects.filter(merged_into=None).order_by("code").first()
event = Event.objects.get(code=Submission.objects.filter(status="accepted").latest("id").event_code)
record_amendment(what="Grade 150 corrected to 148", why="a game counted twice", user=tess,
                 player=player, rate="standard")
record_amendment(what="Results of round 3 replaced", why="the officer sent them again",
                 event=event)
print(player.ref, event.code)
"""


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Site, str, str]]:
    home = tmp_path_factory.mktemp("audit-demo")
    build(home)
    env = environment(home) | {"DJANGO_SETTINGS_MODULE": "ecfgrading.settings"}
    shell = [str(BIN / "python"), "-m", "django", "shell", "-c", PREPARE]
    made = subprocess.run(shell, env=env, check=True, capture_output=True, text=True)
    code, event = made.stdout.split()[-2:]
    with serving(home) as site:
        yield site, code, event


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with open_browser() as opened:
        yield opened


def serious(browser: Browser, page: Page) -> list[str]:
    found = browser.axe_runner.run(page).response["violations"]
    return [f"{v['id']}: {v['help']}" for v in found if v["impact"] in ("serious", "critical")]


def valid(page: Page) -> None:
    html5lib.HTMLParser(strict=True).parse(page.content())


@pytest.mark.parametrize("width", WIDTHS.values(), ids=WIDTHS.keys())
def test_the_team_filters_the_audit_log(
    served: tuple[Site, str, str], browser: Browser, width: int
) -> None:
    site, code, event = served
    SHOTS.mkdir(parents=True, exist_ok=True)
    page = browser.page(width)
    page.goto(site.url + "/backoffice/login/")
    page.get_by_label("Username").fill("tess")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.get_by_role("link", name="Audit log: who changed what, and when").click()
    expect(page.get_by_role("heading", name="Audit log")).to_be_visible()
    assert serious(browser, page) == []

    page.get_by_label("Player (grading code)").fill(code)
    page.get_by_role("button", name="Show").click()
    expect(page.locator("table.audit tbody tr")).to_have_count(1)
    expect(page.locator("table.audit")).to_contain_text("Grade 150 corrected to 148")
    assert serious(browser, page) == []
    valid(page)
    page.screenshot(path=str(SHOTS / f"audit-player-{width}.png"), full_page=True)

    page.get_by_label("Player (grading code)").fill("")
    page.get_by_label("Event (code)").fill(event)
    page.get_by_role("button", name="Show").click()
    expect(page.locator("table.audit")).to_contain_text("import results")
    expect(page.locator("table.audit")).to_contain_text("Results of round 3 replaced")
    assert serious(browser, page) == []
    page.screenshot(path=str(SHOTS / f"audit-event-{width}.png"), full_page=True)
    page.context.close()


@pytest.mark.parametrize("width", WIDTHS.values(), ids=WIDTHS.keys())
def test_the_public_amendments_page(
    served: tuple[Site, str, str], browser: Browser, width: int
) -> None:
    site, code, _ = served
    page = browser.page(width)
    page.goto(site.url + "/")
    page.get_by_role("link", name="Amendments").click()

    expect(page.get_by_role("heading", name="Amendments", exact=True)).to_be_visible()
    rows = page.locator("table.amendments tbody tr")
    expect(rows).to_have_count(3)  # the two made here and the demo's merge
    expect(page.locator("table.amendments")).to_contain_text("merged into")
    expect(rows.first).to_contain_text("In the next version")
    expect(page.locator("table.amendments")).to_contain_text(f"({code})")
    assert "tess" not in page.content()
    assert serious(browser, page) == []
    valid(page)
    page.screenshot(path=str(SHOTS.parent / f"amendments-{width}.png"), full_page=True)
    page.context.close()
