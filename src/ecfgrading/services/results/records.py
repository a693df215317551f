"""Players on record, loaded in bulk for identification (no query per player)."""

from __future__ import annotations

from collections import defaultdict

from ecfgrading.matching.identify import PlayerRecord, RecordIndex
from ecfgrading.registry.models import ClubMembership, Player, PlayerAlias
from ecfgrading.services.merge import Survivors


def load_record_index() -> RecordIndex:
    """Every surviving player with his clubs; merged players' codes resolve to survivors."""
    codes: dict[int, set[str]] = defaultdict(set)
    names: dict[int, set[str]] = defaultdict(set)
    for player_id, club_code, club_name in ClubMembership.objects.values_list(
        "player_id", "club__code", "club__name"
    ).iterator(chunk_size=20_000):
        if club_code:
            codes[player_id].add(club_code)
        names[player_id].add(club_name)
    rows = Player.objects.filter(merged_into__isnull=True).values_list(
        "id", "code", "surname", "forenames", "date_of_birth"
    )
    records = (
        PlayerRecord(
            pid, code, surname, forenames, frozenset(codes[pid]), frozenset(names[pid]), dob
        )
        for pid, code, surname, forenames, dob in rows.iterator(chunk_size=20_000)
    )
    return RecordIndex.build(records, _aliases())


def record_of(player: Player, club_code: str = "", club_name: str = "") -> PlayerRecord:
    """The record of a player created during an import, for the batch's index."""
    return PlayerRecord(
        player.id,
        player.code,
        player.surname,
        player.forenames,
        frozenset([club_code] if club_code else []),
        frozenset([club_name] if club_name else []),
        player.date_of_birth,
    )


def _aliases() -> dict[int, int]:
    """Old codes, and codes of merged players, mapped to the surviving player's id."""
    aliases = dict(PlayerAlias.objects.values_list("code", "player_id"))
    final = Survivors().final
    for player_id, code in Player.objects.filter(id__in=final).values_list("id", "code"):
        aliases.setdefault(code, final[player_id])
    return aliases
