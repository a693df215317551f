"""Bytes to text for files written by old Windows tools."""

from __future__ import annotations

import codecs

_UTF16_BOMS = (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)


def decode(data: bytes) -> tuple[str, bool]:
    """UTF-8, else Windows-1252 (results-file.md); a BOM is dropped.

    The flag is True when some bytes could not be decoded and were replaced.
    """
    if data.startswith(_UTF16_BOMS):  # Notepad's "Unicode"; cheap to accept
        text = data.decode("utf-16", errors="replace")
        return text, "\ufffd" in text
    try:
        return data.decode("utf-8-sig"), False
    except UnicodeDecodeError:
        text = data.decode("cp1252", errors="replace")
    return text, "\ufffd" in text


def drop_bom(text: str) -> str:
    return text[1:] if text.startswith("\ufeff") else text
