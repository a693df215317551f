"""Rate-limit counters kept in the database, for a site whose shared cache is the
database's (no Redis): one row per limit, client and window, incremented in one UPDATE so
that simultaneous requests count exactly (issue 24, case 14)."""

from __future__ import annotations

from django.db import models


class RateCount(models.Model):
    """How many times one client used one limited thing in one window of time."""

    key = models.CharField(max_length=200, unique=True)
    count = models.PositiveIntegerField(default=0)
    ends_at = models.DateTimeField(db_index=True, help_text="The row is forgotten after this.")

    def __str__(self) -> str:
        return f"{self.key}: {self.count}"
