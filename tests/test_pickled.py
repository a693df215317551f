"""Records pickled as their fields' values (ecfgrading.pickled, issue 25): the record that
comes back is the record sent, of the same class, frozen, its dict in the order
``__init__`` gives; the payload names no field; a subclass is pickled as pickle pickles
it otherwise; and a process that has not imported the class's module yet unpickles it."""

from __future__ import annotations

import pickle
import subprocess
import sys
from dataclasses import FrozenInstanceError, dataclass
from datetime import date
from typing import Any

import pytest

from ecfgrading.engine.codes import GradingCode
from ecfgrading.engine.types import ResultCode
from ecfgrading.formats.results_model import Colour, GameResult, PlayerEntry
from ecfgrading.matching.identify import Decision, DecisionKind, Received
from ecfgrading.matching.names import PersonName
from ecfgrading.pickled import by_fields
from ecfgrading.services.people import PlayerDetails

CODE = GradingCode(233310)
NAME = PersonName("SMITH", ("JOHN", "A"))
RECORDS: list[Any] = [
    GameResult(1, ResultCode.WIN, 2, Colour.WHITE, date(2009, 10, 5), 3, 4, "adjourned", 17),
    GameResult(5, ResultCode.DRAW, 6),
    PlayerEntry(7, "233310H", CODE, "Smith, John A", club_code="4NCL", date_of_birth=None),
    CODE,
    NAME,
    Received("Smith, John A", NAME, CODE, "4NCL", "hastings", date(1990, 1, 2)),
    Decision(DecisionKind.PENDING, None, CODE, ((3, 80), (4, 70)), ("choose",), similar=True),
    PlayerDetails("Smith", "John A", "M", 123, "ENG", "M1234", date(1990, 1, 2)),
]


@pytest.mark.parametrize("record", RECORDS, ids=lambda record: type(record).__name__)
@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_a_record_pickled_is_the_record(record: Any, protocol: int) -> None:
    back = pickle.loads(pickle.dumps(record, protocol=protocol))
    assert back == record
    assert type(back) is type(record)
    assert _fields(back) == _fields(record)  # every field, those not compared included


@pytest.mark.parametrize("record", RECORDS, ids=lambda record: type(record).__name__)
def test_a_record_pickled_stays_frozen(record: Any) -> None:
    back = pickle.loads(pickle.dumps(record, protocol=pickle.HIGHEST_PROTOCOL))
    first = next(iter(type(record).__dataclass_fields__))
    with pytest.raises(FrozenInstanceError):
        setattr(back, first, getattr(record, first))


def test_a_record_made_again_keeps_its_fields_in_order() -> None:
    """Its dict as ``__init__`` makes it, keys in the order of the fields: records whose
    dicts share their keys take 40% less room (formats.results_model)."""
    game = RECORDS[0]
    back = pickle.loads(pickle.dumps(game, protocol=pickle.HIGHEST_PROTOCOL))
    assert list(back.__dict__) == list(game.__dict__) == list(GameResult.__dataclass_fields__)


def test_the_payload_is_the_values_without_the_field_names() -> None:
    game = GameResult(1, ResultCode.WIN, 2, line=9)
    sent = pickle.dumps(game, protocol=pickle.HIGHEST_PROTOCOL)
    assert b"pin1" not in sent and b"game_date" not in sent
    assert b"_GameResult_made" in sent


@by_fields
@dataclass(frozen=True)
class Pair:
    left: int
    right: str = ""


@dataclass(frozen=True)
class Triple(Pair):
    third: float = 0.0


def test_a_subclass_is_pickled_as_pickle_pickles_it() -> None:
    """The base's function would make a base record: the subclass's keeps its class and
    its own fields."""
    triple = Triple(1, "a", 2.5)
    back = pickle.loads(pickle.dumps(triple, protocol=pickle.HIGHEST_PROTOCOL))
    assert type(back) is Triple and back == triple
    assert type(pickle.loads(pickle.dumps(Pair(1, "a")))) is Pair


def test_a_process_that_never_imported_the_module_unpickles_the_record() -> None:
    """The function lives in the class's module, which unpickling imports."""
    sent = pickle.dumps(RECORDS[5], protocol=pickle.HIGHEST_PROTOCOL)
    script = (
        "import pickle, sys\n"
        "assert 'ecfgrading.matching.identify' not in sys.modules\n"
        "print(repr(pickle.loads(sys.stdin.buffer.read())))\n"
    )
    shown = subprocess.run(
        [sys.executable, "-c", script], input=sent, capture_output=True, check=True
    )
    assert shown.stdout.decode().strip() == repr(RECORDS[5])


def _fields(record: Any) -> dict[str, Any]:
    return {name: getattr(record, name) for name in type(record).__dataclass_fields__}


def test_a_field_named_as_the_generated_functions_own_names_is_refused() -> None:
    """The function takes the fields as its parameters: one named as its own locals
    would make a wrong record, silently."""
    for name in ("cls", "stored", "record"):
        with pytest.raises(TypeError, match="expected fields not named"):
            by_fields(dataclass(frozen=True)(type("Clash", (), {"__annotations__": {name: int}})))


def test_classes_of_one_name_in_two_functions_each_keep_their_function() -> None:
    def one() -> type:
        @by_fields
        @dataclass(frozen=True)
        class Local:
            value: int

        return Local

    def two() -> type:
        @by_fields
        @dataclass(frozen=True)
        class Local:
            value: str

        return Local

    first, second = one(), two()
    assert pickle.loads(pickle.dumps(first(1))) == first(1)
    assert pickle.loads(pickle.dumps(second("a"))) == second("a")


def test_a_record_without_fields_is_refused() -> None:
    with pytest.raises(TypeError, match="expected a dataclass with fields"):
        by_fields(dataclass(frozen=True)(type("Empty", (), {})))
