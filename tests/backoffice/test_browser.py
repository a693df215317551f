"""Upload, check, submit in Debian's Chromium (issue 11, item 2): an officer signs in to
the tiny demo served by ``ecfgrading serve``, registers an event (the rate of play shown
as he types the time control, G2), uploads its results file, reads the check report,
submits, and reads the feedback on screen; the same report arrives by e-mail at a real
SMTP server on loopback. axe-core finds no serious violation on any page on the way.
Screenshots are left in var/test-output/screenshots/backoffice.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller
from playwright.sync_api import Page, expect

from tests.backoffice.conftest import PASSWORD, Mailbox
from tests.services.results_text import results_file
from tests.web.browser import Browser, open_browser
from tests.web.live import BIN, Site, build, environment, free_port, serving

pytestmark = pytest.mark.sqlite

SHOTS = Path("var/test-output/screenshots/backoffice")
MAKE_OFFICER = (
    "from ecfgrading.lookups.roles import Role;"
    "from ecfgrading.services.accounts import create_user;"
    f" create_user('olga', role=Role.OFFICER, email='olga@club.example', password={PASSWORD!r})"
)


@pytest.fixture(scope="module")
def mailbox() -> Iterator[tuple[Mailbox, int]]:
    box = Mailbox()
    port = free_port()
    controller = Controller(box, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield box, port
    finally:
        controller.stop()


@pytest.fixture(scope="module")
def served(
    tmp_path_factory: pytest.TempPathFactory, mailbox: tuple[Mailbox, int]
) -> Iterator[Site]:
    """The tiny demo with one officer login, served with mail to the loopback server."""
    home = tmp_path_factory.mktemp("backoffice-demo")
    build(home)
    env = served_env(Site("", home), mailbox)
    shell = [str(BIN / "python"), "-m", "django", "shell", "-c", MAKE_OFFICER]
    subprocess.run(shell, env=env, check=True, capture_output=True)
    with serving(home, env=env, workers=1) as site:
        yield site


def served_env(site: Site, mailbox: tuple[Mailbox, int]) -> dict[str, str]:
    """The served demo's environment, with mail to the loopback server (the outbox is
    delivered by the mail worker: the test runs its delivery once)."""
    return environment(site.home) | {
        "DJANGO_SETTINGS_MODULE": "ecfgrading.settings",
        "ECFGRADING_EMAIL_HOST": "127.0.0.1",
        "ECFGRADING_EMAIL_PORT": str(mailbox[1]),
    }


def serious_violations(browser: Browser, page: Page) -> list[str]:
    """axe-core's serious or critical findings on the page as it stands."""
    found = browser.axe_runner.run(page).response["violations"]
    return [f"{v['id']}: {v['help']}" for v in found if v["impact"] in ("serious", "critical")]


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with open_browser() as opened:
        yield opened


def test_an_officer_registers_uploads_checks_and_submits(
    served: Site, browser: Browser, mailbox: tuple[Mailbox, int], tmp_path: Path
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page: Page = browser.page(390)
    url = served.url + "/backoffice/"

    page.goto(url)
    expect(page).to_have_url(f"{served.url}/backoffice/login/?next=/backoffice/")
    assert serious_violations(browser, page) == []
    page.get_by_label("Username").fill("olga")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_text("Signed in as")).to_be_visible()

    page.get_by_role("link", name="Register an event").click()
    assert serious_violations(browser, page) == []
    page.get_by_label("Event code").fill("BRW1")
    page.get_by_label("Event name").fill("Browser Open")
    page.get_by_label("Kind").select_option("congress")
    page.get_by_label("First day").fill("2011-10-01")
    page.get_by_label("Last day").fill("2011-10-02")
    page.get_by_label("Minutes for the game").fill("20")
    page.get_by_label("Seconds added per move").fill("10")
    # G2: 20 + 10 = 30 minutes each: rapid, shown before the form is sent.
    expect(page.locator("#rate-words")).to_contain_text("rapid")
    page.get_by_label("Seconds added per move").fill("40")
    # 20 + 40 = 60 minutes: standard.
    expect(page.locator("#rate-words")).to_contain_text("standard")
    # A full-page shot resizes the window, after which Chromium may miss the next click.
    page.screenshot(path=str(SHOTS / "register.png"))
    page.get_by_role("button", name="Register the event").click()
    expect(page.get_by_text("results due by 30 October 2011")).to_be_visible()

    players = [
        "#PIN=1#NAME=Browser, Anne#CLUB NAME=Walsall",
        "#PIN=2#NAME=Tester, Bob#CLUB NAME=Walsall",
    ]
    games = ["#PIN1=1#SCORE=10#PIN2=2", "#PIN1=2#SCORE=55#PIN2=1", "#PIN1=1#SCORE=99#PIN2=2"]
    bad = tmp_path / "brw1.txt"
    control = "#MINUTES FOR GAME=20\n#SECONDS PER MOVE=40"
    bad.write_bytes(
        results_file(
            players, games, code="BRW1", start="01/10/2011", end="02/10/2011", control=control
        )
    )
    page.get_by_role("link", name="Send a results file").click()
    page.get_by_label("Results file").set_input_files(str(bad))
    page.get_by_role("button", name="Check the file").click()
    row = page.locator("table.problems-table tbody tr")
    expect(row).to_have_count(1)
    # Header lines 1-13 (a two-line time control), players 14-15, section 16, games 17-19.
    expect(row.locator("td").first).to_have_text("19")
    expect(page.get_by_role("button", name="Submit the file")).to_have_count(0)
    assert serious_violations(browser, page) == []
    page.screenshot(path=str(SHOTS / "checked-bad.png"))

    good = tmp_path / "brw1-fixed.txt"
    good.write_bytes(
        results_file(
            players, games[:2], code="BRW1", start="01/10/2011", end="02/10/2011", control=control
        )
    )
    page.get_by_role("link", name="check it again").click()
    page.get_by_label("Results file").set_input_files(str(good))
    page.get_by_role("button", name="Check the file").click()
    expect(page.get_by_text("No problems found")).to_be_visible()
    page.get_by_role("button", name="Submit the file").click()

    expect(page.get_by_role("heading", name="Results accepted")).to_be_visible()
    expect(page.locator("pre.report")).to_contain_text("graded standard: 2 games")
    expect(page.get_by_text("also being sent to olga@club.example")).to_be_visible()
    assert serious_violations(browser, page) == []
    page.screenshot(path=str(SHOTS / "submitted.png"), full_page=True)
    box = mailbox[0]
    deliver = "from ecfgrading.services.mail import deliver_due; deliver_due()"
    shell = [str(BIN / "python"), "-m", "django", "shell", "-c", deliver]
    subprocess.run(shell, env=served_env(served, mailbox), check=True, capture_output=True)
    assert box.arrived.wait(10)
    assert box.recipients == [["olga@club.example"]]
    assert "graded standard: 2 games" in box.messages[0].get_content()

    page.get_by_role("link", name="Back to your events").click()
    assert serious_violations(browser, page) == []
    link = page.get_by_role("link", name="BRW1.txt")
    with page.expect_download() as download:
        link.click()
    assert Path(download.value.path()).read_bytes() == good.read_bytes()
    page.context.close()
