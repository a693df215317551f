"""The grading team's pages (issue 11, item 3): every view admits the team only, calls
services.team, and leaves a refusal to backoffice.errors."""

from __future__ import annotations

from ecfgrading.backoffice.errors import office_view
from ecfgrading.lookups.roles import Role

team_only = office_view(Role.TEAM)
