"""Penalty upgrades by count (calllog.penalties): IPG 2021-01-06 chapters 2 and 3, the JAR."""

from __future__ import annotations

import subprocess
import sys
import unittest
from pathlib import Path
from typing import ClassVar

from hypothesis import given, settings
from hypothesis import strategies as st

from calllog.penalties import (
    GAME_LOSS,
    GAME_PLAY_ERROR,
    TOURNAMENT_ERROR,
    Offense,
    apply_upgrades,
    category_of,
    infraction_name,
)

REPO = Path(__file__).resolve().parents[2]


def run(
    sequence: list[tuple[str, str]], rel: str = "competitive", days: list[int] | None = None
) -> list[str]:
    """Give one player each (infraction, base penalty) in turn; the penalties actually given."""
    history: list[Offense] = []
    given_penalties = []
    for i, (infraction, penalty) in enumerate(sequence):
        new = Offense(infraction, "", penalty, rel, days[i] if days else 1)
        given_penalties.append(apply_upgrades(history, new).penalty)
        history.append(new)
    return given_penalties


W, GL = "Warning", GAME_LOSS


class UpgradeTableTests(unittest.TestCase):
    TABLE: ClassVar[list] = [
        # (sequence of infractions, all Warnings, at Competitive) -> penalties given
        (["GRV"], [W]),
        (["GRV", "GRV"], [W, W]),
        (["GRV", "GRV", "GRV"], [W, W, GL]),
        (["GRV", "GRV", "GRV", "GRV"], [W, W, GL, GL]),
        (["GRV", "HCE", "GRV", "HCE", "LEC"], [W, W, W, W, W]),
        (["HCE", "HCE", "GRV", "HCE"], [W, W, W, GL]),
        (["FtMGS", "FtMGS", "FtMGS", "FtMGS"], [W, W, W, W]),
        (["SP", "SP"], [W, GL]),
        (["SP", "SP", "SP"], [W, GL, GL]),
        (["SP", "CPV", "MC", "IS", "LPV"], [W, W, W, W, W]),
        (["Insufficient Shuffling", "TE-IS"], [W, GL]),
        (["SP", "GRV", "GRV", "SP", "GRV"], [W, W, W, GL, GL]),
        # IPG 4.1: subsequent Unsporting Conduct - Minor infractions are Game Losses (below).
        (["USC-Minor", "USC-Minor", "USC-Minor"], [W, GL, GL]),
    ]

    def test_sequences_at_competitive(self):
        for sequence, expected in self.TABLE:
            with self.subTest(sequence=sequence):
                self.assertEqual(run([(s, W) for s in sequence]), expected)

    def test_professional_upgrades_like_competitive(self):
        for sequence, expected in self.TABLE:
            with self.subTest(sequence=sequence):
                self.assertEqual(run([(s, W) for s in sequence], rel="professional"), expected)

    def test_regular_rel_never_upgrades_by_count(self):
        for sequence, _ in self.TABLE:
            with self.subTest(sequence=sequence):
                self.assertEqual(
                    run([(s, W) for s in sequence], rel="regular"), [W] * len(sequence)
                )

    def test_regular_rel_says_why_and_cites_the_jar(self):
        result = apply_upgrades([Offense("SP", "", W, "regular")], Offense("SP", "", W, "regular"))
        self.assertFalse(result.upgraded)
        self.assertIn("Regular", result.reason)
        self.assertEqual(result.refs, ("jar@2019-01-21:Introduction",))

    def test_ftmgs_says_it_is_never_upgraded(self):
        history = [Offense("FtMGS", "", W)] * 5
        result = apply_upgrades(history, Offense("GPE-FtMGS", "", W))
        self.assertEqual((result.penalty, result.upgraded), (W, False))
        self.assertIn("never upgraded", result.reason)
        self.assertEqual(result.refs, ("ipg@2021-01-06:2",))

    def test_third_gpe_warning_reason_and_reference(self):
        history = [Offense("GRV", "", W), Offense("Game Rule Violation", "", W)]
        result = apply_upgrades(history, Offense("GPE-GRV", "", W))
        self.assertTrue(result.upgraded)
        self.assertEqual(result.prior_warnings, 2)
        self.assertIn("Game Rule Violation", result.reason)
        # the count's rule, and the Game Loss's own (IPG 1.1): the Warning's fix no longer fits
        self.assertEqual(result.refs, ("ipg@2021-01-06:2", "ipg@2021-01-06:1.1"))
        self.assertIn("chooses whether to play or draw", result.reason)

    def test_second_te_warning_cites_chapter_three(self):
        result = apply_upgrades([Offense("Slow Play", "", W)], Offense("SP", "", W))
        self.assertEqual(
            (result.penalty, result.upgraded, result.refs),
            (GL, True, ("ipg@2021-01-06:3", "ipg@2021-01-06:1.1")),
        )
        self.assertIn("ends the current game immediately", result.reason)

    def test_second_gpe_warning_says_the_next_is_a_game_loss(self):
        result = apply_upgrades([Offense("HCE", "", W)], Offense("HCE", "", W))
        self.assertFalse(result.upgraded)
        self.assertIn("next one is a Game Loss", result.reason)

    def test_counts_reset_between_days(self):
        self.assertEqual(run([("SP", W), ("SP", W)], days=[1, 2]), [W, W])
        self.assertEqual(
            run([("GRV", W), ("GRV", W), ("GRV", W), ("GRV", W)], days=[1, 1, 2, 2]), [W, W, W, W]
        )
        self.assertEqual(run([("GRV", W), ("GRV", W), ("GRV", W)], days=[2, 2, 2]), [W, W, GL])

    def test_only_warnings_are_upgraded_and_counted(self):
        # Tardiness and Decklist Problem are Game Losses to begin with: they are not Warnings
        # to upgrade.
        self.assertEqual(run([("Tardiness", GL), ("Tardiness", GL)]), [GL, GL])
        self.assertEqual(run([("DLP", GL), ("DLP", W)]), [GL, W])
        # A Missed Trigger with no penalty does not count toward a later Warning.
        self.assertEqual(
            run([("MT", "No penalty"), ("MT", "No penalty"), ("MT", W)]),
            ["No penalty", "No penalty", W],
        )

    def test_infraction_outside_the_ipg_is_left_alone(self):
        result = apply_upgrades(
            [Offense("Something else", "game_play_error", W)] * 3,
            Offense("Something else", "game_play_error", W),
        )
        # Same unknown infraction, but a guide-stated GPE category: it counts like a GPE.
        self.assertTrue(result.upgraded)
        result = apply_upgrades([Offense("Mystery", "", W)] * 3, Offense("Mystery", "", W))
        self.assertFalse(result.upgraded)


class InfractionNameTests(unittest.TestCase):
    def test_aliases_and_titles_name_the_same_infraction(self):
        for text in (
            "GRV",
            "gpe-grv",
            "Game Rule Violation",
            "Game Play Error - Game Rule Violation",
            " game  rule violation ",
        ):
            with self.subTest(text=text):
                self.assertEqual(infraction_name(text), "Game Rule Violation")

    def test_categories_come_from_the_ipg(self):
        self.assertEqual(category_of("FtMGS"), GAME_PLAY_ERROR)
        self.assertEqual(category_of("Slow Play"), TOURNAMENT_ERROR)
        # The IPG's own category wins over a mislabelled one.
        self.assertEqual(category_of("HCE", "tournament_error"), GAME_PLAY_ERROR)

    def test_every_gpe_and_te_infraction_of_the_real_ipg_has_its_category(self):
        from rulesref.parsing.ipg import infraction_name as title_name
        from rulesref.parsing.ipg import parse_ipg
        from tests.conftest import rules_files

        document = parse_ipg(rules_files("ipg")[-1].read_text(encoding="utf-8"))
        expected = {"2": GAME_PLAY_ERROR, "3": TOURNAMENT_ERROR}
        seen = 0
        for rule in document.rules:
            chapter = rule.number.split(".")[0]
            if "." in rule.number and chapter in expected:
                seen += 1
                self.assertEqual(category_of(title_name(rule.title)), expected[chapter], rule.title)
        self.assertGreaterEqual(seen, 15)

    def test_the_upgrade_sentences_are_in_the_cited_chapters(self):
        from rulesref.parsing.ipg import parse_ipg
        from tests.conftest import rules_files

        path = next(p for p in rules_files("ipg") if "20210106" in p.name)
        rules = {r.number: r for r in parse_ipg(path.read_text(encoding="utf-8")).rules}
        self.assertIn(
            "Failure to Maintain Game State, which is never upgraded, the third or subsequent "
            "warning",
            rules["2"].text,
        )
        self.assertIn(
            "upgraded to a Game Loss if the player has already received a Warning for an offense "
            "in the same category",
            rules["3"].text,
        )
        self.assertIn("resets between days", rules["3"].text)


def shipped_ipg_section(reference: str):
    """The section a pinned reference ("ipg@2021-01-06:4.1") names, parsed from the IPG shipped in
    rules/ (the current one)."""
    from rulesref.parsing.ipg import parse_ipg
    from tests.conftest import SHIPPED_DIR

    path = sorted((SHIPPED_DIR / "ipg").glob("*.html"))[-1]
    date = reference.split("@", 1)[1].split(":", 1)[0].replace("-", "")
    assert date in path.name, f"{reference} is not pinned to the shipped IPG {path.name}"
    number = reference.rsplit(":", 1)[1]
    return next(r for r in parse_ipg(path.read_text(encoding="utf-8")).rules if r.number == number)


class UnsportingConductRepeatTests(unittest.TestCase):
    """IPG 4.1 (Minor) and 4.2 (Major) upgrade a repeat themselves; the chapter 4 intro gives no
    count. Before the audit every Unsporting Conduct penalty was left as it was, so a player's
    second Unsporting Conduct - Minor was announced as a Warning."""

    def test_the_sections_say_what_a_repeat_brings(self):
        from calllog.penalties import USC_MAJOR_REF, USC_MINOR_REF

        minor = shipped_ipg_section(USC_MINOR_REF)
        self.assertEqual(minor.title, "Unsporting Conduct - Minor")
        self.assertIn(
            "Subsequent Unsporting Conduct - Minor infractions, even for different offenses, will "
            "result in a Game Loss.",
            dict(minor.fields)["additional_remedy"],
        )
        major = shipped_ipg_section(USC_MAJOR_REF)
        self.assertEqual(major.title, "Unsporting Conduct - Major")
        self.assertIn(
            "the offense is repeated at a later time, the penalty is Disqualification",
            dict(major.fields)["upgrade"],
        )

    def test_a_second_minor_is_a_game_loss_even_for_another_offense(self):
        from calllog.penalties import GAME_LOSS_REF, USC_MINOR_REF

        first = apply_upgrades([], Offense("USC-Minor", "", W))
        self.assertEqual((first.penalty, first.upgraded), (W, False))
        # A guide records "USC-Minor"; a direct call the IPG's title: the same infraction.
        second = apply_upgrades(
            [Offense("USC-Minor", "", W)], Offense("Unsporting Conduct - Minor", "", W)
        )
        self.assertEqual((second.penalty, second.upgraded), (GL, True))
        # the section's repeat, and what a Game Loss is (IPG 1.1)
        self.assertEqual(second.refs, (USC_MINOR_REF, GAME_LOSS_REF))
        self.assertIn("even for different offenses", second.reason)
        # An earlier Minor upgraded to a Game Loss still counts: each later one is a Game Loss.
        third = apply_upgrades(
            [Offense("USC-Minor", "", W), Offense("USC-Minor", "", W, given=GL)],
            Offense("USC-Minor", "", W),
        )
        self.assertEqual(third.penalty, GL)

    def test_the_minor_count_does_not_reset_between_days(self):
        # Only the chapter 2 and 3 intros reset their counts between days; IPG 4.1 does not.
        result = apply_upgrades(
            [Offense("USC-Minor", "", W, day=1)], Offense("USC-Minor", "", W, day=2)
        )
        self.assertEqual(result.penalty, GL)

    def test_a_repeated_major_is_a_disqualification(self):
        from calllog.penalties import USC_MAJOR_REF

        first = apply_upgrades(
            [Offense("USC-Major", "", "Match Loss")], Offense("USC-Major", "", "Match Loss")
        )
        self.assertEqual((first.penalty, first.upgraded), ("Disqualification", True))
        self.assertEqual(first.refs, (USC_MAJOR_REF,))
        alone = apply_upgrades([], Offense("Unsporting Conduct - Major", "", "Match Loss"))
        self.assertEqual((alone.penalty, alone.upgraded), ("Match Loss", False))

    def test_other_unsporting_conduct_and_other_infractions_do_not_count(self):
        history = [
            Offense("USC-Major", "", "Match Loss"),
            Offense("SP", "", W),
            Offense("GRV", "", W),
        ]
        self.assertEqual(apply_upgrades(history, Offense("USC-Minor", "", W)).penalty, W)
        self.assertEqual(
            apply_upgrades(
                [Offense("USC-Minor", "", W)], Offense("USC-Major", "", "Match Loss")
            ).penalty,
            "Match Loss",
        )
        # Improperly Determining a Winner has no repeat upgrade in the IPG.
        self.assertEqual(
            apply_upgrades(
                [Offense("IDW", "", "Match Loss")], Offense("IDW", "", "Match Loss")
            ).penalty,
            "Match Loss",
        )

    def test_regular_rel_does_not_upgrade_unsporting_conduct_by_count(self):
        result = apply_upgrades(
            [Offense("USC-Minor", "", W, "regular")], Offense("USC-Minor", "", W, "regular")
        )
        self.assertEqual((result.penalty, result.upgraded), (W, False))


def oracle(history: list[tuple[str, int]], new: tuple[str, int], rel: str) -> str:
    """The upgrade rule written another way: count same-infraction, same-day Warnings."""
    infraction, day = new
    if rel == "regular":
        return W
    prior = sum(1 for name, d in history if name == infraction and d == day)
    threshold = {"GRV": 2, "HCE": 2, "LEC": 2, "MPE": 2, "SP": 1, "IS": 1, "CPV": 1}.get(infraction)
    return GL if threshold is not None and prior >= threshold else W


class UpgradePropertyTests(unittest.TestCase):
    @settings(max_examples=300, deadline=None)
    @given(
        st.lists(
            st.tuples(
                st.sampled_from(["GRV", "HCE", "LEC", "MPE", "FtMGS", "SP", "IS", "CPV"]),
                st.integers(1, 2),
            ),
            max_size=12,
        ),
        st.sampled_from(["regular", "competitive", "professional"]),
    )
    def test_matches_a_plain_count(self, sequence, rel):
        history: list[Offense] = []
        for i, (infraction, day) in enumerate(sequence):
            new = Offense(infraction, "", W, rel, day)
            result = apply_upgrades(history, new)
            self.assertEqual(result.penalty, oracle(sequence[:i], (infraction, day), rel))
            self.assertEqual(result.upgraded, result.penalty == GL)
            history.append(new)

    @settings(max_examples=100, deadline=None)
    @given(
        st.lists(st.sampled_from(["GRV", "HCE", "SP", "IS", "FtMGS"]), max_size=10), st.randoms()
    )
    def test_order_of_history_does_not_matter(self, names, rnd):
        history = [Offense(n, "", W) for n in names]
        shuffled = list(history)
        rnd.shuffle(shuffled)
        for new in ("GRV", "SP", "FtMGS"):
            self.assertEqual(
                apply_upgrades(history, Offense(new, "", W)),
                apply_upgrades(shuffled, Offense(new, "", W)),
            )


class RoundOrderTests(unittest.TestCase):
    """A call recorded late (a tablet offline, synced after later rounds' calls) counts only the
    calls before it: an earlier day, or an earlier or the same round."""

    def test_a_round_two_call_synced_after_rounds_three_and_four_is_a_warning(self):
        later = [Offense("GRV", "", W, round=3), Offense("GRV", "", W, round=4)]
        self.assertEqual(apply_upgrades(later, Offense("GRV", "", W, round=2)).penalty, W)
        # and the round-4 call, counted with it, was the third Warning of the day
        history = [Offense("GRV", "", W, round=2), Offense("GRV", "", W, round=3)]
        self.assertEqual(apply_upgrades(history, Offense("GRV", "", W, round=4)).penalty, GL)

    @settings(max_examples=200, deadline=None)
    @given(
        st.lists(
            st.tuples(
                st.sampled_from(["GRV", "HCE", "SP", "IS", "FtMGS", "USC - Minor"]),
                st.integers(1, 2),
                st.integers(1, 8),
            ),
            max_size=10,
        ),
        st.sampled_from(["GRV", "SP", "USC - Minor"]),
        st.integers(1, 2),
        st.integers(1, 8),
    )
    def test_calls_after_it_never_change_its_penalty(self, others, name, day, round_):
        new = Offense(name, "", W, "competitive", day, round=round_)
        history = [Offense(n, "", W, "competitive", d, round=r) for n, d, r in others]
        before = [o for o in history if (o.day, o.round) <= (day, round_)]
        self.assertEqual(apply_upgrades(history, new), apply_upgrades(before, new))


class BoundaryTests(unittest.TestCase):
    def test_penalties_module_loads_without_django(self):
        code = "import sys, calllog.penalties; print('django' in sys.modules)"
        out = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO
        )
        self.assertEqual(out.stdout.strip(), "False")


class WarningWordingTests:
    def test_a_warning_that_names_its_infraction_is_a_warning(self):
        from calllog.penalties import is_warning

        assert is_warning("Warning (Game Play Error - Game Rule Violation)")
        assert is_warning("warning")
        assert not is_warning("Game Loss")
        assert not is_warning("No penalty (a Warning only if it recurs)")


class PinnedReferenceTests:
    def test_every_reference_the_upgrade_rules_pin_is_registered_with_the_rules_reference(self):
        from calllog import infractions, penalties
        from rulesref import citing

        def pinned_in(module) -> set[str]:
            return {
                v
                for k, v in vars(module).items()
                if k.isupper() and isinstance(v, str) and "@" in v
            }

        pinned = pinned_in(penalties)
        assert {
            "ipg@2021-01-06:2",
            "ipg@2021-01-06:3",
            "jar@2019-01-21:Introduction",
            "ipg@2021-01-06:4.1",
            "ipg@2021-01-06:4.2",
        } <= pinned
        assert set(penalties.PINNED_REFS) == pinned
        # the direct-call catalogue's JAR references (its Regular REL handling) too
        situations = pinned_in(infractions)
        assert {f"jar@2019-01-21:1.{n}" for n in range(1, 6)} <= situations
        assert set(infractions.PINNED_REFS) == situations
        assert set(
            citing.cited_by("calllog")
        ) == pinned | situations and pinned | situations <= set(citing.known_references())


class GameLossesAtOnceTests(unittest.TestCase):
    """IPG 1.1: "If a player would receive multiple Game Losses at the same time, they only receive
    one." A Game Loss in a round where the player already has one says so (the judge knows whether
    the two came at the same time: Tardiness and a Decklist Problem at the start of a match)."""

    def test_the_definition_says_so(self):
        from calllog.penalties import GAME_LOSS_REF

        section = shipped_ipg_section(GAME_LOSS_REF)
        self.assertIn(
            "If a player would receive multiple Game Losses at the same time, they only receive "
            "one.",
            " ".join(section.text.split()),
        )

    def test_a_second_game_loss_in_the_same_round_says_the_player_receives_one(self):
        from calllog.penalties import GAME_LOSS_REF

        tardy = Offense("Tardiness", "", GL, round=3)
        decklist = Offense("Decklist Problem", "", GL, round=3)
        result = apply_upgrades([tardy], decklist)
        self.assertEqual((result.penalty, result.upgraded), (GL, False))
        self.assertIn("only one", result.reason)
        self.assertIn("round 3", result.reason)
        self.assertIn(GAME_LOSS_REF, result.refs)

    def test_other_rounds_days_and_penalties_say_nothing(self):
        tardy = Offense("Tardiness", "", GL, round=3)
        for new in (
            Offense("Decklist Problem", "", GL, round=4),
            Offense("Decklist Problem", "", GL, round=3, day=2),
            Offense("Decklist Problem", "", GL),  # no round given
            Offense("Hidden Card Error", "", W, round=3),
        ):
            with self.subTest(new=new):
                self.assertNotIn("only one", apply_upgrades([tardy], new).reason)
        # a Warning upgraded to a Game Loss in that round is a Game Loss at the same time too
        earlier = Offense("Deck Problem", "", W, round=3)
        upgraded = apply_upgrades([earlier, tardy], Offense("Deck Problem", "", W, round=3))
        self.assertEqual(upgraded.penalty, GL)
        self.assertIn("only one", upgraded.reason)
