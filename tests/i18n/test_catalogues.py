"""The catalogues are complete: every string the code marks has a 简体中文 and an Español
translation, none fuzzy, placeholders intact, and the committed .mo files match the .po.

``makemessages`` runs on a temporary copy of the sources and catalogues, so the test
never touches the repository.
"""

from __future__ import annotations

import gettext
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LANGS = ("zh_Hans", "es")
SOURCES = (
    "config",
    "engine",
    "games",
    "league",
    "results",
    "templates",
    "static",
    "locale",
    "manage.py",
)

pytestmark = pytest.mark.skipif(
    shutil.which("msgfmt") is None or shutil.which("msgattrib") is None,
    reason="needs the gettext tools (msgfmt, msgattrib)",
)


def _run(cmd: list[str], cwd: Path, **env: str) -> str:
    result = subprocess.run(
        cmd, cwd=cwd, capture_output=True, text=True, timeout=300, env={**os.environ, **env}
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


@pytest.fixture(scope="module")
def fresh(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the project whose catalogues makemessages has just refreshed."""
    copy = tmp_path_factory.mktemp("i18n") / "project"
    copy.mkdir()
    for name in SOURCES:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, copy / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(src, copy / name)
    # extraction needs no admin site; the plain admin app keeps it independent of admin.py
    (copy / "i18n_settings.py").write_text(
        "from config.settings import *  # noqa: F403\n"
        "INSTALLED_APPS = ['django.contrib.admin.apps.SimpleAdminConfig' "
        "if a == 'django.contrib.admin' else a for a in INSTALLED_APPS]  # noqa: F405\n"
    )
    env = {"DJANGO_SETTINGS_MODULE": "i18n_settings", "PYTHONPATH": str(copy)}
    for domain in ("django", "djangojs"):
        _run(
            [
                sys.executable,
                "manage.py",
                "makemessages",
                "-d",
                domain,
                "-l",
                "zh_Hans",
                "-l",
                "es",
                "--ignore=i18n_settings.py",
                "--no-obsolete",
            ],
            copy,
            **env,
        )
    return copy


def _catalogues(root: Path) -> list[Path]:
    return sorted((root / "locale").glob("*/LC_MESSAGES/*.po"))


@pytest.mark.parametrize("lang", LANGS)
def test_every_marked_string_is_translated(fresh: Path, lang: str) -> None:
    po = fresh / "locale" / lang / "LC_MESSAGES" / "django.po"
    untranslated = _run(["msgattrib", "--untranslated", "--no-wrap", str(po)], fresh)
    fuzzy = _run(["msgattrib", "--only-fuzzy", "--no-wrap", str(po)], fresh)
    assert "msgid" not in untranslated, f"untranslated in {lang}:\n{untranslated[:3000]}"
    assert "msgid" not in fuzzy, f"fuzzy in {lang}:\n{fuzzy[:3000]}"
    stats = subprocess.run(
        ["msgfmt", "--check", "--statistics", "-o", os.devnull, str(po)],
        capture_output=True,
        text=True,
    )
    assert stats.returncode == 0, stats.stderr  # placeholders agree with the msgid
    assert " translated message" in stats.stderr and "untranslated" not in stats.stderr


def test_javascript_has_no_untranslated_catalogue(fresh: Path) -> None:
    """The sheet gets its words from the page (json_script); no djangojs strings yet."""
    for lang in LANGS:
        po = fresh / "locale" / lang / "LC_MESSAGES" / "djangojs.po"
        if po.exists():
            out = _run(["msgattrib", "--untranslated", str(po)], fresh)
            assert out.count("msgid") <= 1, out  # at most the header


def test_the_repository_catalogues_are_current(fresh: Path) -> None:
    """The committed .po holds every string makemessages finds (nothing new, nothing gone)."""
    for lang in LANGS:
        mine = _msgids(ROOT / "locale" / lang / "LC_MESSAGES" / "django.po")
        theirs = _msgids(fresh / "locale" / lang / "LC_MESSAGES" / "django.po")
        assert theirs - mine == set(), f"{lang}: run makemessages: {sorted(theirs - mine)[:10]}"


def _msgids(po: Path) -> set[str]:
    out = subprocess.run(
        ["msgattrib", "--no-obsolete", "--no-wrap", str(po)], capture_output=True, text=True
    ).stdout
    return {line for line in out.splitlines() if line.startswith(("msgid ", "msgctxt "))}


@pytest.mark.parametrize("lang", LANGS)
def test_committed_mo_files_match_the_po(tmp_path: Path, lang: str) -> None:
    """`make run` and the Docker image use the committed .mo files: they must be current."""
    folder = ROOT / "locale" / lang / "LC_MESSAGES"
    compiled = tmp_path / "django.mo"
    _run(["msgfmt", "-o", str(compiled), str(folder / "django.po")], tmp_path)
    with open(compiled, "rb") as a, open(folder / "django.mo", "rb") as b:
        want, have = gettext.GNUTranslations(a), gettext.GNUTranslations(b)
    assert have._catalog == want._catalog  # type: ignore[attr-defined]
