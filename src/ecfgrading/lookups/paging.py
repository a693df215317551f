"""Pages of a long result: "1-50 of 3,715"."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")

PER_PAGE = 50
MAX_PER_PAGE = 200


@dataclass(frozen=True)
class Page(Generic[T]):
    items: Sequence[T]
    number: int
    per_page: int
    total: int

    @property
    def pages(self) -> int:
        return max(1, -(-self.total // self.per_page))

    @property
    def first_index(self) -> int:
        return 0 if not self.total else (self.number - 1) * self.per_page + 1

    @property
    def last_index(self) -> int:
        return min(self.total, self.number * self.per_page)

    @property
    def has_previous(self) -> bool:
        return self.number > 1

    @property
    def has_next(self) -> bool:
        return self.number < self.pages

    @property
    def total_text(self) -> str:
        return f"{self.total:,}"

    def as_dict(self) -> dict[str, int]:
        """The paging fields of a JSON answer."""
        return {
            "page": self.number,
            "per_page": self.per_page,
            "total": self.total,
            "pages": self.pages,
        }


def page_number(text: str | None) -> int:
    """A page number from a query string: anything that is not a positive number is 1."""
    return int(text) if text and text.isdigit() and 0 < int(text) < 1_000_000 else 1


def bounds(number: int, per_page: int = PER_PAGE) -> tuple[int, int]:
    """Slice bounds of page ``number``."""
    start = (number - 1) * per_page
    return start, start + per_page
