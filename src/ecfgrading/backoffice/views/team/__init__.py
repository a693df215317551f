"""The grading team's pages (issue 11, item 3): every view admits the team only and
calls services.team."""

from __future__ import annotations

from ecfgrading.backoffice.access import role_required
from ecfgrading.services.accounts import Role

team_only = role_required(Role.TEAM)
