"""Pairings as tournament directors make them: Swiss by score groups, and round robins.

Players are local numbers 0..n-1 (a section's players in rating order). A pairing is
``(white, black)``.
"""

from __future__ import annotations

from collections.abc import Sequence

Pair = tuple[int, int]


def round_robin(count: int) -> list[list[Pair]]:
    """Berger tables: every player meets every other once; colours alternate.

    With an odd number one player sits out each round (the dummy's opponent).
    """
    players = list(range(count)) + ([-1] if count % 2 else [])
    size = len(players)
    rounds = []
    for number in range(size - 1):
        pairs = []
        for board in range(size // 2):
            one, two = players[board], players[size - 1 - board]
            if -1 in (one, two):
                continue
            # Board one alternates colour each round; the rest follow the circle.
            pairs.append((one, two) if (board == 0) == (number % 2 == 0) else (two, one))
        rounds.append(pairs)
        players = [players[0], players[-1], *players[1:-1]]
    return rounds


class Swiss:
    """One Swiss section: scores, who has met whom, and colour balance."""

    def __init__(self, count: int) -> None:
        self.count = count
        self.score = [0.0] * count
        self.whites = [0] * count
        self.last_white: list[bool | None] = [None] * count
        self.met: set[Pair] = set()

    def pairings(self) -> list[Pair]:
        """The next round: score groups from the top, each folded (top half v bottom half).

        A player who cannot be paired in his group floats down to the next; the lowest
        left over gets the bye (not a game: it is not in the results file).
        """
        # Highest score first, lower number first on a tie (the sort keeps the order of
        # equals, reversed or not).
        order = sorted(range(self.count), key=self.score.__getitem__, reverse=True)
        pairs: list[Pair] = []
        floaters: list[int] = []
        for group in _score_groups(order, self.score):
            pool = floaters + group
            paired, floaters = self._fold(pool)
            pairs += paired
        pairs += self._leftovers(floaters)
        return [self._colours(one, two) for one, two in pairs]

    def record(
        self, pairs: Sequence[Pair], white_points: Sequence[float], black_points: Sequence[float]
    ) -> None:
        """A round's results; a default scores its winner's point (a double default none)."""
        score, whites, last_white, met = self.score, self.whites, self.last_white, self.met
        for (white, black), won, lost in zip(pairs, white_points, black_points, strict=True):
            score[white] += won
            score[black] += lost
            whites[white] += 1
            last_white[white], last_white[black] = True, False
            met.add((white, black))
            met.add((black, white))

    def _fold(self, pool: list[int]) -> tuple[list[Pair], list[int]]:
        half = len(pool) // 2
        top, bottom = pool[:half], pool[half:]
        pairs = []
        met = self.met
        for player in top:
            for partner in bottom:  # the first he has not met
                if (player, partner) not in met:
                    bottom.remove(partner)
                    pairs.append((player, partner))
                    break
            else:
                bottom.insert(0, player)  # floats down with the unpaired
        return pairs, bottom

    def _leftovers(self, left: list[int]) -> list[Pair]:
        """Pair what is left greedily, a rematch only when nothing else is possible."""
        pairs = []
        while len(left) > 1:
            player = left.pop(0)
            partner = next((other for other in left if (player, other) not in self.met), left[0])
            left.remove(partner)
            pairs.append((player, partner))
        return pairs

    def _colours(self, one: int, two: int) -> Pair:
        """Fewer whites so far gets white; on a tie, alternate from the last game."""
        balance = self.whites[one] - self.whites[two]
        if balance < 0 or (balance == 0 and self.last_white[one] is False):
            return one, two
        if balance > 0 or self.last_white[two] is False:
            return two, one
        return (one, two) if (one + two) % 2 else (two, one)


def _score_groups(order: list[int], score: list[float]) -> list[list[int]]:
    groups: list[list[int]] = []
    for player in order:
        if groups and score[groups[-1][0]] == score[player]:
            groups[-1].append(player)
        else:
            groups.append([player])
    return groups
