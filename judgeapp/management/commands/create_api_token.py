"""manage.py create_api_token USERNAME --name NAME: a new API token for one client of a user."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from judgeapp import api_tokens


class Command(BaseCommand):
    help = (
        "Create an API token for USERNAME's client NAME and print its key once (only a digest is "
        "stored). The client sends it as 'Authorization: Token <key>'. Revoke it in the admin."
    )

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("--name", required=True, help="which client holds it, e.g. 'round bot'")

    def handle(self, *args, username, name, **options):
        user = get_user_model().objects.filter(username=username, is_active=True).first()
        if user is None:
            raise CommandError(f"no active user {username!r}")
        if not name.strip():
            raise CommandError("--name must not be empty")
        token, key = api_tokens.issue_token(user, name.strip()[:100])
        self.stdout.write(f"API token {token.name!r} for {username}: {key}")
