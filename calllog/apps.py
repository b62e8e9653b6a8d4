"""The call log app: events, their judges, and the calls judges record from the guides."""

from django.apps import AppConfig


class CallLogConfig(AppConfig):
    name = "calllog"
    label = "calllog"
    verbose_name = "Call log"
    default_auto_field = "django.db.models.BigAutoField"
