"""A wrong result, from the public feedback form to the next version (issue 24, case 2),
in Debian's Chromium on the tiny demo served by ``ecfgrading serve``.

A player who lost a game of the 2015-16 season says he won it; the grading team opens
his query, follows it to the game, previews the new result and confirms it; the CLI
computes and publishes the next standard list (2016-01, whose latest period is 2015:
G32); the player's page then shows the game as a win, with 50 points more than its
"counted as" grade (G12), and the sender's status page and /amendments/ say what
changed. Screenshots are left in var/test-output/screenshots/corrections.
"""

from __future__ import annotations

import datetime as dt
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from scripts.team_screenshots import sign_in

from ecfgrading.engine.codes import GradingCode
from tests.web.browser import Browser, open_browser
from tests.web.live import BIN, Site, build, environment, serving

pytestmark = pytest.mark.sqlite

SHOTS = Path("var/test-output/screenshots/corrections")
LIST = "2016-01"  # the first standard list whose latest period holds July-December 2015


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    home = tmp_path_factory.mktemp("corrections-demo")
    build(home)
    with serving(home, workers=1) as site:
        yield site


@pytest.fixture
def page(served: Site) -> Iterator[tuple[Browser, Page]]:
    SHOTS.mkdir(parents=True, exist_ok=True)
    with open_browser() as browser:
        opened = browser.page(1280)
        try:
            yield browser, opened
        finally:
            opened.context.close()


def a_lost_game(site: Site) -> tuple[int, str, str, str, dt.date]:
    """A standard game of July-December 2015 that player 1 won, the only game of the two
    that day: (id, event code, winner's code, loser's code, date)."""
    with site.database() as db:
        row = db.execute(
            "SELECT g.id, e.code, p1.code, p2.code, g.game_date FROM registry_game g"
            " JOIN registry_event e ON e.id = g.event_id"
            " JOIN registry_player p1 ON p1.id = g.player1_id"
            " JOIN registry_player p2 ON p2.id = g.player2_id"
            " WHERE g.graded = 1 AND g.rate = 'standard' AND g.result = '10'"
            " AND g.game_date BETWEEN '2015-07-01' AND '2015-12-31'"
            " AND (SELECT COUNT(*) FROM registry_game o WHERE o.game_date = g.game_date"
            "  AND o.player1_id IN (g.player1_id, g.player2_id)"
            "  AND o.player2_id IN (g.player1_id, g.player2_id)) = 1"
            " ORDER BY g.game_date, g.id LIMIT 1"
        ).fetchone()
    game_id, event, winner, loser, day = row
    refs = (str(GradingCode(winner)), str(GradingCode(loser)))
    return game_id, event, *refs, dt.date.fromisoformat(day)


def cli(site: Site, *args: str) -> None:
    command = [str(BIN / "ecfgrading"), *args]
    subprocess.run(command, env=environment(site.home), check=True, capture_output=True)


def serious(browser: Browser, page: Page) -> list[str]:
    found = browser.axe_runner.run(page).response["violations"]
    return [f"{v['id']}: {v['help']}" for v in found if v["impact"] in ("serious", "critical")]


def test_a_wrong_result_reported_is_corrected_and_the_next_version_shows_it(
    page: tuple[Browser, Page], served: Site
) -> None:
    """Issue 24, case 2: public form -> query -> game corrected -> next version."""
    browser, tab = page
    game_id, event, winner, loser, day = a_lost_game(served)

    tab.goto(served.url + "/feedback/")
    tab.get_by_label("A wrong result").check()
    tab.get_by_label("Grading code of the player").fill(loser)
    tab.get_by_role("textbox", name="Event").fill(event)
    tab.get_by_label("What is wrong, and what should it be?").fill(
        f"I won my game against {winner} on {day:%d/%m/%Y}; it shows a loss."
    )
    tab.get_by_role("button", name="Send report").click()
    expect(tab).to_have_url(re.compile(r"/feedback/FB-[A-Z0-9]{8}/(\?sent=1)?$"))
    ref = tab.url.split("/feedback/")[1].split("/")[0]

    sign_in(tab, served.url)
    tab.goto(served.url + "/backoffice/team/queries/?status=open")
    tab.get_by_role("link", name=ref).click()
    tab.get_by_role("link", name=re.compile(rf"\({winner}\) v .*\({loser}\)")).click()
    expect(tab.get_by_role("heading", level=1)).to_contain_text(f"Game {game_id}")
    assert serious(browser, tab) == []
    tab.screenshot(path=str(SHOTS / "game.png"), full_page=True)

    tab.get_by_label("The result should be").select_option("01")
    tab.get_by_role("button", name="Preview the new result").click()
    expect(tab.get_by_text("This will happen:")).to_be_visible()
    expect(tab.locator(".preview")).to_contain_text("becomes 0-1 (was 1-0)")
    expect(tab.get_by_label("Why")).to_have_value(f"reported in query {ref}")
    assert serious(browser, tab) == []
    tab.screenshot(path=str(SHOTS / "preview.png"), full_page=True)
    tab.get_by_role("button", name="Confirm: Correct the result to 0-1").click()
    expect(tab.get_by_role("status")).to_contain_text(f"{ref} is resolved")

    cli(served, "grade", "--list", LIST, "--rate", "standard")
    cli(served, "publish", "--list", LIST, "--rate", "standard", "--version", "initial")

    tab.goto(f"{served.url}/players/{loser}/")
    expect(tab.locator("#games-standard")).to_contain_text("games of the January 2016 list")
    when = f"{day.day} {day:%B %Y}"
    row = tab.locator("table.games-table tbody tr").filter(has_text=winner).filter(has_text=when)
    expect(row).to_have_count(1)
    cells = [c.strip() for c in row.locator("td").all_text_contents()]  # a closed <details>
    assert cells[4] == "Win"
    counted, points = float(cells[6]), float(cells[7])
    assert points == pytest.approx(counted + 50)  # G12: counted as, plus 50 for a win
    tab.screenshot(path=str(SHOTS / "player.png"), full_page=True)

    tab.goto(f"{served.url}/feedback/{ref}/")
    expect(tab.locator("main")).to_contain_text("corrected from 1-0 to 0-1")
    tab.goto(f"{served.url}/amendments/")
    carried = tab.locator("table tbody tr").filter(has_text="corrected from 1-0 to 0-1")
    expect(carried).to_contain_text(f"{LIST} initial")
