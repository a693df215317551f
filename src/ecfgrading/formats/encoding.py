"""Bytes to text for files written by old Windows tools (results-file.md: UTF-8, with a
fallback to Windows-1252 for old files; a byte-order mark is dropped).

The fallback is decided line by line, not for the whole file: a UTF-8 file into which an
old tool pasted one Windows-1252 line must keep its UTF-8 names ("Müller", not
"MÃ¼ller"). A line that is neither (undefined Windows-1252 bytes, or UTF-8 and
Windows-1252 mixed within the line) cannot be read faithfully, and is named so that the
file can be rejected with that line rather than stored as mojibake.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass

_UTF16_BOMS = (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)
# A well-formed UTF-8 sequence of two to four bytes: its presence in a line that is not
# valid UTF-8 means the line mixes both encodings.
_UTF8_MULTIBYTE = re.compile(
    rb"[\xc2-\xdf][\x80-\xbf]|[\xe0-\xef][\x80-\xbf]{2}|[\xf0-\xf4][\x80-\xbf]{3}"
)
# Bytes Windows-1252 leaves undefined; Python decodes them only by replacement.
_CP1252_UNDEFINED = re.compile(rb"[\x81\x8d\x8f\x90\x9d]")
_SAMPLE = 4096  # bytes looked at to recognise UTF-16 without a byte-order mark


@dataclass(frozen=True)
class Decoded:
    """A file's text, the encoding it was read in, and the lines it could not read."""

    text: str
    encoding: str  # utf-8, windows-1252, utf-8 and windows-1252, utf-16-le, utf-16-be
    bad_lines: tuple[int, ...] = ()  # 1-based, as the readers count lines ("\n")
    fallback_lines: tuple[int, ...] = ()  # Windows-1252 lines in a UTF-8 file


def decode(data: bytes) -> Decoded:
    """UTF-16 (with or without a BOM), else UTF-8, else Windows-1252 line by line."""
    utf16 = _utf16_codec(data)
    if utf16 is not None:
        return _decode_utf16(data, utf16)
    try:
        return Decoded(data.decode("utf-8-sig"), "utf-8")
    except UnicodeDecodeError:
        return _decode_lines(data)


def utf16_marked(data: bytes) -> bool:
    """Text that says it is UTF-16 (Notepad's "Unicode"), little- or big-endian: its
    zero bytes are those of the encoding, not of a binary file."""
    return data.startswith(_UTF16_BOMS)


def _utf16_codec(data: bytes) -> str | None:
    """Notepad's "Unicode": with a BOM, or recognised by its zero bytes (ASCII text)."""
    if data.startswith(_UTF16_BOMS):
        return "utf-16"
    sample = data[: min(_SAMPLE, len(data) - len(data) % 2)]  # a cut file may end mid-pair
    if len(sample) < 4:
        return None
    even, odd = sample[0::2].count(0), sample[1::2].count(0)
    half = len(sample) // 2
    if odd > 0.4 * half and even < 0.05 * half:
        return "utf-16-le"
    if even > 0.4 * half and odd < 0.05 * half:
        return "utf-16-be"
    return None


def _decode_utf16(data: bytes, codec: str) -> Decoded:
    text = data.decode(codec, errors="replace")
    bad = tuple(n for n, line in enumerate(text.split("\n"), 1) if "\ufffd" in line)
    name = codec if codec != "utf-16" else ("utf-16-le" if data[:2] == b"\xff\xfe" else "utf-16-be")
    return Decoded(text.removeprefix("\ufeff"), name, bad)


def _decode_lines(data: bytes) -> Decoded:
    """Each line as UTF-8 when it is valid, else as Windows-1252 when that is faithful."""
    lines, bad, fallback = [], [], []
    utf8_seen = False
    for number, raw in enumerate(data.removeprefix(codecs.BOM_UTF8).split(b"\n"), 1):
        try:
            lines.append(raw.decode("utf-8"))
            utf8_seen = utf8_seen or not raw.isascii()
            continue
        except UnicodeDecodeError:
            pass
        lines.append(raw.decode("cp1252", errors="replace"))
        fallback.append(number)
        if _UTF8_MULTIBYTE.search(raw) or _CP1252_UNDEFINED.search(raw):
            bad.append(number)
    encoding = "utf-8 and windows-1252" if utf8_seen else "windows-1252"
    kept = tuple(fallback) if utf8_seen else ()
    return Decoded("\n".join(lines), encoding, tuple(bad), kept)


def drop_bom(text: str) -> str:
    return text[1:] if text.startswith("\ufeff") else text
