"""The pattern test in both directions (too even, too clumped): exact p-values checked against
brute-force enumeration of every deck on small decks, the issue-13 figures on 60-card decks, the
Monte Carlo check within its stated error, and the words a judge reads."""

from __future__ import annotations

import itertools
import math
import unittest
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from engines import shuffles
from engines.shuffles import PatternDirection, Verdict


def runs(prefix: str, kind: str) -> int:
    return max(
        (len(r) for r in prefix.replace("L" if kind == "S" else "S", " ").split()), default=0
    )


def every_prefix(deck_size: int, lands: int, m: int):
    """Every arrangement of a deck (which positions hold lands), equally likely: its top m cards."""
    for chosen in itertools.combinations(range(deck_size), lands):
        held = set(chosen)
        yield "".join("L" if i in held else "S" for i in range(m))


def enumerate_p_values(deck_size: int, lands: int, pattern: str) -> dict[str, Fraction]:
    m, max_l, max_s = len(pattern), runs(pattern, "L"), runs(pattern, "S")
    total = math.comb(deck_size, lands)
    counts = {"exact": 0, "too_even": 0, "lands_clumped": 0, "spells_clumped": 0}
    for prefix in every_prefix(deck_size, lands, m):
        counts["exact"] += prefix == pattern
        counts["too_even"] += runs(prefix, "L") <= max_l and runs(prefix, "S") <= max_s
        counts["lands_clumped"] += runs(prefix, "L") >= max_l
        counts["spells_clumped"] += runs(prefix, "S") >= max_s
    out = {k: Fraction(v, total) for k, v in counts.items()}
    if not (max_l and max_s):
        out["too_even"] = Fraction(1)  # one kind only is a clump, never an even spread
    return out


WOVEN_21 = "LSS" * 7
LANDS_ON_TOP = "L" * 10


class ExactAgainstEnumerationTests(unittest.TestCase):
    @settings(max_examples=60, deadline=None)
    @given(st.data())
    def test_every_p_value_equals_a_count_of_all_decks(self, data) -> None:
        deck_size = data.draw(st.integers(2, 13))
        lands = data.draw(st.integers(0, deck_size))
        m = data.draw(st.integers(1, deck_size))
        order = data.draw(st.permutations(["L"] * lands + ["S"] * (deck_size - lands)))
        pattern = "".join(order[:m])
        counted = enumerate_p_values(deck_size, lands, pattern)
        self.assertEqual(shuffles.pattern_probability(deck_size, lands, pattern), counted["exact"])
        self.assertEqual(shuffles.too_even_p_value(deck_size, lands, pattern), counted["too_even"])
        self.assertEqual(
            shuffles.clumped_p_value(deck_size, lands, pattern, "L"), counted["lands_clumped"]
        )
        self.assertEqual(
            shuffles.clumped_p_value(deck_size, lands, pattern, "S"), counted["spells_clumped"]
        )

    def test_runs_capped_sequences_match_a_count_of_all_strings(self) -> None:
        for m in range(1, 11):
            for a, b in ((1, 1), (1, 2), (2, 3), (m, 0)):
                expected: dict[int, int] = {}
                for bits in itertools.product("LS", repeat=m):
                    s = "".join(bits)
                    if runs(s, "L") <= a and runs(s, "S") <= b:
                        expected[s.count("L")] = expected.get(s.count("L"), 0) + 1
                self.assertEqual(shuffles.sequences_with_runs_at_most(m, a, b), expected, (m, a, b))


class IssueFiguresTests(unittest.TestCase):
    """Issue 13: a mana-woven top 21 (land, spell, spell x7) and ten lands on top, 60 cards with
    24 lands."""

    def analyse(self, pattern: str, riffles: int, max_samples: int = 200_000):
        request = shuffles.validate_shuffle_request(
            {
                "deck_size": 60,
                "procedure": [{"method": "riffle", "times": riffles}],
                "observed": {"pattern": pattern, "lands": 24},
            }
        )
        return shuffles.analyse_shuffle(request, max_samples=max_samples, threshold=0.25)

    def test_the_woven_sequence_has_probability_about_1_4e_6(self) -> None:
        # Independently: draw the 21 cards one at a time without replacement.
        by_draws = Fraction(1)
        lands, cards = 24, 60
        for card in WOVEN_21:
            by_draws *= Fraction(lands if card == "L" else cards - lands, cards)
            lands -= card == "L"
            cards -= 1
        self.assertEqual(shuffles.pattern_probability(60, 24, WOVEN_21), by_draws)
        self.assertAlmostEqual(float(by_draws), 1.4e-6, delta=0.05e-6)
        outcome = self.analyse(WOVEN_21, 8)
        self.assertEqual(outcome.pattern.pattern_probability, float(by_draws))

    def test_the_woven_top_is_found_too_even(self) -> None:
        outcome = self.analyse(WOVEN_21, 8)
        self.assertIs(outcome.verdict, Verdict.SUSPICIOUS_PATTERN)
        self.assertIs(outcome.pattern.direction, PatternDirection.TOO_EVEN)
        self.assertLess(outcome.pattern_p_value, 0.01)
        self.assertIn("spread more evenly", outcome.advice)
        self.assertEqual(outcome.as_result()["pattern_direction"], "too_even")

    def test_ten_lands_on_top_are_found_too_clumped(self) -> None:
        outcome = self.analyse(LANDS_ON_TOP, 3)
        self.assertIs(outcome.pattern.direction, PatternDirection.TOO_CLUMPED)
        # P(the top 10 are all lands) = C(24, 10) / C(60, 10); three one-sided tests: three
        # times that.
        all_lands = Fraction(math.comb(24, 10), math.comb(60, 10))
        self.assertEqual(outcome.pattern.p_value_lands_clumped, float(all_lands))
        self.assertAlmostEqual(outcome.pattern_p_value, float(3 * all_lands))
        self.assertIn("clumped", outcome.advice)

    def test_twelve_spells_on_top_are_also_a_clump(self) -> None:
        outcome = self.analyse("S" * 12, 7)
        self.assertIs(outcome.pattern.direction, PatternDirection.TOO_CLUMPED)
        # Ten spells are common enough with 36 of 60 (3 x C(36,10)/C(60,10) is just over 1%):
        # not flagged.
        self.assertIsNone(self.analyse("S" * 10, 7).pattern.direction)

    def test_an_ordinary_top_is_neither(self) -> None:
        outcome = self.analyse("LSSLSLSSSLLSSSSLSLSSL", 7)
        self.assertIsNone(outcome.pattern.direction)
        self.assertIsNot(outcome.verdict, Verdict.SUSPICIOUS_PATTERN)
        self.assertGreater(outcome.pattern_p_value, 0.1)

    def test_the_monte_carlo_check_agrees_within_its_stated_error(self) -> None:
        for pattern in (WOVEN_21, LANDS_ON_TOP, "LSLLSSSLSL"):
            test = self.analyse(pattern, 7).pattern
            self.assertGreater(test.samples, 0)
            self.assertLessEqual(
                abs(test.p_value_monte_carlo - test.p_value_exact),
                5 * test.standard_error + 3 / test.samples,
                (pattern, test),
            )


class FalseAlarmRateTests(unittest.TestCase):
    def test_a_uniformly_shuffled_deck_is_flagged_at_most_at_the_stated_rate(self) -> None:
        # Exact over every top-12 of a 20-card, 8-land deck: the share flagged must not exceed
        # PATTERN_ALPHA.
        total = math.comb(20, 8)
        flagged = 0
        cache: dict[str, bool] = {}
        for prefix in every_prefix(20, 8, 12):
            if prefix not in cache:
                p = min(
                    1,
                    3
                    * min(
                        shuffles.too_even_p_value(20, 8, prefix),
                        shuffles.clumped_p_value(20, 8, prefix, "L"),
                        shuffles.clumped_p_value(20, 8, prefix, "S"),
                    ),
                )
                cache[prefix] = p <= shuffles.PATTERN_ALPHA
            flagged += cache[prefix]
        self.assertLessEqual(Fraction(flagged, total), Fraction(1, 100))


class DistanceWordsTests(unittest.TestCase):
    def test_distances_are_said_in_words_with_the_number_beside_them(self) -> None:
        self.assertTrue(shuffles.describe_distance(1.0).startswith("far from random"))
        self.assertIn("1.000", shuffles.describe_distance(1.0))
        self.assertTrue(
            shuffles.describe_distance(0.01).startswith("practically indistinguishable from random")
        )
        self.assertTrue(
            shuffles.describe_distance(shuffles.riffle_distance(60, 8)).startswith(
                "close to random"
            )
        )

    def test_the_analysis_carries_the_words(self) -> None:
        request = shuffles.validate_shuffle_request(
            {"deck_size": 60, "procedure": [{"method": "pile", "piles": 7}]}
        )
        outcome = shuffles.analyse_shuffle(request, max_samples=1000, threshold=0.25)
        self.assertTrue(outcome.as_result()["distance_words"].startswith("far from random"))
