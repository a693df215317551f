"""docs/api.md's examples, run against the served tiny demo (issue 10: "the examples run
against the demo").

Every ``curl`` line in the guide's ``sh`` blocks is read, its shell variables filled in
(``$API``, the ``$(curl ... | json '...')`` assignments that take codes from earlier
answers, ``$(date +%F)``, ``${CODE:0:6}``) and sent over real HTTP with urllib to the tiny
demo that ``ecfgrading serve`` serves. Each must answer 2xx, or the status its comment
names (``# 404``, ``# 422``, ``# 304``), with a body of the documented type: JSON (an
error example's JSON carries that status; a federation-shaped answer says
``"success": true``; a search or a list finds something), or CSV for the list files.

The guide's compatibility examples name the demo ``make demo`` builds: Mark Clive
Cromwood (``292639J``) and his club Maldon (``5MAL``); one searches clubs for "a". The tiny demo
has other players and clubs, so ``STAND_INS`` and ``CLUB_SEARCH`` map each of those words
to the tiny demo's equivalent, worked out from its database by a stated rule
(``stand_in``), rather than accepting a ``success: false`` or an empty answer.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import re
import shlex
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from ecfgrading.engine import GradingCode
from tests.web.live import Site

pytestmark = pytest.mark.sqlite

DOC = Path(__file__).resolve().parents[2] / "docs" / "api.md"
DOC_HOST = "http://127.0.0.1:8000"
EXAMPLES_IN_DOC = 59  # counted by hand: a parsing slip must not pass by running fewer
# The words of the large demo the guide's examples use, each replaced by its tiny-demo
# equivalent (see stand_in): the player's code with and without its check letter, his
# club's code and the stems of his names and of the club's name that the examples type.
STAND_INS = ("292639J", "292639", "5MAL", "cromwood", "cromwod", "cro", "mark", "mar", "mal")
# The clubs example searches "a", which finds clubs in the large demo but none in the tiny
# one (its 14 clubs start with other letters): it searches the stand-in club's initial.
CLUB_SEARCH = "/clubs?q=a"


@dataclass(frozen=True)
class Example:
    line: int  # in docs/api.md
    text: str  # the shell line, comment included

    @property
    def assigns(self) -> str:
        found = re.match(r"(\w+)=\$\(", self.text)
        return found.group(1) if found else ""

    @property
    def status(self) -> int | None:
        """The status the line's comment names, for an error or caching example."""
        found = re.search(r"#\s*(\d{3})\b", self.text)
        return int(found.group(1)) if found else None


@dataclass(frozen=True)
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes


def examples() -> list[Example]:
    """Each line of a ``sh`` block that calls curl, in the guide's order."""
    found, inside = [], False
    for number, line in enumerate(DOC.read_text().splitlines(), start=1):
        if line.startswith("```"):
            inside = line == "```sh"
            continue
        if inside and "curl " in line:
            found.append(Example(number, line.strip()))
    return found


EXAMPLES = examples()


def stand_in(site: Site) -> dict[str, str]:
    """The tiny demo's Mark Cromwood: the first player in name order, with a plain
    ASCII surname and first forename, graded in both rates in the current (2015-07
    august) lists and a member, in the latest season, of a coded club that is neither a
    location nor merged; the club is that membership's."""
    query = """
        SELECT p.code, p.surname, p.forenames, c.code, c.name
        FROM registry_player p
        JOIN registry_clubmembership m ON m.player_id = p.id
        JOIN registry_club c ON c.id = m.club_id
        WHERE p.merged_into_id IS NULL AND c.code IS NOT NULL AND NOT c.is_location
          AND c.merged_into_id IS NULL AND m.ended_on IS NULL
          AND m.last_season = (SELECT MAX(last_season) FROM registry_clubmembership)
          AND (SELECT COUNT(DISTINCT g.rate) FROM registry_listentry e
               JOIN registry_listversion v ON v.id = e.version_id
               JOIN registry_gradinglist g ON g.id = v.grading_list_id
               WHERE e.player_id = p.id AND e.published AND e.grade IS NOT NULL
                 AND g.list_id = '2015-07' AND v.name = 'august') = 2
        ORDER BY p.surname, p.forenames, c.code
    """
    with site.database() as db:
        rows = db.execute(query).fetchall()
    for number, surname, forenames, club_code, club_name in rows:
        forename = forenames.split()[0] if forenames else ""
        plain = surname.isascii() and surname.isalpha() and forename.isascii()
        if plain and forename.isalpha() and len(forename) >= 3 and misspelt(surname):
            code = str(GradingCode(number))
            return {
                "292639J": code,
                "292639": code[:6],
                "5MAL": club_code,
                "cromwood": surname.lower(),
                "cromwod": misspelt(surname),
                "cro": surname[:3].lower(),
                "mark": forename.lower(),
                "mar": forename[:3].lower(),
                "mal": club_name.split()[0][:3].lower(),
                CLUB_SEARCH: CLUB_SEARCH[:-1] + club_name[0].lower(),
            }
    raise AssertionError("the tiny demo has no player to stand in for Mark Cromwood")


def misspelt(surname: str) -> str:
    """The surname without the second of its first two vowels in a row, as "cromwod" is
    "cromwood" misspelt: Soundex ignores vowels, and one is left between the letters around
    the pair, so the fuzzy search still finds it. Empty for a surname without such a pair."""
    lower = surname.lower()
    for at in range(1, len(lower)):
        if lower[at] in "aeiou" and lower[at - 1] in "aeiou":
            return lower[:at] + lower[at + 1 :]
    return ""


class Shell:
    """Just enough of the shell to run the guide's lines: variables, the date, and the
    curl options the guide uses (-s, -i, -o, -OJ, -D -, -w, -H)."""

    def __init__(self, site: Site, words: dict[str, str]) -> None:
        self.site = site
        self.words = words
        today = dt.datetime.now(ZoneInfo("Europe/London")).date()
        self.variables: dict[str, str] = {"API": site.url + "/api/v1", "TODAY": today.isoformat()}

    def expand(self, text: str) -> str:
        text = text.replace("$(date +%F)", "$TODAY").replace(DOC_HOST, self.site.url)
        if text.endswith(CLUB_SEARCH):  # the whole query, not a longer one
            text = text.removesuffix(CLUB_SEARCH) + self.words[CLUB_SEARCH]
        text = re.sub(r"\$\{(\w+):0:(\d+)\}", lambda m: self.variables[m[1]][: int(m[2])], text)
        text = re.sub(r"\$\{?(\w+)\}?", lambda m: self.variables[m[1]], text)
        pattern = r"(?<![A-Za-z0-9])(" + "|".join(STAND_INS) + r")(?![A-Za-z0-9])"
        return re.sub(pattern, lambda m: urllib.parse.quote(self.words[m[1]], safe=""), text)

    def run(self, example: Example) -> Answer:
        """Send the example's request; an assignment also sets its variable."""
        text = example.text
        if example.assigns:
            text = text[len(example.assigns) + 3 : text.rindex(")")]
        curl, *pipes = [part.strip() for part in text.split(" | ")]
        # Split first and expand each word after, as the shell does: an ETag carries quotes.
        answer = self.send([self.expand(word) for word in shlex.split(curl, comments=True)])
        if example.assigns:
            self.variables[example.assigns] = self.assigned(answer, pipes)
        return answer

    def send(self, words: list[str]) -> Answer:
        assert words[0] == "curl", words
        headers, urls = {"Accept": "*/*"}, []  # curl's default
        options = iter(words[1:])
        for word in options:
            if word == "-H":
                name, value = next(options).split(":", 1)
                headers[name] = value.strip()
            elif word in ("-o", "-D", "-w"):
                next(options)  # where curl would write: the test reads the answer itself
            elif word.startswith("-"):
                assert word in ("-s", "-i", "-OJ"), f"an option the test does not know: {word}"
            else:
                urls.append(word)
        assert len(urls) == 1 and urls[0].startswith(self.site.url + "/"), urls
        request = urllib.request.Request(urls[0], headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                return Answer(response.status, dict(response.headers), response.read())
        except urllib.error.HTTPError as error:
            return Answer(error.code, dict(error.headers), error.read())

    def assigned(self, answer: Answer, pipes: list[str]) -> str:
        """What the pipe after curl would print: a value from the JSON (``json 'expr'``)
        or the ETag header (``... | sed -n 's/^[Ee][Tt]ag: //p'``)."""
        last = pipes[-1]
        if last.startswith("json "):
            expression = shlex.split(last)[1]
            value = eval(expression, {"__builtins__": {}, "next": next}, {"d": parse(answer)})
            return str(value)
        assert "[Ee][Tt]ag" in last, last
        return answer.headers["ETag"]


def parse(answer: Answer) -> Any:
    return json.loads(answer.body.decode("utf-8"))


@pytest.fixture(scope="module")
def shell(site: Site) -> Shell:
    """One shell for the module: the assignments run first, in the guide's order, so
    that any example can be run alone."""
    running = Shell(site, stand_in(site))
    for example in EXAMPLES:
        if example.assigns:
            running.run(example)
    return running


def test_the_guide_has_the_examples_counted() -> None:
    assert len(EXAMPLES) == EXAMPLES_IN_DOC


@pytest.mark.parametrize("example", EXAMPLES, ids=[f"line{e.line}" for e in EXAMPLES])
def test_the_example_answers_as_documented(shell: Shell, example: Example) -> None:
    answer = shell.run(example)
    expected = example.status
    if expected is None:
        assert 200 <= answer.status < 300, (answer.status, answer.body[:300])
    else:
        assert answer.status == expected, (answer.status, answer.body[:300])
    if answer.status == 304:
        assert answer.body == b""
        return
    kind = answer.headers.get("Content-Type", "")
    if kind.startswith("text/csv"):
        # Decoded as the answer says it is encoded (the 2009-style files are Latin-1).
        charset = re.search(r"charset=([\w-]+)", kind)
        text = answer.body.decode(charset.group(1) if charset else "utf-8")
        rows = list(csv.reader(io.StringIO(text)))
        assert len(rows) >= 2, "a header and at least one row"
        assert {len(row) for row in rows} == {len(rows[0])}, "every row as long as the header"
        return
    assert kind.startswith("application/json"), kind
    body = parse(answer)
    if expected is not None:
        assert body["status"] == expected and body["message"], body
        if expected == 422:  # a malformed request says each parameter's problem
            assert body["detail"], body
        return
    if "success" in body:
        assert body["success"] is True, body
    # An example that searches or lists finds something: the stand-ins are real.
    for key in ("players", "results", "games", "clubs", "events", "lists", "data"):
        if isinstance(body.get(key), list):
            assert body[key], f"{key} is empty"
