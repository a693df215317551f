"""The list downloads as a spreadsheet program opens them (issue 23, item 13).

Excel on Windows opens a double-clicked CSV in the system's code page, Windows-1252 in
Britain: the CSV's ISO-8859-1 letters are the same bytes there, so every accented name
Latin-1 can write reads back as recorded. The spreadsheet carries both of the seed's
Games figures (games in the latest 12 months, then games counted: G24); the CSV keeps
the federation's fixed 20 columns. Expected names and figures come from the registry by
plain queries.
"""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from openpyxl import load_workbook

from ecfgrading.demo.summary import DemoSummary
from ecfgrading.engine.codes import GradingCode

pytestmark = pytest.mark.django_db

# The current version of each rate of a list: its latest published version.
CURRENT = """
    SELECT v.id FROM registry_listversion v JOIN registry_gradinglist l ON l.id = v.grading_list_id
    WHERE l.list_id = %s AND l.rate = %s AND v.status = 'published'
    ORDER BY v.published_at DESC, v.id DESC LIMIT 1
"""


def query(sql: str, *params: Any) -> list[tuple[Any, ...]]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return list(cursor.fetchall())


def latest_july_list() -> str:
    ((list_id,),) = query(
        "SELECT MAX(list_id) FROM registry_gradinglist WHERE list_id LIKE '%%-07'"
    )
    return str(list_id)


def file_name(list_id: str, extension: str) -> str:
    return f"grades{list_id.replace('-', '')}.{extension}"


def names_on_record(list_id: str) -> dict[str, str]:
    """'Surname, Forenames' by grading code, of every player published in the list."""
    rows = query(
        f"""SELECT DISTINCT p.code, p.surname, p.forenames FROM registry_listentry e
            JOIN registry_player p ON p.id = e.player_id
            WHERE e.published AND e.version_id IN (({CURRENT}), ({CURRENT}))""",
        list_id,
        "standard",
        list_id,
        "rapid",
    )
    return {
        str(GradingCode(code)): f"{surname}, {forenames}" if forenames else surname
        for code, surname, forenames in rows
    }


def latest_games(list_id: str, rate: str) -> dict[str, int]:
    rows = query(
        f"""SELECT p.code, e.games_latest FROM registry_listentry e
            JOIN registry_player p ON p.id = e.player_id
            WHERE e.published AND e.version_id = ({CURRENT})""",
        list_id,
        rate,
    )
    return {str(GradingCode(code)): games for code, games in rows}


def latin1_writes(name: str) -> bool:
    try:
        name.encode("iso-8859-1")
    except UnicodeEncodeError:
        return False
    return True


def test_the_csv_read_as_excel_reads_it_shows_every_accented_name_as_recorded(
    client: Client, demo: DemoSummary
) -> None:
    list_id = latest_july_list()
    response = client.get(f"/downloads/{file_name(list_id, 'csv')}")
    assert response.status_code == 200
    data = response.content

    text = data.decode("cp1252")  # strict: no byte Windows-1252 lacks (0x81, 0x8D...)
    assert not text.startswith("\ufeff") and text.startswith("Ref,Name,")  # no BOM
    assert "\r\n" in text  # Windows line ends
    rows = list(csv.reader(io.StringIO(text, newline="")))
    assert all(len(row) == 20 for row in rows)  # the federation's 20 columns
    written = {row[0]: row[1] for row in rows[1:]}
    recorded = names_on_record(list_id)
    accented = {code: name for code, name in recorded.items() if not name.isascii()}
    shared = {code: name for code, name in accented.items() if latin1_writes(name)}
    assert len(shared) >= 3, accented  # the demo has Péter, Großmann, Ó Súilleabháin...
    assert {code: written[code] for code in shared} == shared


def test_the_csv_names_latin1_cannot_write_come_out_plain_never_garbled(
    client: Client, demo: DemoSummary
) -> None:
    list_id = latest_july_list()
    text = client.get(f"/downloads/{file_name(list_id, 'csv')}").content.decode("cp1252")
    written = {row[0]: row[1] for row in list(csv.reader(io.StringIO(text, newline="")))[1:]}

    others = {c: n for c, n in names_on_record(list_id).items() if not latin1_writes(n)}
    assert others  # the demo has Kozłowski and Černý
    for code, name in others.items():
        shown = written[code]
        assert "Ã" not in shown and "?" not in shown, shown  # no mojibake, no lost letter
        # A letter with one accent Latin-1 lacks becomes its plain letter ('Č' 'C', 'ł'
        # 'l'); every letter Latin-1 has stays where it was ('ý' in 'Cerný').
        assert len(shown) == len(name), (shown, name)
        kept = [(s, r) for s, r in zip(shown, name, strict=True) if latin1_writes(r)]
        assert all(s == r for s, r in kept), (shown, name)


def test_the_spreadsheet_has_both_games_figures_of_each_rate(
    client: Client, demo: DemoSummary
) -> None:
    list_id = latest_july_list()
    response = client.get(f"/downloads/{file_name(list_id, 'xlsx')}")
    assert response.status_code == 200
    sheet = load_workbook(io.BytesIO(response.content))[list_id]
    rows = [list(row) for row in sheet.iter_rows(values_only=True)]

    header = rows[0]
    assert header[:8] == ["Ref", "Name", "Sex", "JrAge", "Cat", "Grade", "Grade1", "Games"]
    assert header[20:] == ["GamesLatest", "RGamesLatest"]  # after the CSV's 20 columns
    standard, rapid = latest_games(list_id, "standard"), latest_games(list_id, "rapid")
    shown = {row[0]: (row[20], row[21]) for row in rows[1:]}
    assert shown == {
        code: (standard.get(code), rapid.get(code)) for code in set(standard) | set(rapid)
    }
    # The seed's two figures differ somewhere: games brought forward are counted too.
    counted = {row[0]: row[7] for row in rows[1:] if row[7] is not None}
    assert any(counted[code] != standard[code] for code in counted)
