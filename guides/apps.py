"""The judge guides app: guide files (definitions/), their pure loader and runner, the services, API
and pages around them; at start-up it registers the guides' system check, the references they cite,
and the infraction finder's calls beside search hits (search/calls.py)."""

from django.apps import AppConfig


class GuidesConfig(AppConfig):
    name = "guides"
    label = "guides"
    verbose_name = "Judge guides"

    def ready(self) -> None:
        from guides import (
            checks,  # noqa: F401  (registers the guide files' system check)
            services,
        )
        from rulesref import citing

        # Read when asked, not now: a malformed guide file is the system check's to report.
        citing.register_references("guides", services.cited_references)
        citing.register_affected("guides", services.guides_affected)
        # An IPG infraction found by search shows its penalty at each REL and opens the finder.
        from guides import calls as guide_calls
        from search import calls as search_calls

        search_calls.register_calls("infraction-finder", guide_calls.infraction_calls)
