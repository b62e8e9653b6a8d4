"""The pattern test of a shuffle on the tablet (static/judgeapp/shuffle-patterns.js) against
engines/shuffles/patterns.py and jobs/services.pattern_finding: run under node on generated decks
and patterns, every exact figure the same double (p-values, the probability of the pattern, the runs
test), the same direction and deciding test, or the same refusal naming the same field; and the
engine's seeded Monte Carlo check drawn as numpy draws it (PCG64 through SeedSequence), so the
estimate is the same double too."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines import shuffles
from engines.shuffles import ObservedPattern
from tests.node_process import NODE, run_node, script_path

SCRIPT = Path(__file__).resolve().parents[2] / "static" / "judgeapp" / "shuffle-patterns.js"
pytestmark = pytest.mark.skipif(
    NODE is None, reason="node is not installed (apt-get install nodejs)"
)

_RUNNER = f"""
const P = require({script_path(SCRIPT)});
const out = input.calls.map(([name, args]) => name === 'exact' ? P.exact(...args)
  : name === 'assess' ? P.assess(...args)
  : name === 'draws' ? ((r) => Array.from({{length: args[1]}}, r))(P.generator(BigInt(args[0])))
  : name === 'seed' ? P.defaultSeed(...args)
  : name === 'page' ? P.pageAnalysis(...args) : P.pythonStrip(args[0]));
return {{out, alpha: P.PATTERN_ALPHA}};
"""

EXACT_FIELDS = (
    "statistic",
    "observed_value",
    "p_value_exact",
    "direction",
    "pattern_probability",
    "p_value_too_even",
    "p_value_lands_clumped",
    "p_value_spells_clumped",
    "p_value_runs",
    "longest_land_run",
    "longest_spell_run",
)


def run_js(calls: list, timeout: float = 60) -> list:
    return run_node(_RUNNER, {"calls": calls}, timeout=timeout)["out"]


def engine_exact(deck_size: int, lands: int, pattern: str) -> dict:
    """The exact fields of the engine's PatternTest (one Monte Carlo sample: not compared)."""
    found = shuffles.assess_pattern(
        deck_size, ObservedPattern(pattern, lands), max_samples=1, seed=0
    )
    out = {name: getattr(found, name) for name in EXACT_FIELDS}
    out["direction"] = None if found.direction is None else found.direction.value
    return out


def page_answer(deck_size, pattern, lands) -> dict:
    from jobs import services

    try:
        return {"analysis": services.pattern_finding(deck_size, pattern, lands)}
    except services.InvalidRequest as exc:
        return {"refused": exc.field}


@st.composite
def deck_and_pattern(draw, max_deck: int = 80, max_seen: int = 24) -> tuple[int, int, str]:
    """A deck, its lands and a pattern it can show (sometimes of one kind, sometimes long runs)."""
    size = draw(st.integers(1, max_deck))
    lands = draw(st.integers(0, size))
    m = draw(st.integers(1, min(size, max_seen)))
    seen_lands = draw(st.integers(max(0, m - (size - lands)), min(m, lands)))
    cards = ["L"] * seen_lands + ["S"] * (m - seen_lands)
    order = draw(st.sampled_from(["shuffled", "woven", "clumped"]))
    if order == "shuffled":
        cards = draw(st.permutations(cards))
    elif order == "woven":
        ls, ss = cards[:seen_lands], cards[seen_lands:]
        cards = [c for pair in zip(ls, ss, strict=False) for c in pair]
        cards += ls[len(cards) // 2 :] + ss[len(cards) // 2 :]
    return size, lands, "".join(cards)


# The page's raw answers: any typed pattern (lower case, spaces, other letters, Python's own
# whitespace), any number box read as jobs/pages.py reads it (-1 for junk).
typed = st.text(alphabet="LSLSLSls x\t\u00a0\x1c\u3000\u00dfT", max_size=14)
number = st.one_of(st.integers(-1, 70), st.integers(-1, 260))


def engine_assessed(deck_size: int, lands: int, pattern: str, max_samples: int, seed: int) -> dict:
    """The engine's whole PatternTest, as JSON writes it."""
    found = shuffles.assess_pattern(
        deck_size, ObservedPattern(pattern, lands), max_samples=max_samples, seed=seed
    )
    out = json.loads(json.dumps(dataclasses.asdict(found), default=str))
    out["direction"] = None if found.direction is None else found.direction.value
    return out


class PatternTestOnTheDeviceTests:
    def test_the_alpha_is_the_engines(self):
        assert run_node(_RUNNER, {"calls": []})["alpha"] == shuffles.PATTERN_ALPHA

    @settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(st.lists(deck_and_pattern(), min_size=10, max_size=25))
    def test_every_exact_figure_is_the_engines(self, cases):
        answers = run_js([["exact", list(case)] for case in cases])
        for case, answer in zip(cases, answers, strict=True):
            assert answer == engine_exact(*case), case

    def test_the_docstrings_examples_and_the_edges(self):
        """Mana weaving (LSS seven times, 60 cards, 24 lands: too even), ten lands on top (clumped),
        a pattern of one card, the whole deck seen, no lands at all, one kind only."""
        cases = [
            (60, 24, "LSS" * 7),
            (60, 24, "L" * 10),
            (60, 24, "S"),
            (40, 17, "LS" * 17 + "S" * 6),
            (60, 0, "SSSS"),
            (60, 60, "LLLLLLL"),
            (1, 1, "L"),
            (250, 100, ("LSLSS" * 50)),
        ]
        answers = run_js([["exact", list(c)] for c in cases])
        assert answers == [engine_exact(*c) for c in cases]
        assert answers[0]["direction"] == "too_even" and answers[1]["direction"] == "too_clumped"
        assert answers[2]["direction"] is None

    @settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(st.lists(st.tuples(number, typed, number), min_size=20, max_size=40))
    def test_the_shuffle_check_pages_analysis_is_the_servers(self, cases):
        """jobs/services.pattern_finding, which the page runs for a pattern: the same p-value and
        direction, or the same field refused, on what a judge types."""
        answers = run_js(
            [["page", [size, text.strip().upper(), lands]] for size, text, lands in cases]
        )
        for (size, text, lands), answer in zip(cases, answers, strict=True):
            assert answer == page_answer(size, text.strip().upper(), lands), (size, text, lands)

    @settings(max_examples=10, deadline=None)
    @given(st.lists(typed, min_size=20, max_size=40))
    def test_a_typed_pattern_is_trimmed_as_python_trims_it(self, texts):
        assert run_js([["strip", [t]] for t in texts]) == [t.strip() for t in texts]

    @settings(max_examples=15, deadline=None)
    @given(st.lists(st.integers(0, 2**63 - 1), min_size=3, max_size=6), st.integers(1, 300))
    def test_the_generator_draws_numpys_doubles(self, seeds, count):
        answers = run_js([["draws", [str(seed), count]] for seed in seeds])
        assert answers == [np.random.default_rng(seed).random(count).tolist() for seed in seeds]

    @settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(
        st.lists(
            st.tuples(
                deck_and_pattern(max_seen=16),
                st.sampled_from([1, 7, 500, 20_000, 20_001, 45_000]),
                st.integers(0, 2**32 - 1),
            ),
            min_size=2,
            max_size=5,
        )
    )
    def test_the_whole_assessment_with_its_monte_carlo_check_is_the_engines(self, cases):
        calls = [["assess", [*case, samples, seed]] for case, samples, seed in cases]
        answers = run_js(calls, timeout=120)
        for (case, samples, seed), answer in zip(cases, answers, strict=True):
            assert answer == engine_assessed(*case, samples, seed), (case, samples, seed)

    def test_the_default_seed_and_a_suspicious_pattern_at_the_servers_budget(self):
        """The seed the engine derives from the request (zlib.crc32), and a woven pattern sampled to
        the server's 200,000 (its estimate never reaches 400 hits), equal to the engine's."""
        from django.conf import settings as django_settings

        cases = [(60, 24, "LSS" * 7), (40, 16, "LSLSLSLSLSLS"), (99, 40, "L\u00e9S")]
        seeds = run_js([["seed", list(case)] for case in cases])
        assert seeds == [
            shuffles.default_seed(size, ObservedPattern(pattern, lands))
            for size, lands, pattern in cases
        ]
        budget = django_settings.JUDGEAPP_SHUFFLE_MAX_SAMPLES
        (answer,) = run_js([["assess", [*cases[0], budget, seeds[0]]]], timeout=120)
        assert answer["samples"] == budget
        assert answer == engine_assessed(*cases[0], budget, seeds[0])
