"""The rules reference app: documents, versions, rules, search, diffs."""

from django.apps import AppConfig


class RulesRefConfig(AppConfig):
    name = "rulesref"
    verbose_name = "Rules reference"
    default_auto_field = "django.db.models.BigAutoField"
