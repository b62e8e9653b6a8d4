"""A loop's outcome on the tablet (static/judgeapp/loop-outcome.js) against engines/loops: run under
node on generated requests (the loop guide's shape: players by role, additions to life and poison,
breakers, declarations up to 10^18), the same result field for field, or the same refusal naming the
same field. A number past 2^53 is compared as the nearest double (JSON numbers in JavaScript are
doubles; the engine's sentences, which print it, are compared exactly).

The device may decline (``unsupported``) a request outside the guide's shape, and the server runs
it; a request of the guide's shape the engine accepts is never declined."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines import loops
from engines.errors import RequestError
from tests.node_process import NODE, run_node, script_path

SCRIPT = Path(__file__).resolve().parents[2] / "static" / "judgeapp" / "loop-outcome.js"
pytestmark = pytest.mark.skipif(
    NODE is None, reason="node is not installed (apt-get install nodejs)"
)
MAX_STEPS = 10_000
_RUNNER = f"""
const L = require({script_path(SCRIPT)});
return input.map(request => L.run(request));
"""


def run_js(requests: list) -> list:
    """The device's answers, numbers read back as JavaScript wrote them (past 2^53: doubles)."""
    return doubles(run_node(_RUNNER, requests, timeout=120))


def doubles(value):
    """JSON as JavaScript reads it: integers past 2^53 become the nearest double."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):
        if abs(value) <= 2**53:
            return value
        try:
            return float(value)
        except OverflowError:  # past the largest double, Number(BigInt) is Infinity
            return math.inf if value > 0 else -math.inf
    if isinstance(value, dict):
        return {k: doubles(v) for k, v in value.items()}
    if isinstance(value, list):
        return [doubles(v) for v in value]
    return value


def python_answer(request: dict) -> dict:
    try:
        req = loops.validate_loop_request(request)
        outcome = loops.resolve_loop(req, max_steps=MAX_STEPS)
    except RequestError as exc:
        return {"refused": exc.field}
    return {"result": doubles(json.loads(json.dumps(outcome.to_dict())))}


AP, NAP = "Active player", "Non-active player"
# Counts a JSON double carries exactly: small ones, powers of ten up to 10^18, and 2^k multiples.
count = st.one_of(
    st.integers(0, 30),
    st.integers(0, 10**6),
    st.sampled_from([10**k for k in range(19)]),
    st.integers(1, 2**20).map(lambda k: k * 2**40),
)
declaration = st.one_of(
    count,
    count,
    st.sampled_from(["accept", "indefinitely", "no_action"]),
    st.fixed_dictionaries({"iterations": count, "after_action": st.just(0)}),
)
kind = st.sampled_from(["optional", "mandatory", "mandatory", "optional", "unless"])
life = st.one_of(st.integers(-2, 40), st.integers(1, 10**6), st.sampled_from([10**18, 2**60]))
change = st.one_of(st.integers(-5, 5), st.integers(-(10**6), 10**6), st.sampled_from([0, -1, -3]))


@st.composite
def guide_request(draw) -> dict:
    """A loop-outcome request as the loop guide builds it (and a little wider: poison, both players'
    effects, partial counts)."""
    victim = draw(st.sampled_from([AP, NAP]))
    ap_kind, nap_kind = draw(kind), draw(kind)
    ap_action = {
        "player": AP,
        "kind": "mandatory" if ap_kind == "unless" else ap_kind,
        "text": "the active player's part of the loop",
        "effects": {victim: {"life": draw(change)}},
    }
    nap_action = {
        "player": NAP,
        "kind": nap_kind,
        "text": "the non-active player's part of the loop",
    }
    if nap_kind == "unless":
        nap_action["unless_player"] = draw(st.sampled_from([AP, NAP]))
        nap_action["text"] = "[A] unless [B]"
    if draw(st.booleans()):
        nap_action["effects"] = {
            draw(st.sampled_from([AP, NAP])): {"poison": draw(st.integers(0, 4))}
        }
    breakers = draw(
        st.lists(
            st.fixed_dictionaries(
                {
                    "player": st.sampled_from([AP, NAP]),
                    "text": st.just("use an action outside the loop"),
                }
            ),
            max_size=2,
        )
    )
    request = {
        "players": [AP, NAP],
        "state": {victim: {"life": draw(life)}},
        "iteration": [ap_action, nap_action],
        "breakers": breakers,
        "deterministic": draw(st.sampled_from([True, True, True, False])),
        "spans_turns": draw(st.booleans()),
        "restarted_without_change": draw(st.sampled_from([False, False, False, True])),
        "fragmented": draw(st.sampled_from([False, True, None])),
    }
    if draw(st.booleans()):
        request["state"][AP if victim == NAP else NAP] = {"poison": draw(st.integers(0, 12))}
    if draw(st.sampled_from([True, True, True, False])):
        request["declared"] = {AP: draw(declaration), NAP: draw(declaration)}
    return request


class LoopOutcomeOnTheDeviceTests:
    @settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(st.lists(guide_request(), min_size=10, max_size=20))
    def test_the_device_resolves_a_loop_as_the_engine(self, requests):
        for request, answer in zip(requests, run_js(requests), strict=True):
            expected = python_answer(request)
            if "result" in expected:  # never declined: the guide's loops all run on the tablet
                assert answer == expected, json.dumps(request)
            else:
                assert answer in (expected, {"unsupported": True}), json.dumps(request)

    @settings(max_examples=20, deadline=None)
    @given(
        st.lists(
            st.one_of(
                guide_request(),
                st.fixed_dictionaries(
                    {"players": st.sampled_from([[AP], [AP, AP], "x", [AP, NAP, "3"]])}
                ),
                guide_request().map(lambda r: {**r, "iteration": []}),
                guide_request().map(lambda r: {**r, "poison_threshold": 0}),
                guide_request().map(lambda r: {**r, "state": {"Nobody": {"life": 3}}}),
                guide_request().map(
                    lambda r: {
                        **r,
                        "iteration": [
                            {**r["iteration"][0], "effects": {AP: {"life": {"times": 2}}}}
                        ],
                    }
                ),
                guide_request().map(lambda r: {**r, "declared": {AP: -1}}),
                guide_request().map(lambda r: {**r, "declared": {AP: 10**18 + 2**20}}),
            ),
            min_size=10,
            max_size=20,
        )
    )
    def test_the_device_never_answers_what_the_engine_refuses(self, requests):
        for request, answer in zip(requests, run_js(requests), strict=True):
            expected = python_answer(request)
            if "result" in answer:
                assert answer == expected, json.dumps(request)
            elif "refused" in answer:
                assert answer == expected, json.dumps(request)
            else:
                assert answer == {"unsupported": True}

    def test_a_loop_of_ten_to_the_eighteen_iterations_is_exact(self):
        request = {
            "players": [AP, NAP],
            "state": {NAP: {"life": 10**18}},
            "iteration": [
                {"player": AP, "kind": "optional", "text": "ping", "effects": {NAP: {"life": -1}}},
                {"player": NAP, "kind": "mandatory", "text": "untap"},
            ],
            "declared": {AP: 10**18 - 2**10, NAP: "accept"},
        }
        (answer,) = run_js([request])
        assert answer == python_answer(request)
        assert answer["result"]["iterations"] == 10**18 - 2**10
        assert "performed 999,999,999,999,998,976 times" in answer["result"]["explanation"]

    def test_a_player_who_can_break_a_mandatory_loop_is_asked_on_the_device_too(self):
        # MTR 4.4: a draw only "If all players choose to take no action"; never presumed.
        unless = {
            "players": ["A", "B"],
            "iteration": [
                {
                    "player": "A",
                    "kind": "unless",
                    "unless_player": "B",
                    "effects": {"B": {"life": -1}},
                }
            ],
        }
        seal = {
            "players": [AP, NAP],
            "iteration": [
                {"player": AP, "kind": "mandatory"},
                {"player": NAP, "kind": "mandatory"},
            ],
            "breakers": [{"player": NAP, "text": "sacrifice Seal of Cleansing"}],
        }
        requests = [
            unless,
            seal,
            {**seal, "declared": {AP: "no_action"}},
            {**seal, "declared": {AP: "no_action", NAP: "no_action"}},
        ]
        answers = run_js(requests)
        for request, answer in zip(requests, answers, strict=True):
            assert answer == python_answer(request), json.dumps(request)
        asked = [(a["result"]["stop_kind"], a["result"]["stopped_by"]) for a in answers[:3]]
        assert asked == [("must_name_number", who) for who in ("B", NAP, NAP)]
        assert answers[0]["result"]["game_over"] is None
        assert answers[3]["result"]["draw"] is True

    def test_a_player_who_leaves_stops_the_loop_only_if_an_action_is_theirs_on_the_device(self):
        requests = [
            {
                "players": ["A", "B", "C"],
                "iteration": [{"player": who, "kind": "mandatory", "effects": {"C": {"life": -1}}}],
            }
            for who in ("A", "C")
        ]
        answers = run_js(requests)
        for request, answer in zip(requests, answers, strict=True):
            assert answer == python_answer(request), json.dumps(request)
        assert "the loop may still go on" in answers[0]["result"]["explanation"]
        assert "the loop stops here: C controls" in answers[1]["result"]["explanation"]
