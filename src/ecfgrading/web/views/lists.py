"""Every published list and version with its files, the conversion table (G29), and the
files themselves (``/downloads/gradesYYYYMM.csv`` and the names of
``services.public.downloads``)."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.views.decorators.http import require_safe

from ecfgrading.lookups import downloads
from ecfgrading.lookups.guide import conversion_table
from ecfgrading.lookups.lists import CurrentList, VersionInfo
from ecfgrading.services.errors import ServiceError
from ecfgrading.web.caching import cached_page
from ecfgrading.web.render import respond

# A file named by its version holds the same versions for ever (G26); one named by its
# list follows the current version, so browsers ask again sooner (with the ETag).
FIXED_MAX_AGE = 3600
CURRENT_MAX_AGE = 60


@require_safe
@cached_page
def index(request: HttpRequest) -> HttpResponse:
    found = downloads.catalogue()
    table = conversion_table()
    context = {"catalogue": [_list_view(item) for item in found], "conversions": table}
    data = {"lists": [_list_data(item) for item in found], "conversions": table}
    return respond(request, "web/lists/index.html", context, data=data)


@require_safe
def download(request: HttpRequest, filename: str) -> HttpResponse:
    """A list file; 304 when the browser's copy (its ETag) is still the file."""
    try:
        resolved = downloads.resolve(downloads.parse_filename(filename))
    except ServiceError as error:
        raise Http404(error.message) from None
    etag = f'"{resolved.tag}"'
    if etag in _if_none_match(request):
        return _cache_headers(HttpResponseNotModified(), resolved, etag)
    file = resolved.file
    response = HttpResponse(downloads.file_bytes(resolved), content_type=file.content_type)
    response["Content-Disposition"] = f'attachment; filename="{file.filename}"'
    return _cache_headers(response, resolved, etag)


def _if_none_match(request: HttpRequest) -> list[str]:
    header = request.headers.get("If-None-Match", "")
    return [tag.strip().removeprefix("W/") for tag in header.split(",") if tag.strip()]


def _cache_headers(
    response: HttpResponse, resolved: downloads.ResolvedFile, etag: str
) -> HttpResponse:
    response["ETag"] = etag
    max_age = FIXED_MAX_AGE if resolved.fixed else CURRENT_MAX_AGE
    patch_cache_control(response, public=True, max_age=max_age)
    return response


# What pages show of lists and versions (shared with the home page) -------------------------


def version_title(name: str) -> str:
    """initial -> 'Initial', august -> 'August revision', rev2 -> 'Revision 2' (G26)."""
    if name == "initial":
        return "Initial"
    if name == "august":
        return "August revision"
    return f"Revision {name.removeprefix('rev')}"


def file_urls(links: tuple[downloads.FileLink, ...]) -> dict[str, str]:
    return {link.fmt: reverse("web:download", args=[link.filename]) for link in links}


def version_data(version: VersionInfo) -> dict[str, Any]:
    return {
        "id": version.id,
        "list": version.list_id,
        "rate": version.rate.value,
        "version": version.name,
        "published_at": version.published_at,
        "downloads": file_urls(downloads.links(version.list_id, version.rate, version.name)),
    }


def current_data(current: CurrentList) -> dict[str, Any]:
    """A current list as the home page's JSON twin gives it."""
    return {
        "rate": current.rate.value,
        "list": current.list_id,
        "label": current.label,
        "current_version": current.current.name,
        "versions": [version_data(v) for v in current.versions],
        "downloads": file_urls(downloads.links(current.list_id, current.rate)),
    }


def current_view(current: CurrentList) -> dict[str, Any]:
    """A current list as a page shows it: the current version first, then earlier ones."""
    return {
        "rate": current.rate.value,
        "label": current.label,
        "list_id": current.list_id,
        "current": _version_view(current.current, True),
        "earlier": [_version_view(v, False) for v in reversed(current.versions[:-1])],
        "downloads": file_urls(downloads.links(current.list_id, current.rate)),
    }


def _version_view(version: VersionInfo, current: bool) -> dict[str, Any]:
    return {
        "title": version_title(version.name),
        "name": version.name,
        "rate": version.rate.value,
        "published_at": version.published_at,
        "current": current,
        "downloads": file_urls(downloads.links(version.list_id, version.rate, version.name)),
    }


def _list_view(item: downloads.ListFiles) -> dict[str, Any]:
    return {
        "list_id": item.list_id,
        "label": item.label,
        "whole": file_urls(item.whole),
        "whole_name": item.whole[0].filename,
        "versions": [_version_view(v.version, v.current) for v in item.versions],
    }


def _list_data(item: downloads.ListFiles) -> dict[str, Any]:
    return {
        "list": item.list_id,
        "label": item.label,
        "downloads": file_urls(item.whole),
        "versions": [{**version_data(v.version), "current": v.current} for v in item.versions],
    }
