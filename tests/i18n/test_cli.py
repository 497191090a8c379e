"""Management commands speak the language of TIANHEI_LANGUAGE or the locale."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from config.cli import cli_language

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("env", "code"),
    [
        ({"LANG": "zh_CN.UTF-8"}, "zh-hans"),
        ({"LANG": "zh_TW.UTF-8"}, "zh-hans"),
        ({"LC_ALL": "es_ES.UTF-8", "LANG": "zh_CN.UTF-8"}, "es"),
        ({"LANG": "es_MX.UTF-8"}, "es"),
        ({"LANGUAGE": "fr:es", "LANG": "en_GB.UTF-8"}, "es"),
        ({"TIANHEI_LANGUAGE": "zh-hans", "LANG": "es_ES.UTF-8"}, "zh-hans"),
        ({"LANG": "en_US.UTF-8"}, "en"),
        ({"LANG": "C.UTF-8"}, None),
        ({"LANG": "fr_FR.UTF-8"}, None),
        ({}, None),
    ],
)
def test_the_language_comes_from_the_environment(env: dict[str, str], code: str | None) -> None:
    assert cli_language(env) == code


def test_a_command_answers_in_chinese(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "TIANHEI_LANGUAGE": "zh-hans",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
    }
    run = [sys.executable, "manage.py"]
    subprocess.run([*run, "migrate", "-v0"], cwd=ROOT, env=env, check=True, timeout=300)
    subprocess.run(
        [
            *run,
            "shell",
            "-c",
            "from django.contrib.auth.models import User; User.objects.create(username='x')",
        ],
        cwd=ROOT,
        env=env,
        check=True,
        timeout=120,
    )
    out = subprocess.run(
        [*run, "seed_demo", "--if-empty"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    assert "数据库中已有数据" in out.stdout, out.stdout
