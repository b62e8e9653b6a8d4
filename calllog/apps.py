"""The call log app: events, their judges, and the calls judges record from the guides."""

from django.apps import AppConfig


class CallLogConfig(AppConfig):
    name = "calllog"
    label = "calllog"
    verbose_name = "Call log"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from calllog import infractions, penalties, services
        from guides import pages
        from rulesref import citing

        # The upgrade rules pin IPG and JAR references: registered, as the guides' and the engines'
        # are, so that a new IPG or JAR flags them in the curation review.
        citing.register_references("calllog", (*penalties.PINNED_REFS, *infractions.PINNED_REFS))
        # The guide page offers the judge's events to save a call to: listed here, never imported
        # by guides.
        pages.register_event_source(services.my_events)
        # A search hit's call (the guides' provider) says the IPG's upgrade by a repeat: the call
        # log's count (IPG 2, 3; 4.1's Additional Remedy; 4.2).
        from search import calls as search_calls

        search_calls.register_calls("calllog-repeat", infractions.repeat_calls)
