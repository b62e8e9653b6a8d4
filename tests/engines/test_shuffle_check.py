"""Tests for engines.shuffle_check: a table of judge calls per REL, CR 701.20 notes, validation,
and that the policy the module encodes is what the real IPG, JAR and CR say."""

from __future__ import annotations

import re
import unittest

import pytest

from engines import shuffle_check, shuffles
from engines.errors import RequestError
from engines.shuffle_check import Infraction, Rel, ShuffleFacts
from engines.shuffles import ShuffleMethod, ShuffleStep
from tests.conftest import needs_history, rules_files
from tests.engines.test_shuffles import PINNED, assert_pinned_ref_exists, pinned_ref_text

GOOD = (ShuffleStep(ShuffleMethod.PILE, 1, 7), ShuffleStep(ShuffleMethod.RIFFLE, 9))
ONE_RIFFLE = (ShuffleStep(ShuffleMethod.RIFFLE, 1),)
PILES_ONLY = (ShuffleStep(ShuffleMethod.PILE, 3, 6),)
MASHES = (ShuffleStep(ShuffleMethod.MASH, 18),)

# (description, facts without the REL, infraction at Competitive/Professional, penalty at
#  regular / competitive / professional)
CASES = [
    (
        "thorough riffles, presented",
        dict(deck_size=60, procedure=GOOD),
        Infraction.NONE,
        ("None", "None", "None"),
    ),
    (
        "eighteen mashes",
        dict(deck_size=60, procedure=MASHES),
        Infraction.NONE,
        ("None", "None", "None"),
    ),
    (
        "search, then one riffle (IPG example B)",
        dict(deck_size=53, procedure=ONE_RIFFLE),
        Infraction.INSUFFICIENT_SHUFFLING,
        ("None: educate the player", "Warning", "Warning"),
    ),
    (
        "pile shuffles only",
        dict(deck_size=60, procedure=PILES_ONLY),
        Infraction.INSUFFICIENT_SHUFFLING,
        ("None: educate the player", "Warning", "Warning"),
    ),
    (
        "no shuffle at all",
        dict(deck_size=60, procedure=()),
        Infraction.INSUFFICIENT_SHUFFLING,
        ("None: educate the player", "Warning", "Warning"),
    ),
    (
        "forgot to shuffle after a search (IPG example A)",
        dict(deck_size=50, searched_without_shuffle=True),
        Infraction.INSUFFICIENT_SHUFFLING,
        ("None: educate the player", "Warning", "Warning"),
    ),
    (
        "not presented to the opponent",
        dict(deck_size=60, procedure=GOOD, presented_to_opponent=False),
        Infraction.INSUFFICIENT_SHUFFLING,
        ("None: educate the player", "Warning", "Warning"),
    ),
    (
        "card seen while shuffling",
        dict(deck_size=60, procedure=GOOD, card_seen_while_shuffling=True),
        Infraction.INSUFFICIENT_SHUFFLING,
        ("None: educate the player", "Warning", "Warning"),
    ),
    (
        "again after education at Regular",
        dict(deck_size=60, procedure=PILES_ONLY, repeated_after_education=True),
        Infraction.INSUFFICIENT_SHUFFLING,
        ("Game Loss may be applied: the behaviour continued after education", "Warning", "Warning"),
    ),
    (
        "found card shuffled into the library",
        dict(deck_size=50, procedure=GOOD, found_cards_shuffled_in=True),
        Infraction.GAME_RULE_VIOLATION,
        ("None: fix the error and educate the player", "Warning", "Warning"),
    ),
    (
        "stacked before a thorough shuffle is fine",
        dict(deck_size=60, procedure=GOOD, arranged_before_shuffle=True),
        Infraction.NONE,
        ("None", "None", "None"),
    ),
    (
        "one-card library, no shuffle described",
        dict(deck_size=1, procedure=()),
        Infraction.NONE,
        ("None", "None", "None"),
    ),
    # Nobody can know more about the order of one card or none: searched and not shuffled is
    # no infraction.
    (
        "one-card library searched, not shuffled",
        dict(deck_size=1, searched_without_shuffle=True),
        Infraction.NONE,
        ("None", "None", "None"),
    ),
    (
        "empty library searched, not shuffled, not presented",
        dict(
            deck_size=0,
            searched_without_shuffle=True,
            presented_to_opponent=False,
            cards_could_be_known=True,
        ),
        Infraction.NONE,
        ("None", "None", "None"),
    ),
]


class CheckShuffleTableTests(unittest.TestCase):
    def test_each_case_gets_its_infraction_and_penalty_at_every_rel(self):
        regular_names = {
            Infraction.NONE: Infraction.NONE,
            Infraction.INSUFFICIENT_SHUFFLING: Infraction.UNWANTED_BEHAVIOUR,
            Infraction.GAME_RULE_VIOLATION: Infraction.REGULAR_GAME_ERROR,
        }
        for description, facts, infraction, penalties in CASES:
            for rel, penalty in zip(Rel, penalties):
                with self.subTest(description, rel=rel.value):
                    ruling = shuffle_check.check_shuffle(ShuffleFacts(rel=rel, **facts))
                    expected = regular_names[infraction] if rel is Rel.REGULAR else infraction
                    self.assertIs(ruling.infraction, expected)
                    self.assertEqual(ruling.penalty, penalty)
                    self.assertEqual(
                        (
                            ruling.penalties.regular,
                            ruling.penalties.competitive,
                            ruling.penalties.professional,
                        ),
                        penalties,
                    )
                    self.assertFalse(ruling.investigate)
                    for ref in ruling.citations:
                        self.assertRegex(ref, PINNED)

    def test_insufficient_shuffling_cites_ipg_at_competitive_and_jar_at_regular(self):
        facts = dict(deck_size=60, procedure=ONE_RIFFLE)
        competitive = shuffle_check.check_shuffle(ShuffleFacts(rel=Rel.COMPETITIVE, **facts))
        regular = shuffle_check.check_shuffle(ShuffleFacts(rel=Rel.REGULAR, **facts))
        self.assertIn(shuffle_check.CITE_INSUFFICIENT, competitive.citations)
        self.assertNotIn(shuffle_check.CITE_JAR_UNWANTED, competitive.citations)
        self.assertIn(shuffle_check.CITE_JAR_UNWANTED, regular.citations)
        self.assertNotIn(shuffle_check.CITE_INSUFFICIENT, regular.citations)
        self.assertIn(shuffle_check.CITE_MTR_SHUFFLING, regular.citations)

    def test_the_mathematics_is_information_that_says_what_the_figure_is_not(self):
        ruling = shuffle_check.check_shuffle(
            ShuffleFacts(rel=Rel.COMPETITIVE, deck_size=60, procedure=PILES_ONLY)
        )
        self.assertNotIn("riffles", ruling.fix)  # the documents set no number of riffles
        words = " ".join(ruling.information)
        self.assertIn("not a ruling", words)
        self.assertIn("Gilbert-Shannon-Reeds", words)
        self.assertIn(f"{ruling.distance_from_random:.3f}", words)
        self.assertIn("does not mean a player can tell where any card is", words)
        # Distance 1 is not "fully predictable", and no distance is a yardstick of the documents.
        for text in (words, ruling.distance_words):
            self.assertNotIn("fully predictable", text)
            self.assertNotIn(str(ruling.threshold), text)
        self.assertNotIn("riffles in a row", words)
        self.assertEqual(
            ruling.distance_from_random, shuffles.procedure_distance(60, PILES_ONLY)[0]
        )
        self.assertTrue(ruling.distance_words.startswith("far from random"))

    def test_no_figure_for_a_shuffle_whose_distance_rests_on_the_engines_convention(self):
        # Mash and overhand shuffles are credited by the engine's own convention (model notes), not
        # a published model.
        for method in (ShuffleMethod.MASH, ShuffleMethod.OVERHAND):
            ruling = shuffle_check.check_shuffle(
                ShuffleFacts(Rel.COMPETITIVE, 53, (ShuffleStep(method, 7),))
            )
            self.assertIsNone(ruling.distance_from_random, method)
            self.assertIsNone(ruling.distance_words, method)
            words = " ".join(ruling.information)
            self.assertIn("no figure is given", words)
            self.assertNotRegex(words, r"\d\.\d{3}")
            self.assertNotIn("far from random", words)
            # the ruling never rested on it (IPG 3.9)
            self.assertIs(ruling.infraction, Infraction.NONE)

    def test_the_threshold_never_decides_the_ruling(self):
        # Issue 13: "Riffle x 7" on 53 or 60 cards is a proper shuffle; the 0.25 distance is advice,
        # not policy.
        for size in (53, 60):
            seven = (ShuffleStep(ShuffleMethod.RIFFLE, 7),)
            for threshold in (0.5, 0.25, 0.01):
                ruling = shuffle_check.check_shuffle(
                    ShuffleFacts(Rel.COMPETITIVE, size, seven), threshold=threshold
                )
                self.assertIs(ruling.infraction, Infraction.NONE, (size, threshold))
                self.assertEqual(ruling.penalty, "None")
                self.assertTrue(ruling.information)

    def test_the_judge_deciding_cards_could_be_known_is_insufficient_shuffling(self):
        # IPG 3.9: "A deck is not shuffled if the judge believes a player could know the position or
        # distribution".
        two = (ShuffleStep(ShuffleMethod.RIFFLE, 2),)
        self.assertIs(
            shuffle_check.check_shuffle(ShuffleFacts(Rel.COMPETITIVE, 60, two)).infraction,
            Infraction.NONE,
        )
        ruling = shuffle_check.check_shuffle(
            ShuffleFacts(Rel.COMPETITIVE, 60, two, cards_could_be_known=True)
        )
        self.assertIs(ruling.infraction, Infraction.INSUFFICIENT_SHUFFLING)
        self.assertIn("could know the position or distribution", ruling.problems[0])

    def test_a_second_insufficient_shuffling_warning_is_a_game_loss(self):
        # IPG 3: a Tournament Error Warning is upgraded to a Game Loss after a Warning "for an
        # offense in the same category": the same infraction, as the call log reads it.
        for rel in (Rel.COMPETITIVE, Rel.PROFESSIONAL):
            ruling = shuffle_check.check_shuffle(
                ShuffleFacts(rel, 60, ONE_RIFFLE, prior_insufficient_shuffling_warning=True)
            )
            self.assertTrue(ruling.penalty.startswith("Game Loss"))
            self.assertIn("Insufficient Shuffling", ruling.penalty)
            self.assertTrue(ruling.upgraded)
            self.assertIn(shuffle_check.CITE_TOURNAMENT_ERRORS, ruling.citations)
        regular = shuffle_check.check_shuffle(
            ShuffleFacts(Rel.REGULAR, 60, ONE_RIFFLE, prior_insufficient_shuffling_warning=True)
        )
        self.assertFalse(regular.upgraded)
        self.assertFalse(regular.penalty.startswith("Game Loss"))

    def test_a_warning_for_another_tournament_error_does_not_upgrade_insufficient_shuffling(self):
        # A Slow Play or Deck Problem Warning earlier today is another infraction: still a Warning.
        self.assertNotIn("prior_tournament_error_warning", ShuffleFacts.__dataclass_fields__)
        facts = shuffle_check.validate_shuffle_facts(
            {
                "rel": "competitive",
                "deck_size": 60,
                "searched_without_shuffle": True,
                "prior_tournament_error_warning": True,
            }
        )
        ruling = shuffle_check.check_shuffle(facts)
        self.assertEqual((ruling.penalty, ruling.upgraded), ("Warning", False))
        from calllog import penalties

        slow, shuffling = (
            penalties.Offense(name, "tournament_error", "Warning")
            for name in ("Slow Play", "Insufficient Shuffling")
        )
        # the call log agrees
        self.assertFalse(penalties.apply_upgrades([slow], shuffling).upgraded)
        self.assertTrue(penalties.apply_upgrades([shuffling], shuffling).upgraded)

    def test_the_ipg_sentence_on_upgrades_is_in_section_3(self):
        text = pinned_ref_text(shuffle_check.CITE_TOURNAMENT_ERRORS)
        self.assertIn(
            "A Warning for a Tournament Error offense is upgraded to a Game Loss if the player has "
            "already received a Warning for an offense in the same category",
            text,
        )

    def test_a_card_flipped_while_shuffling_the_opponents_deck_is_the_shufflers_looking_at_extra_cards(  # noqa: E501
        self,
    ):
        facts = dict(
            deck_size=60,
            procedure=GOOD,
            card_seen_while_shuffling=True,
            shuffling_opponents_deck=True,
        )
        for rel in (Rel.COMPETITIVE, Rel.PROFESSIONAL):
            ruling = shuffle_check.check_shuffle(ShuffleFacts(rel, **facts))
            self.assertIs(ruling.infraction, Infraction.LOOKING_AT_EXTRA_CARDS)
            self.assertEqual((ruling.penalty, ruling.charged_to), ("Warning", "shuffler"))
            self.assertIn(shuffle_check.CITE_LEC, ruling.citations)
            self.assertNotIn(shuffle_check.CITE_INSUFFICIENT, ruling.citations)
        self.assertIn(
            "A player accidentally reveals (drops, flips over) a card while shuffling their "
            "opponent",
            pinned_ref_text(shuffle_check.CITE_LEC),
        )
        regular = shuffle_check.check_shuffle(ShuffleFacts(Rel.REGULAR, **facts))
        self.assertIs(regular.infraction, Infraction.REGULAR_GAME_ERROR)
        self.assertIn("unknown portion", regular.fix)


class InvestigationTests(unittest.TestCase):
    def test_unlikely_pattern_from_a_stacked_deck_is_investigated_not_decided(self):
        p = float(shuffles.pattern_p_value_exact(60, 24, "LS" * 8))
        for rel, ref in (
            (Rel.COMPETITIVE, shuffle_check.CITE_CHEATING),
            (Rel.PROFESSIONAL, shuffle_check.CITE_CHEATING),
            (Rel.REGULAR, shuffle_check.CITE_JAR_SERIOUS),
        ):
            ruling = shuffle_check.check_shuffle(
                ShuffleFacts(
                    rel,
                    60,
                    GOOD,
                    pattern_seen=True,
                    pattern_p_value=p,
                    arranged_before_shuffle=True,
                )
            )
            self.assertTrue(ruling.investigate)
            self.assertIn(ref, ruling.citations)
            self.assertIn("does not decide intent", ruling.investigation)
            # the shuffle itself was described as fine
            self.assertIs(ruling.infraction, Infraction.NONE)

    def test_ordinary_pattern_is_not_a_reason_to_investigate(self):
        p = float(shuffles.pattern_p_value_exact(60, 24, "LSSLSSLSSL"))
        ruling = shuffle_check.check_shuffle(
            ShuffleFacts(
                Rel.COMPETITIVE,
                60,
                GOOD,
                pattern_seen=True,
                pattern_p_value=p,
                arranged_before_shuffle=True,
            )
        )
        self.assertGreater(p, shuffles.PATTERN_ALPHA)
        self.assertFalse(ruling.investigate)
        self.assertNotIn(shuffle_check.CITE_CHEATING, ruling.citations)

    def test_pattern_without_analysis_asks_for_one(self):
        ruling = shuffle_check.check_shuffle(
            ShuffleFacts(Rel.COMPETITIVE, 60, GOOD, pattern_seen=True)
        )
        self.assertFalse(ruling.investigate)
        self.assertIn("run the shuffle analysis", ruling.investigation)


class RulesNotesTests(unittest.TestCase):
    def test_found_cards_are_excluded_from_the_shuffle(self):
        ruling = shuffle_check.check_shuffle(
            ShuffleFacts(Rel.COMPETITIVE, 50, GOOD, found_cards_shuffled_in=True)
        )
        self.assertIn(shuffle_check.CITE_SEARCH_EXCLUDED, ruling.citations)
        self.assertIn(shuffle_check.CITE_GRV, ruling.citations)
        self.assertTrue(any("not part of the shuffle" in note for note in ruling.notes))

    def test_small_library_still_triggers_shuffle_abilities(self):
        for size in (0, 1):
            ruling = shuffle_check.check_shuffle(
                ShuffleFacts(Rel.REGULAR, size, (), has_shuffle_trigger=True)
            )
            self.assertIn(shuffle_check.CITE_SMALL_LIBRARY, ruling.citations)
            self.assertIsNone(ruling.distance_from_random)

    def test_position_and_missing_objects(self):
        ruling = shuffle_check.check_shuffle(
            ShuffleFacts(
                Rel.COMPETITIVE, 40, GOOD, put_at_position=True, objects_to_shuffle_missing=True
            )
        )
        for ref in (
            shuffle_check.CITE_POSITION,
            shuffle_check.CITE_OBJECTS_GONE,
            shuffle_check.CITE_EMPTY_SET,
        ):
            self.assertIn(ref, ruling.citations)
        self.assertIs(ruling.infraction, Infraction.NONE)


@pytest.mark.corpus
class PolicyMatchesRealDocumentsTests(unittest.TestCase):
    """What the module encodes must be what the pinned versions say."""

    def ipg_section(self, ref: str, next_heading: str) -> str:
        text = pinned_ref_text(ref)
        number = ref.rsplit(":", 1)[1]
        starts = [
            m.start()
            for m in re.finditer(re.escape(number) + r" (Tournament|Game Play|Unsporting)", text)
        ]
        body = text[starts[-1] :]  # the last hit: the contents list comes first
        return body[: body.find(next_heading, 10)]

    def test_insufficient_shuffling_is_a_tournament_error_with_a_warning(self):
        section = self.ipg_section(shuffle_check.CITE_INSUFFICIENT, "IPG 4")
        self.assertIn("Tournament Error - Insufficient Shuffling", section)
        self.assertIn("Penalty Warning", section)
        self.assertIn("forgets to shuffle their library after searching", section)
        self.assertIn("single riffle-shuffle", section)
        self.assertIn("fails to present it to their opponent", section)
        self.assertIn("unintentionally", section)

    @needs_history
    def test_every_ipg_version_names_3_9_insufficient_shuffling(self):
        files = rules_files("ipg")
        self.assertGreaterEqual(len(files), 12)
        for path in files:
            text = re.sub(
                r"\s+", " ", re.sub(r"<[^>]+>", " ", path.read_text(encoding="utf-8-sig"))
            )
            with self.subTest(path.name):
                self.assertIn("3.9 Tournament Error - Insufficient Shuffling", text)

    def test_game_rule_violation_is_a_warning(self):
        section = self.ipg_section(shuffle_check.CITE_GRV, "2.6")
        self.assertIn("Game Rule Violation", section)
        self.assertIn("Penalty Warning", section)

    def test_cheating_is_unsporting_conduct(self):
        assert_pinned_ref_exists(shuffle_check.CITE_CHEATING, "Cheating")

    def test_jar_lists_inadequate_shuffling_as_unwanted_behaviour_without_penalty(self):
        text = pinned_ref_text(shuffle_check.CITE_JAR_UNWANTED)
        start = text.find("General Unwanted Behaviors")
        section = text[start : text.find("Serious Problems", start)]
        self.assertIn("Inadequate shuffling", section)
        self.assertIn("educate", section)
        self.assertIn("Game Loss should the unwanted behaviour continue", section)
        for ref in (shuffle_check.CITE_JAR_UNWANTED, shuffle_check.CITE_JAR_SERIOUS):
            assert_pinned_ref_exists(ref)

    def test_the_jar_situations_cited_are_the_card_seen_and_the_in_game_error(self):
        # "Common Issues" is a heading without text: the situations under it are cited instead.
        from rulesref.parsing.common import decode_document
        from rulesref.parsing.jar import parse_jar

        path = rules_files("jar")[-1]
        assert "20190121" in path.name
        titles = {
            r.number: r.title
            for r in parse_jar(decode_document(path.read_bytes(), str(path)), str(path)).rules
        }
        self.assertIn(
            "sees a card in a library", titles[shuffle_check.CITE_JAR_CARD_SEEN.rsplit(":", 1)[1]]
        )
        self.assertIn(
            "in-game error not mentioned above",
            titles[shuffle_check.CITE_JAR_GAME_ERROR.rsplit(":", 1)[1]],
        )
        self.assertFalse(hasattr(shuffle_check, "CITE_JAR_COMMON"))
        card_seen = shuffle_check.check_shuffle(
            ShuffleFacts(
                Rel.REGULAR, 60, GOOD, card_seen_while_shuffling=True, shuffling_opponents_deck=True
            )
        )
        self.assertIn(shuffle_check.CITE_JAR_CARD_SEEN, card_seen.citations)
        search = shuffle_check.check_shuffle(
            ShuffleFacts(Rel.REGULAR, 60, GOOD, found_cards_shuffled_in=True)
        )
        self.assertIn(shuffle_check.CITE_JAR_GAME_ERROR, search.citations)

    def test_cr_701_20_subrules_say_what_the_notes_say(self):
        for ref, words in (
            (shuffle_check.CITE_SHUFFLE, "no player knows their order"),
            (shuffle_check.CITE_SEARCH_EXCLUDED, "found cards aren’t included in the shuffle"),
            (shuffle_check.CITE_OBJECTS_GONE, "that library is shuffled even if none"),
            (shuffle_check.CITE_EMPTY_SET, "even if there are no objects"),
            (shuffle_check.CITE_SMALL_LIBRARY, "zero or one cards"),
            (shuffle_check.CITE_POSITION, "randomized except that the object"),
            (shuffle_check.CITE_PREGAME, "Each player may then shuffle or cut"),
        ):
            with self.subTest(ref):
                assert_pinned_ref_exists(ref, words)

    def test_mtr_limits_pile_shuffling_and_requires_presentation(self):
        text = pinned_ref_text(shuffle_check.CITE_MTR_SHUFFLING)
        section = text[text.rfind("3.9 Card Shuffling") : text.rfind("3.10 Sleeves")]
        self.assertIn("Pile shuffling alone is not sufficiently random", section)
        self.assertIn("it must be presented to an opponent", section)
        self.assertIn("required to shuffle their opponents' decks", section)


class ValidateShuffleFactsTests(unittest.TestCase):
    def assert_field(self, data, field):
        with self.assertRaises(RequestError) as caught:
            shuffle_check.validate_shuffle_facts(data)
        self.assertEqual(caught.exception.field, field, caught.exception.message)

    def test_bad_inputs_name_their_field(self):
        base = {"rel": "competitive", "deck_size": 60}
        cases = [
            ({"deck_size": 60}, "rel"),
            ({**base, "rel": "casual"}, "rel"),
            ({**base, "deck_size": -1}, "deck_size"),
            ({**base, "deck_size": 251}, "deck_size"),
            ({**base, "procedure": [{"method": "shake"}]}, "procedure[0].method"),
            ({**base, "procedure": [{"method": "riffle", "times": -2}]}, "procedure[0].times"),
            ({**base, "presented_to_opponent": "yes"}, "presented_to_opponent"),
            ({**base, "searched_without_shuffle": 1}, "searched_without_shuffle"),
            ({**base, "pattern_p_value": 1.5}, "pattern_p_value"),
            ({**base, "analysis": {"pattern_p_value": "low"}}, "analysis.pattern_p_value"),
            ({**base, "analysis": [1]}, "analysis"),
        ]
        for data, field in cases:
            with self.subTest(field=field):
                self.assert_field(data, field)

    def test_answers_become_facts(self):
        facts = shuffle_check.validate_shuffle_facts(
            {
                "rel": "professional",
                "deck_size": 0,
                "procedure": [{"method": "overhand", "times": 3}],
                "pattern_seen": True,
                "analysis": {"pattern_p_value": 0.002},
            }
        )
        self.assertEqual(
            facts,
            ShuffleFacts(
                Rel.PROFESSIONAL,
                0,
                (ShuffleStep(ShuffleMethod.OVERHAND, 3),),
                pattern_seen=True,
                pattern_p_value=0.002,
            ),
        )
        self.assertIsNone(
            shuffle_check.validate_shuffle_facts({"rel": "regular", "deck_size": 40}).procedure
        )


class PatternDirectionInvestigationTests(unittest.TestCase):
    """A clump of lands is as telling as a weave (issue 13): both lead to an investigation, saying
    which was seen."""

    def facts_from_analysis(self, pattern: str) -> ShuffleFacts:
        request = shuffles.validate_shuffle_request(
            {"deck_size": 60, "procedure": [], "observed": {"pattern": pattern, "lands": 24}}
        )
        analysis = shuffles.analyse_shuffle(request, max_samples=2_000, threshold=0.25).as_result()
        return shuffle_check.validate_shuffle_facts(
            {"rel": "competitive", "deck_size": 60, "pattern_seen": True, "analysis": analysis}
        )

    def test_ten_lands_on_top_are_investigated_as_a_clump(self):
        ruling = shuffle_check.check_shuffle(self.facts_from_analysis("L" * 10))
        self.assertTrue(ruling.investigate)
        self.assertIn("more clumped", ruling.investigation)
        self.assertNotIn("no reason to suspect intent", ruling.investigation)

    def test_a_woven_top_is_investigated_as_too_even(self):
        ruling = shuffle_check.check_shuffle(self.facts_from_analysis("LSS" * 7))
        self.assertTrue(ruling.investigate)
        self.assertIn("evenly spread", ruling.investigation)

    def test_an_ordinary_top_is_no_reason_to_suspect_intent(self):
        ruling = shuffle_check.check_shuffle(self.facts_from_analysis("LSSLSLSSSLLSSSSLSLSSL"))
        self.assertFalse(ruling.investigate)

    def test_a_bad_direction_is_refused_naming_the_field(self):
        with self.assertRaises(RequestError) as caught:
            shuffle_check.validate_shuffle_facts(
                {
                    "rel": "competitive",
                    "deck_size": 60,
                    "analysis": {"pattern_p_value": 0.5, "pattern_direction": "sideways"},
                }
            )
        self.assertEqual(caught.exception.field, "analysis.pattern_direction")


class FixWordsTests(unittest.TestCase):
    def test_found_cards_shuffled_in_get_ipg_2_5s_remedy_in_its_order(self):
        # IPG 2.5: a simple backup first; the zone fix only for an object known to all players,
        # moved with minor disruption; otherwise a full backup (Head Judge) or the game as it is.
        # Never "take them back out" outright.
        text = pinned_ref_text(shuffle_check.CITE_GRV)
        for words in (
            "First consider a simple back up",
            "the exact object is still known to all players",
            "only minor disruption",
            "a full backup may be considered or the game state may be left as is",
        ):
            self.assertIn(words, text)
        fix = shuffle_check.check_shuffle(
            ShuffleFacts(Rel.COMPETITIVE, 50, GOOD, found_cards_shuffled_in=True)
        ).fix
        self.assertLess(fix.index("simple backup"), fix.index("known to all players"))
        self.assertLess(fix.index("known to all players"), fix.index("full backup"))
        self.assertIn("minor disruption", fix)
        self.assertIn("left as it is", fix)
        self.assertNotIn("taken out of the shuffle", fix)
        regular = shuffle_check.check_shuffle(
            ShuffleFacts(Rel.REGULAR, 50, GOOD, found_cards_shuffled_in=True)
        ).fix
        self.assertIn("leave the game as it is", regular)
        self.assertIn("caught quickly and rewinding is relatively easy", regular)
        self.assertNotIn("Head Judge", regular)

    def test_a_rules_question_is_not_told_the_deck_was_shuffled_and_presented(self):
        for flag in ("put_at_position", "objects_to_shuffle_missing", "has_shuffle_trigger"):
            ruling = shuffle_check.check_shuffle(ShuffleFacts(Rel.COMPETITIVE, 53, **{flag: True}))
            self.assertIs(ruling.infraction, Infraction.NONE)
            self.assertNotIn("shuffled and presented", ruling.fix, flag)
            self.assertTrue(ruling.fix.startswith("Nothing to fix"), flag)

    def test_a_library_of_one_card_needs_no_randomizing_and_breaks_no_rule(self):
        for size in (0, 1):
            ruling = shuffle_check.check_shuffle(
                ShuffleFacts(Rel.COMPETITIVE, size, searched_without_shuffle=True)
            )
            self.assertEqual(
                (ruling.infraction, ruling.penalty, ruling.problems), (Infraction.NONE, "None", ())
            )
            self.assertIn("No randomizing is needed", ruling.fix)
            self.assertIn(shuffle_check.CITE_SMALL_LIBRARY, ruling.citations)


class TwoPlayersInfractionsTests(unittest.TestCase):
    """IPG 2.2 example A (the shuffler's) and IPG 3.9 (the owner's) are two players' infractions:
    neither takes the place of the other."""

    FACTS = dict(
        deck_size=50,
        procedure=ONE_RIFFLE,
        card_seen_while_shuffling=True,
        shuffling_opponents_deck=True,
    )

    def test_the_owners_single_riffle_and_the_shufflers_flipped_card_are_both_charged(self):
        for rel in (Rel.COMPETITIVE, Rel.PROFESSIONAL):
            ruling = shuffle_check.check_shuffle(ShuffleFacts(rel, **self.FACTS))
            # the ruling's own fields: the owner's, as before
            self.assertIs(ruling.infraction, Infraction.INSUFFICIENT_SHUFFLING)
            self.assertEqual((ruling.charged_to, ruling.penalty), ("owner", "Warning"))
            (lec,) = ruling.further_infractions
            self.assertIs(lec.infraction, Infraction.LOOKING_AT_EXTRA_CARDS)
            self.assertEqual((lec.charged_to, lec.penalty), ("shuffler", "Warning"))
            self.assertEqual(lec.citations, (shuffle_check.CITE_LEC,))
            self.assertIn("unknown portion", lec.fix)
            for ref in (shuffle_check.CITE_LEC, shuffle_check.CITE_INSUFFICIENT):
                self.assertIn(ref, ruling.citations)
            # both fixes, and the second infraction said where the fix is read out
            self.assertIn(
                "Also charged, to the opponent who shuffled: Game Play Error - Looking at Extra "
                "Cards (penalty: Warning).",
                ruling.fix,
            )
            self.assertIn("Shuffle the card seen into the unknown portion", ruling.fix)
            self.assertIn("Shuffle the unknown part of the library thoroughly", ruling.fix)
            self.assertNotIn("already randomized", ruling.fix)  # it was not
            result = ruling.as_result()
            self.assertEqual(
                result["further_infractions"][0]["infraction"], "looking_at_extra_cards"
            )
            self.assertEqual(result["further_infractions"][0]["charged_to"], "shuffler")
        regular = shuffle_check.check_shuffle(ShuffleFacts(Rel.REGULAR, **self.FACTS))
        self.assertIs(regular.infraction, Infraction.UNWANTED_BEHAVIOUR)
        self.assertIs(regular.further_infractions[0].infraction, Infraction.REGULAR_GAME_ERROR)
        self.assertIn(shuffle_check.CITE_JAR_CARD_SEEN, regular.citations)

    def test_a_flipped_card_alone_stays_the_shufflers_only_infraction(self):
        ruling = shuffle_check.check_shuffle(
            ShuffleFacts(Rel.COMPETITIVE, **{**self.FACTS, "procedure": GOOD})
        )
        self.assertIs(ruling.infraction, Infraction.LOOKING_AT_EXTRA_CARDS)
        self.assertEqual(ruling.further_infractions, ())
        self.assertIn("already randomized", ruling.fix)

    def test_found_cards_the_owner_shuffled_in_are_charged_beside_the_shufflers_flip(self):
        ruling = shuffle_check.check_shuffle(
            ShuffleFacts(
                Rel.COMPETITIVE,
                **{**self.FACTS, "procedure": GOOD, "found_cards_shuffled_in": True},
            )
        )
        self.assertEqual(
            (ruling.infraction, ruling.charged_to), (Infraction.LOOKING_AT_EXTRA_CARDS, "shuffler")
        )
        (grv,) = ruling.further_infractions
        self.assertEqual(
            (grv.infraction, grv.charged_to), (Infraction.GAME_RULE_VIOLATION, "owner")
        )
        self.assertIn(shuffle_check.CITE_GRV, ruling.citations)


class JudgeCallTests(unittest.TestCase):
    """IPG 3.9: "A deck is not shuffled if the judge believes a player could know the position or
    distribution of one or more cards"; "A player should shuffle their deck using multiple
    methods". A weak procedure no example covers is the judge's call, never "shuffled properly"."""

    WEAK = {
        "one overhand": (ShuffleStep(ShuffleMethod.OVERHAND, 1),),
        "one mash": (ShuffleStep(ShuffleMethod.MASH, 1),),
        "three mashes": (ShuffleStep(ShuffleMethod.MASH, 3),),
        "a riffle and an overhand": ONE_RIFFLE + (ShuffleStep(ShuffleMethod.OVERHAND, 1),),
        "a riffle and a mash": ONE_RIFFLE + (ShuffleStep(ShuffleMethod.MASH, 1),),
    }

    def test_a_weak_procedure_is_the_judges_call_with_no_penalty_of_its_own(self):
        for name, procedure in self.WEAK.items():
            for rel in Rel:
                with self.subTest(name, rel=rel.value):
                    ruling = shuffle_check.check_shuffle(ShuffleFacts(rel, 60, procedure))
                    self.assertTrue(ruling.judge_call)
                    self.assertIs(ruling.infraction, Infraction.NONE)
                    self.assertNotIn("properly", ruling.fix)
                    self.assertIn("judge's call", ruling.fix)
                    self.assertIn("using multiple methods", ruling.fix)
                    self.assertNotEqual(ruling.infraction_name, "No infraction")
                    self.assertTrue(ruling.penalty.startswith("Judge's call: none, unless"))
                    self.assertFalse(ruling.upgraded)
                    self.assertEqual(ruling.problems, ())
                    self.assertIn(shuffle_check.CITE_INSUFFICIENT, ruling.citations)
        self.assertIn("using multiple methods", pinned_ref_text(shuffle_check.CITE_INSUFFICIENT))

    def test_two_riffles_worth_is_no_call_for_the_judge_and_a_judges_belief_decides(self):
        for procedure in (
            (ShuffleStep(ShuffleMethod.RIFFLE, 2),),
            (ShuffleStep(ShuffleMethod.MASH, 4),),
            ONE_RIFFLE + (ShuffleStep(ShuffleMethod.MASH, 2),),
        ):
            ruling = shuffle_check.check_shuffle(ShuffleFacts(Rel.COMPETITIVE, 60, procedure))
            self.assertFalse(ruling.judge_call, procedure)
            self.assertEqual(
                ruling.fix, "Nothing to fix: the deck was shuffled and presented properly."
            )
        believed = shuffle_check.check_shuffle(
            ShuffleFacts(Rel.COMPETITIVE, 60, self.WEAK["one overhand"], cards_could_be_known=True)
        )
        self.assertIs(believed.infraction, Infraction.INSUFFICIENT_SHUFFLING)
        self.assertFalse(believed.judge_call)


class SingleRiffleExampleTests(unittest.TestCase):
    def test_the_single_riffle_example_is_the_ipgs_example_b(self):
        ruling = shuffle_check.check_shuffle(ShuffleFacts(Rel.COMPETITIVE, 60, ONE_RIFFLE))
        self.assertIn("Infraction Procedure Guide", ruling.problems[0])
        self.assertIn("IPG 3.9, example B", ruling.problems[0])
        self.assertNotIn("tournament rules", ruling.problems[0])
        self.assertIn(
            "B. A player searches for a card, then gives the library a single riffle-shuffle",
            pinned_ref_text(shuffle_check.CITE_INSUFFICIENT),
        )

    def test_one_riffle_of_a_tiny_library_is_not_settled_by_the_example(self):
        for size in (2, 3, 5):
            ruling = shuffle_check.check_shuffle(ShuffleFacts(Rel.COMPETITIVE, size, ONE_RIFFLE))
            self.assertIs(ruling.infraction, Infraction.NONE, size)
            self.assertTrue(ruling.judge_call, size)
            self.assertIn(f"one riffle shuffle of a {size}-card library", ruling.fix)
        for size in (6, 7, 40):
            ruling = shuffle_check.check_shuffle(ShuffleFacts(Rel.COMPETITIVE, size, ONE_RIFFLE))
            self.assertIs(ruling.infraction, Infraction.INSUFFICIENT_SHUFFLING, size)
