#!/usr/bin/env python3
"""Generates compute_scenarios.json (blind scenarios, written from API.md and
the rules documents only: CR 2025-02-07, MTR 2019-06-06)."""

import json
import os

S = []


def add(id_, endpoint, request, expect, rule, why):
    cat = {"loop-outcome": "loops", "game-outcome": "games", "shuffle-analysis": "shuffles"}[
        endpoint
    ]
    S.append(
        {
            "id": id_,
            "category": cat,
            "endpoint": endpoint,
            "request": request,
            "expect": expect,
            "rule": rule,
            "why": why,
        }
    )


def st(**players):
    """players: name -> (life, library, poison)"""
    return {p: {"life": v[0], "library": v[1], "poison": v[2]} for p, v in players.items()}


def loop(
    players, state, iteration, breakers=None, deterministic=True, spans_turns=False, declared=None
):
    r = {
        "players": players,
        "state": state,
        "iteration": iteration,
        "breakers": breakers or [],
        "deterministic": deterministic,
        "spans_turns": spans_turns,
    }
    if declared is not None:
        r["declared"] = declared
    return r


def it(player, kind, text, effects=None, unless_player=None):
    d = {"player": player, "kind": kind, "text": text}
    if unless_player:
        d["unless_player"] = unless_player
    if effects:
        d["effects"] = effects
    return d


ONE_OF_SEVERAL = {"one_of": ["fragmented", "maintained_by_several"]}
DRAWN = {"draw": True, "game_over.draw": True, "game_over.winners": [], "game_over.losers": []}

# ---------------------------------------------------------------- loops
# Mandatory loops (CR 729.4, 104.4b; MTR 4.4 "no players involved")
add(
    "L01-mandatory-2p-draw",
    "loop-outcome",
    loop(
        ["AP", "NAP"],
        st(AP=(20, 30, 0), NAP=(20, 30, 0)),
        [
            it("AP", "mandatory", "AP's permanent triggers and its ability creates a token"),
            it(
                "NAP",
                "mandatory",
                "NAP's permanent triggers on the token and untaps AP's permanent, which triggers "
                "again",
                {"NAP": {"tokens": 1}},
            ),
        ],
    ),
    dict({"loop_kind": "mandatory"}, **DRAWN),
    ["CR 729.4", "CR 104.4b"],
    "A loop of only mandatory actions with no way to stop makes the game a draw.",
)

add(
    "L02-mandatory-no_action-declared-draw",
    "loop-outcome",
    loop(
        ["AP", "NAP"],
        st(AP=(20, 30, 0), NAP=(20, 30, 0)),
        [
            it("AP", "mandatory", "triggered ability A"),
            it("NAP", "mandatory", "triggered ability B triggers A again"),
        ],
        declared={"AP": "no_action", "NAP": "no_action"},
    ),
    dict({"loop_kind": "mandatory"}, **DRAWN),
    ["MTR 4.4", "CR 729.4", "CR 104.4b"],
    "MTR 4.4: if no player maintains the loop and every player chooses to take no action, the "
    "game is a draw.",
)

add(
    "L03-mandatory-breaker-not-forced",
    "loop-outcome",
    loop(
        ["AP", "NAP"],
        st(AP=(20, 30, 0), NAP=(20, 30, 0)),
        [
            it("AP", "mandatory", "artifact trigger"),
            it("NAP", "mandatory", "second trigger returns to the same state"),
        ],
        breakers=[
            {"player": "NAP", "text": "sacrifice Seal of Cleansing: destroy target artifact"}
        ],
        declared={"AP": "no_action", "NAP": "no_action"},
    ),
    dict({"loop_kind": "mandatory"}, **DRAWN),
    ["CR 729.5", "CR 729.4", "MTR 4.4"],
    "No player can be forced to use an outside action (Seal of Cleansing) to end a mandatory "
    "loop; when no one chooses to, the game is a draw.",
)

add(
    "L04-mandatory-breaker-used-after-10",
    "loop-outcome",
    loop(
        ["AP", "NAP"],
        st(AP=(20, 30, 0), NAP=(20, 30, 0)),
        [
            it("AP", "mandatory", "artifact trigger"),
            it("NAP", "mandatory", "second trigger returns to the same state"),
        ],
        breakers=[
            {"player": "NAP", "text": "sacrifice Seal of Cleansing: destroy target artifact"}
        ],
        declared={"AP": "no_action", "NAP": 10},
    ),
    {
        "loop_kind": "mandatory",
        "iterations": 10,
        "stopped_by": "NAP",
        "draw": False,
        "game_over": None,
    },
    ["MTR 4.4"],
    "MTR 4.4: with no player maintaining the loop, the game advances through the lowest number "
    "chosen and that player (NAP, 10) takes an action to break it.",
)

add(
    "L05-mandatory-two-numbers-lowest-wins",
    "loop-outcome",
    loop(
        ["AP", "NAP"],
        st(AP=(20, 30, 0), NAP=(20, 30, 0)),
        [it("AP", "mandatory", "trigger 1"), it("NAP", "mandatory", "trigger 2")],
        breakers=[
            {"player": "AP", "text": "activate an instant-speed removal ability"},
            {"player": "NAP", "text": "sacrifice Seal of Cleansing"},
        ],
        declared={"AP": 3, "NAP": 8},
    ),
    {"loop_kind": "mandatory", "iterations": 3, "stopped_by": "AP", "draw": False},
    ["MTR 4.4"],
    "MTR 4.4: the game advances through the lowest number of iterations chosen (AP's 3) and AP "
    "takes an action to break the loop.",
)

add(
    "L06-mandatory-3p-draw",
    "loop-outcome",
    loop(
        ["A", "B", "C"],
        st(A=(20, 30, 0), B=(20, 30, 0), C=(20, 30, 0)),
        [
            it("A", "mandatory", "trigger of A's permanent"),
            it("C", "mandatory", "trigger of C's permanent"),
            it("B", "mandatory", "trigger of B's permanent restarts the chain"),
        ],
    ),
    dict({"loop_kind": "mandatory"}, **DRAWN),
    ["CR 104.4b", "CR 729.4", "CR 806.2a"],
    "A multiplayer game without limited range of influence that enters a mandatory loop is a draw.",
)

add(
    "L07-unless-nobody-pays-draw",
    "loop-outcome",
    loop(
        ["AP", "NAP"],
        st(AP=(20, 30, 0), NAP=(20, 30, 0)),
        [
            it("AP", "mandatory", "trigger returns a creature"),
            it(
                "NAP",
                "unless",
                "NAP's trigger recurs the loop unless AP pays 1",
                unless_player="AP",
            ),
        ],
        declared={"AP": "no_action", "NAP": "no_action"},
    ),
    dict({"loop_kind": "mandatory"}, **DRAWN),
    ["CR 729.6", "CR 729.4"],
    "With '[A] unless [B]' no player can be forced to do B; if no one does, the loop continues "
    "as though A were mandatory, so it is a draw.",
)

add(
    "L08-unless-payer-breaks-after-3",
    "loop-outcome",
    loop(
        ["AP", "NAP"],
        st(AP=(20, 30, 0), NAP=(20, 30, 0)),
        [
            it("AP", "mandatory", "trigger returns a creature"),
            it(
                "NAP",
                "unless",
                "NAP's trigger recurs the loop unless AP pays 1",
                unless_player="AP",
            ),
        ],
        declared={"AP": 3, "NAP": "no_action"},
    ),
    {"iterations": 3, "stopped_by": "AP", "draw": False},
    ["CR 729.6", "MTR 4.4"],
    "AP may choose to pay (B) to end the loop; AP chose 3 iterations, the lowest number, so the "
    "loop runs 3 times and AP acts.",
)

add(
    "L09-mandatory-drains-nap",
    "loop-outcome",
    loop(
        ["AP", "NAP"],
        st(AP=(20, 30, 0), NAP=(5, 30, 0)),
        [
            it("AP", "mandatory", "trigger: NAP loses 1 life", {"NAP": {"life": -1}}),
            it("NAP", "mandatory", "trigger re-triggers AP's ability"),
        ],
    ),
    {
        "loop_kind": "mandatory",
        "draw": False,
        "game_over.losers": ["NAP"],
        "game_over.winners": ["AP"],
        "game_over.after_iteration": 5,
        "game_over.draw": False,
    },
    ["CR 704.5a", "CR 104.3b", "CR 104.2a"],
    "The mandatory loop is not endless: NAP reaches 0 life after iteration 5 and loses at the "
    "next state-based action check.",
)

add(
    "L10-mandatory-both-drain-simultaneous-draw",
    "loop-outcome",
    loop(
        ["AP", "NAP"],
        st(AP=(20, 30, 0), NAP=(20, 30, 0)),
        [
            it(
                "AP",
                "mandatory",
                "trigger: each player loses 1 life",
                {"AP": {"life": -1}, "NAP": {"life": -1}},
            ),
            it("NAP", "mandatory", "trigger re-triggers it"),
        ],
    ),
    {
        "draw": True,
        "game_over.draw": True,
        "game_over.winners": [],
        "game_over.after_iteration": 20,
    },
    ["CR 104.4a", "CR 704.5a", "CR 704.3"],
    "Both players reach 0 life after iteration 20 and lose simultaneously, so the game is a draw.",
)

add(
    "L11-mandatory-ap-draws-out",
    "loop-outcome",
    loop(
        ["AP", "NAP"],
        st(AP=(20, 30, 0), NAP=(20, 30, 0)),
        [
            it(
                "AP",
                "mandatory",
                "trigger: AP draws a card",
                {"AP": {"library": -1, "cards_drawn": 1}},
            ),
            it("NAP", "mandatory", "trigger re-triggers it"),
        ],
    ),
    {
        "draw": False,
        "game_over.losers": ["AP"],
        "game_over.winners": ["NAP"],
        "game_over.after_iteration": 31,
    },
    ["CR 704.5b", "CR 104.3c", "CR 121.4"],
    "AP draws 30 cards safely; the 31st draw is from an empty library, so AP loses after "
    "iteration 31.",
)

add(
    "L12-mandatory-both-draw-out-unequal",
    "loop-outcome",
    loop(
        ["AP", "NAP"],
        st(AP=(20, 10, 0), NAP=(20, 12, 0)),
        [
            it(
                "AP",
                "mandatory",
                "trigger: each player draws a card",
                {"AP": {"library": -1, "cards_drawn": 1}, "NAP": {"library": -1, "cards_drawn": 1}},
            ),
            it("NAP", "mandatory", "trigger re-triggers it"),
        ],
    ),
    {
        "draw": False,
        "game_over.losers": ["AP"],
        "game_over.winners": ["NAP"],
        "game_over.after_iteration": 11,
    },
    ["CR 704.5b", "CR 104.3c"],
    "AP's 10-card library runs out first: the 11th draw is from an empty library while NAP still "
    "has cards.",
)

add(
    "L13-mandatory-both-draw-out-equal",
    "loop-outcome",
    loop(
        ["AP", "NAP"],
        st(AP=(20, 10, 0), NAP=(20, 10, 0)),
        [
            it(
                "AP",
                "mandatory",
                "trigger: each player draws a card",
                {"AP": {"library": -1, "cards_drawn": 1}, "NAP": {"library": -1, "cards_drawn": 1}},
            ),
            it("NAP", "mandatory", "trigger re-triggers it"),
        ],
    ),
    {
        "draw": True,
        "game_over.draw": True,
        "game_over.winners": [],
        "game_over.after_iteration": 11,
    },
    ["CR 104.4a", "CR 704.5b"],
    "Both players draw from an empty library in iteration 11 and lose simultaneously: a draw.",
)

add(
    "L14-mandatory-huge-life",
    "loop-outcome",
    loop(
        ["AP", "NAP"],
        st(AP=(20, 30, 0), NAP=(10**18, 30, 0)),
        [
            it("AP", "mandatory", "trigger: NAP loses 1 life", {"NAP": {"life": -1}}),
            it("NAP", "mandatory", "trigger re-triggers it"),
        ],
    ),
    {
        "draw": False,
        "game_over.losers": ["NAP"],
        "game_over.winners": ["AP"],
        "game_over.after_iteration": 10**18,
    },
    ["CR 704.5a", "CR 104.3b"],
    "NAP at 10^18 life losing 1 per iteration hits 0 exactly after iteration 10^18 (arithmetic, "
    "not simulation).",
)

# Maintained by one player (MTR 4.4 para 3; CR 729.2a-c)
GOND = [
    it(
        "AP",
        "optional",
        "tap creature with Presence of Gond: create a 1/1 Elf Warrior",
        {"AP": {"tokens": 1}},
    ),
    it("NAP", "mandatory", "Intruder Alarm triggers: untap all creatures"),
]
add(
    "L15-maintained-one-accept",
    "loop-outcome",
    loop(
        ["AP", "NAP"],
        st(AP=(20, 30, 0), NAP=(20, 30, 0)),
        GOND,
        declared={"AP": 1000000, "NAP": "accept"},
    ),
    {
        "loop_kind": "maintained_by_one",
        "shortcut_allowed": True,
        "iterations": 1000000,
        "stopped_by": "AP",
        "draw": False,
        "game_over": None,
    },
    ["MTR 4.4", "CR 729.2a", "CR 729.2c"],
    "One player maintains the loop (CR 729.2a's Presence of Gond / Intruder Alarm example); NAP "
    "accepts, so a million iterations are performed and AP gets priority.",
)

add(
    "L16-maintained-one-nap-shortens",
    "loop-outcome",
    loop(
        ["AP", "NAP"], st(AP=(20, 30, 0), NAP=(20, 30, 0)), GOND, declared={"AP": 1000000, "NAP": 5}
    ),
    {
        "loop_kind": "maintained_by_one",
        "iterations": 5,
        "stopped_by": "NAP",
        "draw": False,
        "game_over": None,
    },
    ["MTR 4.4", "CR 729.2b"],
    "The other player announces a lower number (5) after which they intervene; the game advances "
    "5 iterations and NAP receives priority.",
)

add(
    "L17-maintained-one-nap-higher-number",
    "loop-outcome",
    loop(["AP", "NAP"], st(AP=(20, 30, 0), NAP=(20, 30, 0)), GOND, declared={"AP": 40, "NAP": 100}),
    {"loop_kind": "maintained_by_one", "iterations": 40, "stopped_by": "AP", "draw": False},
    ["MTR 4.4"],
    "The game advances through the lowest number chosen (AP's 40), and AP, who chose it, "
    "receives priority.",
)

add(
    "L18-maintained-one-10e18-tokens",
    "loop-outcome",
    loop(
        ["AP", "NAP"],
        st(AP=(20, 30, 0), NAP=(20, 30, 0)),
        GOND,
        declared={"AP": 10**18, "NAP": "accept"},
    ),
    {
        "loop_kind": "maintained_by_one",
        "iterations": 10**18,
        "stopped_by": "AP",
        "draw": False,
        "game_over": None,
    },
    ["MTR 4.4", "CR 729.2a"],
    "A shortcut may name any number of iterations; 10^18 token-making iterations are accepted "
    "and nothing ends the game.",
)

PING = [
    it(
        "AP", "optional", "activate: NAP loses 1 life, untap via combo piece", {"NAP": {"life": -1}}
    ),
    it("NAP", "mandatory", "NAP's permanent triggers and untaps AP's creature"),
]
add(
    "L19-maintained-one-kills-at-20",
    "loop-outcome",
    loop(
        ["AP", "NAP"],
        st(AP=(20, 30, 0), NAP=(20, 30, 0)),
        PING,
        declared={"AP": 1000000, "NAP": "accept"},
    ),
    {
        "loop_kind": "maintained_by_one",
        "iterations": 20,
        "draw": False,
        "game_over.losers": ["NAP"],
        "game_over.winners": ["AP"],
        "game_over.after_iteration": 20,
        "game_over.draw": False,
    },
    ["CR 704.5a", "CR 104.3b", "MTR 4.4"],
    "NAP at 20 life loses 1 per iteration and loses after iteration 20, long before the declared "
    "million.",
)

add(
    "L20-maintained-one-nap-intervenes-before-death",
    "loop-outcome",
    loop(
        ["AP", "NAP"],
        st(AP=(20, 30, 0), NAP=(20, 30, 0)),
        PING,
        declared={"AP": 1000000, "NAP": 10},
    ),
    {"iterations": 10, "stopped_by": "NAP", "draw": False, "game_over": None},
    ["MTR 4.4", "CR 729.2b"],
    "NAP shortens to 10 iterations (NAP at 10 life, still alive) and receives priority to act.",
)

add(
    "L21-maintained-one-damage-3-ceil",
    "loop-outcome",
    loop(
        ["AP", "NAP"],
        st(AP=(20, 30, 0), NAP=(20, 30, 0)),
        [
            it("AP", "optional", "activate: 3 damage to NAP", {"NAP": {"life": -3}}),
            it("NAP", "mandatory", "trigger untaps AP's source"),
        ],
        declared={"AP": 1000, "NAP": "accept"},
    ),
    {
        "iterations": 7,
        "game_over.losers": ["NAP"],
        "game_over.winners": ["AP"],
        "game_over.after_iteration": 7,
    },
    ["CR 704.5a", "CR 104.3b"],
    "20 life at 3 per iteration: after 6 iterations NAP has 2, after the 7th NAP has -1 and loses.",
)

add(
    "L22-maintained-one-poison",
    "loop-outcome",
    loop(
        ["AP", "NAP"],
        st(AP=(20, 30, 0), NAP=(20, 30, 3)),
        [
            it("AP", "optional", "activate: NAP gets a poison counter", {"NAP": {"poison": 1}}),
            it("NAP", "mandatory", "trigger untaps AP's source"),
        ],
        declared={"AP": 1000000, "NAP": "accept"},
    ),
    {
        "iterations": 7,
        "game_over.losers": ["NAP"],
        "game_over.winners": ["AP"],
        "game_over.after_iteration": 7,
    },
    ["CR 704.5c", "CR 104.3d"],
    "From 3 poison counters, NAP reaches 10 after the 7th iteration and loses.",
)

add(
    "L23-maintained-one-poison-before-life",
    "loop-outcome",
    loop(
        ["AP", "NAP"],
        st(AP=(20, 30, 0), NAP=(20, 30, 0)),
        [
            it(
                "AP",
                "optional",
                "infect-like: NAP loses 1 life and gets a poison counter",
                {"NAP": {"life": -1, "poison": 1}},
            ),
            it("NAP", "mandatory", "trigger untaps AP's source"),
        ],
        declared={"AP": 1000000, "NAP": "accept"},
    ),
    {"game_over.losers": ["NAP"], "game_over.winners": ["AP"], "game_over.after_iteration": 10},
    ["CR 704.5c", "CR 704.5a"],
    "Poison reaches 10 after iteration 10, before life reaches 0 (iteration 20).",
)

big_life = 10**18 - 1
add(
    "L24-maintained-one-huge-ceil",
    "loop-outcome",
    loop(
        ["AP", "NAP"],
        st(AP=(20, 30, 0), NAP=(big_life, 30, 0)),
        [
            it("AP", "optional", "activate: 7 damage to NAP", {"NAP": {"life": -7}}),
            it("NAP", "mandatory", "trigger untaps AP's source"),
        ],
        declared={"AP": 10**18, "NAP": "accept"},
    ),
    {
        "iterations": -(-big_life // 7),
        "game_over.losers": ["NAP"],
        "game_over.winners": ["AP"],
        "game_over.after_iteration": -(-big_life // 7),
    },
    ["CR 704.5a", "CR 104.3b"],
    "999,999,999,999,999,999 life at 7 per iteration reaches exactly 0 after "
    "142,857,142,857,142,857 iterations.",
)

add(
    "L25-maintained-one-huge-life-10e18",
    "loop-outcome",
    loop(
        ["AP", "NAP"],
        st(AP=(20, 30, 0), NAP=(10**18, 30, 0)),
        PING,
        declared={"AP": 10**18, "NAP": "accept"},
    ),
    {
        "iterations": 10**18,
        "game_over.losers": ["NAP"],
        "game_over.winners": ["AP"],
        "game_over.after_iteration": 10**18,
    },
    ["CR 704.5a", "MTR 4.4"],
    "NAP at 10^18 life loses exactly on the 10^18th (the last declared) iteration.",
)

add(
    "L26-maintained-one-life-cost",
    "loop-outcome",
    loop(
        ["AP", "NAP"],
        st(AP=(21, 30, 0), NAP=(20, 30, 0)),
        [
            it(
                "AP",
                "optional",
                "pay 1 life: NAP loses 1 life",
                {"AP": {"life": -1}, "NAP": {"life": -1}},
            ),
            it("NAP", "mandatory", "trigger untaps AP's source"),
        ],
        declared={"AP": 1000000, "NAP": "accept"},
    ),
    {"game_over.losers": ["NAP"], "game_over.winners": ["AP"], "game_over.after_iteration": 20},
    ["CR 704.5a", "CR 104.3b"],
    "After 20 iterations NAP is at 0 and AP at 1, so only NAP loses.",
)

add(
    "L27-maintained-by-nap",
    "loop-outcome",
    loop(
        ["AP", "NAP"],
        st(AP=(20, 30, 0), NAP=(20, 30, 0)),
        [
            it(
                "NAP",
                "optional",
                "NAP activates an instant-speed ability making a token",
                {"NAP": {"tokens": 1}},
            ),
            it("AP", "mandatory", "AP's permanent triggers and untaps NAP's creature"),
        ],
        declared={"NAP": 50, "AP": 20},
    ),
    {"loop_kind": "maintained_by_one", "iterations": 20, "stopped_by": "AP", "draw": False},
    ["MTR 4.4", "CR 729.2b"],
    "The non-active player maintains the loop; AP announces a lower number (20), so 20 "
    "iterations and AP receives priority.",
)

add(
    "L28-maintained-one-4p-lowest",
    "loop-outcome",
    loop(
        ["A", "B", "C", "D"],
        st(A=(20, 30, 0), B=(20, 30, 0), C=(20, 30, 0), D=(20, 30, 0)),
        [
            it("A", "optional", "tap for a token", {"A": {"tokens": 1}}),
            it("B", "mandatory", "B's Intruder Alarm untaps all creatures"),
        ],
        declared={"A": 1000, "B": "accept", "C": 100, "D": 50},
    ),
    {"loop_kind": "maintained_by_one", "iterations": 50, "stopped_by": "D", "draw": False},
    ["MTR 4.4", "CR 729.2b"],
    "Others in turn order agree or name a lower number; D's 50 is the lowest, so 50 iterations "
    "and D receives priority.",
)

add(
    "L29-maintained-one-3p-both-opponents-die",
    "loop-outcome",
    loop(
        ["A", "B", "C"],
        st(A=(20, 30, 0), B=(7, 30, 0), C=(7, 30, 0)),
        [
            it(
                "A",
                "optional",
                "activate: each opponent gets a poison counter",
                {"B": {"poison": 1}, "C": {"poison": 1}},
            ),
            it("B", "mandatory", "B's permanent triggers and untaps A's source"),
        ],
        declared={"A": 1000, "B": "accept", "C": "accept"},
    ),
    {
        "game_over.losers": ["B", "C"],
        "game_over.winners": ["A"],
        "game_over.after_iteration": 10,
        "game_over.draw": False,
        "draw": False,
    },
    ["CR 704.5c", "CR 104.2a", "CR 704.3"],
    "Both opponents reach 10 poison after iteration 10 and lose simultaneously; A, the only "
    "player left, wins.",
)

# Fragmented / maintained by several (CR 729.3; MTR 4.4 para 4)
FLY = [
    it("AP", "optional", "{0}: this creature gains flying"),
    it("NAP", "optional", "{0}: target creature loses flying"),
]
add(
    "L30-fragmented-2p-no-declaration",
    "loop-outcome",
    loop(["AP", "NAP"], st(AP=(20, 30, 0), NAP=(20, 30, 0)), FLY),
    {"loop_kind": ONE_OF_SEVERAL, "must_deviate": "AP", "draw": False, "game_over": None},
    ["CR 729.3", "CR 104.4b"],
    "CR 729.3 example: in a fragmented loop the active player must make a different choice; a "
    "loop with optional actions is never a draw.",
)

add(
    "L31-fragmented-2p-nap-listed-first",
    "loop-outcome",
    loop(
        ["AP", "NAP"],
        st(AP=(20, 30, 0), NAP=(20, 30, 0)),
        [
            it("NAP", "optional", "{0}: target creature loses flying"),
            it("AP", "optional", "{0}: this creature gains flying"),
        ],
    ),
    {"must_deviate": "AP", "draw": False},
    ["CR 729.3"],
    "Who must deviate depends on turn order (the active player), not on which action is listed "
    "first.",
)

add(
    "L32-fragmented-3p-ap-not-involved",
    "loop-outcome",
    loop(
        ["A", "B", "C"],
        st(A=(20, 30, 0), B=(20, 30, 0), C=(20, 30, 0)),
        [
            it("C", "optional", "{0}: target creature loses flying"),
            it("B", "optional", "{0}: this creature gains flying"),
        ],
    ),
    {"loop_kind": ONE_OF_SEVERAL, "must_deviate": "B", "draw": False},
    ["CR 729.3"],
    "The active player A is not involved, so the first involved player in turn order (B) must "
    "make a different choice.",
)

add(
    "L33-fragmented-3p-ap-involved",
    "loop-outcome",
    loop(
        ["A", "B", "C"],
        st(A=(20, 30, 0), B=(20, 30, 0), C=(20, 30, 0)),
        [
            it("C", "optional", "{0}: target creature loses flying"),
            it("A", "optional", "{0}: this creature gains flying"),
        ],
    ),
    {"must_deviate": "A", "draw": False},
    ["CR 729.3"],
    "The active player A is involved in the fragmented loop, so A must make a different choice.",
)

add(
    "L34-fragmented-4p-c-and-d",
    "loop-outcome",
    loop(
        ["A", "B", "C", "D"],
        st(A=(20, 30, 0), B=(20, 30, 0), C=(20, 30, 0), D=(20, 30, 0)),
        [
            it("D", "optional", "{0}: target creature loses flying"),
            it("C", "optional", "{0}: this creature gains flying"),
        ],
    ),
    {"loop_kind": ONE_OF_SEVERAL, "must_deviate": "C", "draw": False},
    ["CR 729.3"],
    "A is not involved; of C and D, C comes first in turn order and must deviate.",
)

add(
    "L35-fragmented-4p-b-and-d",
    "loop-outcome",
    loop(
        ["A", "B", "C", "D"],
        st(A=(20, 30, 0), B=(20, 30, 0), C=(20, 30, 0), D=(20, 30, 0)),
        [
            it("D", "optional", "{1}: return target permanent to hand"),
            it("B", "optional", "{1}: replay the permanent"),
        ],
    ),
    {"must_deviate": "B", "draw": False},
    ["CR 729.3"],
    "A is not involved; B is the first involved player in turn order (before D).",
)

add(
    "L36-fragmented-4p-three-involved-with-ap",
    "loop-outcome",
    loop(
        ["A", "B", "C", "D"],
        st(A=(20, 30, 0), B=(20, 30, 0), C=(20, 30, 0), D=(20, 30, 0)),
        [
            it("B", "optional", "B's independent action"),
            it("D", "optional", "D's independent action"),
            it("A", "optional", "A's independent action"),
        ],
    ),
    {"must_deviate": "A", "draw": False},
    ["CR 729.3"],
    "The active player is among the involved players, so the active player must deviate.",
)

add(
    "L37-fragmented-2p-declared",
    "loop-outcome",
    loop(["AP", "NAP"], st(AP=(20, 30, 0), NAP=(20, 30, 0)), FLY, declared={"AP": 5, "NAP": 3}),
    {"loop_kind": ONE_OF_SEVERAL, "iterations": 3, "stopped_by": "NAP", "draw": False},
    ["MTR 4.4"],
    "Two players maintain the loop within a turn: each names a number, the game advances the "
    "lowest (NAP's 3) and NAP receives priority.",
)

add(
    "L38-fragmented-2p-declared-ap-lower",
    "loop-outcome",
    loop(["AP", "NAP"], st(AP=(20, 30, 0), NAP=(20, 30, 0)), FLY, declared={"AP": 2, "NAP": 9}),
    {"iterations": 2, "stopped_by": "AP", "draw": False},
    ["MTR 4.4"],
    "The lowest number chosen is AP's 2, so 2 iterations and AP receives priority.",
)

add(
    "L39-fragmented-3p-declared-ap-not-involved",
    "loop-outcome",
    loop(
        ["A", "B", "C"],
        st(A=(20, 30, 0), B=(20, 30, 0), C=(20, 30, 0)),
        [
            it("B", "optional", "B's independent action"),
            it("C", "optional", "C's independent action"),
        ],
        declared={"B": 12, "C": 4},
    ),
    {"iterations": 4, "stopped_by": "C", "draw": False},
    ["MTR 4.4"],
    "Of the maintaining players B (12) and C (4), C's number is lowest; C receives priority "
    "after 4 iterations.",
)

add(
    "L40-fragmented-4p-declared",
    "loop-outcome",
    loop(
        ["A", "B", "C", "D"],
        st(A=(20, 30, 0), B=(20, 30, 0), C=(20, 30, 0), D=(20, 30, 0)),
        [
            it("A", "optional", "A's independent action"),
            it("C", "optional", "C's independent action"),
            it("D", "optional", "D's independent action"),
        ],
        declared={"A": 100, "C": 60, "D": 7},
    ),
    {"iterations": 7, "stopped_by": "D", "draw": False},
    ["MTR 4.4"],
    "With three maintaining players, the lowest number (D's 7) stands and D receives priority.",
)

add(
    "L41-fragmented-declared-tie-iterations",
    "loop-outcome",
    loop(["AP", "NAP"], st(AP=(20, 30, 0), NAP=(20, 30, 0)), FLY, declared={"AP": 10, "NAP": 10}),
    {"iterations": 10, "draw": False},
    ["MTR 4.4"],
    "Both name 10; the game advances through the lowest number chosen, 10.",
)

# Across turns (MTR 4.4 para 5)
XT = [
    it("AP", "optional", "each turn AP returns and recasts the permanent"),
    it("NAP", "optional", "each turn NAP answers it the same way"),
]
add(
    "L42-across-turns-all-indefinitely-draw",
    "loop-outcome",
    loop(
        ["AP", "NAP"],
        st(AP=(20, 30, 0), NAP=(20, 30, 0)),
        XT,
        spans_turns=True,
        declared={"AP": "indefinitely", "NAP": "indefinitely"},
    ),
    dict(DRAWN),
    ["MTR 4.4"],
    "MTR 4.4: when all players maintaining a loop across turns choose to continue indefinitely, "
    "the game is a draw.",
)

add(
    "L43-across-turns-one-number",
    "loop-outcome",
    loop(
        ["AP", "NAP"],
        st(AP=(20, 30, 0), NAP=(20, 30, 0)),
        XT,
        spans_turns=True,
        declared={"AP": "indefinitely", "NAP": 4},
    ),
    {"iterations": 4, "stopped_by": "NAP", "draw": False, "game_over": None},
    ["MTR 4.4"],
    "Across turns, the lowest number chosen (NAP's 4) stands and NAP receives priority where "
    "they stop sustaining the loop.",
)

add(
    "L44-across-turns-two-numbers",
    "loop-outcome",
    loop(
        ["AP", "NAP"],
        st(AP=(20, 30, 0), NAP=(20, 30, 0)),
        XT,
        spans_turns=True,
        declared={"AP": 2, "NAP": 3},
    ),
    {"iterations": 2, "stopped_by": "AP", "draw": False},
    ["MTR 4.4"],
    "AP's 2 is the lowest number, so 2 iterations and AP stops sustaining the loop.",
)

add(
    "L45-across-turns-3p-draw",
    "loop-outcome",
    loop(
        ["A", "B", "C"],
        st(A=(20, 30, 0), B=(20, 30, 0), C=(20, 30, 0)),
        [
            it("A", "optional", "A's action each turn"),
            it("B", "optional", "B's action each turn"),
            it("C", "optional", "C's action each turn"),
        ],
        spans_turns=True,
        declared={"A": "indefinitely", "B": "indefinitely", "C": "indefinitely"},
    ),
    dict(DRAWN),
    ["MTR 4.4"],
    "All three players maintaining the cross-turn loop choose 'indefinitely': the game is a draw.",
)

add(
    "L46-across-turns-3p-lowest",
    "loop-outcome",
    loop(
        ["A", "B", "C"],
        st(A=(20, 30, 0), B=(20, 30, 0), C=(20, 30, 0)),
        [
            it("A", "optional", "A's action each turn"),
            it("B", "optional", "B's action each turn"),
            it("C", "optional", "C's action each turn"),
        ],
        spans_turns=True,
        declared={"A": 9, "B": "indefinitely", "C": 6},
    ),
    {"iterations": 6, "stopped_by": "C", "draw": False},
    ["MTR 4.4"],
    "Not everyone chose 'indefinitely', so the lowest number (C's 6) stands and C acts.",
)

add(
    "L47-across-turns-4p-ap-not-involved-draw",
    "loop-outcome",
    loop(
        ["A", "B", "C", "D"],
        st(A=(20, 30, 0), B=(20, 30, 0), C=(20, 30, 0), D=(20, 30, 0)),
        [it("B", "optional", "B's action each turn"), it("D", "optional", "D's action each turn")],
        spans_turns=True,
        declared={"B": "indefinitely", "D": "indefinitely"},
    ),
    {"draw": True, "game_over.draw": True, "game_over.winners": []},
    ["MTR 4.4"],
    "All players maintaining the loop across turns (B and D) choose to continue indefinitely: a "
    "draw.",
)

# Non-deterministic (MTR 4.4 para 7)
add(
    "L48-non-deterministic-2p",
    "loop-outcome",
    loop(
        ["AP", "NAP"],
        st(AP=(20, 30, 0), NAP=(20, 30, 0)),
        [it("AP", "optional", "shuffle library and reveal until a creature card, repeat")],
        deterministic=False,
        declared={"AP": 100, "NAP": "accept"},
    ),
    {"loop_kind": "non_deterministic", "shortcut_allowed": False},
    ["MTR 4.4"],
    "Loops relying on probability (shuffling) may not be shortcut, whatever number is declared.",
)

add(
    "L49-non-deterministic-3p-mandatory",
    "loop-outcome",
    loop(
        ["A", "B", "C"],
        st(A=(20, 30, 0), B=(20, 30, 0), C=(20, 30, 0)),
        [
            it("A", "mandatory", "coin flip trigger"),
            it("B", "mandatory", "trigger depends on the flip result"),
        ],
        deterministic=False,
    ),
    {"loop_kind": "non_deterministic", "shortcut_allowed": False},
    ["MTR 4.4", "CR 729.2a"],
    "A loop relying on random results is non-deterministic and can't be shortcut (a shortcut "
    "can't include conditional actions).",
)

# invalid inputs
add(
    "L50-invalid-unknown-player",
    "loop-outcome",
    loop(
        ["AP", "NAP"],
        st(AP=(20, 30, 0), NAP=(20, 30, 0)),
        [it("ZZ", "optional", "player who is not in the game")],
    ),
    {"status": 400},
    ["API.md"],
    "An iteration step by a player not listed in players is invalid input.",
)

add(
    "L51-invalid-kind",
    "loop-outcome",
    loop(
        ["AP", "NAP"],
        st(AP=(20, 30, 0), NAP=(20, 30, 0)),
        [it("AP", "sometimes", "not a valid kind")],
    ),
    {"status": 400},
    ["API.md"],
    "kind must be optional, mandatory or unless.",
)


# ---------------------------------------------------------------- games
def pl(name, life=20, poison=0, empty=False, cmd=None, team=None):
    return {
        "name": name,
        "life": life,
        "poison": poison,
        "drew_from_empty_library": empty,
        "commander_damage": cmd or {},
        "team": team,
    }


def game(fmt, players, effects=None, mandatory_loop=False):
    return {
        "format": fmt,
        "players": players,
        "effects": effects or [],
        "mandatory_loop": mandatory_loop,
    }


add(
    "G01-zero-life",
    "game-outcome",
    game("two_player", [pl("A", life=0), pl("B")]),
    {"result": "win", "winners": ["B"], "losers": ["A"]},
    ["CR 704.5a", "CR 104.3b", "CR 104.2a"],
    "A player with 0 life loses; the opponent is the only one left and wins.",
)

add(
    "G02-negative-life",
    "game-outcome",
    game("two_player", [pl("A"), pl("B", life=-7)]),
    {"result": "win", "winners": ["A"], "losers": ["B"]},
    ["CR 704.5a"],
    "0 or less life loses the game.",
)

add(
    "G03-ten-poison",
    "game-outcome",
    game("two_player", [pl("A", poison=10), pl("B")]),
    {"result": "win", "winners": ["B"], "losers": ["A"]},
    ["CR 704.5c", "CR 104.3d"],
    "Ten or more poison counters loses the game.",
)

add(
    "G04-nine-poison-one-life-ongoing",
    "game-outcome",
    game("two_player", [pl("A", life=1, poison=9), pl("B", life=1, poison=9)]),
    {"result": "ongoing", "winners": [], "losers": []},
    ["CR 704.5a", "CR 704.5c"],
    "1 life and 9 poison meet no loss condition.",
)

add(
    "G05-empty-library-draw",
    "game-outcome",
    game("two_player", [pl("A"), pl("B", empty=True)]),
    {"result": "win", "winners": ["A"], "losers": ["B"]},
    ["CR 704.5b", "CR 104.3c"],
    "A player who attempted to draw from an empty library loses.",
)

add(
    "G06-simultaneous-loss-draw",
    "game-outcome",
    game("two_player", [pl("A", life=0), pl("B", poison=10)]),
    {"result": "draw", "winners": []},
    ["CR 104.4a", "CR 704.3"],
    "State-based actions are performed simultaneously; both remaining players lose at once, so "
    "the game is a draw.",
)

add(
    "G07-both-drew-empty-draw",
    "game-outcome",
    game("two_player", [pl("A", empty=True), pl("B", empty=True)]),
    {"result": "draw", "winners": []},
    ["CR 104.4a", "CR 704.5b"],
    "Both players lose simultaneously: a draw.",
)

add(
    "G08-effect-lose",
    "game-outcome",
    game("two_player", [pl("A"), pl("B")], [{"type": "lose", "player": "A"}]),
    {"result": "win", "winners": ["B"], "losers": ["A"]},
    ["CR 104.3e", "CR 104.2a"],
    "An effect may state that a player loses the game.",
)

add(
    "G09-effect-win",
    "game-outcome",
    game("two_player", [pl("A"), pl("B")], [{"type": "win", "player": "B"}]),
    {"result": "win", "winners": ["B"]},
    ["CR 104.2b", "CR 104.1"],
    "An effect may state that a player wins the game.",
)

add(
    "G10-win-and-lose-simultaneously",
    "game-outcome",
    game(
        "two_player",
        [pl("A"), pl("B")],
        [{"type": "win", "player": "A"}, {"type": "lose", "player": "A"}],
    ),
    {"result": "win", "winners": ["B"], "losers": ["A"]},
    ["CR 104.3f", "CR 104.2a"],
    "A player who would both win and lose simultaneously loses the game.",
)

add(
    "G11-all-conditions-one-loser",
    "game-outcome",
    game("two_player", [pl("A", life=0, poison=12, empty=True), pl("B", life=3)]),
    {"result": "win", "winners": ["B"], "losers": ["A"]},
    ["CR 704.5a", "CR 704.5b", "CR 704.5c"],
    "Several loss conditions for one player still make only that player lose.",
)

add(
    "G12-mandatory-loop-draw",
    "game-outcome",
    game("two_player", [pl("A"), pl("B")], mandatory_loop=True),
    {"result": "draw", "winners": []},
    ["CR 104.4b", "CR 729.4"],
    "A two-player game in a loop of mandatory actions is a draw.",
)

add(
    "G13-mandatory-loop-ffa-draw",
    "game-outcome",
    game("free_for_all", [pl("A"), pl("B"), pl("C"), pl("D")], mandatory_loop=True),
    {"result": "draw", "winners": []},
    ["CR 104.4b", "CR 806.2a"],
    "A multiplayer game not using limited range of influence that enters a mandatory loop is a "
    "draw.",
)

add(
    "G14-ffa-one-loses-ongoing",
    "game-outcome",
    game("free_for_all", [pl("A", life=0), pl("B"), pl("C"), pl("D")]),
    {"result": "ongoing", "winners": [], "losers": ["A"]},
    ["CR 704.5a", "CR 800.4", "CR 104.2a"],
    "In a multiplayer game one loss doesn't end the game; three opponents remain.",
)

add(
    "G15-ffa-two-lose-third-wins",
    "game-outcome",
    game("free_for_all", [pl("A", life=0), pl("B", poison=10), pl("C", life=1)]),
    {"result": "win", "winners": ["C"], "losers": ["A", "B"]},
    ["CR 104.2a", "CR 704.5a", "CR 704.5c"],
    "C's opponents have all left the game, so C wins.",
)

add(
    "G16-ffa-all-lose-draw",
    "game-outcome",
    game("free_for_all", [pl("A", life=0), pl("B", life=-2), pl("C", empty=True)]),
    {"result": "draw", "winners": []},
    ["CR 104.4a"],
    "All remaining players lose simultaneously: the game is a draw.",
)

add(
    "G17-ffa-mixed-three-lose",
    "game-outcome",
    game(
        "free_for_all",
        [pl("A"), pl("B", life=0), pl("C", empty=True), pl("D")],
        [{"type": "lose", "player": "A"}],
    ),
    {"result": "win", "winners": ["D"], "losers": ["A", "B", "C"]},
    ["CR 104.3e", "CR 704.5a", "CR 704.5b", "CR 104.2a"],
    "A loses to an effect, B to 0 life, C to an empty-library draw; D is the only player left "
    "and wins.",
)

add(
    "G18-ffa-effect-win",
    "game-outcome",
    game("free_for_all", [pl("A"), pl("B"), pl("C"), pl("D")], [{"type": "win", "player": "C"}]),
    {"result": "win", "winners": ["C"]},
    ["CR 104.2b", "CR 104.1"],
    "An effect that says C wins ends the game with C winning.",
)

add(
    "G19-ffa-all-healthy-ongoing",
    "game-outcome",
    game("free_for_all", [pl("A", life=1), pl("B", poison=9), pl("C", life=40)]),
    {"result": "ongoing", "winners": [], "losers": []},
    ["CR 104.3", "CR 704.5"],
    "No player meets a loss condition.",
)

add(
    "G20-commander-21",
    "game-outcome",
    game(
        "commander",
        [pl("A", life=40), pl("B", life=40, cmd={"A": 21}), pl("C", life=40), pl("D", life=40)],
    ),
    {"result": "ongoing", "losers": ["B"], "winners": []},
    ["CR 704.6c", "CR 903.10a", "CR 104.3j"],
    "B was dealt 21 combat damage by the same commander and loses, even at 40 life; three "
    "players remain.",
)

add(
    "G21-commander-20-no-loss",
    "game-outcome",
    game(
        "commander",
        [pl("A", life=40), pl("B", life=40, cmd={"A": 20}), pl("C", life=40), pl("D", life=40)],
    ),
    {"result": "ongoing", "losers": [], "winners": []},
    ["CR 704.6c"],
    "20 commander damage is below the 21 threshold.",
)

add(
    "G22-commander-split-no-loss",
    "game-outcome",
    game(
        "commander",
        [
            pl("A", life=40),
            pl("B", life=19, cmd={"A": 11, "C": 10}),
            pl("C", life=40),
            pl("D", life=40),
        ],
    ),
    {"result": "ongoing", "losers": [], "winners": []},
    ["CR 704.6c", "CR 903.10a"],
    "21 total damage from two different commanders doesn't count; it must be 21 from the same "
    "commander.",
)

add(
    "G23-commander-last-opponent",
    "game-outcome",
    game("commander", [pl("A", life=40), pl("B", life=30, cmd={"A": 25}), pl("C", life=0)]),
    {"result": "win", "winners": ["A"], "losers": ["B", "C"]},
    ["CR 704.6c", "CR 704.5a", "CR 104.2a"],
    "B loses to commander damage and C to 0 life; A is the last player and wins.",
)

T = "two_headed_giant"
add(
    "G24-2hg-team-life-zero",
    "game-outcome",
    game(
        T,
        [
            pl("A", life=0, team="T1"),
            pl("B", life=0, team="T1"),
            pl("C", life=30, team="T2"),
            pl("D", life=30, team="T2"),
        ],
    ),
    {"result": "win", "winners": ["C", "D"], "losers": ["A", "B"]},
    ["CR 810.8c", "CR 704.6a", "CR 104.2c"],
    "A team with 0 shared life loses together; the other team wins.",
)

add(
    "G25-2hg-ten-poison-not-enough",
    "game-outcome",
    game(
        T,
        [
            pl("A", life=30, poison=10, team="T1"),
            pl("B", life=30, team="T1"),
            pl("C", life=30, team="T2"),
            pl("D", life=30, team="T2"),
        ],
    ),
    {"result": "ongoing", "winners": [], "losers": []},
    ["CR 704.5c", "CR 704.6b", "CR 810.8d"],
    "In Two-Headed Giant the ten-poison rule is ignored; a team needs fifteen.",
)

add(
    "G26-2hg-fifteen-poison",
    "game-outcome",
    game(
        T,
        [
            pl("A", life=30, poison=15, team="T1"),
            pl("B", life=30, poison=15, team="T1"),
            pl("C", life=30, team="T2"),
            pl("D", life=30, team="T2"),
        ],
    ),
    {"result": "win", "winners": ["C", "D"], "losers": ["A", "B"]},
    ["CR 810.8d", "CR 704.6b", "CR 810.10"],
    "A team with fifteen (shared) poison counters loses.",
)

add(
    "G27-2hg-empty-library-team-loses",
    "game-outcome",
    game(
        T,
        [
            pl("A", life=30, team="T1"),
            pl("B", life=30, empty=True, team="T1"),
            pl("C", life=30, team="T2"),
            pl("D", life=30, team="T2"),
        ],
    ),
    {"result": "win", "winners": ["C", "D"], "losers": ["A", "B"]},
    ["CR 810.8a", "CR 704.5b"],
    "CR 810.8a example: one player drawing from an empty library makes the whole team lose.",
)

add(
    "G28-2hg-lose-effect-team",
    "game-outcome",
    game(
        T,
        [
            pl("A", life=30, team="T1"),
            pl("B", life=30, team="T1"),
            pl("C", life=30, team="T2"),
            pl("D", life=30, team="T2"),
        ],
        [{"type": "lose", "player": "C"}],
    ),
    {"result": "win", "winners": ["A", "B"], "losers": ["C", "D"]},
    ["CR 810.8a", "CR 104.3e"],
    "If either player on a team loses the game, the team loses the game.",
)

add(
    "G29-2hg-win-effect-team",
    "game-outcome",
    game(
        T,
        [
            pl("A", life=30, team="T1"),
            pl("B", life=30, team="T1"),
            pl("C", life=30, team="T2"),
            pl("D", life=30, team="T2"),
        ],
        [{"type": "win", "player": "B"}],
    ),
    {"result": "win", "winners": ["A", "B"]},
    ["CR 810.8a", "CR 104.2b"],
    "If either player on a team wins the game, the entire team wins.",
)

add(
    "G30-2hg-both-teams-lose-draw",
    "game-outcome",
    game(
        T,
        [
            pl("A", life=0, team="T1"),
            pl("B", life=0, team="T1"),
            pl("C", life=0, team="T2"),
            pl("D", life=0, team="T2"),
        ],
    ),
    {"result": "draw", "winners": []},
    ["CR 104.4d", "CR 810.8c"],
    "All remaining teams lose simultaneously: the game is a draw.",
)

add(
    "G32-3hg-fifteen-poison-not-enough",
    "game-outcome",
    game(
        T,
        [
            pl("A", life=45, poison=15, team="T1"),
            pl("B", life=45, team="T1"),
            pl("C", life=45, team="T1"),
            pl("D", life=45, team="T2"),
            pl("E", life=45, team="T2"),
            pl("F", life=45, team="T2"),
        ],
    ),
    {"result": "ongoing", "winners": [], "losers": []},
    ["CR 810.11", "CR 810.8d"],
    "With three-player teams the poison threshold rises by five per player beyond the second, to "
    "20; 15 is not enough.",
)

add(
    "G33-3hg-twenty-poison",
    "game-outcome",
    game(
        T,
        [
            pl("A", life=45, poison=20, team="T1"),
            pl("B", life=45, team="T1"),
            pl("C", life=45, team="T1"),
            pl("D", life=45, team="T2"),
            pl("E", life=45, team="T2"),
            pl("F", life=45, team="T2"),
        ],
    ),
    {"result": "win", "winners": ["D", "E", "F"], "losers": ["A", "B", "C"]},
    ["CR 810.11", "CR 810.8d", "CR 810.8a"],
    "Three-Headed Giant team threshold is 15 + 5 = 20 poison counters; the team loses together.",
)

add(
    "G34-2hg-ongoing-healthy",
    "game-outcome",
    game(
        T,
        [
            pl("A", life=12, poison=7, team="T1"),
            pl("B", life=12, team="T1"),
            pl("C", life=30, team="T2"),
            pl("D", life=30, team="T2"),
        ],
    ),
    {"result": "ongoing", "winners": [], "losers": []},
    ["CR 810.8", "CR 704.6"],
    "Positive life and fewer than fifteen poison: nobody loses.",
)

add(
    "G35-invalid-players",
    "game-outcome",
    {"format": "two_player", "players": "nope", "effects": [], "mandatory_loop": False},
    {"status": 400},
    ["API.md"],
    "players must be a list of player objects.",
)

add(
    "G36-invalid-life",
    "game-outcome",
    game("two_player", [pl("A", life="lots"), pl("B")]),
    {"status": 400},
    ["API.md"],
    "life must be an integer.",
)


# ---------------------------------------------------------------- shuffles
def sh(n, proc, observed=None):
    r = {"deck_size": n, "procedure": proc}
    if observed:
        r["observed"] = observed
    return r


def R(k):
    return {"method": "riffle", "times": k}


def P(t=1, p=7):
    return {"method": "pile", "times": t, "piles": p}


UNIT = {"min": 0.0, "max": 1.0}

add(
    "S01-pile-only-60",
    "shuffle-analysis",
    sh(60, [P(1, 7)]),
    {"sufficient": False, "distance_from_random": {"min": 0.99, "max": 1.0}},
    ["MTR 3.9"],
    "Pile shuffling alone is not sufficiently random (MTR 3.9); a pile shuffle reaches at most "
    "7! of the 60! orders.",
)

add(
    "S02-pile-three-times-40",
    "shuffle-analysis",
    sh(40, [P(3, 5)]),
    {"sufficient": False, "distance_from_random": {"min": 0.99, "max": 1.0}},
    ["MTR 3.9"],
    "Repeated pile shuffles are still pile shuffling alone, which is not randomization.",
)

add(
    "S03-pile-only-100",
    "shuffle-analysis",
    sh(100, [P(1, 10)]),
    {
        "sufficient": False,
        "distance_from_random": {"min": 0.99, "max": 1.0},
        "riffles_needed": {"min": 6},
    },
    ["MTR 3.9"],
    "A pile shuffle of 100 cards is not random; after at most 5 riffles of 100 cards fewer than "
    "1e-9 of orders are reachable, so at least 6 are needed.",
)

for k in range(1, 11):
    exp = {"distance_from_random": dict(UNIT)}
    if k <= 4:
        exp["distance_from_random"]["min"] = 0.99
        exp["sufficient"] = False
    if k > 1:
        exp["distance_from_random"]["le_scenario"] = f"S-riffle-60-{k - 1:02d}"
    add(
        f"S-riffle-60-{k:02d}",
        "shuffle-analysis",
        sh(60, [R(k)]),
        exp,
        ["MTR 3.9"],
        (
            f"{k} riffle(s) reach only orders with at most {2**k} rising sequences, under 1e-10 of "
            "all 60! orders, so the distance is above 0.99."
        )
        if k <= 4
        else (
            "Total variation distance to uniform never increases with one more riffle (it "
            "lies in [0,1])."
        ),
    )

add(
    "S04-riffle-40-4",
    "shuffle-analysis",
    sh(40, [R(4)]),
    {"distance_from_random": {"min": 0.98, "max": 1.0}, "sufficient": False},
    ["MTR 3.9"],
    "4 riffles reach only orders with at most 16 rising sequences, about 1.4% of 40! orders, so "
    "the distance is at least 0.985.",
)

add(
    "S05-riffle-40-5",
    "shuffle-analysis",
    sh(40, [R(5)]),
    {"distance_from_random": {"min": 0.0, "max": 1.0, "le_scenario": "S04-riffle-40-4"}},
    ["MTR 3.9"],
    "One more riffle can't move the deck further from random.",
)

add(
    "S06-riffle-40-8",
    "shuffle-analysis",
    sh(40, [R(8)]),
    {"distance_from_random": {"min": 0.0, "max": 1.0, "le_scenario": "S05-riffle-40-5"}},
    ["MTR 3.9"],
    "Distance is non-increasing in the number of riffles.",
)

add(
    "S07-riffle-100-5",
    "shuffle-analysis",
    sh(100, [R(5)]),
    {"distance_from_random": {"min": 0.99, "max": 1.0}, "sufficient": False},
    ["MTR 3.9"],
    "5 riffles of 100 cards reach only orders with at most 32 rising sequences (about 1e-10 of "
    "all), so the deck is far from random.",
)

add(
    "S08-riffle-100-7",
    "shuffle-analysis",
    sh(100, [R(7)]),
    {"distance_from_random": {"min": 0.0, "max": 1.0, "le_scenario": "S07-riffle-100-5"}},
    ["MTR 3.9"],
    "Two more riffles can't increase the distance.",
)

add(
    "S09-riffle-100-30",
    "shuffle-analysis",
    sh(100, [R(30)]),
    {
        "distance_from_random": {"min": 0.0, "max": 0.01, "le_scenario": "S08-riffle-100-7"},
        "sufficient": True,
    },
    ["MTR 3.9"],
    "After 30 riffles of 100 cards the strong-uniform-time bound gives distance under 5e-6 "
    "(Gilbert-Shannon-Reeds model).",
)

add(
    "S10-riffle-60-20",
    "shuffle-analysis",
    sh(60, [R(20)]),
    {"distance_from_random": {"min": 0.0, "max": 0.01, "le_scenario": "S-riffle-60-10"}},
    ["MTR 3.9"],
    "After 20 riffles of 60 cards the strong-uniform-time bound gives distance under 0.002 "
    "(Gilbert-Shannon-Reeds model).",
)

add(
    "S11-mix-riffle3-pile-60",
    "shuffle-analysis",
    sh(60, [R(3), P(1, 7)]),
    {"distance_from_random": {"min": 0.99, "max": 1.0}, "sufficient": False},
    ["MTR 3.9"],
    "A pile shuffle adds at most 7! orders to the tiny set 3 riffles reach, so the deck stays "
    "far from random.",
)

add(
    "S12-mix-pile-riffle4-60",
    "shuffle-analysis",
    sh(60, [P(1, 7), R(4)]),
    {"distance_from_random": {"min": 0.99, "max": 1.0}, "sufficient": False},
    ["MTR 3.9"],
    "Pile then 4 riffles reaches at most 7! times 5e-11 of all 60! orders, under 3e-7.",
)

add(
    "S13-mix-riffle7-pile-60",
    "shuffle-analysis",
    sh(60, [R(7), P(1, 7)]),
    {"distance_from_random": {"min": 0.0, "max": 1.0, "le_scenario": "S-riffle-60-07"}},
    ["MTR 3.9"],
    "Adding a pile shuffle after 7 riffles can't increase the distance from uniform.",
)

add(
    "S14-mix-pile-riffle7-60",
    "shuffle-analysis",
    sh(60, [P(1, 7), R(7)]),
    {"distance_from_random": {"min": 0.0, "max": 1.0, "le_scenario": "S-riffle-60-07"}},
    ["MTR 3.9"],
    "Pile shuffling before 7 riffles can't make the result worse than 7 riffles alone.",
)

add(
    "S15-mix-riffle4-pile2-100",
    "shuffle-analysis",
    sh(100, [R(2), P(2, 10), R(2)]),
    {"distance_from_random": {"min": 0.99, "max": 1.0}, "sufficient": False},
    ["MTR 3.9"],
    "Four riffles in total on 100 cards, with pile shuffles in between, reach a vanishing "
    "fraction of orders.",
)

pattern = "LSS" * 20
add(
    "S16-observed-pattern",
    "shuffle-analysis",
    sh(60, [R(7)], {"pattern": pattern, "lands": 20}),
    {"pattern_p_value": {"min": 0.0, "max": 1.0}, "distance_from_random": {"min": 0.0, "max": 1.0}},
    ["MTR 3.9"],
    "A p-value is a probability in [0,1].",
)

pattern40 = "LS" * 17 + "LLLLLL"
add(
    "S17-observed-pattern-pile-40",
    "shuffle-analysis",
    sh(40, [P(1, 5)], {"pattern": pattern40, "lands": 23}),
    {
        "pattern_p_value": {"min": 0.0, "max": 1.0},
        "sufficient": False,
        "distance_from_random": {"min": 0.99, "max": 1.0},
    },
    ["MTR 3.9"],
    "Pile shuffling alone is never sufficient, with or without an observed pattern.",
)

add(
    "S18-invalid-deck-size",
    "shuffle-analysis",
    sh(-5, [R(7)]),
    {"status": 400},
    ["API.md"],
    "A negative deck size is invalid input.",
)

add(
    "S19-invalid-method",
    "shuffle-analysis",
    sh(60, [{"method": "teleport", "times": 1}]),
    {"status": 400},
    ["API.md"],
    "An unknown shuffle method is invalid input.",
)

add(
    "S20-invalid-times",
    "shuffle-analysis",
    sh(60, [{"method": "riffle", "times": -3}]),
    {"status": 400},
    ["API.md"],
    "A negative number of riffles is invalid input.",
)

ids = [s["id"] for s in S]
assert len(ids) == len(set(ids)), "duplicate ids"
for s in S:
    for v in s["expect"].values():
        if isinstance(v, dict) and "le_scenario" in v:
            assert v["le_scenario"] in ids, v
out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "compute_scenarios.json")
with open(out, "w") as f:
    json.dump(S, f, indent=1)
from collections import Counter

print(len(S), Counter(s["category"] for s in S))
