"""G31: the rule set of a list, by its date."""

from __future__ import annotations

from ecfgrading.engine.periods import ListId
from ecfgrading.engine.rules import ECF_2009, ECF_2012, ECF_2015, RuleSet

# G31: each rule set and the first list computed under it, in date order.
ERAS: tuple[tuple[ListId, RuleSet], ...] = (
    (ListId(1900, 1), ECF_2009),
    (ListId(2012, 1), ECF_2012),
    (ListId(2015, 1), ECF_2015),
)


def rules_for(list_id: ListId) -> RuleSet:
    """The rule set a list is computed under (G31): ecf-2009 to 2011-07, ecf-2012 from
    2012-01, ecf-2015 from 2015-01. A revision uses the rule set of its list."""
    chosen = ECF_2009
    for first, rules in ERAS:
        if list_id >= first:
            chosen = rules
    return chosen


def first_list(rules: RuleSet) -> ListId:
    """The first list of a rule set's era (G31)."""
    for first, era in ERAS:
        if era == rules:
            return first
    raise ValueError(f"{rules.name} is not a rule set of the federation's calendar")
