"""Every published list and version with its files, the conversion table (G29), and the
files themselves (``/downloads/gradesYYYYMM.csv`` and the names of
``lookups.list_files``).

The catalogue (``lookups.lists.catalogue``) has one JSON representation,
``catalogue_data``: the page's twin gives it, and so does /api/v1/lists. Every version
names the rule set it was computed under (G31): ``rule_set`` in JSON, in words with a
link to the help page's comparison on pages."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.middleware.gzip import re_accepts_gzip
from django.urls import reverse
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from django.utils.http import http_date
from django.views.decorators.http import require_safe

from ecfgrading.lookups import list_files
from ecfgrading.lookups.conversions import conversion_table
from ecfgrading.lookups.guide import rule_sets
from ecfgrading.lookups.lists import Catalogue, CurrentList, PublishedList, VersionInfo, catalogue
from ecfgrading.web.caching import cached_page
from ecfgrading.web.deployed import site_build
from ecfgrading.web.middleware.compression import COMPRESSED_TYPES
from ecfgrading.web.render import respond

# A file named by its version holds the same versions for ever (G26); one named by its
# list follows the current version, so browsers ask again sooner (with the ETag).
FIXED_MAX_AGE = 3600
CURRENT_MAX_AGE = 60


@require_safe
@cached_page
def index(request: HttpRequest) -> HttpResponse:
    found = catalogue()
    table = conversion_table()
    in_force = {current.current.id for current in found.current}  # one a rate (G26)
    context = {
        "current": [current_view(current) for current in found.current],
        "catalogue": [_list_view(item, in_force) for item in found.lists],
        "conversions": table,
        "rule_sets": rule_sets(),  # G31: when the method changed, for the page's words
    }
    data = {**catalogue_data(found), "conversions": table}
    return respond(request, "web/lists/index.html", context, data=data)


@require_safe
def download(request: HttpRequest, filename: str) -> HttpResponse:
    """A list file, dated (``Last-Modified``) by the latest publication of the versions
    it holds; 304 when the browser's copy is still the file: by its ETag
    (``If-None-Match``) or, without one, its date (``If-Modified-Since``), in RFC 9110
    13.2.2's order (Django's ``get_conditional_response``)."""
    resolved = list_files.resolve(list_files.parse_filename(filename))
    etag = f'"{resolved.tag}"'
    published = int(max(v.published_at for v in resolved.versions).timestamp())
    unchanged = get_conditional_response(request, etag=etag, last_modified=published)
    if unchanged is not None:
        return _cache_headers(unchanged, resolved, etag, published)
    file = resolved.file
    zipped = _zipped(request, resolved)
    body = zipped if zipped is not None else list_files.file_bytes(resolved, build=site_build())
    response = HttpResponse(body, content_type=file.content_type)
    response["Content-Disposition"] = f'attachment; filename="{file.filename}"'
    response = _cache_headers(response, resolved, etag, published)
    if zipped is not None:
        # As the compression middleware would send it (which leaves it be): gzip, a weak
        # tag for the encoded bytes, and a cache told that the encoding varies.
        response["Content-Encoding"] = "gzip"
        response["ETag"] = f"W/{etag}"
        patch_vary_headers(response, ("Accept-Encoding",))
    return response


def _zipped(request: HttpRequest, resolved: list_files.ResolvedFile) -> bytes | None:
    """The kept file already gzipped, for a client that takes gzip and a format the site
    compresses (``web.middleware.compression``; XLSX is a zip already); else None."""
    accepts = re_accepts_gzip.search(request.META.get("HTTP_ACCEPT_ENCODING", ""))
    if not accepts or resolved.file.content_type.split(";", 1)[0] not in COMPRESSED_TYPES:
        return None
    return list_files.gzipped_bytes(resolved, build=site_build())


def _cache_headers(
    response: HttpResponse, resolved: list_files.ResolvedFile, etag: str, published: int
) -> HttpResponse:
    response["ETag"] = etag
    response["Last-Modified"] = http_date(published)
    max_age = FIXED_MAX_AGE if resolved.fixed else CURRENT_MAX_AGE
    patch_cache_control(response, public=True, max_age=max_age)
    return response


# What pages show of lists and versions (shared with the home page) -------------------------


def file_urls(links: tuple[list_files.FileLink, ...]) -> dict[str, str]:
    return {link.fmt: reverse("web:download", args=[link.filename]) for link in links}


def catalogue_data(found: Catalogue) -> dict[str, Any]:
    """The catalogue as the lists page's twin and /api/v1/lists give it."""
    return {
        "current": [
            {
                "rate": each.rate.value,
                "list": each.list_id,
                "version": each.current.name,
                "rule_set": each.current.rules_name,  # G31
            }
            for each in found.current
        ],
        "lists": [_list_data(item) for item in found.lists],
    }


def _list_data(item: PublishedList) -> dict[str, Any]:
    return {
        "list": item.list_id,
        "label": item.label,
        "downloads": file_urls(list_files.links(item.list_id)),
        "versions": [version_data(v.info, current=v.current) for v in item.versions],
    }


def version_data(version: VersionInfo, *, current: bool) -> dict[str, Any]:
    """A published version, its files and the address of its entries in /api/v1."""
    entries = reverse(
        "api-v1:list_entries", kwargs={"list_id": version.list_id, "rate": version.rate.value}
    )
    return {
        "list": version.list_id,
        "rate": version.rate.value,
        "version": version.name,
        "rule_set": version.rules_name,  # G31: the rule set it was computed under
        "published_at": version.published_at,
        "current": current,  # the latest published version of its list and rate (G26)
        "downloads": file_urls(list_files.links(version.list_id, version.rate, version.name)),
        "entries": f"{entries}?version={version.name}",
    }


def current_data(current: CurrentList) -> dict[str, Any]:
    """A current list as the home page's JSON twin gives it."""
    return {
        "rate": current.rate.value,
        "list": current.list_id,
        "label": current.label,
        "in_words": current.words,  # July 2015, revised in August
        "current_version": current.current.name,
        "versions": [version_data(v, current=v is current.current) for v in current.versions],
        "downloads": file_urls(list_files.links(current.list_id, current.rate)),
    }


def current_view(current: CurrentList) -> dict[str, Any]:
    """A current list as a page shows it: the current version first, then earlier ones."""
    return {
        "rate": current.rate.value,
        "label": current.label,
        "words": current.words,
        "list_id": current.list_id,
        "current": _version_view(current.current, True),
        "earlier": [_version_view(v, False) for v in reversed(current.versions[:-1])],
        "downloads": file_urls(list_files.links(current.list_id, current.rate)),
    }


def _version_view(version: VersionInfo, current: bool) -> dict[str, Any]:
    """A version as a page shows it: as the JSON gives it, with its title; templates name
    its rule set with ``{% computed_under v.rule_set %}`` (``templatetags.grading``) and
    its title in a sentence: 'initial version', 'August version', 'revision 2'."""
    return {**version_data(version, current=current), "title": version.words}


def _list_view(item: PublishedList, in_force: set[int]) -> dict[str, Any]:
    """A list's rows; ``in_force``: the ids of the current lists' current versions, the
    only ones the page calls current (a past list's last version is not)."""
    whole = list_files.links(item.list_id)
    return {
        "list_id": item.list_id,
        "label": item.label,
        "whole": file_urls(whole),
        "whole_name": whole[0].filename,
        "versions": [
            {**_version_view(v.info, v.current), "in_force": v.info.id in in_force}
            for v in item.versions
        ],
    }
