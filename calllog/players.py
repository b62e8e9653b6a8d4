"""The event's player list, kept by its judges: add, rename (which renames the player in every call,
and merges two spellings of one player when asked) and remove (refused while calls name them).

Calls keep player names as text (their snapshot); this list is where those names come from. A call
naming someone not on the list adds them (a judge typed a new player, or a tablet sent a call queued
offline), spelled as the list spells them when the name matches one already there however its case
and spaces were typed. Every call a rename touches gets a CallRevision saying who renamed whom.
"""

from __future__ import annotations

from typing import Annotated, Any

from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

from calllog.models import Call, CallRevision, Event, Player
from calllog.services import InvalidCall, event_for, player_key

MAX_NAME = 200


class PlayerConflict(Exception):
    """A rename onto a name already on the list without merge, or a removal of a player
    calls name."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


def clean_name(name: Any, field: str = "name") -> str:
    if not isinstance(name, str) or not name.strip():
        raise InvalidCall(field, "the player's name")
    cleaned = " ".join(name.split())
    if len(cleaned) > MAX_NAME or "/" in cleaned:
        raise InvalidCall(field, f"a name of at most {MAX_NAME} characters, without '/'")
    return cleaned


PlayerName = Annotated[
    str,
    Field(
        min_length=1,
        max_length=MAX_NAME,
        pattern=r"^[^/]*$",
        description="spaces are tidied; the same name in any case is the same player",
    ),
    BeforeValidator(clean_name),
]


def _merge(value: Any) -> bool:
    if not isinstance(value, bool):
        raise InvalidCall("merge", "true or false")
    return value


class PlayerRequest(BaseModel):
    """POST /api/v1/events/{id}/players: a player added to the event's list. InvalidCall names
    the field."""

    model_config = ConfigDict(extra="ignore", title="PlayerRequest")
    name: PlayerName


class PlayerChangeRequest(BaseModel):
    """PATCH /api/v1/events/{id}/players/{name}: a player renamed, or joined into another spelling
    (merge). Read in this order; InvalidCall names the field."""

    model_config = ConfigDict(extra="ignore", title="PlayerChangeRequest")
    merge: Annotated[bool, BeforeValidator(_merge)] = Field(
        default=False,
        description=(
            "true: the new name may be a player already on the list, and the two become one"
        ),
    )
    name: PlayerName = Field(description="the new spelling")


def roster(user, event: Event) -> QuerySet[Player]:
    event_for(user, event.pk)
    return event.players.order_by("key", "id")


def find(event: Event, name: str) -> Player | None:
    return event.players.filter(key=player_key(name)).first()


def get_player(user, event: Event, name: str) -> Player:
    from django.http import Http404

    event_for(user, event.pk)
    player = find(event, name)
    if player is None:
        raise Http404("No such player at this event.")
    return player


def add_player(user, event: Event, name: Any) -> tuple[Player, bool]:
    """Any judge of the event adds a player; (player, created). A name already on the list (any
    case, any spacing) is that player, not a second one."""
    event_for(user, event.pk)
    cleaned = PlayerRequest.model_validate({"name": name}).name
    player, created = Player.objects.get_or_create(
        event=event, key=player_key(cleaned), defaults={"name": cleaned, "added_by": user}
    )
    return player, created


def canonical_names(event: Event, names: list[str], user=None) -> dict[str, str]:
    """{key: the list's spelling} for the names a call gives, adding the ones not on the
    list yet."""
    out: dict[str, str] = {}
    for name in names:
        key = player_key(name)
        if not key or key in out:
            continue
        player, _ = Player.objects.get_or_create(
            event=event, key=key, defaults={"name": name, "added_by": user}
        )
        out[key] = player.name
    return out


def calls_naming(event: Event, key: str) -> list[Call]:
    """Every call of the event naming the player with this key, as a player or as the offender."""
    return [
        call
        for call in event.calls.order_by("id")
        if call.offender_key == key or any(player_key(p) == key for p in call.players)
    ]


def rename_player(user, event: Event, name: str, new_name: Any, *, merge: bool = False) -> Player:
    """Rename a player on the list and in every call naming them. Onto a name already on the list,
    only with merge=True: the two become one player (one penalty history)."""
    event_for(user, event.pk)
    cleaned = clean_name(new_name, "name")
    old_key, new_key = player_key(name), player_key(cleaned)
    with transaction.atomic():
        Event.objects.select_for_update().filter(pk=event.pk).first()  # one list change at a time
        player = event.players.filter(key=old_key).first()
        if player is None:
            from django.http import Http404

            raise Http404("No such player at this event.")
        other = event.players.filter(key=new_key).exclude(pk=player.pk).first()
        if other is not None and not merge:
            raise PlayerConflict(
                "name",
                f"{other.name!r} is already on the list: merge the two (merge: true) to make them "
                "one player",
            )
        old_name = player.name
        for call in calls_naming(event, old_key):
            _rename_in_call(user, call, old_key, other.name if other else cleaned, old_name)
        if other is not None:
            player.delete()
            return other
        player.name, player.key = cleaned, new_key
        player.save(update_fields=["name", "key"])
    return player


def _rename_in_call(user, call: Call, old_key: str, new_name: str, old_name: str) -> None:
    changes: dict[str, list] = {}
    players: list[str] = []
    for p in call.players:
        renamed = new_name if player_key(p) == old_key else p
        if player_key(renamed) not in {player_key(q) for q in players}:
            players.append(renamed)
    if players != list(call.players):
        changes["players"] = [list(call.players), players]
        call.players = players
    if call.offender_key == old_key and call.offender != new_name:
        changes["offender"] = [call.offender, new_name]
        call.offender, call.offender_key = new_name, player_key(new_name)
    if changes:
        call.updated_at = timezone.now()
        call.save(update_fields=["players", "offender", "offender_key", "updated_at"])
        CallRevision.objects.create(
            call=call,
            editor=user,
            changes=changes,
            reason=f"player {old_name!r} renamed to {new_name!r} on the list",
        )


def remove_player(user, event: Event, name: str) -> None:
    """Take a player off the list; refused while a call names them (rename or merge instead)."""
    player = get_player(user, event, name)
    named = calls_naming(event, player.key)
    if named:
        raise PlayerConflict(
            "name",
            f"{player.name} is named in {len(named)} call{'s' if len(named) != 1 else ''}: "
            "rename them (or merge them into another player) instead",
        )
    player.delete()
