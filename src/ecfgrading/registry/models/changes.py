"""Players and clubs whose details changed in place, for importers that keep an index.

New players, clubs, memberships and aliases are found by their ever-growing ids; a change
to a row already on record (a birth date learnt from a file, a merge, a correction by
staff) leaves no such trace, so whoever makes one notes the player, or the club, here.
"""

from django.db import models


class IdentityChange(models.Model):
    """One player whose name, birth date, clubs or survival changed (no foreign key: a
    note costs one narrow insert, and a player deleted since is simply not found)."""

    id = models.BigAutoField(primary_key=True)
    player_id = models.BigIntegerField()

    def __str__(self) -> str:
        return f"change {self.id}: player {self.player_id}"


class ClubChange(models.Model):
    """One club whose code, name, county or being a location changed in place, or that a
    membership left (staff, in the admin): importers read the club and its members
    again, and public pages that show it are made anew. No foreign key, as for
    ``IdentityChange``."""

    id = models.BigAutoField(primary_key=True)
    club_id = models.BigIntegerField()

    def __str__(self) -> str:
        return f"change {self.id}: club {self.club_id}"
