"""Each download in the encoding its readers decode (issue 22, "Encodings of downloads";
docs/formats.md, "Encodings").

The 2009-style ``gradesYYYYMM.csv`` is read by graders' tools as Latin-1: ChessReports
decodes its header as UTF-8 (else ISO-8859-1) and every data row as ISO-8859-1 (research
notes on its CSV importer). So the file is ISO-8859-1, a name Latin-1 cannot write is
transliterated and counted, and nothing comes out garbled. The federation's rating-list
CSV stays UTF-8 without a byte-order mark (ToMaChess and Sharly decode plain UTF-8)."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import unicodedata
from pathlib import Path

import pytest
from click.testing import CliRunner
from django.core.cache import cache
from django.test import Client

from ecfgrading.cli import main
from ecfgrading.demo.summary import DemoSummary
from ecfgrading.engine.types import Rate
from ecfgrading.formats.gradelist import read_grade_list_bytes
from ecfgrading.lookups import list_files
from ecfgrading.lookups.exports import export_file
from ecfgrading.lookups.freshness import data_token
from ecfgrading.registry.models import Club, ListVersion, Player
from ecfgrading.services.grading.compute import compute_version, publish_version

pytestmark = pytest.mark.django_db

# The demo's letters that ISO-8859-1 lacks (Polish and Czech names, demo/names.py), as a
# grader's keyboard writes them: the letter without its accent, written out by hand.
PLAIN = {
    "ą": "a", "ć": "c", "ę": "e", "ł": "l", "Ł": "L", "ń": "n", "ś": "s", "Ś": "S",
    "ź": "z", "Ź": "Z", "ż": "z", "Ż": "Z", "č": "c", "Č": "C", "ď": "d", "ě": "e",
    "ň": "n", "ř": "r", "Ř": "R", "š": "s", "Š": "S", "ť": "t", "ů": "u", "ž": "z",
    "Ž": "Z",
}  # fmt: skip


def in_latin1(text: str) -> bool:
    """Every character is one ISO-8859-1 writes as a printable byte (not 0x80-0x9F)."""
    return all(ord(c) < 0x80 or 0xA0 <= ord(c) <= 0xFF for c in text)


def expected_in_file(name: str) -> str:
    composed = unicodedata.normalize("NFC", name)
    written = "".join(PLAIN.get(c, c) for c in composed)
    assert in_latin1(written), f"the test's table lacks a letter of {name!r}"
    return written


def latest_list() -> str:
    versions = ListVersion.objects.filter(status="published", grading_list__rate="standard")
    return max(versions.values_list("grading_list__list_id", flat=True))


def csv_name(list_id: str) -> str:
    return f"grades{list_id.replace('-', '')}.csv"


def read_as_chessreports(data: bytes) -> dict[str, str]:
    """Names by code, read as ChessReports' list importer reads them: lines split as bytes,
    the header decoded UTF-8 (else ISO-8859-1), every row ISO-8859-1, csv.DictReader."""
    header, *rows = data.splitlines()
    try:
        fields = next(csv.reader([header.decode("utf8")]))
    except UnicodeDecodeError:
        fields = next(csv.reader([header.decode("iso-8859-1")]))
    reader = csv.DictReader([row.decode("iso-8859-1") for row in rows], fields)
    return {row["Ref"]: row["Name"] for row in reader}


def recorded_names(codes: list[str]) -> dict[str, str]:
    players = Player.objects.filter(code__in=[int(code[:6]) for code in codes])
    return {player.ref: player.name for player in players}


# --- gradesYYYYMM.csv -------------------------------------------------------------------


def test_the_list_file_is_latin1_and_says_so(client: Client, demo: DemoSummary) -> None:
    response = client.get(f"/downloads/{csv_name(latest_list())}")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=iso-8859-1"
    data = response.content
    assert not any(0x80 <= byte <= 0x9F for byte in data)  # no Windows-1252-only bytes
    with pytest.raises(UnicodeDecodeError):
        data.decode("utf-8")  # an accented name is one Latin-1 byte, not UTF-8's two
    assert data.startswith(b"Ref,Name,")  # no byte-order mark


def test_chessreports_reads_every_name_without_mojibake(client: Client, demo: DemoSummary) -> None:
    data = client.get(f"/downloads/{csv_name(latest_list())}").content
    names = read_as_chessreports(data)
    recorded = recorded_names(list(names))
    assert set(recorded) == set(names)
    assert names == {code: expected_in_file(name) for code, name in recorded.items()}
    accented = [n for n in recorded.values() if not n.isascii() and in_latin1(n)]
    changed = [n for n in recorded.values() if not in_latin1(unicodedata.normalize("NFC", n))]
    assert accented and changed, "the demo's list should hold both kinds of names"
    for name in accented:  # 'é' and 'ø' are Latin-1: written as they are
        assert name.encode("iso-8859-1") in data
    assert not [n for n in names.values() if "Ã" in n or "Å" in n or "?" in n]


def test_a_latin1_name_is_its_latin1_bytes(client: Client, demo: DemoSummary) -> None:
    data = client.get(f"/downloads/{csv_name(latest_list())}").content
    names = read_as_chessreports(data)
    recorded = recorded_names(list(names))
    code, name = next((c, n) for c, n in sorted(recorded.items()) if "ø" in n or "é" in n)
    line = next(line for line in data.splitlines() if line.startswith(code.encode()))
    assert name.encode("iso-8859-1") in line
    assert ("ø" in name and b"\xf8" in line) or ("é" in name and b"\xe9" in line)


def test_the_count_of_transliterated_names_is_reported(
    client: Client, demo: DemoSummary, tmp_path: Path
) -> None:
    list_id = latest_list()
    names = read_as_chessreports(client.get(f"/downloads/{csv_name(list_id)}").content)
    recorded = recorded_names(list(names))
    changed = sum(1 for n in recorded.values() if not in_latin1(unicodedata.normalize("NFC", n)))
    assert changed > 0

    exported = export_file(list_id, fmt="csv")
    assert exported.count("player") == changed
    assert {(t.name, t.written) for t in exported.transliterated if t.what == "player"} == {
        (n, expected_in_file(n)) for n in recorded.values() if expected_in_file(n) != n
    }
    out = tmp_path / csv_name(list_id)
    result = CliRunner().invoke(main, ["lists", "export", "--list", list_id, "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert f"ISO-8859-1 (Latin-1): {changed} player names and" in result.stderr
    assert out.read_bytes() == exported.data


def test_the_file_loads_back_with_the_names_it_holds(client: Client, demo: DemoSummary) -> None:
    data = client.get(f"/downloads/{csv_name(latest_list())}").content
    grade_list, _problems = read_grade_list_bytes(data)
    assert grade_list is not None
    assert {str(row.code): row.name for row in grade_list.rows} == read_as_chessreports(data)


@pytest.mark.parametrize("named", ["gradesYYYYMM-rapid.csv", "rgradesYYYYMM.csv"])
def test_the_rapid_part_is_latin1_too(client: Client, demo: DemoSummary, named: str) -> None:
    name = named.replace("YYYYMM", latest_list().replace("-", ""))
    response = client.get(f"/downloads/{name}")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=iso-8859-1"
    names = read_as_chessreports(response.content)
    recorded = recorded_names(list(names))
    assert names == {code: expected_in_file(name) for code, name in recorded.items()}


def test_a_file_kept_from_before_the_change_is_not_served(
    client: Client, demo: DemoSummary
) -> None:
    """The cache and the ETag were keyed by format, versions and data token alone: the
    UTF-8 bytes kept under that key must be neither served nor confirmed by a 304."""
    list_id = latest_list()
    resolved = list_files.resolve(list_files.parse_filename(csv_name(list_id)))
    ids = "-".join(str(v.id) for v in resolved.versions)
    old_tag = hashlib.sha1(f"csv|{ids}|{data_token()}".encode()).hexdigest()[:24]
    stale = "Ref,Name\r\n999999A,Sørensen\r\n".encode()
    cache.set(f"listfile:{old_tag}", stale)

    response = client.get(f"/downloads/{csv_name(list_id)}", HTTP_IF_NONE_MATCH=f'"{old_tag}"')
    assert response.status_code == 200
    assert response["ETag"] != f'"{old_tag}"'
    assert response.content != stale and response.content.startswith(b"Ref,Name,Sex,")


# --- the other downloads stay as they were ------------------------------------------------


def test_the_json_file_stays_utf8_with_every_name_as_recorded(
    client: Client, demo: DemoSummary
) -> None:
    response = client.get(f"/downloads/{csv_name(latest_list()).replace('.csv', '.json')}")
    entries = json.loads(response.content.decode("utf-8"))
    names = {entry["code"]: entry["name"] for entry in entries}
    assert names == recorded_names(list(names))
    assert any(not in_latin1(name) for name in names.values())


def test_the_rating_list_csv_is_utf8_without_a_byte_order_mark(
    client: Client, demo: DemoSummary
) -> None:
    for url in ("/api/rating-list/csv", "/v2/new/api.php?v2/rating_list_csv"):
        response = client.get(url)
        assert response.status_code == 200, url
        data = response.content
        assert data.startswith(b"ECF_code,"), url  # no b"\xef\xbb\xbf" before it
        rows = list(csv.DictReader(io.StringIO(data.decode("utf-8"), newline="")))
        names = {row["ECF_code"]: row["full_name"] for row in rows}
        accented = {code: name for code, name in names.items() if not name.isascii()}
        assert any(not in_latin1(name) for name in accented.values()), url
        assert any(in_latin1(name) for name in accented.values()), url
        assert accented == recorded_names(list(accented)), url


def test_a_club_name_latin1_lacks_is_transliterated_and_counted(demo: DemoSummary) -> None:
    list_id = latest_list()
    before = export_file(list_id, rates=[Rate.STANDARD], fmt="csv")
    first = read_as_chessreports_clubs(before.data)
    club = Club.objects.filter(name=first).first()
    assert club is not None
    Club.objects.filter(id=club.id).update(name="Łódź Chess Club")
    # A published version's file never changes (issue 24, case 14): the new name is in
    # the list's next version.
    run = compute_version(list_id, Rate.STANDARD)
    publish_version(list_id, Rate.STANDARD, run.version, allow_unanchored=True)

    after = export_file(list_id, rates=[Rate.STANDARD], fmt="csv")
    assert [(t.name, t.written) for t in after.transliterated if t.what == "club"] == [
        ("Łódź Chess Club", "Lódz Chess Club")  # ó is Latin-1, Ł and ź are not
    ]
    assert after.count("club") == 1
    assert b"L\xf3dz Chess Club" in after.data


def read_as_chessreports_clubs(data: bytes) -> str:
    """The first ClubNam1 of the file that is not a location (no trailing '*')."""
    header, *rows = data.decode("iso-8859-1").splitlines()
    reader = csv.DictReader(rows, next(csv.reader([header])))
    return next(row["ClubNam1"] for row in reader if row["ClubNam1"].rstrip()[-1:] not in "*")
