"""schemathesis hooks for the contract run (.ci/contract.py sets SCHEMATHESIS_HOOKS): the request
rules that the schema states in words because OpenAPI 3.0 cannot state them as a schema, a field
whose value must be one of the names given in another field. Only bodies that keep these rules are
sent, so that positive_data_acceptance checks every other rule the schema does state: a schema-valid
request the API refuses for any reason but these fails the run."""

from __future__ import annotations

import datetime as dt
from typing import Any

import schemathesis

# Fields that name a player of the request (engines' requests: "one of the players").
PLAYER_FIELDS = ("player", "unless_player", "loser", "winner", "target")


def _player_names(body: dict) -> list[str] | None:
    players = body.get("players")
    if not isinstance(players, list):
        return None
    return [p.get("name") if isinstance(p, dict) else p for p in players]


def _names_known(value: Any, names: set, in_effects: bool = False) -> bool:
    """Every player named in `value` (a PLAYER_FIELDS field, or a key of an "effects" map) is one
    of `names`."""
    if isinstance(value, list):
        return all(_names_known(item, names) for item in value)
    if not isinstance(value, dict):
        return True
    for key, inner in value.items():
        if in_effects and key not in names:
            return False
        if key in PLAYER_FIELDS and isinstance(inner, str) and inner not in names:
            return False
        if not _names_known(inner, names, in_effects=key == "effects"):
            return False
    return True


def _engine_rules_kept(body: Any) -> bool:
    """Players' names differ, and every name elsewhere in the request is one of them."""
    if not isinstance(body, dict):
        return True
    names = _player_names(body)
    if names is None:
        return True
    if len(set(map(str, names))) != len(names):
        return False
    # a game's effects name a player still in it
    here = {
        name
        for name, player in zip(names, body["players"], strict=True)
        if not (isinstance(player, dict) and player.get("left_game"))
    }
    rest = {key: value for key, value in body.items() if key != "players"}
    return _names_known(rest, here) and _game_rules_kept(body)


def _game_rules_kept(body: dict) -> bool:
    """A game (format given): two players or teams still in it; Two-Headed Giant is two teams of
    the same size, and a team's shared count given on the team and on its players is the same."""
    if "format" not in body:
        return True
    players = [p for p in body["players"] if isinstance(p, dict)]
    teams = [p.get("team") for p in players]
    if body["format"] == "two_headed_giant":
        sizes = {team: teams.count(team) for team in teams}
        if len(sizes) != 2 or len(set(sizes.values())) != 1:
            return False
        shared = body.get("teams") or {}
        if not isinstance(shared, dict) or set(shared) - set(teams):
            return False
        for team in sizes:
            for counter in ("life", "poison"):
                given = [
                    p[counter]
                    for p in players
                    if p.get("team") == team and p.get(counter) is not None
                ]
                if counter in (shared.get(team) or {}):
                    given.append(shared[team][counter])
                if len(set(given)) > 1:
                    return False
        units = {p.get("team") for p in players if not p.get("left_game")}
    else:
        units = {p.get("name") for p in players if not p.get("left_game")}
    return len(units) >= 2


def _clock_rules_kept(body: Any) -> bool:
    """A round's start time is within the last four hours (a queued start sent late)."""
    if not isinstance(body, dict) or "started_at" not in body:
        return True
    try:
        begun = dt.datetime.fromisoformat(str(body["started_at"]))
    except ValueError:
        return True
    now = dt.datetime.now(begun.tzinfo or dt.UTC)
    return now - dt.timedelta(hours=4) <= begun <= now + dt.timedelta(minutes=5)


def _deck_rules_kept(body: Any) -> bool:
    """Counts within the deck: a pile shuffle's piles, and an observed pattern's cards, lands and
    spells, are at most the deck's."""
    if not isinstance(body, dict) or not isinstance(body.get("deck_size"), int):
        return True
    deck = body["deck_size"]
    for step in body.get("procedure") or []:
        if isinstance(step, dict) and isinstance(step.get("piles"), int) and step["piles"] > deck:
            return False
    observed = body.get("observed")
    if isinstance(observed, dict) and isinstance(observed.get("pattern"), str):
        pattern = "".join(observed["pattern"].split()).upper()
        lands = observed.get("lands")
        if isinstance(lands, int) and (
            lands > deck or pattern.count("L") > lands or pattern.count("S") > deck - lands
        ):
            return False
    return True


def _offender_kept(body: Any) -> bool:
    """A call's offender is one of its players (those the body gives; by default the first)."""
    if not isinstance(body, dict) or not body.get("offender"):
        return True
    players = body.get("players")
    return isinstance(players, list) and body["offender"] in players


def _corrected_offender_kept(body: Any) -> bool:
    """A correction's offender is one of the call's players: a correction that names an offender
    and no players, or players and no offender, is checked against what is stored, which this run
    cannot see (left out)."""
    if not isinstance(body, dict):
        return True
    if bool(body.get("offender")) != bool(body.get("players")):
        return False
    return _offender_kept(body)


RULES = {
    ("POST", "/api/v1/jobs/loop-outcome"): _engine_rules_kept,
    ("POST", "/api/v1/jobs/game-outcome"): _engine_rules_kept,
    ("POST", "/api/v1/events/{event_id}/clock"): _clock_rules_kept,
    ("POST", "/api/v1/jobs/shuffle-analysis"): _deck_rules_kept,
    ("POST", "/api/v1/shuffle-check"): _deck_rules_kept,
    ("POST", "/api/v1/events/{event_id}/calls"): _offender_kept,
    ("PATCH", "/api/v1/events/{event_id}/calls/{call_id}"): _corrected_offender_kept,
    # as the query's: a version date belongs to one document, so `version` comes with `doc`
    ("POST", "/api/v1/search"): lambda body: (
        not isinstance(body, dict) or not body.get("version") or bool(body.get("doc"))
    ),
}


# What the schema cannot carry because it is data, not shape: which guide answers lead where (the
# guide's own, GET /api/v1/guides/{slug}), which infractions the current IPG has, the event's REL.
# These hooks put real values in those fields (the seeded event of .ci/contract.py is Competitive,
# and 2.2 is an infraction of every IPG the repository ships), so that the rest of each body is
# what is checked.
SEEDED_REL = "competitive"
REAL_INFRACTION = "2.2"


def _real_call(body: Any) -> Any:
    if not isinstance(body, dict):
        return body
    body = {k: v for k, v in body.items() if k not in ("guide", "answers", "conclusion")}
    body["infraction"] = REAL_INFRACTION
    if not body.get("players"):  # an IPG call names its players (a guide's may leave them out)
        body["players"] = [body.get("offender") or "Alice"]
    if "rel" in body and body["rel"] is not None:
        body["rel"] = SEEDED_REL
    return body


def _walk_from_the_start(body: Any) -> Any:
    if isinstance(body, dict) and "answers" in body:
        body = {**body, "answers": []}
    return body


MAPS = {
    ("POST", "/api/v1/events/{event_id}/calls"): _real_call,
    ("POST", "/api/v1/guides/{slug}/walk"): _walk_from_the_start,
    ("POST", "/api/v1/guides/{slug}/step"): _walk_from_the_start,
}


@schemathesis.hook
def map_body(ctx, body):
    operation = ctx.operation
    if operation is None:
        return body
    change = MAPS.get((operation.method.upper(), operation.path))
    return change(body) if change is not None else body


@schemathesis.hook
def filter_query(ctx, query) -> bool:
    """Search: a version date belongs to one document, so `version` comes with `doc`."""
    operation = ctx.operation
    if operation is None or operation.path != "/api/v1/search" or not isinstance(query, dict):
        return True
    return not query.get("version") or bool(query.get("doc"))


@schemathesis.hook
def filter_body(ctx, body) -> bool:
    operation = ctx.operation
    if operation is None:
        return True
    rule = RULES.get((operation.method.upper(), operation.path))
    return rule(body) if rule is not None else True
