"""How big a demo federation is: players on record and games a season."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class DemoSize:
    """The scale of a demo federation; everything else follows from these numbers."""

    name: str
    players: int  # on record over the six seasons, newcomers included
    games: int  # games a season, of every kind (graded or not)
    counties: int
    club_size: int  # players per club on average
    county_boards: int  # boards in a county match

    def share(self, fraction: float) -> int:
        """A season's game budget for one kind of event."""
        return round(self.games * fraction)


SIZES: dict[str, DemoSize] = {
    # For tests: small enough to import and grade in seconds.
    "tiny": DemoSize("tiny", 300, 1_500, 4, 20, 8),
    # To browse: six seasons and 34 list versions built in under a minute (40,000 games a
    # season when the demo had three seasons and 15 list versions).
    "default": DemoSize("default", 6_000, 14_000, 12, 30, 16),
    # The architecture's scale: 60,000 on record, 200,000 games a year.
    "national": DemoSize("national", 60_000, 200_000, 12, 35, 16),
}


def size_named(name: str) -> DemoSize:
    try:
        return SIZES[name]
    except KeyError:
        known = ", ".join(SIZES)
        raise ValueError(f"expected a demo size {known}, got {name!r}") from None
