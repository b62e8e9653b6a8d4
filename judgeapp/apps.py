"""The project package as an app: it holds the historical migrations of the models that moved to
jobs and calllog, and loading it loads the Celery app so shared tasks bind to it."""

from django.apps import AppConfig


class JudgeAppConfig(AppConfig):
    name = "judgeapp"
    label = "judgeapp"
    verbose_name = "Judge assistant"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from judgeapp import (
            celery,  # noqa: F401  (binds @shared_task to this app)
            checks,  # noqa: F401  (registers the deploy check of the secret)
        )
