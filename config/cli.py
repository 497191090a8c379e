"""Management commands speak the user's language.

``manage.py`` calls :func:`speak_the_users_language` before running a command: the
language comes from ``TIANHEI_LANGUAGE``, else the usual locale variables
(``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``: ``zh_CN.UTF-8`` → 简体中文,
``es_ES.UTF-8`` → Español); ``C``/``POSIX`` or anything unknown keeps English.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

VARIABLES = ("TIANHEI_LANGUAGE", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


def cli_language(environ: Mapping[str, str] | None = None) -> str | None:
    """The supported language code the environment asks for, or None."""
    from django.utils.translation import get_supported_language_variant

    env = os.environ if environ is None else environ
    for name in VARIABLES:
        value = env.get(name, "")
        for part in value.split(":"):  # LANGUAGE may list several
            code = part.split(".")[0].split("@")[0].replace("_", "-").lower()
            if not code or code in ("c", "posix"):
                continue
            try:
                return get_supported_language_variant(code)
            except LookupError:
                continue
        if value:
            return None
    return None


def speak_the_users_language(argv: Sequence[str] | None = None) -> None:
    """Activate the environment's language for this command (see module docstring)."""
    args = list(argv or ())
    if any(a.startswith(("--settings", "--pythonpath")) for a in args):
        return  # Django applies these itself, after this point
    try:
        import django

        django.setup()
    except Exception:  # the command itself reports a broken set-up
        return
    from django.utils import translation

    code = cli_language()
    if code:
        translation.activate(code)
