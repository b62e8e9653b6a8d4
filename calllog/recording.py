"""Recording calls (record_call): from a guide walk, or straight from the IPG (any infraction of the
current IPG, no guide); the time extension given at the table, players named as the event's list
names them, and the REL check (a call judged at one REL is never stored at an event of another
without the judge being told). The request is read and checked by services (read_call_request); this
module is above services, players and penalties, and none of them imports it.

A direct call's body is CALL_REQUEST (calllog.api) with "infraction" (the IPG section, "3.3",
or its name, "Slow Play") in place of "guide" and "answers", and optionally "downgrade": true when
the section's Downgrade applies, or "upgrade": true when its own Upgrade does (Competitive and
Professional only).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.http import Http404
from django.utils import timezone

from calllog import infractions, penalties, players, services
from calllog.models import Call, Event
from calllog.services import CallRequest, InvalidCall, player_key
from guides.loader import without_head_judge
from rulesref import references

MAX_EXTENSION = 120  # minutes


class RelMismatch(Exception):
    """The REL the judge answered (or the page showed) is not the event's: refused,
    never overridden."""

    def __init__(self, event: Event, given: str) -> None:
        self.event_rel = event.rel
        self.given = given
        super().__init__(
            f"rel: this call was judged at {given.capitalize()} REL, but {event.name} is a "
            f"{event.get_rel_display()} REL event: walk the guide again at "
            f"{event.get_rel_display()} (the fix and penalty differ), or save it to an event of "
            "the "
            "REL you judged at"
        )
        self.message = str(self).split(": ", 1)[1]


@dataclass(frozen=True)
class Extras:
    time_extension: int | None
    rel: str
    # the penalty the tablet showed and the judge gave ("" when not said)
    announced_penalty: str = ""


def is_infraction_request(body: Any) -> bool:
    return (
        isinstance(body, Mapping)
        and body.get("infraction") not in (None, "")
        and not body.get("guide")
    )


def read_extras(body: Any) -> Extras:
    if not isinstance(body, Mapping):
        return Extras(None, "")
    minutes = services.whole_number(
        body.get("time_extension"), "time_extension", minimum=0, maximum=MAX_EXTENSION, default=None
    )
    rel = body.get("rel") or ""
    if rel and rel not in Event.Rel.values:
        raise InvalidCall("rel", f"one of {', '.join(Event.Rel.values)}")
    announced = body.get("announced_penalty")
    if announced is None:
        announced = ""
    if not isinstance(announced, str) or len(announced) > 500:
        raise InvalidCall(
            "announced_penalty", "the penalty shown at the table and given, at most 500 characters"
        )
    return Extras(minutes or None, rel, penalties.penalty_label(announced))


def check_rel(event: Event, *given: Any) -> None:
    """Refuse a call whose REL (the request's "rel", the REL the guide asked) is not the event's."""
    for rel in given:
        if isinstance(rel, str) and rel and rel != event.rel:
            raise RelMismatch(event, rel)


def with_roster_names(event: Event, request: CallRequest) -> CallRequest:
    """The request with each player named as the event's list spells them (matched by player_key);
    names not on the list are kept as typed (add_to_roster adds them when the call is stored)."""
    spelled = dict(event.players.values_list("key", "name"))
    named: list[str] = []
    for name in request.players:
        canonical = spelled.get(player_key(name), name)
        if player_key(canonical) not in {player_key(p) for p in named}:
            named.append(canonical)
    offender = (
        spelled.get(player_key(request.offender), request.offender) if request.offender else ""
    )
    return dataclasses.replace(request, players=named, offender=offender)


def add_to_roster(event: Event, request: CallRequest, user) -> None:
    players.canonical_names(
        event, [*request.players, *([request.offender] if request.offender else [])], user
    )


def record_call(user, event: Event, body: Any) -> tuple[Call, bool]:
    """Store a call from a guide walk (or, with "infraction" in place of "guide", straight from the
    IPG: record_infraction); (call, created). The guide is replayed from its slug and answers
    and must end at a conclusion (the one named, when `conclusion` is given); the penalty at the
    event's REL is upgraded by the offender's earlier Warnings at the event
    (penalties.apply_upgrades).

    The same client_id sent again (an offline queue replaying) returns the stored call with
    created=False; the same client_id with other answers raises ClientIdConflict."""
    from guides import services as guide_services
    from guides.schema import NodeKind

    if services.role_of(user, event) is None:
        raise Http404("No such event.")
    if is_infraction_request(body):
        return record_infraction(user, event, body)  # straight from the IPG, no guide
    extras = read_extras(body)
    request = with_roster_names(event, services.read_call_request(body))
    existing = Call.objects.filter(event=event, client_id=request.client_id).first()
    if existing is not None:
        return _same_call(existing, request), False
    try:
        guide, state = guide_services.replay(request.guide, request.answers)
    except guide_services.UnknownGuide:
        raise InvalidCall("guide", f"no guide {request.guide!r}") from None
    except guide_services.WalkError as exc:
        raise InvalidCall(exc.field, exc.message) from None
    node = guide.nodes[state.node_id]
    if node.kind is not NodeKind.CONCLUSION or node.penalty is None:
        raise InvalidCall("answers", f"the answers stop at {node.id!r}, which is not a conclusion")
    if request.conclusion and request.conclusion != node.id:
        raise InvalidCall(
            "conclusion", f"the answers lead to {node.id!r}, not {request.conclusion!r}"
        )
    check_rel(event, extras.rel, state.facts.get("rel"))  # never silently overridden
    base_penalty = penalties.penalty_label(getattr(node.penalty, event.rel))
    infraction = penalties.infraction_name(node.infraction) if node.infraction else ""
    category = (
        penalties.category_of(node.infraction, node.category) if node.infraction else node.category
    )
    if category == penalties.UNSPORTING_CONDUCT and infraction:
        # as a direct call names it, and as IPG 4 titles it ("Minor" alone names nothing)
        infraction = f"Unsporting Conduct - {infraction}"
    return _store(
        user,
        event,
        request,
        extras,
        penalties.Offense(
            infraction, category, base_penalty, event.rel, request.day, round=request.round
        ),
        node.refs,
        lambda existing: _same_call(existing, request),
        guide=guide.slug,
        guide_title=guide.title,
        answers=request.answers,
        conclusion=node.id,
        ruling=node.ruling,
        fix=node.fix,
    )


def _same_call(existing: Call, request: CallRequest) -> Call:
    if existing.guide != request.guide or list(existing.answers) != list(request.answers):
        raise services.ClientIdConflict(existing)
    return existing


def record_infraction(user, event: Event, body: Mapping) -> tuple[Call, bool]:
    """Store a call for an IPG infraction chosen directly; (call, created), idempotent on client_id
    like a guide's call. The penalty is the IPG's at Competitive and Professional and the JAR's
    handling at Regular, upgraded by the offender's earlier Warnings (penalties.apply_upgrades)."""
    raw = body.get("infraction")
    if not isinstance(raw, str) or not raw.strip():
        raise InvalidCall(
            "infraction", 'an infraction of the current IPG, by section ("3.3") or name'
        )
    infraction = infractions.find(raw)
    if infraction is None:
        names = (
            ", ".join(f"{i.number} {i.name}" for i in infractions.catalogue())
            or "none: no IPG is imported"
        )
        raise InvalidCall(
            "infraction", f"{raw.strip()!r} is not an infraction of the current IPG ({names})"
        )
    extras = read_extras(body)
    request = with_roster_names(event, services.read_call_request({**body, "guide": "-"}))
    if not request.offender:
        raise InvalidCall("players", "name the player who receives the penalty")
    existing = Call.objects.filter(event=event, client_id=request.client_id).first()
    if existing is not None:
        return _same(existing, infraction), False
    check_rel(event, extras.rel)
    downgraded = read_downgrade(body.get("downgrade"), infraction, event.rel)
    upgraded = read_upgrade(body.get("upgrade"), infraction, event.rel, downgraded=downgraded)
    name = (
        infraction.title if infraction.category == penalties.UNSPORTING_CONDUCT else infraction.name
    )
    base = penalties.penalty_label(
        infraction.penalty_at(event.rel, downgraded=downgraded, upgraded=upgraded)
    )
    refs = [infraction.ref] + ([infraction.regular_ref] if event.rel == "regular" else [])
    ruling = f"IPG {infraction.number} {infraction.title}"
    if downgraded:
        ruling += f". Downgrade (IPG {infraction.number}): {infraction.downgrade}"
    if upgraded:
        ruling += f". Upgrade (IPG {infraction.number}): {' '.join(infraction.upgrade.split())}"
    return _store(
        user,
        event,
        request,
        extras,
        penalties.Offense(
            name, infraction.category, base, event.rel, request.day, round=request.round
        ),
        refs,
        lambda existing: _same(existing, infraction),
        guide="",
        guide_title="Infraction Procedure Guide",
        answers=[],
        conclusion="",
        ipg_section=infraction.number,
        ruling=ruling,
        fix=infraction.fix_at(event.rel),
    )


def read_downgrade(value: Any, infraction: infractions.Infraction, rel: str) -> bool:
    """A direct call's "downgrade" (true: the section's Downgrade applies and its penalty is the one
    given), refused where there is no Downgrade to apply: a section without one (or whose
    Downgrade names no one penalty), and Regular REL, where the IPG does not apply (JAR)."""
    return _section_flag("downgrade", value, infraction, rel, infraction.can_downgrade(rel))


def read_upgrade(
    value: Any, infraction: infractions.Infraction, rel: str, *, downgraded: bool = False
) -> bool:
    """A direct call's "upgrade" (true: the section's own Upgrade applies, as Tardiness's Match Loss
    for a player not in their seat 10 minutes into the round, and its penalty is the one given),
    refused where there is none to apply: a section without one (or whose Upgrade names no one
    penalty), with the Downgrade, and at Regular REL, where the IPG does not apply (JAR)."""
    both = "the Upgrade and the Downgrade cannot both apply" if downgraded else ""
    return _section_flag(
        "upgrade", value, infraction, rel, infraction.can_upgrade(rel), refused=both
    )


def _section_flag(
    field: str,
    value: Any,
    infraction: infractions.Infraction,
    rel: str,
    applies: bool,
    *,
    refused: str = "",
) -> bool:
    """A direct call's flag giving the penalty of the section's own `field` ("downgrade",
    "upgrade"): false when absent, else true where it `applies`; refused (InvalidCall on `field`)
    when not a boolean, at Regular REL, for the reason `refused` names, or where it does not."""
    if value is None or value is False:
        return False
    if value is not True:
        raise InvalidCall(field, "true or false")
    name = field.capitalize()
    if rel == "regular":
        raise InvalidCall(
            field,
            f"the IPG's {name} does not apply at Regular REL (the JAR's handling is the penalty)",
        )
    if refused:
        raise InvalidCall(field, refused)
    if not applies:
        raise InvalidCall(
            field, f"IPG {infraction.number} {infraction.title} has no {name} to apply"
        )
    return True


def _store(
    user,
    event: Event,
    request: CallRequest,
    extras,
    offense: penalties.Offense,
    refs,
    same: Callable[[Call], Call],
    **fields,
) -> tuple[Call, bool]:
    """Store a call for `offense`, its penalty upgraded by the offender's earlier ones at this
    event, under a lock on the event (one upgrade count at a time); (call, created). A second
    delivery of the same call racing the first returns the stored one, checked by `same`
    (ClientIdConflict when it is another call). `fields` are what the call's source sets: the
    guide's walk, or the IPG section."""
    try:
        with transaction.atomic():
            # one upgrade count at a time per event
            Event.objects.select_for_update().filter(pk=event.pk).first()
            add_to_roster(event, request, user)
            earlier = services._offenses(event, request.offender) if request.offender else []
            upgrade = _both_lose(event, request, penalties.apply_upgrades(earlier, offense))
            given = Given.of(upgrade, extras.announced_penalty, request.offender)
            # the Head Judge's note follows the penalty the call records (Call.head_judge_note),
            # never the stored fix: an edit of the penalty would leave it stale
            fields["fix"] = without_head_judge(fields.get("fix", ""))
            call = Call.objects.create(
                event=event,
                judge=user,
                client_id=request.client_id,
                table=request.table,
                round=request.round,
                day=request.day,
                players=request.players,
                offender=request.offender,
                offender_key=player_key(request.offender),
                infraction=offense.infraction,
                category=offense.category,
                base_penalty=offense.penalty,
                penalty=given.penalty,
                upgraded=given.upgraded,
                upgrade_reason=upgrade.reason,
                announced_penalty=extras.announced_penalty,
                computed_penalty=upgrade.penalty,
                needs_review=given.needs_review,
                review_reason=given.review_reason,
                citations=references.citations([*refs, *upgrade.refs]),
                created_at=request.created_at or timezone.now(),
                rel=event.rel,
                time_extension=extras.time_extension,
                **fields,
            )
            if request.offender:
                recheck(
                    event,
                    call.offender_key,
                    f"call #{call.pk} (round {call.round or '?'}, day {call.day}) was recorded",
                    skip=call.pk,
                )
    except IntegrityError:
        existing = Call.objects.filter(event=event, client_id=request.client_id).first()
        if existing is None:
            raise
        return same(existing), False
    return call, True


def _both_lose(event: Event, request: CallRequest, upgrade: penalties.UpgradeResult):
    """`upgrade` with IPG 1.1's note when it is a Game Loss and an opponent named in the call
    received one in the same round of the same day: Game Losses given to each player at the same
    time are recorded but do not affect the match score (the judge knows whether they were)."""
    if not penalties.same_penalty(upgrade.penalty, penalties.GAME_LOSS) or request.round is None:
        return upgrade
    offender = player_key(request.offender)
    for name in request.players:
        if not name.strip() or player_key(name) == offender:
            continue
        calls = Call.objects.filter(
            event=event, offender_key=player_key(name), day=request.day, round=request.round
        )
        if any(penalties.same_penalty(call.penalty, penalties.GAME_LOSS) for call in calls):
            note = (
                f"{name} also received a Game Loss in round {request.round}: if the two are given "
                "at the same time, both are recorded, but they do not affect the match score "
                "(IPG 1.1)."
            )
            return upgrade.with_note(note, penalties.GAME_LOSS_REF)
    return upgrade


def _first_reason(reason: str) -> str:
    """A flag's reason less what recounts said of it since (each "Counted again ..." in front)."""
    while reason.startswith("Counted again"):
        reason = reason.split(" Before: ", 1)[1] if " Before: " in reason else ""
    return reason


def _before(other: Call, call: Call) -> bool:
    """Whether `other` was given before `call`: an earlier day or round; in the same round, or
    where either says no round, stored before it (as when `call` was stored)."""
    if other.day != call.day:
        return other.day < call.day
    if other.round is None or call.round is None or other.round == call.round:
        return other.pk < call.pk
    return other.round < call.round


def recheck(
    event: Event, key: str, why: str, *, skip: int | None = None, quiet: int | None = None
) -> list[Call]:
    """Count each of a player's calls again against the calls before it (_before), after `why`
    changed the history: a call recorded
    late (synced from a tablet that was offline) for an earlier round, or an edit. A call whose
    count now gives another penalty keeps the penalty it records, gets the new count, and is
    flagged for the head judge when the two differ; nothing else changes behind the judge's back.
    `skip`: a call not counted again (just stored, counted as it was); `quiet`: one counted again
    but never flagged (its penalty was just set by hand). The calls flagged."""
    calls = list(
        Call.objects.select_for_update()
        .filter(event=event, offender_key=key)
        .exclude(infraction="")
        .order_by("day", "round", "pk")
    )
    flagged = []
    for call in calls:
        if call.pk == skip:
            continue
        history = [
            services.offense_of(c, event.rel) for c in calls if c.pk != call.pk and _before(c, call)
        ]
        new = services.offense_of(call, event.rel, given=False)
        counted = penalties.apply_upgrades(history, new)
        if penalties.same_penalty(counted.penalty, call.computed_penalty or call.penalty):
            # the same penalty; IPG 1.2's same-round note may have come or gone (a round edited)
            reason = penalties.with_related_note_of(call.upgrade_reason, counted.reason)
            if reason != call.upgrade_reason:
                call.upgrade_reason = reason
                call.save(update_fields=["upgrade_reason"])
            continue
        call.computed_penalty = counted.penalty
        call.upgrade_reason = counted.reason
        # an upgrade by count is what the call records while the count gives it
        call.upgraded = counted.upgraded and penalties.same_penalty(counted.penalty, call.penalty)
        fields = ["computed_penalty", "upgrade_reason", "upgraded"]
        if call.pk == quiet:
            pass
        elif not penalties.same_penalty(counted.penalty, call.penalty):
            whose = f"{call.offender}'s" if call.offender else "the player's"
            call.needs_review = True
            call.review_reason = (
                f"Counted again after {why}: with {whose} penalties before this call the penalty "
                f"is {counted.penalty}; this call records {call.penalty}. Flagged for the head "
                "judge, who decides which stands."
            )
            fields += ["needs_review", "review_reason"]
            flagged.append(call)
        elif call.needs_review:
            # flagged before, and the count now gives what the call records: said, the flag
            # left for the head judge to clear
            first = _first_reason(call.review_reason)
            call.review_reason = (
                f"Counted again after {why}: the count now gives {counted.penalty}, the penalty "
                "this call records." + (f" Before: {first}" if first else "")
            )
            fields.append("review_reason")
        call.save(update_fields=fields)
    return flagged


@dataclass(frozen=True)
class Given:
    """The penalty a call stores as given: the one announced at the table when the tablet said it
    (the judge saw it and the player heard it), else the server's. When the server's count gives
    another (a call saved offline, the history unchecked; a history changed meanwhile), both are
    kept and the call is flagged for the head judge, who decides; nothing is changed behind the
    judge's back."""

    penalty: str
    upgraded: bool
    needs_review: bool
    review_reason: str

    @classmethod
    def of(cls, upgrade: penalties.UpgradeResult, announced: str, offender: str) -> Given:
        if not announced or penalties.same_penalty(announced, upgrade.penalty):
            return cls(upgrade.penalty, upgrade.upgraded, False, "")
        why = penalties.upgrade_why(upgrade.reason).rstrip(".") if upgrade.upgraded else ""
        whose = f"{offender}'s" if offender else "the player's"
        computed = f"{upgrade.penalty} ({why})" if why else upgrade.penalty
        if upgrade.upgraded:
            counted = f"With {whose} earlier penalties at this event the penalty is {computed}."
        else:
            counted = (
                f"The penalty for this call is {computed}; {whose} earlier penalties at this "
                "event do not change it."
            )
        reason = (
            f"Announced at the table: {announced}. {counted} Flagged for the head judge, who "
            "decides which stands."
        )
        return cls(announced, False, True, reason)


def _same(existing: Call, infraction: infractions.Infraction) -> Call:
    if existing.guide or existing.ipg_section != infraction.number:
        raise services.ClientIdConflict(existing)
    return existing


def preview_infraction(
    user,
    event: Event,
    *,
    player: str,
    infraction: infractions.Infraction,
    day: int = 1,
    round: int | None = None,
    downgraded: bool = False,
    upgraded: bool = False,
):
    """What this infraction's penalty would be for this player now, upgrades applied (and the
    section's Downgrade, when `downgraded`, or its Upgrade, when `upgraded`: read_downgrade and
    read_upgrade check they apply)."""
    name = (
        infraction.title if infraction.category == penalties.UNSPORTING_CONDUCT else infraction.name
    )
    return services.preview_penalty(
        user,
        event,
        player=player,
        infraction=name,
        category=infraction.category,
        penalty=infraction.penalty_at(event.rel, downgraded=downgraded, upgraded=upgraded),
        day=day,
        round=round,
    )
