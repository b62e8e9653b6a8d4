"""Serializers that describe the API's answer shapes, for the schema (docs/API.md). They describe
only: the views answer with plain dicts. No request is described here: each is described by the
pydantic model that reads it (judgeapp.openapi.models), or, where DRF owns the request (an upload, a
rollback), by the view's own serializer. Fields docs/API.md names are required; others are optional,
and every object may carry more fields."""

from __future__ import annotations

from rest_framework import serializers as s


def _any(**kwargs) -> s.JSONField:
    return s.JSONField(**kwargs)


# -- errors ----------------------------------------------------------------------------------------


class ErrorBodySerializer(s.Serializer):
    code = s.CharField(help_text="machine-readable: invalid, not_found, too_large, server_error, …")
    message = s.CharField(help_text="what was wrong, for people")
    details = s.DictField(
        child=_any(), help_text="per field, or more context (a 500 carries error_id)"
    )


class ErrorSerializer(s.Serializer):
    error = ErrorBodySerializer()


# -- health ----------------------------------------------------------------------------------------


class HealthSerializer(s.Serializer):
    status = s.ChoiceField(choices=["ok", "unavailable"])
    database = s.CharField()
    broker = s.CharField()
    # with the database reachable: "ok", or the migrations not applied / static files not collected
    schema = s.CharField(required=False)
    static = s.CharField(required=False)


# -- rules -----------------------------------------------------------------------------------------


class RuleVersionSerializer(s.Serializer):
    effective_date = s.DateField()
    current = s.BooleanField(required=False)


class RuleSerializer(s.Serializer):
    doc = s.CharField()
    number = s.CharField()
    title = s.CharField(allow_blank=True, allow_null=True)
    text = s.CharField(allow_blank=True)
    examples = s.ListField(child=s.CharField(allow_blank=True))
    parent = s.CharField(allow_null=True)  # type: ignore[assignment]  # a field named like Field.parent (DRF pops it)
    children = s.ListField(child=s.CharField())
    version = RuleVersionSerializer()
    references = s.ListField(child=s.CharField())
    kind = s.CharField(required=False, allow_blank=True)
    section_title = s.CharField(required=False, allow_blank=True)
    aliases = s.ListField(child=s.CharField(), required=False)
    fields = s.DictField(child=_any(), required=False)  # type: ignore[assignment]  # named like Serializer.fields


class TraceStepSerializer(s.Serializer):
    effective_date = s.DateField()
    number = s.CharField(allow_null=True)
    text = s.CharField(allow_null=True, allow_blank=True)


class RelPenaltySerializer(s.Serializer):
    regular = s.CharField()
    competitive = s.CharField()
    professional = s.CharField()


class SearchCallSerializer(s.Serializer):
    """An IPG infraction's penalty at each REL and the infraction finder's address."""

    infraction = s.CharField()
    penalty = RelPenaltySerializer()
    upgrade = s.CharField(
        required=False, help_text="the section's Upgrade, when it has one (Competitive and up)"
    )
    finder = s.CharField()


class SearchHitSerializer(s.Serializer):
    doc = s.CharField()
    number = s.CharField()
    snippet = s.CharField(allow_blank=True)
    score = s.FloatField()
    part = s.CharField(required=False, allow_null=True)
    call = SearchCallSerializer(required=False)


class SearchCardSerializer(s.Serializer):
    """A card the question names, as the card table (Scryfall's data) holds it."""

    name = s.CharField()
    mana_cost = s.CharField(allow_blank=True)
    type_line = s.CharField(allow_blank=True)
    oracle_text = s.CharField(allow_blank=True)
    faces = s.ListField(child=s.DictField(child=_any()))
    rulings = s.ListField(child=s.DictField(child=_any()))
    rules = s.ListField(child=s.DictField(child=_any()))
    scryfall_uri = s.CharField(allow_blank=True)
    url = s.CharField()


class SearchSerializer(s.Serializer):
    results = SearchHitSerializer(many=True)
    count = s.IntegerField()
    query = s.CharField(required=False)
    ranking = s.CharField(required=False)
    understood = s.ListField(child=s.DictField(child=_any()), required=False)
    cards = SearchCardSerializer(
        many=True,
        required=False,
        help_text="the cards the question names, from the card table ([] without one)",
    )


class GlossarySerializer(s.Serializer):
    term = s.CharField()
    definition = s.CharField(allow_blank=True)
    references = s.ListField(child=s.CharField())
    aliases = s.ListField(child=s.CharField(), required=False)
    version = s.DictField(child=_any(), required=False)


class CountsSerializer(s.Serializer):
    rules = s.IntegerField()
    examples = s.IntegerField()
    glossary = s.IntegerField()


class DocumentVersionSerializer(s.Serializer):
    effective_date = s.DateField(allow_null=True)
    current = s.BooleanField()
    counts = CountsSerializer()
    status = s.CharField(required=False)
    title = s.CharField(required=False, allow_blank=True)


class DocumentSerializer(s.Serializer):
    doc = s.CharField()
    title = s.CharField()
    versions = DocumentVersionSerializer(many=True)


class DiffSerializer(s.Serializer):
    added = s.ListField(child=_any())
    removed = s.ListField(child=_any())
    changed = s.ListField(child=_any())
    moved = s.ListField(child=_any())


# -- jobs ------------------------------------------------------------------------------------------


class JobSerializer(s.Serializer):
    id = s.UUIDField()
    kind = s.ChoiceField(
        choices=["loop-outcome", "game-outcome", "shuffle-analysis", "rules-import"]
    )
    status = s.ChoiceField(choices=["queued", "running", "succeeded", "failed"])
    url = s.URLField()
    result = s.DictField(
        child=_any(), allow_null=True, help_text="the engine's answer, with citations"
    )
    error = s.CharField(
        allow_null=True, help_text="why it failed, for people; the log has the rest"
    )
    input = _any(required=False)
    attempts = s.IntegerField(required=False)
    sent = s.BooleanField(
        required=False, help_text="whether the broker took the job yet (false: it is re-sent)"
    )
    created_at = s.DateTimeField(required=False)
    started_at = s.DateTimeField(required=False, allow_null=True)
    finished_at = s.DateTimeField(required=False, allow_null=True)
    duration_ms = s.FloatField(required=False, allow_null=True)


# -- guides ----------------------------------------------------------------------------------------


class GuideSummarySerializer(s.Serializer):
    slug = s.CharField()
    title = s.CharField()
    summary = s.CharField(allow_blank=True)


class GuideSerializer(s.Serializer):
    slug = s.CharField()
    title = s.CharField()
    start = s.CharField()
    nodes = s.DictField(
        child=s.DictField(child=_any()), help_text='node id -> node; every node has a "kind"'
    )


# -- cards -----------------------------------------------------------------------------------------


class RulingSerializer(s.Serializer):
    date = s.DateField()
    text = s.CharField(allow_blank=True)
    source = s.CharField(required=False, allow_blank=True)  # type: ignore[assignment]  # named like Field.source


class CardSerializer(s.Serializer):
    name = s.CharField()
    mana_cost = s.CharField(allow_blank=True, allow_null=True)
    type_line = s.CharField(allow_blank=True, allow_null=True)
    oracle_text = s.CharField(allow_blank=True, allow_null=True)
    rulings = RulingSerializer(many=True)
    rules = s.ListField(child=s.DictField(child=_any()))


class CardHitSerializer(s.Serializer):
    name = s.CharField()
    mana_cost = s.CharField(allow_blank=True, allow_null=True)
    type_line = s.CharField(allow_blank=True, allow_null=True)


class CardSearchSerializer(s.Serializer):
    results = CardHitSerializer(many=True)
    count = s.IntegerField()


# -- call log and floor ----------------------------------------------------------------------------


class EventSerializer(s.Serializer):
    id = s.IntegerField()
    name = s.CharField()
    date = s.DateField()
    rel = s.CharField()
    head_judge = s.CharField()
    role = s.CharField(allow_null=True, required=False)
    judges = s.ListField(child=s.DictField(child=_any()), required=False)


class EventListSerializer(s.Serializer):
    events = EventSerializer(many=True)


class MembershipSerializer(s.Serializer):
    username = s.CharField()
    role = s.CharField()


class CallSerializer(s.Serializer):
    id = s.IntegerField()
    event = s.IntegerField()
    client_id = s.UUIDField()


class CallListSerializer(s.Serializer):
    calls = CallSerializer(many=True)


class RevisionListSerializer(s.Serializer):
    revisions = s.ListField(child=s.DictField(child=_any()))


class InfractionListSerializer(s.Serializer):
    infractions = s.ListField(child=s.DictField(child=_any()))


class ClockSerializer(s.Serializer):
    state = s.CharField()
    round = s.IntegerField(allow_null=True)
    minutes = s.IntegerField(allow_null=True)
    seconds_left = s.FloatField(allow_null=True)
    ends_at = s.DateTimeField(allow_null=True)
    warning = _any(allow_null=True)
    started_at = s.DateTimeField(allow_null=True)
    server_time = s.DateTimeField()


# -- curation --------------------------------------------------------------------------------------


class CuratedVersionSerializer(s.Serializer):
    id = s.IntegerField()
    url = s.URLField()
    doc = s.CharField()
    effective_date = s.DateField(allow_null=True)
    status = s.CharField()
    current = s.BooleanField()
    counts = CountsSerializer()


class CurationAnswerSerializer(s.Serializer):
    version = CuratedVersionSerializer()
    event = s.DictField(child=_any(), required=False)
