"""The shuffle check on the tablet (static/judgeapp/shuffle-check.js) against
engines/shuffle_check.py: run under node on generated facts, the same result field for field, or the
same refusal naming the same field. Facts with a shuffle procedure described are the server's
(riffle mathematics): the device declines them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines import shuffle_check, shuffles
from engines.errors import RequestError
from tests.node_process import NODE, run_node, script_path

SCRIPT = Path(__file__).resolve().parents[2] / "static" / "judgeapp" / "shuffle-check.js"
pytestmark = pytest.mark.skipif(
    NODE is None, reason="node is not installed (apt-get install nodejs)"
)

_RUNNER = f"""
const C = require({script_path(SCRIPT)});
const out = input.calls.map(([name, args]) => name === 'run' ? C.run(args[0], args[1]) : C.formatG3(args[0]));
return {{out, alpha: C.PATTERN_ALPHA, max: C.MAX_DECK_SIZE}};
"""  # noqa: E501


def run_js(calls: list) -> dict:
    return run_node(_RUNNER, {"calls": calls}, timeout=60)


def python_answer(request, threshold: float) -> dict:
    """What the device must answer: the engine's result (citations still pinned: the page shows the
    step's own citations), {"refused": field}, or {"unsupported": True} for a
    described procedure."""
    if isinstance(request, dict) and request.get("procedure") is not None:
        return {"unsupported": True}
    try:
        facts = shuffle_check.validate_shuffle_facts(request)
    except RequestError as exc:
        return {"refused": exc.field}
    return {
        "result": json.loads(
            json.dumps(shuffle_check.check_shuffle(facts, threshold=threshold).as_result())
        )
    }


# Probabilities that test the formatting: ties at the fourth digit (0.5625 = 9/16), tiny and
# round ones.
TRICKY = [
    0.0,
    1.0,
    0.01,
    0.5625,
    0.0078125,
    0.001953125,
    0.00999,
    0.0100001,
    1e-7,
    2.5e-5,
    0.000123456,
    0.99951,
    5e-324,
]
probability = st.one_of(
    st.sampled_from(TRICKY),
    st.floats(min_value=0, max_value=1),
    st.floats(min_value=0, max_value=0.02),
)
ODD = [None, 1, 0, "yes", [], {}, 2.5]
odd = st.sampled_from(ODD)
# Mostly facts a guide builds, with an odd value now and then (each must be refused as the engine
# refuses it).
flag = st.sampled_from([True, False] * 50 + ODD)
analysis = st.one_of(
    st.none(),
    st.just({}),
    st.sampled_from([[], "x", 3]),
    st.fixed_dictionaries(
        {},
        optional={
            "pattern_p_value": st.one_of(probability, probability, odd, st.just(1.5)),
            "pattern_direction": st.sampled_from(
                [None, "too_even", "too_clumped"] * 4 + ["sideways", 1]
            ),
        },
    ),
)
facts = st.fixed_dictionaries(
    {
        "rel": st.sampled_from(
            ["regular", "competitive", "professional"] * 8 + ["casual", None, 1, "REGULAR"]
        ),
        "deck_size": st.one_of(
            st.integers(0, 250), st.integers(0, 3), st.integers(0, 250), st.integers(-3, 260), odd
        ),
    },
    optional={
        **{name: flag for name in shuffle_check._FLAGS},
        "pattern_p_value": st.one_of(probability, probability, odd, st.just(-0.1)),
        "analysis": analysis,
        "procedure": st.sampled_from([None] * 10 + [[], [{"method": "riffle", "times": 3}]]),
    },
)


class ShuffleCheckOnTheDeviceTests:
    def test_constants_are_the_engines(self):
        found = run_js([])
        assert (found["alpha"], found["max"]) == (shuffles.PATTERN_ALPHA, shuffles.MAX_DECK_SIZE)

    @settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(
        st.lists(
            st.tuples(facts, st.sampled_from([0.25, 0.1, shuffles.DEFAULT_THRESHOLD])),
            min_size=20,
            max_size=40,
        )
    )
    def test_the_device_rules_as_the_engine(self, cases):
        answers = run_js([["run", [request, threshold]] for request, threshold in cases])["out"]
        for (request, threshold), answer in zip(cases, answers, strict=True):
            assert answer == python_answer(request, threshold), request

    @settings(max_examples=30, deadline=None)
    @given(
        st.lists(
            st.one_of(
                st.sampled_from(TRICKY),
                st.floats(min_value=0, max_value=1e300),
                st.floats(min_value=0, max_value=1e-3),
            ),
            min_size=30,
            max_size=60,
        )
    )
    def test_probabilities_are_written_as_python_writes_them(self, values):
        assert run_js([["format", [v]] for v in values])["out"] == [
            format(v, ".3g") for v in values
        ]

    def test_every_path_of_the_guide_without_a_procedure_is_ruled_on_the_device(self):
        """Each shuffle-check request the shuffle guide builds with no procedure (its flags and
        RELs, with and without a pattern analysed) gets the engine's answer on the device."""
        cases = []
        for rel in ("regular", "competitive", "professional"):
            for k, name in enumerate(shuffle_check._FLAGS):
                base = {
                    "rel": rel,
                    "deck_size": [53, 1, 0, 60][k % 4],
                    **{f: f == "presented_to_opponent" for f in shuffle_check._FLAGS},
                }
                base[name] = not base[name]
                for found in (
                    {},
                    {"pattern_p_value": 0.004, "pattern_direction": "too_even"},
                    {"pattern_p_value": 0.3, "pattern_direction": None},
                ):
                    cases.append({**base, "analysis": found})
        answers = run_js([["run", [c, 0.25]] for c in cases])["out"]
        assert answers == [python_answer(c, 0.25) for c in cases]
        assert all("result" in a for a in answers)
