"""The grading team's workflows in Debian's Chromium (issue 11, item 3), at desktop and
phone widths, on the tiny demo served by ``ecfgrading serve`` with an identification case
and a public query added per width (scripts/team_screenshots.seed): link a case after its
preview, compute and publish the next list, answer a query and see the sender's status
page change. axe-core finds no serious violation on the pages on the way. Screenshots are
left in var/test-output/screenshots/team.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from scripts.team_screenshots import ROOT, seed_command, sign_in

from tests.web.browser import Browser, open_browser
from tests.web.live import Site, build, environment, serving

pytestmark = pytest.mark.sqlite

SHOTS = Path("var/test-output/screenshots/team")
WIDTHS = [1280, 390]


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """The tiny demo (with its grading-team login) and one case and query per width."""
    home = tmp_path_factory.mktemp("team-demo")
    build(home)
    env = environment(home) | {"DJANGO_SETTINGS_MODULE": "ecfgrading.settings"}
    subprocess.run(
        seed_command(len(WIDTHS), len(WIDTHS)), env=env, check=True, capture_output=True, cwd=ROOT
    )
    with serving(home, env=env, workers=1) as site:
        yield site


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with open_browser() as opened:
        yield opened


@pytest.fixture
def page(browser: Browser, served: Site, request: pytest.FixtureRequest) -> Iterator[Page]:
    SHOTS.mkdir(parents=True, exist_ok=True)
    opened = browser.page(request.param)
    sign_in(opened, served.url)
    try:
        yield opened
    finally:
        opened.context.close()


def serious(browser: Browser, page: Page) -> list[str]:
    found = browser.axe_runner.run(page).response["violations"]
    return [f"{v['id']}: {v['help']}" for v in found if v["impact"] in ("serious", "critical")]


def shot(page: Page, name: str, *, full_page: bool = True) -> None:
    width = page.viewport_size["width"] if page.viewport_size else 0
    page.screenshot(path=str(SHOTS / f"{name}-{width}.png"), full_page=full_page)


@pytest.mark.parametrize("page", WIDTHS, indirect=True)
def test_the_team_links_a_case_to_a_candidate_after_its_preview(
    page: Page, browser: Browser, served: Site
) -> None:
    page.goto(served.url + "/backoffice/")
    page.get_by_role("link", name="Identification queue").click()
    assert serious(browser, page) == []
    cases = page.get_by_role("link", name="Twin, Tom")
    waiting = cases.count()
    assert waiting >= 1
    cases.first.click()
    expect(page.locator("section.candidate")).to_have_count(2)
    assert serious(browser, page) == []
    shot(page, "case")

    page.get_by_role("button", name="Link to").first.click()
    expect(page.get_by_text("This will happen:")).to_be_visible()
    expect(page.get_by_text("are given to Twin, Tom")).to_be_visible()
    assert serious(browser, page) == []
    shot(page, "link-preview")
    page.get_by_role("button", name="Confirm").click()

    expect(page.get_by_role("status")).to_contain_text("linked to Twin, Tom")
    expect(page.get_by_role("link", name="Twin, Tom")).to_have_count(waiting - 1)


@pytest.mark.parametrize("page", WIDTHS, indirect=True)
def test_the_team_computes_the_next_list_reads_its_reports_and_publishes_it(
    page: Page, browser: Browser, served: Site
) -> None:
    page.goto(served.url + "/backoffice/team/lists/")
    assert serious(browser, page) == []
    list_id = page.get_by_label("List").input_value()
    rate = page.get_by_label("Rate").input_value()
    page.get_by_role("button", name="Compute the draft").click()

    heading = page.get_by_role("heading", level=1)
    expect(heading).to_contain_text(f"list {list_id}, initial (draft)")
    expect(page.get_by_role("heading", name="Who changes since")).to_be_visible()
    expect(page.get_by_role("heading", name="Large jumps")).to_be_visible()
    assert serious(browser, page) == []
    shot(page, "draft", full_page=False)  # the difference makes the page long
    page.get_by_role("link", name="Who changes").click()
    shot(page, "difference", full_page=False)

    page.get_by_role("link", name="Publish this version").click()
    expect(page.get_by_text("can never be changed again")).to_be_visible()
    page.get_by_role("button", name=f"Publish {rate} {list_id} initial").click()

    expect(page.get_by_role("status")).to_contain_text(f"Published {rate} {list_id} initial")
    expect(heading).to_contain_text("(published)")
    with served.database() as db:
        (status,) = db.execute(
            "SELECT v.status FROM registry_listversion v JOIN registry_gradinglist l"
            " ON l.id = v.grading_list_id WHERE l.list_id = ? AND l.rate = ? AND v.name = ?",
            (list_id, rate, "initial"),
        ).fetchone()
    assert status == "published"


@pytest.mark.parametrize("page", WIDTHS, indirect=True)
def test_the_team_answers_a_query_and_the_sender_sees_the_answer(
    page: Page, browser: Browser, served: Site
) -> None:
    page.goto(served.url + "/backoffice/team/queries/?status=open")
    assert serious(browser, page) == []
    first = page.locator("table tbody th a").first
    ref = first.inner_text()
    first.click()
    answer = f"Thank you: your draw is graded now ({ref})."
    page.get_by_label("Answer to the sender").fill(answer)
    page.get_by_label("Status").select_option("resolved")
    assert serious(browser, page) == []
    shot(page, "query")
    page.get_by_role("button", name="Save the answer").click()

    expect(page.get_by_role("status")).to_contain_text(
        f"{ref} is now resolved. The sender is told by e-mail."
    )
    page.goto(f"{served.url}/feedback/{ref}/")
    expect(page.get_by_text(answer)).to_be_visible()
    expect(page.locator("main")).to_contain_text("Resolved")
    expect(page.locator("main")).not_to_contain_text("tom@home.example")
    with served.database() as db:
        (queued,) = db.execute(
            "SELECT COUNT(*) FROM registry_outboxmessage"
            " WHERE kind = 'answer' AND body_text LIKE ?",
            (f"%{answer}%",),
        ).fetchone()
    assert queued == 1
