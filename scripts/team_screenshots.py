"""Screenshots of the grading team's pages for docs/team.md, from the tiny demo.

    .venv/bin/python -m scripts.team_screenshots [docs/images]

Builds the tiny demo in a temporary home, adds what the team's pages need to show (an
identification case, a query from the public: ``seed``, also used by the browser tests),
serves it with ``ecfgrading serve`` on a free loopback port, signs in as the demo's
grading-team login and saves each page at desktop and phone widths with Debian's
Chromium (/usr/bin/chromium) through Playwright, as team-<page>-<width>.png.
"""

from __future__ import annotations

import datetime as dt
import sqlite3
import subprocess
import sys
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

from scripts.served_demo import ARGS, BIN, CHROMIUM, demo_home, serving

ROOT = Path(__file__).resolve().parent.parent
WIDTHS = {"desktop": (1280, 860), "phone": (390, 844)}
PHONE = {"case", "link-preview", "query"}  # the pages also shown at phone width
LOGIN = ("grader", "demo-grader-2012")  # the demo's grading-team login (demo/logins.py)

RESULTS = """#EVENT DETAILS
#EVENT CODE={code}
#SUBMISSION INDEX=1
#EVENT NAME=Spring Rapidplay
#EVENT DATE=10/10/2015
#FINAL RESULT DATE=10/10/2015
#RESULTS OFFICER=A N Grader
#RESULTS OFFICER ADDRESS=1 High Street, Anytown
#TREASURER=A Treasurer
#TREASURER ADDRESS=2 High Street, Anytown
#MINUTES FOR GAME=20
#SECONDS PER MOVE=10
#PLAYER LIST
#PIN=1#NAME=Newcomer, Nina#CLUB NAME=Newtown
#PIN=2#NAME=Twin, Tom#CLUB NAME=Newtown
#SECTION RESULTS=Open
#PIN1=1#SCORE=10#PIN2=2#GAME DATE=10/10/2015
#PIN1=2#SCORE=55#PIN2=1#GAME DATE=10/10/2015
#FINISH
"""


def seed(cases: int = 1, queries: int = 1) -> None:
    """Two namesakes of two clubs, files naming a third of another club (each file an
    identification case), and queries from the public with an e-mail address. Run in a
    configured Django process on the demo's database."""
    from ecfgrading.registry.models import Club, ClubMembership, Player
    from ecfgrading.registry.numbering import issue_code
    from ecfgrading.services.feedback import NewFeedback, submit_feedback
    from ecfgrading.services.results.ingest import import_results

    twins = []
    for club_name, born in (("Anytown", 1961), ("Otherton", 1984)):
        twin = Player.objects.create(
            code=issue_code().number,
            surname="Twin",
            forenames="Tom",
            date_of_birth=dt.date(born, 3, 1),
        )
        club, _ = Club.objects.get_or_create(name=club_name)
        ClubMembership.objects.create(player=twin, club=club, first_season=2015, last_season=2016)
        twins.append(twin)
    for n in range(cases):
        data = RESULTS.format(code=f"TEAMCASE{n + 1}").encode()
        assert import_results(data, filename=f"spring-{n + 1}.txt").accepted
    for _ in range(queries):
        submit_feedback(
            NewFeedback(
                kind="wrong-result",
                player_code=twins[0].ref,
                message="My draw with Nina Newcomer in the Spring Rapidplay is missing.",
                name="Tom Twin",
                email="tom@home.example",
            )
        )


def seed_command(cases: int, queries: int) -> list[str]:
    """The command that runs ``seed`` in a Django process (environment: the demo's)."""
    code = (
        "import django; django.setup(); "
        f"from scripts.team_screenshots import seed; seed({cases}, {queries})"
    )
    return [str(BIN / "python"), "-c", code]


def sign_in(page: Page, url: str) -> None:
    page.goto(url + "/backoffice/login/")
    page.get_by_label("Username").fill(LOGIN[0])
    page.get_by_label("Password").fill(LOGIN[1])
    page.get_by_role("button", name="Sign in").click()
    page.get_by_text("Signed in as").wait_for()


def main(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    with demo_home() as (home, env):
        subprocess.run(seed_command(2, 2), env=env, check=True, cwd=ROOT)
        with serving(env) as url:
            _shoot(url, folder, _twin(home / "ecfgrading.sqlite3"))


def _shoot(url: str, folder: Path, twin: str) -> None:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for round_, (width_name, (width, height)) in enumerate(WIDTHS.items()):
            page = browser.new_page(viewport={"width": width, "height": height})
            sign_in(page, url)

            def shot(name: str, page: Page = page, width_name: str = width_name) -> None:
                if width_name == "desktop" or name in PHONE:  # the first screen only
                    page.screenshot(path=str(folder / f"team-{name}-{width_name}.png"))

            page.goto(url + "/backoffice/team/identify/")
            shot("queue")
            page.get_by_role("link", name="Twin, Tom").first.click()
            shot("case")
            page.get_by_role("button", name="Link to").first.click()
            shot("link-preview")
            page.get_by_role("button", name="Confirm").click()
            page.goto(url + "/backoffice/team/lists/")
            shot("lists")
            if round_ == 0:  # one list computed and published is enough
                page.get_by_role("button", name="Compute the draft").click()
                page.get_by_role("link", name="Publish this version").wait_for()
                shot("draft")
                page.get_by_role("link", name="Publish this version").click()
                shot("publish")
                page.get_by_role("button", name="Publish").click()
            page.goto(url + "/backoffice/team/queries/?status=open")
            page.locator("table a").first.click()
            page.get_by_label("Answer to the sender").fill(
                "Thank you: the game was in a file still waiting for identification. "
                "It is now graded."
            )
            page.get_by_label("Status").select_option("resolved")
            shot("query")
            page.get_by_role("button", name="Save the answer").click()
            page.goto(url + "/backoffice/team/chase/")
            if round_ == 0:  # chase once, through its confirm step (issue 24)
                page.locator("main table a", has_text="Chase").first.click()
                shot("chase-confirm")
                page.get_by_role("button", name="Send the reminder").click()
                page.goto(url + "/backoffice/team/chase/")
            shot("chase")
            page.goto(url + "/backoffice/team/assignments/")
            page.get_by_label("Grading code").fill(twin)
            page.get_by_label("From list").fill("2016-01")
            page.get_by_label("or FIDE rating").fill("1850")
            page.get_by_role("button", name="Preview the assignment").click()
            shot("assignment")
            page.goto(url + "/backoffice/team/players/?code=" + twin)
            shot("player")
            page.goto(url + "/backoffice/team/events/")  # issue 24: correcting events
            shot("events")
            page.locator("main table a").first.click()
            shot("event")
            page.goto(url + "/backoffice/team/duplicates/")  # issue 24: games twice
            shot("duplicates")
            page.close()
        browser.close()


def _twin(database: Path) -> str:
    """The first Twin, Tom's grading code (seed made him)."""
    from ecfgrading.engine.codes import GradingCode

    with sqlite3.connect(database) as db:
        (code,) = db.execute(
            "SELECT code FROM registry_player WHERE surname = 'Twin' ORDER BY id LIMIT 1"
        ).fetchone()
    return str(GradingCode(code))


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/images"))
