"""Replica, in Python, of ChessDojo's ECF rating fetch (Go), written for this test.

Original: jackstenglein/chess-dojo (no licence file: all rights reserved, so nothing of it
is copied), commit 20dd85b3, backend/user/ratings/ratings.go (FetchEcfRating and
``type EcfResponse struct { Rating int `json:"revised_rating"` }``).

Our own replica of its request and decoding: GET ``v2/ratings/S/{code as typed}/{today}``
with a 5-second timeout and no headers of its own; any status but 200 is an error (the
app answers 400); the body decoded as Go's encoding/json decodes into that struct:
``revised_rating`` must be a JSON integer that fits an int, or null or absent (0); a
string, a float such as 1850.0, or a boolean is a decode error (the app answers 500
"Failed to parse ECF API response"); every other key is ignored. The only change is the
host.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from datetime import date
from typing import Any

GO_INT_MAX = 2**63 - 1


class FetchError(Exception):
    """What the app reports: its status and message."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(f"{status}: {message}")
        self.status = status


class _Float(float):
    """A JSON number written with a fraction or an exponent: Go will not put it in an int."""


def _decode_revised_rating(body: bytes) -> int:
    """encoding/json into ``struct { Rating int `json:"revised_rating"` }``."""
    try:
        data: Any = json.loads(body, parse_float=_Float)
    except ValueError as error:
        raise FetchError(500, f"Failed to parse ECF API response: {error}") from None
    if not isinstance(data, dict):
        # Go decodes null into a struct as a no-op; any other non-object is an error.
        if data is None:
            return 0
        raise FetchError(500, "Failed to parse ECF API response: not an object")
    value = next((v for k, v in data.items() if k.lower() == "revised_rating"), None)
    if value is None:
        return 0
    if isinstance(value, bool) or not isinstance(value, int) or abs(value) > GO_INT_MAX:
        raise FetchError(
            500, f"Failed to parse ECF API response: cannot unmarshal {value!r} into int"
        )
    return value


def fetch_ecf_rating(base: str, ecf_id: str) -> int:
    """The current rating the app stores for ``ecf_id``."""
    url = f"{base}/v2/new/api.php?v2/ratings/S/{ecf_id}/{date.today().isoformat()}"
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            status, body = response.status, response.read()
    except urllib.error.HTTPError as error:
        status, body = error.code, error.read()
    if status != 200:
        raise FetchError(400, f"Invalid request: ECF API returned status `{status}`")
    return _decode_revised_rating(body)
