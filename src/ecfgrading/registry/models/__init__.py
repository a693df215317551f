"""The registry's models, one module per subject."""

from ecfgrading.registry.models.aliases import NameAlias
from ecfgrading.registry.models.audit import AuditLog
from ecfgrading.registry.models.changes import ClubChange, IdentityChange
from ecfgrading.registry.models.choices import (
    CategoryChoice,
    Colour,
    NotGradedReason,
    PlayRate,
    RateChoice,
    Result,
    Sex,
    StartSourceChoice,
)
from ecfgrading.registry.models.events import Event, Game, PendingIdentification, Submission
from ecfgrading.registry.models.feedback import Feedback
from ecfgrading.registry.models.limits import RateCount
from ecfgrading.registry.models.lists import (
    GradingList,
    ListEntry,
    ListVersion,
    PackedGamePoints,
    PublishedVersionError,
    StartingGradeAssignment,
    StoredGamePoints,
    StoredPeriodTotal,
    assert_version_editable,
)
from ecfgrading.registry.models.office import (
    Amendment,
    ChaseRecord,
    DirectMember,
    ForeignResult,
    OutboxMessage,
)
from ecfgrading.registry.models.people import Club, ClubMembership, County, Player, PlayerAlias
from ecfgrading.registry.models.sequences import Sequence
from ecfgrading.registry.models.snapshots import PublishedSnapshot

__all__ = [
    "Amendment",
    "AuditLog",
    "CategoryChoice",
    "ChaseRecord",
    "Club",
    "ClubChange",
    "ClubMembership",
    "Colour",
    "County",
    "DirectMember",
    "Event",
    "Feedback",
    "ForeignResult",
    "Game",
    "GradingList",
    "IdentityChange",
    "ListEntry",
    "ListVersion",
    "NameAlias",
    "NotGradedReason",
    "OutboxMessage",
    "PackedGamePoints",
    "PendingIdentification",
    "PlayRate",
    "Player",
    "PlayerAlias",
    "PublishedSnapshot",
    "PublishedVersionError",
    "RateChoice",
    "RateCount",
    "Result",
    "Sequence",
    "Sex",
    "StartSourceChoice",
    "StartingGradeAssignment",
    "StoredGamePoints",
    "StoredPeriodTotal",
    "Submission",
    "assert_version_editable",
]
