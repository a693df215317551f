"""/lists/: every published list and version with its files, and the conversion table
(G29); /downloads/: the files, with the bytes the exports give, ETags and 304s."""

from __future__ import annotations

import calendar
import datetime as dt
import gzip
import io
import json
from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from openpyxl import load_workbook

from ecfgrading.demo.summary import DemoSummary
from ecfgrading.engine.types import Rate
from ecfgrading.lookups import list_files
from ecfgrading.lookups.exports import export_list
from ecfgrading.registry.models import ListVersion

pytestmark = pytest.mark.django_db

# results-file.md, section 2: the list file's 20 columns.
HEADER = (
    "Ref,Name,Sex,JrAge,Cat,Grade,Grade1,Games,RCat,RGrade,RGrade1,RGames,"
    "ClubNam1,ClubNam2,ClubNam3,ClubNam4,ClubNam5,ClubNam6,FIDECode,Nation"
)


def _published() -> list[dict[str, Any]]:
    """Every published version, by a plain query."""
    rows = ListVersion.objects.filter(status="published").values(
        "id", "name", "published_at", "grading_list__list_id", "grading_list__rate"
    )
    return list(rows)


def _latest_standard_list() -> str:
    return max(
        v["grading_list__list_id"] for v in _published() if v["grading_list__rate"] == "standard"
    )


def _file(list_id: str, *parts: str, fmt: str = "csv") -> str:
    return "-".join([f"grades{list_id.replace('-', '')}", *parts]) + f".{fmt}"


def _label(list_id: str) -> str:
    year, month = list_id.split("-")
    return f"{calendar.month_name[int(month)]} {year}"


def test_the_page_links_every_published_version_in_every_format(
    client: Client, demo: DemoSummary
) -> None:
    html = client.get("/lists/").content.decode()
    versions = _published()
    assert len(versions) >= 10  # the demo publishes every list from 2009-07 on
    for version in versions:
        list_id, rate = version["grading_list__list_id"], version["grading_list__rate"]
        for fmt in ("csv", "json", "xlsx"):
            assert f'href="/downloads/{_file(list_id, rate, version["name"], fmt=fmt)}"' in html
    for list_id in {v["grading_list__list_id"] for v in versions}:
        assert f'href="/downloads/{_file(list_id)}"' in html
        assert _label(list_id) in html


def test_the_json_twin_lists_the_same_versions(client: Client, demo: DemoSummary) -> None:
    data = client.get("/lists/", {"format": "json"}).json()
    found = {
        (v["list"], v["rate"], v["version"], v["published_at"][:10])
        for item in data["lists"]
        for v in item["versions"]
    }
    expected = {
        (
            v["grading_list__list_id"],
            v["grading_list__rate"],
            v["name"],
            v["published_at"].date().isoformat(),
        )
        for v in _published()
    }
    assert found == expected
    listed = [item["list"] for item in data["lists"]]
    assert listed == sorted(listed, reverse=True)  # latest first


def test_the_twin_and_the_api_give_one_catalogue(client: Client, demo: DemoSummary) -> None:
    """One catalogue, one representation (style 18): /lists/?format=json is /api/v1/lists
    with the conversion table beside it, field for field."""
    twin = client.get("/lists/", {"format": "json"}).json()
    api = client.get("/api/v1/lists").json()
    assert _same_times(twin["lists"]) == _same_times(api["lists"])
    assert twin["current"] == api["current"]
    assert sum(len(item["versions"]) for item in api["lists"]) == len(_published())


def test_the_home_page_shows_a_version_as_the_catalogue_does(
    client: Client, demo: DemoSummary
) -> None:
    home = client.get("/", {"format": "json"}).json()
    listed = client.get("/lists/", {"format": "json"}).json()
    catalogue = {
        (v["list"], v["rate"], v["version"]): v for i in listed["lists"] for v in i["versions"]
    }
    shown = [v for item in home["lists"] for v in item["versions"]]
    assert shown
    for version in shown:
        assert version == catalogue[(version["list"], version["rate"], version["version"])]


def _same_times(value: Any) -> Any:
    """JSON with its times read as times: the twin writes +00:00 where the API writes Z."""
    if isinstance(value, dict):
        return {k: _same_times(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_same_times(v) for v in value]
    if isinstance(value, str) and len(value) > 18 and value[10:11] == "T":
        return dt.datetime.fromisoformat(value)
    return value


def test_the_current_version_is_marked_as_such(client: Client, demo: DemoSummary) -> None:
    data = client.get("/lists/", {"format": "json"}).json()
    by_key: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for v in _published():
        key = (v["grading_list__list_id"], v["grading_list__rate"])
        by_key.setdefault(key, []).append(v)
    latest = {
        key: max(rows, key=lambda r: r["published_at"])["name"] for key, rows in by_key.items()
    }
    for item in data["lists"]:
        for v in item["versions"]:
            assert v["current"] == (latest[(v["list"], v["rate"])] == v["version"])


def test_the_seeds_list_file_is_the_export_of_the_current_versions(
    client: Client, demo: DemoSummary
) -> None:
    list_id = _latest_standard_list()
    response = client.get(f"/downloads/{_file(list_id)}")

    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    assert f'filename="{_file(list_id)}"' in response["Content-Disposition"]
    assert response.content == export_list(list_id, fmt="csv")
    lines = response.content.decode("iso-8859-1").splitlines()  # docs/formats.md, Encodings
    assert lines[0] == HEADER
    assert len(lines[0].split(",")) == 20
    assert len(lines) > 100  # a header and every graded player of the tiny demo


def test_a_versions_file_is_that_versions_export(client: Client, demo: DemoSummary) -> None:
    list_id = _latest_standard_list()
    for version in ("initial", "august"):
        name = _file(list_id, "standard", version, fmt="json")
        response = client.get(f"/downloads/{name}")
        assert response.status_code == 200
        expected = export_list(list_id, rates=[Rate.STANDARD], version=version, fmt="json")
        assert response.content == expected
        entries = json.loads(response.content)
        assert {(e["rate"], e["version"]) for e in entries} == {("standard", version)}


def test_a_spreadsheet_download_holds_the_20_columns(client: Client, demo: DemoSummary) -> None:
    list_id = _latest_standard_list()
    response = client.get(f"/downloads/{_file(list_id, 'rapid', fmt='xlsx')}")

    assert response.status_code == 200
    assert response.content == export_list(list_id, rates=[Rate.RAPID], fmt="xlsx")
    sheet = load_workbook(io.BytesIO(response.content), read_only=True).active
    header = next(sheet.iter_rows(max_row=1, values_only=True))
    assert ",".join(str(cell) for cell in header[:20]) == HEADER
    assert header[20:] == ("GamesLatest", "RGamesLatest")  # then the latest games (G24)


def test_a_download_answers_304_to_its_etag(client: Client, demo: DemoSummary) -> None:
    url = f"/downloads/{_file(_latest_standard_list())}"
    first = client.get(url)
    etag = first["ETag"]
    assert etag.startswith('"') and "max-age" in first["Cache-Control"]
    assert "public" in first["Cache-Control"]

    again = client.get(url, HTTP_IF_NONE_MATCH=etag)

    assert again.status_code == 304
    assert again.content == b""
    assert again["ETag"] == etag


def test_a_version_named_file_may_be_kept_longer_than_the_current_one(
    client: Client, demo: DemoSummary
) -> None:
    list_id = _latest_standard_list()
    current = client.get(f"/downloads/{_file(list_id)}")
    fixed = client.get(f"/downloads/{_file(list_id, 'standard', 'initial')}")
    assert _max_age(fixed) > _max_age(current) > 0


def _max_age(response: Any) -> int:
    parts = dict(p.strip().partition("=")[::2] for p in response["Cache-Control"].split(","))
    return int(parts["max-age"])


def test_a_second_download_comes_from_the_shared_cache(client: Client, demo: DemoSummary) -> None:
    url = f"/downloads/{_file(_latest_standard_list(), fmt='json')}"
    client.get(url)
    with CaptureQueriesContext(connection) as queries:
        second = client.get(url)
    assert second.status_code == 200
    assert len(_data_queries(queries)) == 2  # the versions and the data token: no export


def test_a_published_versions_file_is_kept_on_the_servers_disk(
    client: Client, demo: DemoSummary
) -> None:
    """Issue 25: made once and kept; with the shared cache emptied (restarted, or culled)
    the server still sends it without exporting it again, and the same bytes."""
    list_id = _latest_standard_list()
    url = f"/downloads/{_file(list_id, fmt='xlsx')}"
    first = client.get(url)
    cache.clear()
    with CaptureQueriesContext(connection) as queries:
        again = client.get(url)
    assert again.status_code == first.status_code == 200
    assert len(_data_queries(queries)) == 2  # the versions and their snapshots: no export
    assert again.content == first.content == export_list(list_id, fmt="xlsx")


def test_a_kept_csv_goes_out_gzipped_from_a_copy_kept_zipped(
    client: Client, demo: DemoSummary
) -> None:
    """Issue 25: a national CSV gzipped at every download cost the server 180 ms each
    (bench/web.py); the zipped copy is made once and kept beside the file. It unzips to
    the file itself, keeps the file's tag weakly and still answers 304; XLSX, a zip
    already, goes out as it is."""
    list_id = _latest_standard_list()
    url = f"/downloads/{_file(list_id)}"
    accepts = {"HTTP_ACCEPT_ENCODING": "gzip, deflate, br"}
    plain = client.get(url)
    zipped = client.get(url, **accepts)
    assert zipped["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in zipped["Vary"]
    assert gzip.decompress(zipped.content) == plain.content == export_list(list_id, fmt="csv")
    assert zipped["ETag"] == f"W/{plain['ETag']}"
    cache.clear()
    with CaptureQueriesContext(connection) as queries:
        again = client.get(url, **accepts)
    assert again.content == zipped.content  # the kept copy, not compressed anew
    assert len(_data_queries(queries)) == 2  # the versions and their snapshots: no export
    unchanged = client.get(url, HTTP_IF_NONE_MATCH=zipped["ETag"], **accepts)
    assert unchanged.status_code == 304
    xlsx = client.get(f"/downloads/{_file(list_id, fmt='xlsx')}", **accepts)
    assert not xlsx.has_header("Content-Encoding")


def test_the_warming_thread_makes_the_newest_lists_files_before_anyone_asks(
    client: Client, demo: DemoSummary
) -> None:
    from ecfgrading.web import warming

    newest = max(v["grading_list__list_id"] for v in _published())
    warming.warm_once("")
    cache.clear()  # kept on the disk, not only in the shared cache
    for fmt in ("csv", "json", "xlsx"):
        with CaptureQueriesContext(connection) as queries:
            response = client.get(f"/downloads/{_file(newest, fmt=fmt)}")
        assert response.status_code == 200
        assert len(_data_queries(queries)) == 2, fmt  # no export: made by the warming
        assert response.content == export_list(newest, fmt=fmt)


def _data_queries(queries: CaptureQueriesContext) -> list[str]:
    """Queries of the data, leaving out those of Django's database cache (if in use)."""
    found = [q["sql"] for q in queries.captured_queries]
    return [sql for sql in found if "web_cache" not in sql and "SAVEPOINT" not in sql]


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("grades190007.csv", "no list July 1900 has been published"),
        ("grades201101-standard.csv", "has no published version"),  # January: rapid only
        ("grades201207-standard-rev7.csv", "no published rev7 version"),
        ("grades2012.csv", "grades201207.csv"),  # says what names look like
        ("grades201207.pdf", "grades201207.csv"),
    ],
)
def test_a_file_that_does_not_exist_is_a_404_page_that_says_why(
    client: Client, demo: DemoSummary, name: str, words: str
) -> None:
    response = client.get(f"/downloads/{name}")
    assert response.status_code == 404
    assert words in response.content.decode()


# G29: FIDE = ECF x 8 + 650, national Elo = ECF x 8 + 600 (the seeds' table, by hand).
@pytest.mark.parametrize(
    ("ecf", "fide", "national"),
    [(60, 1130, 1080), (150, 1850, 1800), (200, 2250, 2200), (270, 2810, 2760)],
)
def test_g29_conversion_table_values(
    client: Client, demo: DemoSummary, ecf: int, fide: int, national: int
) -> None:
    table = client.get("/lists/", {"format": "json"}).json()["conversions"]
    row = next(r for r in table["rows"] if r["ecf"] == ecf)
    assert (row["fide"], row["national_elo"]) == (fide, national)
    assert row["below_fide_minimum"] == (fide < 1200)


def test_g29_table_runs_from_60_to_270_with_the_seeds_note(
    client: Client, demo: DemoSummary
) -> None:
    table = client.get("/lists/", {"format": "json"}).json()["conversions"]
    assert [r["ecf"] for r in table["rows"]] == list(range(60, 280, 10))
    assert table["note"] == "The minimum published FIDE Elo is 1200"
    html = client.get("/lists/").content.decode()
    assert "The minimum published FIDE Elo is 1200" in html
    assert (
        '<th scope="row" class="num">150</th><td class="num">1850</td><td class="num">1800</td>'
        in html
    )


def test_the_page_is_cached_and_makes_few_queries(client: Client, demo: DemoSummary) -> None:
    with CaptureQueriesContext(connection) as queries:
        response = client.get("/lists/")
    assert response.status_code == 200
    assert len(_data_queries(queries)) == 2  # the data token and the versions: not per row
    again = client.get("/lists/", HTTP_IF_NONE_MATCH=response["ETag"])
    assert again.status_code == 304


def test_a_file_another_server_is_making_is_waited_for_then_made_if_need_be(
    client: Client, demo: DemoSummary, monkeypatch: pytest.MonkeyPatch
) -> None:
    list_id = _latest_standard_list()
    resolved = list_files.resolve(list_files.parse_filename(_file(list_id)))
    making = f"listfile:{resolved.tag}:making"
    cache.add(making, 1)  # another server started and never finished
    monkeypatch.setattr(list_files, "_WAIT_SECONDS", 0.3)

    response = client.get(f"/downloads/{_file(list_id)}")

    assert response.status_code == 200
    assert response.content == export_list(list_id, fmt="csv")
    assert cache.get(making) is None
