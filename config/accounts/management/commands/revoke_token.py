"""``manage.py revoke_token USER...``: the users' API tokens stop working at once."""

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from config.accounts.tokens import revoke_tokens


class Command(BaseCommand):
    help = "Revoke the API tokens of the given users (by username)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("usernames", nargs="+", metavar="USER")

    def handle(self, *args: Any, **options: Any) -> None:
        model = get_user_model()
        for username in options["usernames"]:
            user = model._default_manager.filter(**{model.USERNAME_FIELD: username}).first()
            if user is None:
                raise CommandError(f"No user {username!r}.")
            count = revoke_tokens(user)
            self.stdout.write(f"{username}: {count} token(s) revoked")
