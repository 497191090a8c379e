"""The archive file: a zip of JSON members and a ``manifest.json`` that names the format,
its version, the scope and the SHA-256 of every member (``docs/archives.md``).

Reading is bounded before anything is decompressed: the file's size, the number of
members, each member's declared size and their sum, the compression ratio (a zip bomb),
safe member names; then every member is read at most to its declared size, checked
against the manifest's SHA-256, and parsed as strict JSON. Any failure is an
:class:`ArchiveError` (a 400 with a sentence), raised before the database is touched.
"""

from __future__ import annotations

import hashlib
import io
import json
import re
import zipfile
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.utils.translation import gettext_lazy as _

from league.errors import UserError
from league.inputs import JSONInputError, holds_nul, strict_json

FORMAT = "tianhei-archive"
VERSION = 1
MANIFEST = "manifest.json"

#: Member names: lower-case words, digits, dots, dashes, underscores and slashes; never
#: absolute, never ``..``.
_NAME = re.compile(r"^[a-z0-9_-]+(/[a-z0-9_.-]+)*\.json$")
#: Deflated JSON rarely shrinks more than 100×; far beyond that is a zip bomb.
MAX_RATIO = 1000


def max_bytes() -> int:
    """``ARCHIVE_MAX_BYTES``: the largest archive file accepted (default 50 MB)."""
    return int(getattr(settings, "ARCHIVE_MAX_BYTES", 50 * 1024 * 1024))


def max_members() -> int:
    """``ARCHIVE_MAX_MEMBERS``: the most files inside one archive (default 100,000)."""
    return int(getattr(settings, "ARCHIVE_MAX_MEMBERS", 100_000))


def max_uncompressed() -> int:
    """``ARCHIVE_MAX_UNCOMPRESSED``: the most bytes its members may hold once unpacked
    (default 500 MB)."""
    return int(getattr(settings, "ARCHIVE_MAX_UNCOMPRESSED", 500 * 1024 * 1024))


class ArchiveError(UserError):
    """A file that is not an archive this site can load (nothing has been written)."""


def _refuse(message: Any, code: str, **params: Any) -> ArchiveError:
    return ArchiveError(message, code=f"archive.{code}", params=params)


def dumps(value: Any) -> bytes:
    """The canonical JSON of a member: sorted keys, UTF-8, one trailing newline."""
    text = json.dumps(value, ensure_ascii=False, sort_keys=True, indent=1, default=str)
    return (text + "\n").encode()


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def write_zip(members: dict[str, Any], manifest: dict[str, Any]) -> bytes:
    """The archive's bytes: each member as canonical JSON, then the manifest with every
    member's SHA-256 and the format's name and version."""
    encoded = {name: dumps(value) for name, value in sorted(members.items())}
    manifest = {
        **manifest,
        "format": FORMAT,
        "version": VERSION,
        "members": {name: sha256(data) for name, data in encoded.items()},
    }
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(MANIFEST, dumps(manifest))
        for name, data in encoded.items():
            zf.writestr(name, data)
    return out.getvalue()


@dataclass(frozen=True)
class Archive:
    """A verified archive: its manifest, its members parsed, and its identity (the
    SHA-256 of the manifest, which covers every member)."""

    manifest: dict[str, Any]
    members: dict[str, Any]
    digest: str

    @property
    def public(self) -> bool:
        return bool(self.manifest.get("public"))

    @property
    def scope(self) -> dict[str, Any]:
        scope = self.manifest.get("scope")
        return scope if isinstance(scope, dict) else {}

    def get(self, name: str, default: Any = None) -> Any:
        return self.members.get(name, default)


def read_zip(data: bytes) -> Archive:
    """Check and read an archive's bytes, or raise :class:`ArchiveError`."""
    if len(data) > max_bytes():
        raise _refuse(
            _("The archive is too large: %(size)s MB, the limit is %(limit)s MB."),
            "too_large",
            size=len(data) // 2**20,
            limit=max_bytes() // 2**20,
        )
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError):
        raise _refuse(_("The file is not a zip archive."), "not_zip") from None
    with zf:
        infos = zf.infolist()
        _check_listing(infos)
        raw = {info.filename: _read_member(zf, info) for info in infos}
    manifest = _parse(MANIFEST, raw.pop(MANIFEST))
    _check_manifest(manifest, raw)
    members = {name: _parse(name, body) for name, body in raw.items()}
    return Archive(manifest, members, sha256(dumps(manifest)))


def _check_listing(infos: list[zipfile.ZipInfo]) -> None:
    if len(infos) > max_members():
        raise _refuse(
            _("The archive holds %(count)s files; the limit is %(limit)s."),
            "too_many_members",
            count=len(infos),
            limit=max_members(),
        )
    names = [info.filename for info in infos]
    if len(set(names)) != len(names):
        raise _refuse(_("The archive holds the same file twice."), "duplicate_member")
    if MANIFEST not in names:
        raise _refuse(_("The archive has no manifest.json."), "no_manifest")
    total = 0
    for info in infos:
        if not _NAME.match(info.filename) or ".." in info.filename:
            raise _refuse(
                _("The archive holds a file with a name it may not have: %(name)s."),
                "bad_member_name",
                name=info.filename[:200],
            )
        if info.flag_bits & 0x1:
            raise _refuse(_("The archive is encrypted."), "encrypted")
        total += info.file_size
        ratio = info.file_size / max(info.compress_size, 1)
        if total > max_uncompressed() or (info.file_size > 2**20 and ratio > MAX_RATIO):
            raise _refuse(
                _("The archive unpacks to more than %(limit)s MB: refused."),
                "too_large_unpacked",
                limit=max_uncompressed() // 2**20,
            )


def _read_member(zf: zipfile.ZipFile, info: zipfile.ZipInfo) -> bytes:
    try:
        with zf.open(info) as member:
            body = member.read(info.file_size + 1)
    except (zipfile.BadZipFile, OSError, ValueError, NotImplementedError, EOFError):
        raise _refuse(
            _("The archive is damaged: %(name)s cannot be read."), "damaged", name=info.filename
        ) from None
    if len(body) != info.file_size:
        raise _refuse(
            _("The archive is damaged: %(name)s cannot be read."), "damaged", name=info.filename
        )
    return body


def _parse(name: str, body: bytes) -> Any:
    try:
        value = strict_json(body.decode("utf-8"))
    except (UnicodeDecodeError, JSONInputError, ValueError, RecursionError):
        raise _refuse(
            _("The archive's %(name)s is not valid JSON."), "bad_json", name=name
        ) from None
    if holds_nul(value):
        raise _refuse(_("The archive's %(name)s holds a NUL character."), "bad_json", name=name)
    return value


def _check_manifest(manifest: Any, raw: dict[str, bytes]) -> None:
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise _refuse(_("The file is not a Tianhei archive."), "not_archive")
    version = manifest.get("version")
    if version != VERSION:
        raise _refuse(
            _("The archive's format version is %(version)s; this site reads version %(ours)s."),
            "version",
            version=str(version)[:20],
            ours=VERSION,
        )
    listed = manifest.get("members")
    if not isinstance(listed, dict) or set(listed) != set(raw):
        raise _refuse(
            _("The archive's files do not match its manifest: it was altered."), "tampered"
        )
    for name, body in raw.items():
        if listed[name] != sha256(body):
            raise _refuse(
                _("The archive's %(name)s does not match its manifest: it was altered."),
                "tampered",
                name=name,
            )
