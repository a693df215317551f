"""Replica of ecf_ratings' name search and rating lookup, written for this test.

Original: johnclark456/ecf_ratings (no licence file: all rights reserved, so nothing of it
is copied), commit f259b7ed, find_players.py (get_player_matches, get_player_rating, the
first-match lookup) as used by app.py's POST /api/ratings, which answers
``{"results": [{"name", "rating"}]}`` sorted by rating, highest first.

Our own replica of its requests and parsing: the same URLs (``players/name/`` with the name
quote_plus-encoded, ``ratings/R/{code}/{today}``), a requests Session with no headers of
its own, the same keys read in the same order, the same fallbacks (any error on the
search is no match; any status but 200 on the rating is 0). The only change is BASE_URL.
"""

from __future__ import annotations

from datetime import date
from typing import Any
from urllib.parse import quote_plus

import requests

TODAY = date.today().strftime("%Y-%m-%d")


def player_matches(session: requests.Session, base_url: str, name: str) -> Any:
    url = f"{base_url}?v2/players/name/{quote_plus(name)}"
    try:
        response = session.get(url, timeout=30)
        response.raise_for_status()
        data = response.json()
        return data.get("players") if isinstance(data, dict) else data
    except Exception:
        return []


def player_rating(session: requests.Session, base_url: str, code: str) -> Any:
    url = f"{base_url}?v2/ratings/R/{quote_plus(code)}/{TODAY}"
    try:
        response = session.get(url, timeout=30)
        if response.status_code == 200:
            return response.json().get("revised_rating", 0)
    except Exception:
        pass
    return 0


def ratings(base_url: str, names: list[str]) -> dict[str, list[dict[str, Any]]]:
    """What POST /api/ratings answers for ``names``: the first match's name and rapid rating
    (0 when nothing matched), sorted by rating (a text rating beside an integer raises
    TypeError, which the app answers with a 500)."""
    results = []
    with requests.Session() as session:
        for name in names:
            matches = player_matches(session, base_url, name)
            if not matches:
                results.append({"name": name, "rating": 0})
                continue
            match = matches[0]
            found = match.get("full_name") or match.get("name") or "Unknown"
            code = match.get("code") or match.get("ECF_code") or match.get("ref")
            rating = player_rating(session, base_url, code) if code else 0
            results.append({"name": found, "rating": rating or 0})
    results.sort(key=lambda x: x["rating"], reverse=True)
    return {"results": results}
