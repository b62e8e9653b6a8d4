"""What the shuffle check reads and answers: the judge's facts about a shuffle (``ShuffleFacts``),
the infractions it can name, and the ruling (``ShuffleRuling``, with another player's infraction
beside it, ``FurtherInfraction``) with its penalty at every REL (``PenaltyByRel``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from engines import shuffles
from engines.shuffles import ShuffleStep


class Rel(str, Enum):
    REGULAR = "regular"
    COMPETITIVE = "competitive"
    PROFESSIONAL = "professional"


class Infraction(str, Enum):
    NONE = "none"
    # IPG Tournament Error (Competitive/Professional)
    INSUFFICIENT_SHUFFLING = "insufficient_shuffling"
    GAME_RULE_VIOLATION = "game_rule_violation"  # IPG Game Play Error (Competitive/Professional)
    UNWANTED_BEHAVIOUR = "unwanted_behaviour"  # JAR: inadequate shuffling at Regular REL
    REGULAR_GAME_ERROR = "regular_game_error"  # JAR: an in-game error at Regular REL
    # IPG Game Play Error, charged to the shuffler
    LOOKING_AT_EXTRA_CARDS = "looking_at_extra_cards"


INFRACTION_NAMES = {
    Infraction.NONE: "No infraction",
    Infraction.INSUFFICIENT_SHUFFLING: "Tournament Error - Insufficient Shuffling",
    Infraction.GAME_RULE_VIOLATION: "Game Play Error - Game Rule Violation",
    Infraction.UNWANTED_BEHAVIOUR: (
        "Inadequate shuffling (a General Unwanted Behavior at Regular REL)"
    ),
    Infraction.REGULAR_GAME_ERROR: "An in-game error at Regular REL",
    Infraction.LOOKING_AT_EXTRA_CARDS: "Game Play Error - Looking at Extra Cards",
}


@dataclass(frozen=True)
class ShuffleFacts:
    rel: Rel
    deck_size: int  # cards in the library (or deck) that was shuffled
    procedure: tuple[ShuffleStep, ...] | None = None  # None: not described; (): not shuffled at all
    presented_to_opponent: bool = True  # offered to the opponent for a final shuffle/cut
    searched_without_shuffle: bool = False  # searched, and did not shuffle when told to
    card_seen_while_shuffling: bool = False  # a card face was seen and the deck not re-randomized
    pattern_seen: bool = False  # a suspicious land/spell pattern was seen
    pattern_p_value: float | None = None  # from the shuffle analysis, if run
    arranged_before_shuffle: bool = False  # the player weaved/stacked before shuffling
    repeated_after_education: bool = False  # Regular REL: the player was already educated
    found_cards_shuffled_in: bool = False  # cards found by a search went into the shuffle
    put_at_position: bool = False  # an object goes to a set position as the library is shuffled
    # "shuffle X into the library" but X is gone / there is none
    objects_to_shuffle_missing: bool = False
    has_shuffle_trigger: bool = False  # a "whenever a library is shuffled" ability is in play
    # the judge believes a player could know the position or distribution of cards
    cards_could_be_known: bool = False
    # IPG 3: already a Warning for Insufficient Shuffling this day
    prior_insufficient_shuffling_warning: bool = False
    # the card was seen while the opponent's deck was being shuffled
    shuffling_opponents_deck: bool = False
    pattern_direction: str | None = None  # "too_even" or "too_clumped", from the shuffle analysis


@dataclass(frozen=True)
class PenaltyByRel:
    regular: str
    competitive: str
    professional: str

    def as_result(self) -> dict[str, str]:
        return {
            "regular": self.regular,
            "competitive": self.competitive,
            "professional": self.professional,
        }


@dataclass(frozen=True)
class FurtherInfraction:
    """An infraction beside the ruling's own, committed by another player in the same events: each
    player's infraction is charged to that player, with its own penalty and fix."""

    infraction: Infraction
    infraction_name: str
    penalty: str  # at the facts' REL
    penalties: PenaltyByRel
    charged_to: str
    fix: str
    citations: tuple[str, ...]

    def as_result(self) -> dict[str, Any]:
        return {
            "infraction": self.infraction.value,
            "infraction_name": self.infraction_name,
            "penalty": self.penalty,
            "penalties": self.penalties.as_result(),
            "charged_to": self.charged_to,
            "fix": self.fix,
            "citations": list(self.citations),
        }


@dataclass(frozen=True)
class ShuffleRuling:
    infraction: Infraction
    infraction_name: str
    penalty: str  # at the facts' REL
    penalties: PenaltyByRel  # the same facts at every REL
    fix: str
    investigate: bool  # intent must be looked into; the tool does not decide it
    investigation: str
    problems: tuple[str, ...]
    notes: tuple[str, ...]  # game-rules points (CR 701.20) relevant to the facts
    distance_from_random: float | None
    citations: tuple[str, ...]
    threshold: float = shuffles.DEFAULT_THRESHOLD
    model_notes: tuple[str, ...] = field(default=())
    # the mathematics of the shuffle, for the judge to weigh; never the ruling
    information: tuple[str, ...] = ()
    distance_words: str | None = None
    upgraded: bool = False  # IPG 3: a second Insufficient Shuffling Warning became a Game Loss
    charged_to: str = "owner"  # whose infraction: "owner" of the deck, or "shuffler" (the opponent)
    # another player's infraction in the same events (IPG 2.2 example A beside the owner's IPG 3.9)
    further_infractions: tuple[FurtherInfraction, ...] = ()
    # no documented example settles the procedure: whether it randomized is the judge's call
    judge_call: bool = False

    def as_result(self) -> dict[str, Any]:
        return {
            "infraction": self.infraction.value,
            "infraction_name": self.infraction_name,
            "penalty": self.penalty,
            "penalties": self.penalties.as_result(),
            "fix": self.fix,
            "investigate": self.investigate,
            "investigation": self.investigation,
            "problems": list(self.problems),
            "notes": list(self.notes),
            "distance_from_random": self.distance_from_random,
            "citations": list(self.citations),
            "threshold": self.threshold,
            "model_notes": list(self.model_notes),
            "information": list(self.information),
            "distance_words": self.distance_words,
            "upgraded": self.upgraded,
            "charged_to": self.charged_to,
            "further_infractions": [f.as_result() for f in self.further_infractions],
            "judge_call": self.judge_call,
        }
