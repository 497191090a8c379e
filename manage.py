#!/usr/bin/env python
"""Django's command-line utility for Tianhei."""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    from django.core.management import execute_from_command_line

    from config.cli import speak_the_users_language

    speak_the_users_language(sys.argv)  # output in TIANHEI_LANGUAGE / LANG (docs/i18n.md)
    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
