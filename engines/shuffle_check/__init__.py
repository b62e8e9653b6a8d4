"""The judge's shuffle check: from what a judge saw at the table, whether a shuffle broke tournament
policy, which infraction it is at the event's REL, the penalty, the fix, whether intent needs
investigating, and the game-rules points of a shuffle (CR 701.20) that bear on the call.

Policy encoded (each point cites its pinned reference in the ruling):
- Competitive/Professional REL: IPG "Tournament Error - Insufficient Shuffling", penalty Warning. A
  deck is not shuffled "if the judge believes a player could know the position or distribution of
  one or more cards"; its examples are forgetting to shuffle after a search and a single riffle
  after a search (example B: applied to a library one riffle leaves far from random in the riffle
  model, i.e. of 6 cards or more); its definition includes not presenting the deck to the opponent;
  MTR 3.9 says pile shuffling alone is not sufficiently random. Only those make the ruling: a
  procedure of several riffles is not an infraction by itself. A procedure none of them covers that
  this engine's own model credits with less than two riffles' worth (one overhand or mash shuffle, a
  riffle and an overhand shuffle, one riffle of a tiny library) is never affirmed as shuffled
  properly: it is the judge's call (``judge_call``; IPG 3.9: "A player should shuffle their deck
  using multiple methods"), with no penalty of its own. The distance from random of the procedure
  described (a model, see ``shuffles``) is information for the judge, said in words, never the
  ruling. It is an unintentional error: an intentionally unrandomized deck is for the judge to
  investigate as Cheating; this module never decides intent.
- IPG 3: a Tournament Error Warning is upgraded to a Game Loss if the player already received a
  Warning for an offense in the same category, i.e. for the same infraction
  (``prior_insufficient_shuffling_warning``: an earlier Warning for Insufficient Shuffling that day;
  a Warning for Slow Play or a Deck Problem does not count), as calllog/penalties.py reads it.
- A library of zero or one card: nobody can know more about its order than before, so nothing about
  shuffling it (or not) is Insufficient Shuffling; the instruction is still a shuffle for game
  purposes (CR 701.20e).
- A card flipped while shuffling the opponent's deck is the shuffler's Looking at Extra Cards (IPG
  2.2, example A), not the owner's Insufficient Shuffling; at Regular REL the JAR's fix for a card
  seen in a library applies (shuffle it into the unknown portion; the JAR's "A player sees a card in
  a library"). When the owner also did something wrong (shuffled too little, or shuffled found
  cards in), both players' infractions are given: the ruling's own fields keep the one they always
  gave (the owner's Insufficient Shuffling, else the shuffler's), ``further_infractions`` the
  other, each charged to its player with its penalty and fix; the fix names it too.
- Regular REL: the JAR lists inadequate shuffling among "General Unwanted Behaviors": educate, no
  penalty; a Game Loss may reinforce education if the behaviour continues; knowingly doing it is a
  Serious Problem.
- A found card wrongly shuffled into the library is a game action done wrong (CR: found cards are
  not part of the shuffle), i.e. a Game Rule Violation at Competitive/Professional REL, not
  insufficient shuffling. Its fix is IPG 2.5's: a simple backup first; the found cards put where
  they belong only if they are known to all players and moving them is a minor disruption; otherwise
  a full backup (Head Judge) or the game as it is. At Regular REL the JAR's "in-game error not
  mentioned above".
- The distance from random of a described procedure is said as what it is: a total variation
  distance in the Gilbert-Shannon-Reeds model of riffle shuffles. Where it rests on this engine's
  own convention (mash and overhand shuffles, ``shuffles.model_notes``) no figure is given; no
  distance is ever a tournament yardstick.
"""

from __future__ import annotations

from fractions import Fraction

from engines import shuffles
from engines.shuffle_check.facts import (
    INFRACTION_NAMES,
    FurtherInfraction,
    Infraction,
    PenaltyByRel,
    Rel,
    ShuffleFacts,
    ShuffleRuling,
)
from engines.shuffle_check.requests import FLAGS, ShuffleCheckRequest, validate_shuffle_facts
from engines.shuffles import ShuffleStep

CITE_SHUFFLE = shuffles.CITE_SHUFFLE
CITE_PREGAME = shuffles.CITE_PREGAME
CITE_MTR_SHUFFLING = shuffles.CITE_MTR_SHUFFLING
CITE_INSUFFICIENT = shuffles.CITE_INSUFFICIENT
CITE_CHEATING = shuffles.CITE_CHEATING
CITE_GRV = "ipg@2021-01-06:2.5"
CITE_LEC = "ipg@2021-01-06:2.2"
CITE_TOURNAMENT_ERRORS = "ipg@2021-01-06:3"
CITE_SEARCH_EXCLUDED = "cr@2025-02-07:701.20b"
CITE_OBJECTS_GONE = "cr@2025-02-07:701.20c"
CITE_EMPTY_SET = "cr@2025-02-07:701.20d"
CITE_SMALL_LIBRARY = "cr@2025-02-07:701.20e"
CITE_POSITION = "cr@2025-02-07:701.20g"
# The JAR has no numbered rules; its references name the section heading, or the number the parser
# gives the situations under "Common Issues" (that heading itself has no text).
CITE_JAR_UNWANTED = "jar@2019-01-21:General Unwanted Behaviors"
CITE_JAR_SERIOUS = "jar@2019-01-21:Serious Problems"
# "A player sees a card in a library that they shouldn't have seen"
CITE_JAR_CARD_SEEN = "jar@2019-01-21:1.2"
CITE_JAR_GAME_ERROR = "jar@2019-01-21:1.4"  # "A player makes an in-game error not mentioned above"


def _procedure_problem(facts: ShuffleFacts) -> str | None:
    """What the documents themselves say of a procedure: pile shuffling alone is not sufficiently
    random (MTR 3.9), a single riffle is the IPG's own example of insufficient shuffling, and no
    shuffle at all is none."""
    assert facts.procedure is not None
    counted = [s for s in facts.procedure if s.times]
    riffles = sum(s.times for s in counted if s.method is shuffles.ShuffleMethod.RIFFLE)
    randomizing = [
        s
        for s in counted
        if s.method not in (shuffles.ShuffleMethod.PILE, shuffles.ShuffleMethod.CUT)
    ]
    if not counted:
        return "the deck was not shuffled at all"
    if not randomizing:
        return (
            "only pile shuffles (or cuts) were used, and pile shuffling alone is not "
            "sufficiently random"
        )
    if riffles == 1 and len(randomizing) == 1 and _one_riffle_leaves_far_from_random(facts):
        return (
            "a single riffle shuffle was the whole randomization, as in the Infraction Procedure "
            "Guide's own example of insufficient shuffling (IPG 3.9, example B)"
        )
    return None


def _one_riffle_leaves_far_from_random(facts: ShuffleFacts) -> bool:
    """IPG 3.9 example B (a single riffle after a search) is about a library that one riffle leaves
    far from random; the riffle model says a library of a handful of cards (5 or fewer) is not left
    so, and there the example does not settle it (``_undecided``: the judge's call)."""
    return shuffles.riffle_distance(facts.deck_size, 1) >= shuffles.FAR_FROM_RANDOM


def _riffles_worth(procedure: tuple[ShuffleStep, ...]) -> Fraction:
    """What this engine's own model credits a procedure with, in riffle shuffles
    (``shuffles.riffle_credit``: a riffle one, a mash half, an overhand, pile or cut nothing)."""
    return sum((shuffles.riffle_credit(s) for s in procedure), Fraction(0))


def _undecided(facts: ShuffleFacts, problems: list[str]) -> bool:
    """A described procedure that no documented example settles, though this engine's own model
    credits it with less than two riffle shuffles' worth (one overhand or mash shuffle, a riffle and
    an overhand shuffle, one riffle of a tiny library): whether it randomized is the judge's call
    (IPG 3.9: "A deck is not shuffled if the judge believes a player could know the position or
    distribution of one or more cards"; "A player should shuffle their deck using multiple
    methods"). Never affirmed as shuffled properly, never given a penalty of its own."""
    return (
        facts.procedure is not None
        and facts.deck_size > 1
        and not problems
        and _riffles_worth(facts.procedure) < 2
    )


CHARGED_WORDS = {"owner": "deck's owner", "shuffler": "opponent who shuffled"}
JUDGE_CALL_FIX = (
    "No documented example settles this shuffle: the Infraction Procedure Guide's examples of "
    "insufficient shuffling are a library not shuffled after a search and a single riffle shuffle "
    "after a search (IPG 3.9), and pile shuffling alone is not sufficiently random (MTR 3.9); this "
    "shuffle was {what}. Whether the deck was shuffled is the judge's call: \"A deck is not "
    "shuffled if the judge believes a player could know the position or distribution of one or "
    'more cards in their deck", and "A player should shuffle their deck using multiple methods" '
    "(IPG 3.9). If the judge believes so, it is Insufficient Shuffling (the deck is then shuffled "
    "thoroughly); if not, there is nothing to fix."
)


def _judge_call_words(facts: ShuffleFacts) -> str:
    assert facts.procedure is not None
    counted = [s for s in facts.procedure if s.times]
    riffles = sum(s.times for s in counted if s.method is shuffles.ShuffleMethod.RIFFLE)
    if riffles == 1 and len(counted) == 1 and not _one_riffle_leaves_far_from_random(facts):
        return (
            f"one riffle shuffle of a {facts.deck_size}-card library, which in the riffle model "
            "one riffle does not leave far from random, unlike the libraries of the example"
        )
    return (
        "none of them, but this tool's own model credits it with less than two riffle shuffles' "
        "worth (a mash shuffle counted as half a riffle, an overhand shuffle as nothing)"
    )


def _shuffle_problems(
    facts: ShuffleFacts, threshold: float
) -> tuple[list[str], float | None, list[str], list[str]]:
    """What made the deck not randomized, by IPG 3.9's definition and examples and MTR 3.9 only;
    and, apart from them, the information: the model's distance from random for a
    described procedure."""
    problems: list[str] = []
    distance = None
    model_notes: list[str] = []
    information: list[str] = []
    if facts.deck_size <= 1:
        # Nobody can know more about the order of zero or one card: there is nothing to randomize.
        return problems, distance, model_notes, information
    if facts.searched_without_shuffle:
        problems.append("the library was not shuffled after a search that required it")
    if facts.procedure is not None:
        problem = _procedure_problem(facts)
        if problem:
            problems.append(problem)
        distance, exact = shuffles.procedure_distance(facts.deck_size, facts.procedure)
        model_notes = list(shuffles.model_notes(facts.procedure, exact))
        if _rests_on_convention(facts.procedure):
            distance = None
        information.append(_mathematics(facts, distance, exact))
    if facts.cards_could_be_known:
        problems.append(
            "the judge believes a player could know the position or distribution of one or more "
            "cards"
        )
    if facts.card_seen_while_shuffling and not facts.shuffling_opponents_deck:
        problems.append(
            "a card face was seen while shuffling and the deck was not randomized again"
        )
    if not facts.presented_to_opponent:
        problems.append("the deck was not presented to the opponent for further shuffling")
    return problems, distance, model_notes, information


def _rests_on_convention(procedure: tuple[ShuffleStep, ...]) -> bool:
    """Mash and overhand shuffles have no published model here: their credit is the engine's
    own convention."""
    return any(
        s.times and s.method in (shuffles.ShuffleMethod.MASH, shuffles.ShuffleMethod.OVERHAND)
        for s in procedure
    )


def _mathematics(facts: ShuffleFacts, distance: float | None, exact: bool) -> str:
    """The figure said as what it is (a distance between two distributions of orders, in a model)
    and what it is not (whether a player can tell where a card is, or a tournament yardstick); none
    where it rests on a convention."""
    ruling_aside = (
        "The tournament documents set no number of shuffles and no distance; whether a player "
        "could know the position or distribution of cards is the judge's call (IPG 3.9)."
    )
    if distance is None:
        return (
            "As mathematics, not a ruling: no figure is given for this shuffle. Mash and overhand "
            "shuffles have no published model of how close to random they leave a deck; this "
            "tool's own convention (a mash counted as half a riffle, an overhand shuffle as "
            "nothing) is not a measure of the shuffle. " + ruling_aside
        )
    bound = "" if exact else "at most "
    words = shuffles.describe_distance(distance).split(" (", 1)[0]
    return (
        "As mathematics, not a ruling: in the Gilbert-Shannon-Reeds model of riffle shuffling, the "
        f"shuffle described leaves a {facts.deck_size}-card deck {words}: a total variation "
        f"distance of {bound}{distance:.3f} from a uniformly random order (0 is a uniformly random "
        "order). The distance compares the whole distribution of orders with the uniform one: a "
        "large distance does not mean a player can tell where any card is. " + ruling_aside
    )


def _rules_notes(facts: ShuffleFacts) -> tuple[list[str], list[str]]:
    notes, refs = [], []
    if facts.found_cards_shuffled_in or facts.searched_without_shuffle or facts.put_at_position:
        notes.append(
            "Cards found by a search that go elsewhere or to a set position are not part of the "
            "shuffle: every other card of the library is shuffled, and shuffle triggers still "
            "trigger."
        )
        refs.append(CITE_SEARCH_EXCLUDED)
    if facts.put_at_position:
        notes.append(
            "When a library is shuffled as an object is put at a set position, the result is a "
            "randomized library with that object in that position."
        )
        refs.append(CITE_POSITION)
    if facts.objects_to_shuffle_missing:
        notes.append(
            "An instruction to shuffle objects into a library shuffles the library even if those "
            "objects have left their zone or the set of objects is empty."
        )
        refs += [CITE_OBJECTS_GONE, CITE_EMPTY_SET]
    if facts.deck_size <= 1:
        notes.append(
            "A library of zero or one card is still shuffled when told to, and abilities that "
            "trigger when a library is shuffled still trigger."
        )
        refs.append(CITE_SMALL_LIBRARY)
    elif facts.has_shuffle_trigger:
        notes.append(
            "Every shuffle of the library triggers abilities that trigger on shuffling, including "
            "a shuffle that excludes found cards."
        )
        refs.append(CITE_SEARCH_EXCLUDED)
    return notes, refs


def _investigation(facts: ShuffleFacts, rel: Rel) -> tuple[bool, str, str | None]:
    if not facts.pattern_seen:
        return False, "", None
    ref = CITE_JAR_SERIOUS if rel is Rel.REGULAR else CITE_CHEATING
    kind = "a Serious Problem" if rel is Rel.REGULAR else "Unsporting Conduct - Cheating"
    if facts.pattern_p_value is None:
        return (
            False,
            (
                "A pattern was reported: run the shuffle analysis with the cards seen to learn how "
                "unusual it is before deciding whether to investigate."
            ),
            None,
        )
    if facts.pattern_p_value > shuffles.PATTERN_ALPHA:
        return (
            False,
            (
                "The pattern seen is not unusual for a shuffled deck (p = "
                f"{facts.pattern_p_value:.3g}): neither more evenly spread nor more clumped than "
                "shuffling leaves cards; it is no reason to suspect intent."
            ),
            None,
        )
    stacked = (
        " The player arranged the deck before shuffling, so"
        if facts.arranged_before_shuffle
        else " So"
    )
    shape = {
        "too_even": "more evenly spread (as mana weaving leaves it) than",
        "too_clumped": "more clumped than",
    }.get(facts.pattern_direction or "", "unlike what")
    return (
        True,
        (
            f"The pattern seen is {shape} a shuffled deck shows (p = {facts.pattern_p_value:.3g})."
            f"{stacked} investigate (separately from the players) whether the deck was left "
            f"unrandomized on purpose; if so, this is {kind}. The tool does not decide intent."
        ),
        ref,
    )


def _penalties(infraction_at_ipg: Infraction, facts: ShuffleFacts) -> PenaltyByRel:
    if infraction_at_ipg is Infraction.NONE:
        return PenaltyByRel("None", "None", "None")
    regular = (
        "Game Loss may be applied: the behaviour continued after education"
        if facts.repeated_after_education and infraction_at_ipg is Infraction.INSUFFICIENT_SHUFFLING
        else "None: educate the player"
    )
    if infraction_at_ipg is Infraction.GAME_RULE_VIOLATION:
        regular = "None: fix the error and educate the player"
    if infraction_at_ipg is Infraction.LOOKING_AT_EXTRA_CARDS:
        regular = "None: shuffle the card seen into the unknown portion of the library"
    ipg = "Warning"
    if (
        infraction_at_ipg is Infraction.INSUFFICIENT_SHUFFLING
        and facts.prior_insufficient_shuffling_warning
    ):
        # IPG 3: "A Warning for a Tournament Error offense is upgraded to a Game Loss if the player
        # has already received a Warning for an offense in the same category": the same infraction,
        # not any Tournament Error.
        ipg = "Game Loss (upgraded: a second Warning for Insufficient Shuffling today, IPG 3)"
    return PenaltyByRel(regular, ipg, ipg)


def _fix(
    facts: ShuffleFacts,
    problems: list[str],
    threshold: float,
    judge_call: bool,
    further: list[FurtherInfraction],
) -> str:
    if facts.deck_size <= 1:
        return (
            "No randomizing is needed for a library of one card or none: nobody can know more "
            "about its order. The instruction still counts as a shuffle for game purposes."
        )
    how = (
        "Shuffle the unknown part of the library thoroughly, until no player can have any "
        "information about the order or position of its cards, without looking at card faces; pile "
        "shuffling alone is not sufficiently random. Then present it to the opponent, who may "
        "shuffle or cut it further."
    )
    # Another player's infraction is said where the fix is read out, not only in its own field.
    parts = [
        f"Also charged, to the {CHARGED_WORDS[f.charged_to]}: {f.infraction_name} (penalty: "
        f"{f.penalty})."
        for f in further
    ]
    if facts.card_seen_while_shuffling and facts.shuffling_opponents_deck:
        parts.append(
            # IPG 2.2: "The library is already randomized": not when its owner shuffled it too
            # little (then the owner's fix below randomizes it).
            "Shuffle the card seen into the unknown portion of the library."
            if problems
            else "Shuffle the card seen into the unknown portion of the library; the library was "
            "already randomized, so this should not take excessive effort."
        )
    if facts.found_cards_shuffled_in:
        parts.append(_search_fix(facts.rel))
    if problems:
        parts.append(how)
    if judge_call:
        parts.append(JUDGE_CALL_FIX.format(what=_judge_call_words(facts)))
    if parts:
        return " ".join(parts)
    if _rules_question(facts):
        return "Nothing to fix: apply the shuffle instruction as the rules points below say."
    return "Nothing to fix: the deck was shuffled and presented properly."


def _search_fix(rel: Rel) -> str:
    """A search whose found cards went into the shuffle: IPG 2.5's remedy in its order, or the JAR's
    at Regular."""
    if rel is Rel.REGULAR:
        return (
            "Fix anything that is currently illegal and usually leave the game as it is; if the "
            "error was caught quickly and rewinding is relatively easy, you may undo the actions "
            "back to the search (JAR)."
        )
    return (
        "First consider a simple backup. If the exact cards found are still known to all players "
        "(they were revealed) and putting them where the effect says causes only minor disruption, "
        "put them there. Otherwise the Head Judge may consider a full backup, or the game is left "
        "as it is (IPG 2.5)."
    )


def _rules_question(facts: ShuffleFacts) -> bool:
    """Facts that ask only how a shuffle instruction works: nothing was done at the table to fix."""
    table = (
        facts.procedure is not None
        or facts.searched_without_shuffle
        or facts.card_seen_while_shuffling
        or facts.pattern_seen
        or facts.found_cards_shuffled_in
        or facts.cards_could_be_known
        or not facts.presented_to_opponent
    )
    return not table and (
        facts.put_at_position or facts.objects_to_shuffle_missing or facts.has_shuffle_trigger
    )


def check_shuffle(
    facts: ShuffleFacts, *, threshold: float = shuffles.DEFAULT_THRESHOLD
) -> ShuffleRuling:
    """Rule on a shuffle. ``threshold`` (a distance from random, the service's
    JUDGEAPP_SHUFFLE_THRESHOLD) is only carried into the result: no distance makes the ruling, and
    none is a tournament yardstick."""
    problems, distance, model_notes, information = _shuffle_problems(facts, threshold)
    notes, refs = _rules_notes(facts)
    regular = facts.rel is Rel.REGULAR
    charged_to = "owner"
    # IPG 2.2, example A: "A player accidentally reveals (drops, flips over) a card while shuffling
    # their opponent's library": the shuffler's infraction, beside any of the owner's.
    seen_by_shuffler = facts.card_seen_while_shuffling and facts.shuffling_opponents_deck
    further: list[FurtherInfraction] = []
    if seen_by_shuffler and not problems:
        at_ipg = Infraction.LOOKING_AT_EXTRA_CARDS
        infraction = Infraction.REGULAR_GAME_ERROR if regular else at_ipg
        refs.append(_game_error_cite(at_ipg, regular))
        charged_to = "shuffler"
        if facts.found_cards_shuffled_in:
            further.append(_further(Infraction.GAME_RULE_VIOLATION, facts, "owner"))
    elif problems:
        at_ipg = Infraction.INSUFFICIENT_SHUFFLING
        infraction = Infraction.UNWANTED_BEHAVIOUR if regular else at_ipg
        refs += [CITE_MTR_SHUFFLING, CITE_JAR_UNWANTED if regular else CITE_INSUFFICIENT]
        if seen_by_shuffler:
            further.append(_further(Infraction.LOOKING_AT_EXTRA_CARDS, facts, "shuffler"))
    elif facts.found_cards_shuffled_in:
        at_ipg = Infraction.GAME_RULE_VIOLATION
        infraction = Infraction.REGULAR_GAME_ERROR if regular else at_ipg
        refs.append(_game_error_cite(at_ipg, regular))
    else:
        at_ipg = infraction = Infraction.NONE
    for extra in further:
        refs += extra.citations
    judge_call = _undecided(facts, problems)
    if judge_call:
        refs += [CITE_MTR_SHUFFLING, CITE_INSUFFICIENT]
    penalties = _penalties(at_ipg, facts)
    name = INFRACTION_NAMES[infraction]
    if judge_call and infraction is Infraction.NONE:
        name = "No documented example settles it: the judge's call"
        penalties = _judge_call_penalties(facts)
    upgraded = not regular and penalties.competitive.startswith("Game Loss")
    if upgraded:
        refs.append(CITE_TOURNAMENT_ERRORS)
    investigate, investigation, investigation_ref = _investigation(facts, facts.rel)
    if investigation_ref:
        refs.append(investigation_ref)
    if not facts.presented_to_opponent or facts.procedure is not None:
        refs.append(CITE_PREGAME)
    fix = _fix(facts, problems, threshold, judge_call, further)
    return ShuffleRuling(
        infraction=infraction,
        infraction_name=name,
        penalty=getattr(penalties, facts.rel.value),
        penalties=penalties,
        fix=fix,
        investigate=investigate,
        investigation=investigation,
        problems=tuple(problems),
        notes=tuple(notes),
        distance_from_random=distance,
        citations=tuple(dict.fromkeys([CITE_SHUFFLE, *refs])),
        threshold=threshold,
        model_notes=tuple(model_notes),
        information=tuple(information),
        distance_words=None if distance is None else _distance_words(distance),
        upgraded=upgraded,
        charged_to=charged_to,
        further_infractions=tuple(further),
        judge_call=judge_call,
    )


def _game_error_cite(at_ipg: Infraction, regular: bool) -> str:
    """The section a Game Play Error of these events is cited by: the IPG's (Looking at Extra
    Cards, Game Rule Violation), or at Regular REL the JAR's situation for it."""
    if at_ipg is Infraction.LOOKING_AT_EXTRA_CARDS:
        return CITE_JAR_CARD_SEEN if regular else CITE_LEC
    return CITE_JAR_GAME_ERROR if regular else CITE_GRV


def _further(at_ipg: Infraction, facts: ShuffleFacts, charged_to: str) -> FurtherInfraction:
    """Another player's infraction in the same events, with its own penalty and fix."""
    regular = facts.rel is Rel.REGULAR
    penalties = _penalties(at_ipg, facts)
    # IPG 2.2's additional remedy; at Regular the JAR's "A player sees a card in a library".
    fix = (
        "Shuffle the card seen into the unknown portion of the library."
        if at_ipg is Infraction.LOOKING_AT_EXTRA_CARDS
        else _search_fix(facts.rel)
    )
    refs = (_game_error_cite(at_ipg, regular),)
    infraction = Infraction.REGULAR_GAME_ERROR if regular else at_ipg
    return FurtherInfraction(
        infraction=infraction,
        infraction_name=INFRACTION_NAMES[infraction],
        penalty=getattr(penalties, facts.rel.value),
        penalties=penalties,
        charged_to=charged_to,
        fix=fix,
        citations=refs,
    )


def _judge_call_penalties(facts: ShuffleFacts) -> PenaltyByRel:
    """No penalty of its own: Insufficient Shuffling's (IPG 3.9; the JAR at Regular) only if the
    judge believes a player could know where cards are."""
    would = _penalties(Infraction.INSUFFICIENT_SHUFFLING, facts)
    condition = (
        "none, unless the judge believes a player could know the position or distribution of "
        "one or more cards"
    )
    return PenaltyByRel(
        f"Judge's call: {condition} (then: {would.regular})",
        f"Judge's call: {condition} (then Insufficient Shuffling: {would.competitive})",
        f"Judge's call: {condition} (then Insufficient Shuffling: {would.professional})",
    )


def _distance_words(distance: float) -> str:
    """The analysis's words for a distance, said in this ruling's own terms (the riffle model)."""
    words = shuffles.describe_distance(distance).split(" (", 1)[0]
    return (
        f"{words} (total variation distance {distance:.3f} in the riffle model; 0 is a uniformly "
        "random order)"
    )


__all__ = [
    "FLAGS",
    "INFRACTION_NAMES",
    "FurtherInfraction",
    "Infraction",
    "PenaltyByRel",
    "Rel",
    "ShuffleCheckRequest",
    "ShuffleFacts",
    "ShuffleRuling",
    "check_shuffle",
    "validate_shuffle_facts",
]
