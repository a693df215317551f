"""Screenshots of a grading officer's pages for docs/officers.md, and of the audit log for
docs/audit.md, from the tiny demo.

    .venv/bin/python -m scripts.officer_screenshots [docs/images]

Builds the tiny demo in a temporary home, serves it with ``ecfgrading serve`` on a free
loopback port, signs in as the demo's officer (``olivia``, demo/logins.py) and walks his
work with Debian's Chromium (/usr/bin/chromium) through Playwright: register an event
(the rate shown as the time control is typed, G2), check a results file with a bad
result code, check the corrected file, submit it, then his events. Each page is saved as
officer-<page>-<width>.png (the first screen only); the grading team's audit log, where
that submission now shows, as audit-log-desktop.png.
"""

from __future__ import annotations

import sqlite3
import sys
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

from scripts.served_demo import ARGS, CHROMIUM, demo_home, serving

WIDTHS = {"desktop": (1280, 860), "phone": (390, 844)}
OFFICER = ("olivia", "demo-olivia-2012")  # the demo's first officer (demo/logins.py)
TEAM = ("grader", "demo-grader-2012")  # the demo's grading-team login
SEED = 3  # the demo the web tests serve: its players are the file's
# 11 November: Chromium here shows a date field month first (no en_GB locale on the
# machine), and 11/11/2015 reads the same to a British officer. The demo's season in
# progress is 2015-16, its first results received and not yet graded.
EVENT = ("RP160010", "Haslemere Autumn Rapidplay", "11/11/2015")

HEADER = """#EVENT DETAILS
#EVENT CODE={code}
#SUBMISSION INDEX=1
#EVENT NAME={name}
#EVENT DATE={date}
#FINAL RESULT DATE={date}
#RESULTS OFFICER=O Officer
#RESULTS OFFICER ADDRESS=1 High Street, Haslemere
#TREASURER=A Treasurer
#TREASURER ADDRESS=2 High Street, Haslemere
#MINUTES FOR GAME=20
#SECONDS PER MOVE=10
#PLAYER LIST
"""
# Three rounds of four players (PINs 1-4): a round robin, dated the event's day.
ROUNDS = ((1, 2, "10"), (3, 4, "55"), (1, 3, "55"), (4, 2, "01"), (1, 4, "10"), (2, 3, "01"))


def results_file(players: list[str], mistakes: bool) -> bytes:
    """A results file of the four players' six games; with ``mistakes`` the newcomer's
    line has no NAME (a missing field) and the fifth game's result is 99, which is no
    result code: an error on each of those lines."""
    code, name, date = EVENT
    lines = [HEADER.format(code=code, name=name, date=date).rstrip("\n")]
    for pin, player in enumerate(players, start=1):
        if mistakes and player.startswith("NAME=Newcombe"):
            player = player.removeprefix("NAME=Newcombe, Nora#")
        lines.append(f"#PIN={pin}#{player}")
    lines.append("#SECTION RESULTS=Open")
    for number, (first, second, score) in enumerate(ROUNDS, start=1):
        shown = "99" if mistakes and number == 5 else score
        lines.append(f"#PIN1={first}#SCORE={shown}#PIN2={second}#GAME DATE={date}")
    lines.append("#FINISH")
    return ("\n".join(lines) + "\n").encode()


def players(database: Path) -> list[str]:
    """Three of the demo's players with their codes and clubs, and a newcomer."""
    from ecfgrading.engine.codes import GradingCode

    query = """
        SELECT p.code, p.surname, p.forenames, c.code, c.name
        FROM registry_player p
        JOIN registry_clubmembership m ON m.player_id = p.id
        JOIN registry_club c ON c.id = m.club_id
        WHERE c.code IS NOT NULL AND NOT c.is_location AND p.merged_into_id IS NULL
        ORDER BY m.last_season DESC, p.id LIMIT 3
    """
    with sqlite3.connect(database) as db:
        rows = db.execute(query).fetchall()
    found = [
        f"ECF CODE={GradingCode(code)}#NAME={surname}, {forenames}"
        f"#CLUB CODE={club_code}#CLUB NAME={club_name}"
        for code, surname, forenames, club_code, club_name in rows
    ]
    return [*found, f"NAME=Newcombe, Nora#CLUB CODE={rows[0][3]}#CLUB NAME={rows[0][4]}"]


def sign_in(page: Page, url: str, login: tuple[str, str]) -> None:
    page.goto(url + "/backoffice/login/")
    page.get_by_label("Username").fill(login[0])
    page.get_by_label("Password").fill(login[1])
    page.get_by_role("button", name="Sign in").click()
    page.get_by_text("Signed in as").wait_for()


def main(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    with demo_home(seed=SEED) as (home, env):
        files = home / "files"
        files.mkdir()
        found = players(home / "ecfgrading.sqlite3")
        (files / "autumn-rapid.txt").write_bytes(results_file(found, mistakes=True))
        (files / "autumn-rapid-corrected.txt").write_bytes(results_file(found, mistakes=False))
        with serving(env) as url:
            _shoot(url, folder, files)


def _shoot(url: str, folder: Path, files: Path) -> None:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        pages: dict[str, Page] = {}
        for width_name, (width, height) in WIDTHS.items():
            page = browser.new_page(viewport={"width": width, "height": height}, locale="en-GB")
            pages[width_name] = page
            sign_in(page, url, OFFICER)
            page.goto(url + "/backoffice/events/new/")
            page.get_by_label("Event code").fill(EVENT[0])
            page.get_by_label("Event name").fill(EVENT[1])
            page.get_by_label("Kind").select_option("other")
            page.get_by_label("First day").fill("2015-11-11")
            page.get_by_label("Last day").fill("2015-11-11")
            page.get_by_label("Minutes for the game").fill("20")
            page.get_by_label("Seconds added per move").fill("10")
            # G2: 20 minutes and 10 s a move over 60 moves, 30 minutes each: rapid.
            page.locator("#rate-words", has_text="rapid").wait_for()
            shot = folder / f"officer-register-{width_name}.png"
            if width_name == "desktop":  # the whole form: a narrow column, 1,600 px
                page.screenshot(path=str(shot), full_page=True)
            else:  # the first screen from the time control down shows what it gives
                page.locator("fieldset.time-control").evaluate("e => e.scrollIntoView()")
                page.screenshot(path=str(shot))
        desktop = pages["desktop"]  # registers the event; the phone only shows the form
        desktop.get_by_role("button", name="Register the event").click()
        desktop.get_by_text("results due by").wait_for()

        for width_name, page in pages.items():  # checked at both widths before submitting
            page.goto(url + "/backoffice/results/")
            page.get_by_label("Results file").set_input_files(str(files / "autumn-rapid.txt"))
            page.get_by_role("button", name="Check the file").click()
            page.locator("table.problems-table").wait_for()
            _first_screen(page, folder / f"officer-check-problems-{width_name}.png")
        pages["phone"].close()

        desktop.get_by_role("link", name="check it again").click()
        corrected = files / "autumn-rapid-corrected.txt"
        desktop.get_by_label("Results file").set_input_files(str(corrected))
        desktop.get_by_role("button", name="Check the file").click()
        desktop.get_by_role("button", name="Submit the file").wait_for()
        _first_screen(desktop, folder / "officer-check-ready-desktop.png")
        desktop.get_by_role("button", name="Submit the file").click()
        desktop.get_by_role("heading", name="Results accepted").wait_for()
        _first_screen(desktop, folder / "officer-submitted-desktop.png")
        desktop.goto(url + "/backoffice/events/")
        _first_screen(desktop, folder / "officer-events-desktop.png")
        desktop.goto(url + "/backoffice/results/sent/")  # issue 24: every file sent
        _first_screen(desktop, folder / "officer-sent-desktop.png")
        desktop.close()

        width, height = WIDTHS["desktop"]
        page = browser.new_page(viewport={"width": width, "height": height}, locale="en-GB")
        sign_in(page, url, TEAM)
        page.goto(url + "/backoffice/audit/")
        _first_screen(page, folder / "audit-log-desktop.png")
        page.close()
        browser.close()


def _first_screen(page: Page, path: Path) -> None:
    """The first screen, or less when the page is shorter (no empty space below)."""
    size = page.viewport_size
    assert size is not None
    bottom = page.evaluate("document.body.getBoundingClientRect().bottom")
    height = min(size["height"], int(bottom) + 1)
    page.screenshot(path=str(path), clip={"x": 0, "y": 0, "width": size["width"], "height": height})


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/images"))
