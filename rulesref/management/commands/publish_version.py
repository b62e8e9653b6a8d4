"""manage.py publish_version DOC DATE | --rollback DOC: make a stored version current, or go
back one."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from rulesref import services


class Command(BaseCommand):
    help = (
        "Publish the stored version of DOC effective on DATE (YYYY-MM-DD), or with --rollback "
        "make the previous current version current again."
    )

    def add_arguments(self, parser):
        parser.add_argument("doc", help="cr, mtr, ipg or jar")
        parser.add_argument("date", nargs="?", help="effective date of the version to publish")
        parser.add_argument(
            "--rollback", action="store_true", help="return to the version that was current before"
        )

    def handle(self, *args, doc, date, rollback, **options):
        try:
            if rollback:
                current = services.get_version(doc)
                event = services.rollback_document(current.document)
            elif date:
                event = services.publish_version(
                    services.get_version(doc, version=date, include_pending=True),
                    note="publish_version command",
                )
            else:
                raise CommandError("give a DATE to publish, or --rollback")
        except services.RulesError as exc:
            raise CommandError(exc.message) from None
        self.stdout.write(
            f"{event.get_action_display()}: {doc.upper()} "
            f"{event.from_version.effective_date if event.from_version else '-'} -> "
            f"{event.to_version.effective_date}"
        )
