"""The jobs app: computations (loop, game, shuffle outcomes) that Celery workers run with the
pure engines."""

from django.apps import AppConfig


class JobsConfig(AppConfig):
    name = "jobs"
    label = "jobs"
    verbose_name = "Jobs"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from engines import citations, shuffle_check, shuffles
        from engines.shuffles import records as shuffle_records
        from jobs import tasks  # noqa: F401  (registers the tasks: jobs.dispatch sends run_job by name)
        from rulesref import citing

        # The engines are pure: they hold their pinned references as constants; this app
        # registers them.
        citing.register_references(
            "engines", citations.pinned_in(citations, shuffles, shuffle_records, shuffle_check)
        )
