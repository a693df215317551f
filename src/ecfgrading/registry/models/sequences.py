"""High-water marks of numbers the system issues, so none is ever issued twice."""

from django.db import models


class Sequence(models.Model):
    """One named counter; its row is locked while a number is issued."""

    GRADING_CODES = "grading-code"  # G28: codes are never reused
    GAMES = "game"  # Game.sequence: the order games were recorded in
    ABROAD_EVENTS = "abroad-event"  # codes of events abroad, XA000001 on (issue 24)

    name = models.CharField(max_length=40, primary_key=True)
    last_value = models.BigIntegerField(default=0)

    class Meta:
        ordering = ("name",)

    def __str__(self) -> str:
        return f"{self.name}: {self.last_value}"
