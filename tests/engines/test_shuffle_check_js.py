"""The shuffle check on the tablet (static/judgeapp/shuffle-check.js, with the riffle mathematics of
static/judgeapp/riffles.js) against engines/shuffle_check and engines/shuffles: run under node on
generated facts and procedures, the same result field for field (the distance from random the same
double), or the same refusal naming the same field.

Whole numbers are generated as ints: JSON does not tell 3.0 from 3 in JavaScript, so the device
reads a 3.0 the engine refuses as 3 (a guide's inputs are whole numbers)."""

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
RIFFLES = SCRIPT.with_name("riffles.js")
pytestmark = pytest.mark.skipif(
    NODE is None, reason="node is not installed (apt-get install nodejs)"
)

_RUNNER = f"""
const C = require({script_path(SCRIPT)});
const R = require({script_path(RIFFLES)});
const out = input.calls.map(([name, args]) => name === 'run' ? C.run(args[0], args[1])
  : name === 'riffle' ? R.riffleDistance(args[0], args[1])
  : name === 'procedure' ? R.procedureDistance(args[0], args[1])
  : name === 'f3' ? C.formatF3(args[0]) : C.formatG3(args[0]));
return {{out, alpha: C.PATTERN_ALPHA, max: C.MAX_DECK_SIZE}};
"""  # noqa: E501


def run_js(calls: list) -> dict:
    return run_node(_RUNNER, {"calls": calls}, timeout=60)


def python_answer(request, threshold: float) -> dict:
    """What the device must answer: the engine's result (citations still pinned: the page shows the
    step's own citations) or {"refused": field}."""
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
METHODS = [m.value for m in shuffles.ShuffleMethod]
# A step as the shuffle guide builds it ({method, times}), with piles, and now and then an odd one.
step = st.one_of(
    st.fixed_dictionaries({"method": st.sampled_from(METHODS), "times": st.integers(0, 12)}),
    st.fixed_dictionaries(
        {"method": st.sampled_from(METHODS)},
        optional={
            "times": st.one_of(st.integers(-1, 101), st.sampled_from(ODD)),
            "piles": st.one_of(st.integers(0, 80), st.sampled_from(ODD)),
        },
    ),
    st.fixed_dictionaries({"method": st.sampled_from(["RIFFLE", "shuffle", None, 3])}),
    st.sampled_from(ODD),
)
procedure = st.one_of(
    st.none(),
    st.lists(step, max_size=6),
    st.lists(
        st.fixed_dictionaries(
            {"method": st.sampled_from(["riffle", "mash"]), "times": st.integers(0, 100)}
        ),
        max_size=3,
    ),
    st.sampled_from(["riffle", {}, 7]),
)
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
        **{name: flag for name in shuffle_check.FLAGS},
        "pattern_p_value": st.one_of(probability, probability, odd, st.just(-0.1)),
        "analysis": analysis,
        "procedure": procedure,
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
            for k, name in enumerate(shuffle_check.FLAGS):
                base = {
                    "rel": rel,
                    "deck_size": [53, 1, 0, 60][k % 4],
                    **{f: f == "presented_to_opponent" for f in shuffle_check.FLAGS},
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

    @settings(max_examples=25, deadline=None)
    @given(
        st.lists(
            st.tuples(
                st.one_of(st.integers(0, 250), st.integers(0, 8)),
                st.one_of(st.integers(0, 12), st.integers(0, 200)),
            ),
            min_size=5,
            max_size=15,
        )
    )
    def test_a_riffle_distance_is_the_engines_double(self, cases):
        answers = run_js([["riffle", [n, k]] for n, k in cases])["out"]
        assert answers == [shuffles.riffle_distance(n, k) for n, k in cases]

    @settings(max_examples=25, deadline=None)
    @given(st.integers(2, 250), st.lists(step.filter(lambda s: isinstance(s, dict)), max_size=8))
    def test_a_procedure_distance_is_the_engines(self, n, raw):
        try:
            steps = shuffles.validate_procedure(raw, n)
        except RequestError:
            return
        plain = [{"method": s.method.value, "times": s.times} for s in steps]
        found = run_js([["procedure", [n, plain]]])["out"][0]
        assert found == list(shuffles.procedure_distance(n, steps))

    @settings(max_examples=25, deadline=None)
    @given(
        st.lists(
            st.fixed_dictionaries(
                {
                    "rel": st.sampled_from(["regular", "competitive", "professional"]),
                    "deck_size": st.one_of(st.integers(0, 250), st.integers(0, 70)),
                    "procedure": st.lists(
                        st.fixed_dictionaries(
                            {"method": st.sampled_from(METHODS), "times": st.integers(0, 12)}
                        ),
                        max_size=5,
                    ),
                },
                optional={name: st.booleans() for name in shuffle_check.FLAGS},
            ),
            min_size=10,
            max_size=20,
        )
    )
    def test_a_described_procedure_is_ruled_on_the_device_as_the_engine(self, cases):
        """Facts as the shuffle guide and the shuffle check page build them, with a procedure."""
        answers = run_js([["run", [c, 0.25]] for c in cases])["out"]
        assert answers == [python_answer(c, 0.25) for c in cases]

    def test_a_distance_is_written_as_python_writes_it(self):
        values = [0.0625, 0.1875, 0.3125, 0.9375, 0.0005, 0.4061804199628773, 1.0, 0.0, 1 / 3]
        values += [shuffles.riffle_distance(2, k) for k in range(12)]
        assert run_js([["f3", [v]] for v in values])["out"] == [format(v, ".3f") for v in values]

    def test_every_procedure_of_the_shuffle_guide_is_ruled_on_the_device(self):
        """The procedure step of the shuffle guide (one method, 0 to 12 times) for each REL and a
        few deck sizes: the engine's ruling and distance on the device, 10^0 to 200 riffles too."""
        cases = [
            {"rel": rel, "deck_size": size, "procedure": [{"method": method, "times": times}]}
            for rel in ("regular", "competitive")
            for size in (0, 1, 2, 40, 60, 250)
            for method in METHODS
            for times in (0, 1, 2, 3, 7, 12)
        ]
        cases += [
            {
                "rel": "competitive",
                "deck_size": 60,
                "procedure": [{"method": "riffle", "times": 100}] * 3,
            },
            {
                "rel": "competitive",
                "deck_size": 250,
                "procedure": [{"method": "riffle", "times": 100}] * 2,
            },
        ]
        answers = run_js([["run", [c, 0.25]] for c in cases])["out"]
        assert answers == [python_answer(c, 0.25) for c in cases]
        assert all("result" in a for a in answers)

    def test_both_players_infractions_and_the_judges_call_are_ruled_on_the_device_too(self):
        seen = {"card_seen_while_shuffling": True, "shuffling_opponents_deck": True}
        one = [{"method": "riffle", "times": 1}]
        cases = [
            {"rel": rel, "deck_size": 50, "procedure": one, **seen}
            for rel in ("regular", "competitive", "professional")
        ] + [
            {"rel": "competitive", "deck_size": 50, "procedure": [{"method": "riffle", "times": 7}],
             "found_cards_shuffled_in": True, **seen},
            {"rel": "competitive", "deck_size": 60, "procedure": [{"method": "overhand"}]},
            {"rel": "regular", "deck_size": 60, "procedure": [{"method": "mash"}]},
            {"rel": "professional", "deck_size": 60, "procedure": one + [{"method": "overhand"}],
             "prior_insufficient_shuffling_warning": True},
            {"rel": "competitive", "deck_size": 2, "procedure": one},
            {"rel": "competitive", "deck_size": 5, "procedure": one},
            {"rel": "competitive", "deck_size": 6, "procedure": one},
            {"rel": "competitive", "deck_size": 60, "procedure": [{"method": "mash", "times": 4}]},
        ]  # fmt: skip
        answers = run_js([["run", [request, 0.25]] for request in cases])["out"]
        for request, answer in zip(cases, answers, strict=True):
            assert answer == python_answer(request, 0.25), request
        results = [a["result"] for a in answers]
        assert [r["further_infractions"][0]["charged_to"] for r in results[:4]] == [
            "shuffler", "shuffler", "shuffler", "owner"
        ]  # fmt: skip
        assert [r["judge_call"] for r in results[4:]] == [True] * 5 + [False, False]
        assert all("properly" not in r["fix"] for r in results[4:9])
        assert results[9]["infraction"] == "insufficient_shuffling"
