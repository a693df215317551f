"""A direct member's results from abroad in Debian's Chromium (issue 11, item 4), on the
tiny demo served by ``ecfgrading serve`` with the logins the demo prints: the member
fills the form, reads the check of the file it builds, sends it; the grading team opens
it and accepts it; the member sees it accepted. Once at a phone's width and once at a
desktop's, axe-core finding nothing serious on the way. Screenshots are left in
var/test-output/screenshots/members.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.backoffice.test_browser import serious_violations
from tests.web.browser import Browser, open_browser
from tests.web.live import Site, build, serving

pytestmark = pytest.mark.sqlite

SHOTS = Path("var/test-output/screenshots/members")


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    home = tmp_path_factory.mktemp("members-demo")
    build(home)
    with serving(home, workers=1) as site:
        yield site


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with open_browser() as opened:
        yield opened


def sign_in(page: Page, site: Site, name: str, password: str) -> None:
    page.goto(site.url + "/backoffice/login/")
    page.get_by_label("Username").fill(name)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_text("Signed in as")).to_be_visible()


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


@pytest.mark.parametrize(("width", "day"), [(390, "05"), (1280, "12")])
def test_a_member_sends_results_from_abroad_and_the_team_accepts_them(
    served: Site, browser: Browser, width: int, day: str
) -> None:
    page = browser.page(width)
    sign_in(page, served, "member", "demo-member-2012")
    assert serious_violations(browser, page) == []

    page.get_by_role("link", name="Send your results of an event played abroad").click()
    page.get_by_label("Event name").fill(f"Reykjavik Open {day}")
    page.get_by_label("Country").fill("Iceland")
    page.get_by_label("First day").fill(f"2015-11-{day}")
    page.get_by_label("Last day").fill(f"2015-11-{int(day) + 2:02d}")
    page.get_by_label("Minutes for the game").fill("90")
    page.get_by_label("Seconds added per move").fill("30")
    first = page.locator("fieldset.game-row").nth(0)
    first.get_by_label("Round").fill("1")
    first.get_by_label("Date").fill(f"2015-11-{day}")
    first.get_by_label("Opponent", exact=True).fill("Jonsson, Petur")
    first.get_by_label("Opponent's FIDE id").fill("2300123")
    first.get_by_label("Opponent's rating").fill("2210")
    first.get_by_label("Your colour").select_option("white")
    first.get_by_label("Your result").select_option("win")
    second = page.locator("fieldset.game-row").nth(1)
    second.get_by_label("Round").fill("2")
    second.get_by_label("Date").fill(f"2015-11-{int(day) + 5:02d}")  # after the last day
    second.get_by_label("Opponent", exact=True).fill("Olafsdottir, Anna")
    second.get_by_label("Your colour").select_option("black")
    second.get_by_label("Your result").select_option("draw")
    page.get_by_role("button", name="Check the results").click()

    expect(page.get_by_role("heading", name="The check found no errors")).to_be_visible()
    row = page.locator("table.problems-table tbody tr")
    expect(row).to_have_count(1)
    # Event lines 1-12 (minutes for the game and seconds per move), 13 the player list,
    # 14-16 the players, 17 the section, 18-19 the games: the second is dated too late.
    expect(row.locator("td").first).to_have_text("19")
    expect(row).to_contain_text("Expected GAME DATE from")
    assert serious_violations(browser, page) == []
    shot(page, f"abroad-checked-{width}")
    page.get_by_role("button", name="Send them to the grading team").click()

    expect(page.get_by_text(f"Your results of Reykjavik Open {day} are with")).to_be_visible()
    sent = page.locator("table.abroad-table").get_by_role("row", name=f"Reykjavik Open {day}")
    expect(sent).to_contain_text("Waiting for the grading team")
    assert serious_violations(browser, page) == []
    shot(page, f"member-home-{width}")
    page.context.close()

    team = browser.page(width)
    sign_in(team, served, "grader", "demo-grader-2012")
    team.get_by_role("link", name="Direct members' results from abroad").click()
    assert serious_violations(browser, team) == []
    team.get_by_role("link", name=f"Reykjavik Open {day}").click()
    expect(team.locator("table.file-lines")).to_contain_text("#NAME=Jonsson, Petur")
    assert serious_violations(browser, team) == []
    shot(team, f"abroad-review-{width}")
    team.get_by_role("button", name="Accept and import").click()
    expect(team.get_by_text("Imported as submission")).to_be_visible()
    # The member is told by mail: queued in the outbox, for the worker to send.
    team.goto(served.url + "/backoffice/mail/")
    told = team.get_by_role("row", name=f"Your results from Reykjavik Open {day} were accepted")
    expect(told).to_contain_text("Queued")
    assert serious_violations(browser, team) == []
    shot(team, f"outbox-{width}")
    team.context.close()

    again = browser.page(width)
    sign_in(again, served, "member", "demo-member-2012")
    again.goto(served.url + "/backoffice/member/")
    accepted = again.locator("table.abroad-table").get_by_role("row", name=f"Reykjavik Open {day}")
    expect(accepted).to_contain_text("Accepted")
    # Imported: the games are now among those received for the next list.
    games = again.locator("table.member-games").first
    expect(games.get_by_role("row", name=f"{int(day)} November 2015 1 white")).to_contain_text(
        "Jonsson, Petur"
    )
    assert serious_violations(browser, again) == []
    shot(again, f"member-accepted-{width}")
    again.context.close()
