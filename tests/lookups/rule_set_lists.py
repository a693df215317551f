"""Lists of the three eras (G31), each computed and published by the real pipeline.

Two players play ten games a May, standard and rapid, in 2011, 2013 and 2015; the July
lists of those years are then computed (``compute_version``, under the rule set of each
list's date unless told otherwise) and published. Ten games in three years with games in
the latest 12 months is category E under every rule set, so both players are published
in every list. Tests of the read side and of the site share it.
"""

from __future__ import annotations

from dataclasses import dataclass

from ecfgrading.engine.types import Rate
from ecfgrading.registry.models import ListVersion
from ecfgrading.services.grading.compute import compute_version, publish_version
from ecfgrading.services.results.ingest import import_results
from tests.services.results_text import RAPID, STANDARD, results_file

PLAYERS = [
    "#PIN=1#BCF CODE=261619B#NAME=Bloggs, Joe#CLUB NAME=Walsall",
    "#PIN=2#NAME=Smith, Jane#CLUB NAME=Anytown",
]
BLOGGS = "261619B"
SCORES = ("10", "55", "01", "10", "55", "10", "01", "55", "10", "55")

# The lists made, each with the rule set its date calls for (G31).
LISTS = (
    ("2011-07", Rate.STANDARD, "ecf-2009"),
    ("2011-07", Rate.RAPID, "ecf-2009"),
    ("2013-07", Rate.STANDARD, "ecf-2012"),
    ("2015-07", Rate.STANDARD, "ecf-2015"),
    ("2015-07", Rate.RAPID, "ecf-2015"),
)
WORDS = {
    "ecf-2009": "rules up to July 2011",
    "ecf-2012": "rules of January 2012 to July 2014",
    "ecf-2015": "rules from January 2015",
}


@dataclass(frozen=True)
class Made:
    """The published versions, by (list, rate)."""

    versions: dict[tuple[str, Rate], ListVersion]


def play(year: int) -> None:
    """Ten games a rate between the two players, 1..10 May of ``year``."""
    games = [
        f"#PIN1=1#SCORE={score}#PIN2=2#ROUND={n}#GAME DATE={n:02d}/05/{year}"
        for n, score in enumerate(SCORES, start=1)
    ]
    for rate, control in (("S", STANDARD), ("R", RAPID)):
        text = results_file(
            PLAYERS,
            games,
            code=f"{rate}{year}",
            start=f"01/05/{year}",
            end=f"10/05/{year}",
            control=control,
        )
        assert import_results(text, filename=f"{rate}{year}.txt").accepted


def publish_eras() -> Made:
    """Every list of ``LISTS``, computed and published in date order."""
    for year in (2011, 2013, 2015):
        play(year)
    made = {}
    for list_id, rate, _rules in LISTS:
        run = compute_version(list_id, rate)
        assert run.published == 2, run.to_text()
        made[(list_id, rate)] = publish_version(list_id, rate, run.version, allow_unanchored=True)
    return Made(made)
