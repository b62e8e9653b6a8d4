"""The rules reference app: documents, versions, rules, diffs, curation, pages (search: the
search app)."""

from django.apps import AppConfig


class RulesRefConfig(AppConfig):
    name = "rulesref"
    verbose_name = "Rules reference"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from rulesref import tasks  # noqa: F401  (registers the tasks changes and curation send by name)
