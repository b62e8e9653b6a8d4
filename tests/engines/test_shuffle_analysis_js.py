"""The shuffle guide's analysis on the tablet (static/judgeapp/shuffle-analysis.js, with riffles.js,
shuffle-patterns.js and shuffle-check.js) against engines/shuffles.analyse_shuffle: run under node
on generated requests, the same result field for field (every figure the same double, the Monte
Carlo check included), or the same refusal naming the same field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines import shuffles
from engines.errors import RequestError
from tests.engines.test_shuffle_patterns_js import deck_and_pattern
from tests.node_process import NODE, run_node, script_path

SCRIPT = Path(__file__).resolve().parents[2] / "static" / "judgeapp" / "shuffle-analysis.js"
pytestmark = pytest.mark.skipif(
    NODE is None, reason="node is not installed (apt-get install nodejs)"
)

_RUNNER = f"""
const A = require({script_path(SCRIPT)});
return input.calls.map(([request, threshold, samples]) => A.run(request, threshold, samples));
"""


def run_js(calls: list) -> list:
    return run_node(_RUNNER, {"calls": calls}, timeout=120)


def engine_answer(request, threshold: float, max_samples: int) -> dict:
    try:
        parsed = shuffles.validate_shuffle_request(request)
    except RequestError as exc:
        return {"refused": exc.field}
    found = shuffles.analyse_shuffle(parsed, max_samples=max_samples, threshold=threshold)
    return {"result": json.loads(json.dumps(found.as_result()))}


METHODS = [m.value for m in shuffles.ShuffleMethod]
ODD = [None, "x", 2.5, True, [], {}]
step = st.one_of(
    st.fixed_dictionaries({"method": st.sampled_from(METHODS), "times": st.integers(0, 9)}),
    st.fixed_dictionaries(
        {"method": st.just("pile")}, optional={"piles": st.integers(0, 70), "times": st.just(1)}
    ),
    st.fixed_dictionaries({"method": st.sampled_from(["RIFFLE", None])}),
    st.sampled_from(ODD),
)


@st.composite
def requests(draw) -> dict:
    """A shuffle-analysis request as the shuffle guide builds it (no procedure, a pattern seen), or
    as the API takes it, now and then with an odd field."""
    size, lands, pattern = draw(deck_and_pattern(max_deck=70, max_seen=14))
    request: dict = {"deck_size": size}
    if draw(st.booleans()):
        request["procedure"] = draw(st.lists(step, max_size=4))
    else:
        request["procedure"] = []
    if draw(st.integers(0, 5)):
        request["observed"] = {"pattern": pattern.lower() if draw(st.booleans()) else pattern}
        request["observed"]["lands"] = draw(st.sampled_from([lands] * 6 + [-1, size + 1, "7"]))
    if not draw(st.integers(0, 8)):
        request["deck_size"] = draw(st.sampled_from([0, 251, "60", 2.5, None]))
    if not draw(st.integers(0, 5)):
        request["seed"] = draw(st.one_of(st.integers(0, 2**32), st.sampled_from([-1, "1", True])))
    if not draw(st.integers(0, 12)):
        request["observed"] = draw(st.sampled_from(ODD))
    return request


class ShuffleAnalysisOnTheDeviceTests:
    @settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(
        st.lists(
            st.tuples(
                requests(), st.sampled_from([0.25, 0.1]), st.sampled_from([1, 900, 20_000, 25_000])
            ),
            min_size=4,
            max_size=10,
        )
    )
    def test_the_device_analyses_as_the_engine(self, cases):
        answers = run_js([list(case) for case in cases])
        for case, answer in zip(cases, answers, strict=True):
            assert answer == engine_answer(*case), case

    def test_the_guides_woven_pattern_at_the_servers_budget(self):
        """The shuffle guide's request for mana weaving seen on a 53-card library, at the server's
        sample budget and threshold: a suspicious pattern, as the engine finds it."""
        from django.conf import settings as django_settings

        request = {
            "deck_size": 53,
            "procedure": [],
            "observed": {"pattern": "LSS" * 6, "lands": 22},
        }
        threshold = float(django_settings.JUDGEAPP_SHUFFLE_THRESHOLD)
        budget = django_settings.JUDGEAPP_SHUFFLE_MAX_SAMPLES
        (answer,) = run_js([[request, threshold, budget]])
        assert answer == engine_answer(request, threshold, budget)
        assert answer["result"]["verdict"] == "suspicious_pattern"

    def test_a_seed_javascript_cannot_hold_is_left_to_the_server(self):
        (answer,) = run_js([[{"deck_size": 60, "seed": 2**60 + 1}, 0.25, 100]])
        assert answer == {"unsupported": True}
