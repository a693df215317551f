"""The record index shares one set of clubs among the players who have the same clubs
(issue 25: a national index's 60,000 records held four sets each)."""

from __future__ import annotations

from dataclasses import replace

from ecfgrading.matching.identify import PlayerRecord, RecordIndex, _SharedSets


def _record(pid: int, surname: str, codes: set[str], names: set[str]) -> PlayerRecord:
    return PlayerRecord(pid, 100000 + pid, surname, "Ann", frozenset(codes), frozenset(names))


def test_members_of_one_club_share_its_sets_as_given() -> None:
    index = RecordIndex.build(
        [
            _record(1, "Smith", {"KNT1"}, {"Dover"}),
            _record(2, "Jones", {"KNT1"}, {"Dover"}),
            _record(3, "Brown", {"SUR2"}, {"Epsom"}),
        ]
    )
    one, two, three = (index.record(pid) for pid in (1, 2, 3))
    assert one is not None and two is not None and three is not None
    assert one.club_codes is two.club_codes and one.club_names is two.club_names
    assert three.club_codes == frozenset({"SUR2"}) and three.club_names == frozenset({"Epsom"})
    assert one == _record(1, "Smith", {"KNT1"}, {"Dover"})  # the same values


def test_a_record_replaced_with_another_club_shares_that_clubs_sets() -> None:
    index = RecordIndex.build(
        [_record(1, "Smith", {"KNT1"}, {"Dover"}), _record(2, "Jones", {"SUR2"}, {"Epsom"})]
    )
    moved = replace(_record(1, "Smith", set(), set()), club_codes=frozenset({"SUR2"}))
    index.replace(replace(moved, club_names=frozenset({"Epsom"})))
    smith, jones = index.record(1), index.record(2)
    assert smith is not None and jones is not None
    assert smith.club_codes is jones.club_codes and smith.club_names is jones.club_names
    assert index.holder(100001) == smith


def test_a_set_of_clubs_is_folded_once_however_many_records_have_it() -> None:
    """Issue 25: folding each record's clubs was a third of a national index's load;
    a set is folded once, and every record with it shares the folded set."""
    folds: list[str] = []

    def fold(code: str) -> str:
        folds.append(code)
        return code.strip().upper()

    sets = _SharedSets()
    first = sets.folded(frozenset({" knt1", "sur2"}), fold)
    again = sets.folded(frozenset({"sur2", " knt1"}), fold)  # an equal set, another object

    assert first == frozenset({"KNT1", "SUR2"}) and again is first
    assert sorted(folds) == [" knt1", "sur2"]  # once each
    assert sets.folded(frozenset({"sur2"}), fold) == frozenset({"SUR2"})
