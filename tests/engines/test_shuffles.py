"""Tests for engines.shuffles: exact GSR distances against the published table and against
brute-force enumeration of riffles, procedure bounds, the pattern p-value and request validation."""

from __future__ import annotations

import itertools
import math
import re
import subprocess
import sys
import unittest
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines import shuffles
from engines.errors import RequestError
from engines.shuffles import ObservedPattern, ShuffleMethod, ShuffleRequest, ShuffleStep, Verdict
from tests.conftest import RULES_DIR

PINNED = re.compile(r"^(cr|mtr|ipg|jar)@(\d{4})-(\d{2})-(\d{2}):(.+)$")
FILE_PREFIX = {
    "cr": "MagicCompRules",
    "mtr": "MagicTournamentRules",
    "ipg": "InfractionProcedureGuide",
    "jar": "JudgingAtRegular",
}


def pinned_ref_text(ref: str) -> str:
    """The plain text of the real document version a pinned reference points at."""
    match = PINNED.match(ref)
    assert match, f"not a pinned reference: {ref}"
    doc, year, month, day, _ = match.groups()
    suffix = "txt" if doc == "cr" else "html"
    path = RULES_DIR / doc / f"{FILE_PREFIX[doc]}-{year}{month}{day}.{suffix}"
    assert path.is_file(), f"{ref}: no document {path}"
    text = path.read_text(encoding="utf-8-sig")
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", text))


def assert_pinned_ref_exists(ref: str, title_words: str = "") -> None:
    """The numbered rule exists in that version (and, if given, its heading or text says
    ``title_words``)."""
    number = PINNED.match(ref).group(5)  # type: ignore[union-attr]
    text = pinned_ref_text(ref)
    if ref.startswith("cr@"):
        pattern = re.escape(number) + (r"\.? " if number[-1].isdigit() else " ")
    elif ref.startswith("jar@"):
        pattern = re.escape(number)  # the JAR has no numbers: its references name a section heading
    else:
        pattern = re.escape(number) + r" [^.]{0,60}" + re.escape(title_words)
    assert re.search(pattern, text), f"{ref} not found in the real document"
    if title_words and ref.startswith("cr@"):
        start = re.search(pattern, text).start()  # type: ignore[union-attr]
        assert title_words.lower() in text[start : start + 600].lower(), (
            f"{ref} does not say {title_words!r}"
        )


# --- an independent model: enumerate GSR riffles --------------------------------------------------


def gsr_outcomes(n: int) -> list[tuple[int, ...]]:
    """One GSR riffle as 2^n equally likely outcomes: bit i says whether the card that ends at
    position i comes from the top packet (0) or the bottom packet (1); the cut is the number
    of zeros."""
    outcomes = []
    for bits in itertools.product((0, 1), repeat=n):
        top = iter(range(bits.count(0)))
        bottom = iter(range(bits.count(0), n))
        outcomes.append(tuple(next(top) if b == 0 else next(bottom) for b in bits))
    return outcomes


def riffle_distribution(
    deck_dist: dict[tuple[int, ...], Fraction], n: int
) -> dict[tuple[int, ...], Fraction]:
    out: dict[tuple[int, ...], Fraction] = {}
    outcomes = gsr_outcomes(n)
    weight = Fraction(1, len(outcomes))
    for deck, p in deck_dist.items():
        for where in outcomes:
            new = tuple(deck[i] for i in where)
            out[new] = out.get(new, Fraction(0)) + p * weight
    return out


def permute_distribution(deck_dist: dict[tuple[int, ...], Fraction], where: tuple[int, ...]):
    return {tuple(deck[i] for i in where): p for deck, p in deck_dist.items()}


def tv_from_uniform(deck_dist: dict[tuple[int, ...], Fraction], n: int) -> Fraction:
    uniform = Fraction(1, math.factorial(n))
    seen = sum(abs(p - uniform) for p in deck_dist.values())
    unseen = (math.factorial(n) - len(deck_dist)) * uniform
    return (seen + unseen) / 2


def brute_force_riffles(n: int, k: int) -> dict[tuple[int, ...], Fraction]:
    dist = {tuple(range(n)): Fraction(1)}
    for _ in range(k):
        dist = riffle_distribution(dist, n)
    return dist


def naive_gsr_tv(n: int, k: int) -> Fraction:
    """The Bayer-Diaconis sum written out directly with Fractions (no scaling, no shortcuts)."""
    a = 2**k
    row = shuffles.eulerian_row(n)
    uniform = Fraction(1, math.factorial(n))
    return (
        sum(
            (
                row[r - 1] * abs(Fraction(math.comb(a + n - r, n), a**n) - uniform)
                for r in range(1, n + 1)
            ),
            Fraction(0),
        )
        / 2
    )


class RiffleDistanceTests(unittest.TestCase):
    def test_52_card_table_of_bayer_and_diaconis(self):
        published = {
            1: 1.000,
            2: 1.000,
            3: 1.000,
            4: 1.000,
            5: 0.924,
            6: 0.614,
            7: 0.334,
            8: 0.167,
            9: 0.085,
            10: 0.043,
        }
        for k, value in published.items():
            self.assertEqual(round(shuffles.riffle_distance(52, k), 3), value, f"{k} riffles")

    def test_no_riffle_leaves_one_minus_one_over_n_factorial(self):
        for n in (1, 2, 3, 7):
            self.assertEqual(
                shuffles.riffle_distance_exact(n, 0), 1 - Fraction(1, math.factorial(n))
            )

    @given(n=st.integers(2, 6), k=st.integers(0, 3))
    @settings(max_examples=25, deadline=None)
    def test_formula_equals_brute_force_enumeration_of_riffles(self, n, k):
        self.assertEqual(
            shuffles.riffle_distance_exact(n, k), tv_from_uniform(brute_force_riffles(n, k), n)
        )

    @given(n=st.sampled_from([40, 60, 100]), k=st.integers(0, 14))
    @settings(max_examples=20, deadline=None)
    def test_scaled_integer_sum_equals_the_formula_in_fractions(self, n, k):
        self.assertEqual(shuffles.riffle_distance_exact(n, k), naive_gsr_tv(n, k))

    @given(n=st.integers(2, 250))
    @settings(max_examples=30, deadline=None)
    def test_distance_decreases_with_every_riffle(self, n):
        distances = [shuffles.riffle_distance_exact(n, k) for k in range(0, 25)]
        for before, after in zip(distances, distances[1:]):
            self.assertLess(after, before)  # exactly; as floats the first few all round to 1.0
        self.assertTrue(all(0 < d < 1 for d in distances))

    @given(n=st.integers(1, 60))
    @settings(max_examples=30, deadline=None)
    def test_eulerian_row_counts_every_permutation_symmetrically(self, n):
        row = shuffles.eulerian_row(n)
        self.assertEqual(sum(row), math.factorial(n))
        self.assertEqual(row, row[::-1])

    def test_riffles_needed_is_the_first_count_within_the_threshold(self):
        for n in (40, 52, 60, 100, 250):
            for threshold in (0.5, 0.25, 0.1, 0.01):
                k = shuffles.riffles_needed(n, threshold)
                self.assertLessEqual(shuffles.riffle_distance(n, k), threshold)
                self.assertGreater(shuffles.riffle_distance(n, k - 1), threshold)
        self.assertEqual(shuffles.riffles_needed(52, 0.25), 8)  # 7 riffles leave 0.334
        self.assertEqual(shuffles.riffles_needed(1), 0)

    def test_larger_decks_need_more_riffles(self):
        needed = [shuffles.riffles_needed(n) for n in (40, 60, 100, 250)]
        self.assertEqual(needed, sorted(needed))
        self.assertLess(needed[0], needed[-1])


class ProcedureDistanceTests(unittest.TestCase):
    @given(n=st.integers(2, 5), k=st.integers(0, 3), piles=st.integers(2, 5))
    @settings(max_examples=25, deadline=None)
    def test_pile_shuffle_leaves_the_distance_unchanged(self, n, k, piles):
        before = brute_force_riffles(n, k)
        after = permute_distribution(before, shuffles.pile_permutation(n, piles))
        self.assertEqual(tv_from_uniform(after, n), tv_from_uniform(before, n))
        steps = shuffles.procedure_distances(
            n, [ShuffleStep(ShuffleMethod.RIFFLE, k), ShuffleStep(ShuffleMethod.PILE, 1, piles)]
        )
        self.assertEqual(steps[0].distance, steps[1].distance)
        self.assertEqual(steps[1].distance, float(tv_from_uniform(after, n)))

    @given(
        n=st.integers(2, 5),
        first=st.integers(1, 3),
        second=st.integers(1, 3),
        piles=st.integers(2, 5),
    )
    @settings(max_examples=20, deadline=None)
    def test_riffles_split_by_a_pile_get_a_true_upper_bound(self, n, first, second, piles):
        dist = brute_force_riffles(n, first)
        dist = permute_distribution(dist, shuffles.pile_permutation(n, piles))
        for _ in range(second):
            dist = riffle_distribution(dist, n)
        distance, exact = shuffles.procedure_distance(
            n,
            [
                ShuffleStep(ShuffleMethod.RIFFLE, first),
                ShuffleStep(ShuffleMethod.PILE, 1, piles),
                ShuffleStep(ShuffleMethod.RIFFLE, second),
            ],
        )
        self.assertFalse(exact)
        self.assertGreaterEqual(distance + 1e-12, float(tv_from_uniform(dist, n)))

    def test_pile_permutation_deals_and_stacks(self):
        self.assertEqual(shuffles.pile_permutation(6, 3), (3, 0, 4, 1, 5, 2))
        self.assertEqual(sorted(shuffles.pile_permutation(60, 7)), list(range(60)))

    def test_only_piles_leaves_the_deck_unrandomized(self):
        distance, exact = shuffles.procedure_distance(60, [ShuffleStep(ShuffleMethod.PILE, 3, 7)])
        self.assertTrue(exact)
        self.assertEqual(distance, float(1 - Fraction(1, math.factorial(60))))

    def test_two_mashes_count_as_one_riffle_and_overhands_count_nothing(self):
        mashes = shuffles.procedure_distance(60, [ShuffleStep(ShuffleMethod.MASH, 14)])
        self.assertEqual(mashes, (shuffles.riffle_distance(60, 7), True))
        odd = shuffles.procedure_distance(60, [ShuffleStep(ShuffleMethod.MASH, 15)])
        self.assertEqual(odd, mashes)
        with_overhand = shuffles.procedure_distance(
            60,
            [
                ShuffleStep(ShuffleMethod.OVERHAND, 5),
                ShuffleStep(ShuffleMethod.RIFFLE, 7),
                ShuffleStep(ShuffleMethod.OVERHAND, 5),
            ],
        )
        self.assertEqual(with_overhand, (shuffles.riffle_distance(60, 7), True))

    def test_absurdly_long_procedures_are_flagged_as_bounds(self):
        long_run = shuffles.procedure_distance(250, [ShuffleStep(ShuffleMethod.RIFFLE, 100)] * 50)
        split = shuffles.procedure_distance(
            250, [ShuffleStep(ShuffleMethod.RIFFLE, 100), ShuffleStep(ShuffleMethod.CUT, 1)] * 25
        )
        self.assertEqual(
            long_run, (shuffles.riffle_distance(250, shuffles.MAX_EXACT_RIFFLES), False)
        )
        self.assertFalse(split[1])
        self.assertLessEqual(split[0], long_run[0])

    def test_consecutive_riffle_steps_form_one_block(self):
        split = shuffles.procedure_distance(
            60,
            [
                ShuffleStep(ShuffleMethod.RIFFLE, 3),
                ShuffleStep(ShuffleMethod.MASH, 2),
                ShuffleStep(ShuffleMethod.RIFFLE, 4),
            ],
        )
        self.assertEqual(split, (shuffles.riffle_distance(60, 8), True))


# --- the pattern p-value --------------------------------------------------------------------------


def enumerated_p_value(deck_size: int, lands: int, pattern: str) -> Fraction:
    """Every placement of the lands in the deck is equally likely under a uniform shuffle."""
    limit = shuffles.same_type_pairs(pattern)
    hits = total = 0
    for land_positions in itertools.combinations(range(deck_size), lands):
        chosen = set(land_positions)
        prefix = "".join("L" if i in chosen else "S" for i in range(len(pattern)))
        total += 1
        hits += shuffles.same_type_pairs(prefix) <= limit
    return Fraction(hits, total)


@st.composite
def small_decks(draw):
    deck_size = draw(st.integers(1, 10))
    lands = draw(st.integers(0, deck_size))
    length = draw(st.integers(1, deck_size))
    seen_lands = draw(st.integers(max(0, length - (deck_size - lands)), min(length, lands)))
    order = draw(st.permutations(["L"] * seen_lands + ["S"] * (length - seen_lands)))
    return deck_size, lands, "".join(order)


class PatternPValueTests(unittest.TestCase):
    @given(small_decks())
    @settings(max_examples=80, deadline=None)
    def test_run_count_formula_equals_enumeration(self, case):
        deck_size, lands, pattern = case
        self.assertEqual(
            shuffles.pattern_p_value_exact(deck_size, lands, pattern),
            enumerated_p_value(deck_size, lands, pattern),
        )

    def test_monte_carlo_agrees_with_enumeration_within_its_error(self):
        for deck_size, lands, pattern in [
            (10, 4, "LSSLSS"),
            (12, 5, "LSLSLSL"),
            (14, 6, "SLSSLS"),
            (16, 7, "LLSSLSSL"),
        ]:
            exact = float(enumerated_p_value(deck_size, lands, pattern))
            p, se, (low, high), samples = shuffles.estimate_pattern_p_value(
                deck_size, lands, pattern, max_samples=100_000, seed=7
            )
            self.assertLessEqual(
                abs(p - exact), 4 * se + 1 / samples, (deck_size, lands, pattern, p, exact)
            )
            self.assertLessEqual(low, p)
            self.assertLessEqual(p, high)

    def test_monte_carlo_agrees_with_the_exact_value_for_a_sixty_card_deck(self):
        pattern = "LSSLSSLSSLSSLSSLSSLS"
        exact = float(shuffles.pattern_p_value_exact(60, 24, pattern))
        p, se, _, samples = shuffles.estimate_pattern_p_value(
            60, 24, pattern, max_samples=200_000, seed=3
        )
        self.assertLessEqual(abs(p - exact), 4 * se + 1 / samples)

    def test_same_seed_same_answer_and_the_cap_holds(self):
        first = shuffles.estimate_pattern_p_value(60, 24, "LSLSLSLSLS", max_samples=50_000, seed=11)
        again = shuffles.estimate_pattern_p_value(60, 24, "LSLSLSLSLS", max_samples=50_000, seed=11)
        other = shuffles.estimate_pattern_p_value(60, 24, "LSLSLSLSLS", max_samples=50_000, seed=12)
        self.assertEqual(first, again)
        self.assertNotEqual(first[0], other[0])
        self.assertLessEqual(first[3], 50_000)
        capped = shuffles.estimate_pattern_p_value(
            60, 24, "LSLSLSLSLSLSLSLSLSLS", max_samples=1_500, seed=1
        )
        self.assertEqual(capped[3], 1_500)

    def test_perfect_weave_is_rarer_than_a_clumped_top(self):
        woven = shuffles.pattern_p_value_exact(60, 24, "LS" * 10)
        clumped = shuffles.pattern_p_value_exact(60, 24, "LLLLSSSSSSLLSSSSLLSS")
        self.assertLess(woven, Fraction(1, 1000))
        self.assertGreater(clumped, Fraction(1, 2))


# --- the analysis and its request -----------------------------------------------------------------


class AnalyseShuffleTests(unittest.TestCase):
    def analyse(self, data, **kwargs):
        request = shuffles.validate_shuffle_request(data)
        return shuffles.analyse_shuffle(
            request,
            max_samples=kwargs.get("max_samples", 50_000),
            threshold=kwargs.get("threshold", 0.25),
        )

    def test_api_example_reports_every_required_field(self):
        outcome = self.analyse(
            {
                "deck_size": 60,
                "procedure": [
                    {"method": "riffle", "times": 7},
                    {"method": "pile", "times": 1, "piles": 7},
                ],
                "observed": {"pattern": "LSSLSSLSSL", "lands": 24},
            }
        )
        result = outcome.as_result()
        for key in (
            "distance_from_random",
            "riffles_needed",
            "sufficient",
            "pattern_p_value",
            "verdict",
            "advice",
            "citations",
        ):
            self.assertIn(key, result)
        self.assertEqual(result["distance_from_random"], shuffles.riffle_distance(60, 7))
        self.assertFalse(result["sufficient"])
        self.assertEqual(result["riffles_needed"], shuffles.riffles_needed(60, 0.25))
        one_sided = (
            shuffles.too_even_p_value(60, 24, "LSSLSSLSSL"),
            shuffles.clumped_p_value(60, 24, "LSSLSSLSSL", "L"),
            shuffles.clumped_p_value(60, 24, "LSSLSSLSSL", "S"),
        )
        self.assertEqual(result["pattern_p_value"], float(min(1, 3 * min(one_sided))))
        self.assertIsNotNone(result["pattern"]["seed"])
        self.assertEqual(len(result["steps"]), 2)

    def test_enough_riffles_are_random_enough(self):
        outcome = self.analyse({"deck_size": 60, "procedure": [{"method": "riffle", "times": 9}]})
        self.assertTrue(outcome.sufficient)
        self.assertIs(outcome.verdict, Verdict.RANDOM_ENOUGH)
        self.assertIsNone(outcome.pattern_p_value)
        self.assertNotIn(shuffles.CITE_INSUFFICIENT, outcome.citations)

    def test_pile_only_is_not_random_and_advice_says_why(self):
        outcome = self.analyse(
            {"deck_size": 60, "procedure": [{"method": "pile", "times": 2, "piles": 6}]}
        )
        self.assertFalse(outcome.sufficient)
        self.assertIs(outcome.verdict, Verdict.NOT_RANDOM_ENOUGH)
        self.assertIn("Pile shuffling alone", outcome.advice)
        self.assertIn(shuffles.CITE_INSUFFICIENT, outcome.citations)

    def test_woven_pattern_is_suspicious_and_points_to_investigation(self):
        outcome = self.analyse(
            {
                "deck_size": 60,
                "procedure": [{"method": "riffle", "times": 10}],
                "observed": {"pattern": "LSLSLSLSLSLSLSLS", "lands": 24},
            }
        )
        self.assertIs(outcome.verdict, Verdict.SUSPICIOUS_PATTERN)
        self.assertIn(shuffles.CITE_CHEATING, outcome.citations)
        self.assertLess(outcome.pattern_p_value, shuffles.PATTERN_ALPHA)

    def test_seeded_requests_reproduce(self):
        data = {
            "deck_size": 40,
            "procedure": [],
            "observed": {"pattern": "LSSLS", "lands": 17},
            "seed": 5,
        }
        self.assertEqual(self.analyse(data), self.analyse(data))
        self.assertEqual(self.analyse(data).pattern.seed, 5)
        del data["seed"]
        self.assertEqual(self.analyse(data), self.analyse(data))

    def test_split_riffles_are_reported_as_a_bound_with_its_model(self):
        outcome = self.analyse(
            {
                "deck_size": 60,
                "procedure": [
                    {"method": "riffle", "times": 4},
                    {"method": "pile", "piles": 5},
                    {"method": "riffle", "times": 4},
                ],
            }
        )
        self.assertFalse(outcome.distance_is_exact)
        self.assertTrue(any("upper bound" in note for note in outcome.model_notes))
        self.assertEqual([s.exact for s in outcome.steps], [True, True, False])

    def test_every_citation_is_pinned(self):
        outcome = self.analyse(
            {
                "deck_size": 60,
                "procedure": [{"method": "pile", "piles": 6}],
                "observed": {"pattern": "LS" * 10, "lands": 24},
            }
        )
        for ref in outcome.citations:
            self.assertRegex(ref, PINNED)

    @pytest.mark.corpus
    def test_citations_exist_in_the_real_documents(self):
        assert_pinned_ref_exists(shuffles.CITE_SHUFFLE, "randomize the cards")
        assert_pinned_ref_exists(shuffles.CITE_PREGAME, "shuffles their deck")
        assert_pinned_ref_exists(shuffles.CITE_MTR_SHUFFLING, "Card Shuffling")
        assert_pinned_ref_exists(shuffles.CITE_INSUFFICIENT, "Insufficient Shuffling")
        assert_pinned_ref_exists(shuffles.CITE_CHEATING, "Cheating")

    def test_engine_imports_neither_django_nor_numpy(self):
        code = (
            "import sys, engines.shuffles, engines.shuffle_check; "
            "print('django' in sys.modules, 'numpy' in sys.modules)"
        )
        run = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True
        )
        self.assertEqual(run.stdout.strip(), "False False")


class ValidateShuffleRequestTests(unittest.TestCase):
    def assert_field(self, data, field):
        with self.assertRaises(RequestError) as caught:
            shuffles.validate_shuffle_request(data)
        self.assertEqual(caught.exception.field, field, caught.exception.message)

    def test_bad_inputs_name_their_field(self):
        ok = {"method": "riffle", "times": 3}
        cases = [
            ({"procedure": [ok]}, "deck_size"),
            ({"deck_size": 0, "procedure": [ok]}, "deck_size"),
            ({"deck_size": 251, "procedure": [ok]}, "deck_size"),
            ({"deck_size": True, "procedure": [ok]}, "deck_size"),
            ({"deck_size": "60", "procedure": [ok]}, "deck_size"),
            ({"deck_size": 60, "procedure": "riffle"}, "procedure"),
            ({"deck_size": 60, "procedure": [ok] * 51}, "procedure"),
            (
                {"deck_size": 60, "procedure": [ok, {"method": "faro", "times": 1}]},
                "procedure[1].method",
            ),
            (
                {"deck_size": 60, "procedure": [{"method": "riffle", "times": -1}]},
                "procedure[0].times",
            ),
            (
                {"deck_size": 60, "procedure": [{"method": "riffle", "times": 10**6}]},
                "procedure[0].times",
            ),
            (
                {"deck_size": 60, "procedure": [{"method": "riffle", "times": 2.5}]},
                "procedure[0].times",
            ),
            (
                {"deck_size": 60, "procedure": [{"method": "riffle", "piles": 3}]},
                "procedure[0].piles",
            ),
            (
                {"deck_size": 60, "procedure": [{"method": "pile", "piles": 1}]},
                "procedure[0].piles",
            ),
            ({"deck_size": 60, "procedure": ["riffle"]}, "procedure[0]"),
            ({"deck_size": 60, "procedure": [ok], "observed": "LSL"}, "observed"),
            (
                {"deck_size": 60, "procedure": [ok], "observed": {"pattern": "LXS", "lands": 24}},
                "observed.pattern",
            ),
            (
                {"deck_size": 60, "procedure": [ok], "observed": {"pattern": "", "lands": 24}},
                "observed.pattern",
            ),
            (
                {"deck_size": 5, "procedure": [ok], "observed": {"pattern": "LSLSLS", "lands": 2}},
                "observed.pattern",
            ),
            (
                {"deck_size": 60, "procedure": [ok], "observed": {"pattern": "LLL", "lands": 2}},
                "observed.pattern",
            ),
            (
                {"deck_size": 10, "procedure": [ok], "observed": {"pattern": "SSS", "lands": 8}},
                "observed.pattern",
            ),
            (
                {"deck_size": 60, "procedure": [ok], "observed": {"pattern": "LS", "lands": 61}},
                "observed.lands",
            ),
            ({"deck_size": 60, "procedure": [ok], "observed": {"pattern": "LS"}}, "observed.lands"),
            ({"deck_size": 60, "procedure": [ok], "seed": -1}, "seed"),
        ]
        for data, field in cases:
            with self.subTest(field=field, data=data):
                self.assert_field(data, field)

    def test_good_request_is_normalised(self):
        request = shuffles.validate_shuffle_request(
            {
                "deck_size": 60,
                "procedure": [{"method": "riffle", "times": 7}, {"method": "pile", "piles": 7}],
                "observed": {"pattern": "ls sl", "lands": 24},
                "extra": "ignored",
            }
        )
        self.assertEqual(
            request,
            ShuffleRequest(
                60,
                (ShuffleStep(ShuffleMethod.RIFFLE, 7), ShuffleStep(ShuffleMethod.PILE, 1, 7)),
                ObservedPattern("LSSL", 24),
                None,
            ),
        )


class DistanceWordsTests(unittest.TestCase):
    def test_a_distance_of_one_is_not_called_fully_predictable(self):
        # Two riffles of 60 cards are at 1.000 in the model, and nobody can tell where a card is.
        words = shuffles.describe_distance(shuffles.riffle_distance(60, 2))
        self.assertIn("1.000", words)
        self.assertNotIn("predictable", words)
        self.assertIn("does not mean a player can tell where any card is", words)
        outcome = shuffles.analyse_shuffle(
            shuffles.validate_shuffle_request(
                {"deck_size": 60, "procedure": [{"method": "riffle", "times": 2}]}
            ),
            max_samples=1000,
            threshold=0.25,
        )
        self.assertNotIn("predictable", outcome.as_result()["distance_words"])
