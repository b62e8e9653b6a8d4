"""Penalty upgrades by count: whether a player's new Warning becomes a Game Loss at an event.

Pure (standard library and the IPG parser's alias table): the call-log service hands in the
player's earlier penalties at the event and the new one, and stores what this module answers.

The rules encoded (IPG 2021-01-06):
- chapter 2 (Game Play Errors) intro: "With the exception of Failure to Maintain Game State, which
  is never upgraded, the third or subsequent warning for a Game Play Error offense in the same
  category should be upgraded to a Game Loss."
- chapter 3 (Tournament Errors) intro: "A Warning for a Tournament Error offense is upgraded to a
  Game Loss if the player has already received a Warning for an offense in the same category."
- both: "For multi-day tournaments, the penalty count for these infractions resets between days."
- chapter 4 (Unsporting Conduct) has no count for the chapter, but two of its sections upgrade a
  repeat themselves: 4.1 (Minor), Additional Remedy: "Subsequent Unsporting Conduct - Minor
  infractions, even for different offenses, will result in a Game Loss"; 4.2 (Major), Upgrade: "If
  ... the offense is repeated at a later time, the penalty is Disqualification". Neither says the
  count resets between days (only the chapter 2 and 3 intros do), so these count the whole event.
- Regular REL uses the JAR, not the IPG: no upgrade by count; a judge *may* warn a player who keeps
  repeating a mistake that the next occurrence will be a Game Loss (JAR introduction).

"Category" in those sentences is the infraction (Game Rule Violation, Slow Play ...): two Warnings
for different infractions do not count together. What counts is the Warnings the player *received*
for it that day (an offense's `given` penalty): a Warning that was itself upgraded to a Game Loss is
a Game Loss received, not a Warning. Once the count reaches the threshold every later offense is
upgraded, so the fourth Game Rule Violation (after Warning, Warning, Game Loss) still finds two
Warnings and is the "subsequent warning": a Game Loss too. A Warning announced at the table when the
tablet could not check the history (the call is then flagged for the head judge) is a Warning the
player received.

One format for a penalty (penalty_label): the IPG's penalty alone ("Warning"), never with the
infraction in brackets as some guides write it ("Warning (Tournament Error - Insufficient
Shuffling)"): the call keeps the infraction in its own field.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace

from rulesref.parsing.ipg import INFRACTION_ALIASES

GAME_PLAY_ERROR = "game_play_error"
TOURNAMENT_ERROR = "tournament_error"
UNSPORTING_CONDUCT = "unsporting_conduct"

WARNING = "Warning"
GAME_LOSS = "Game Loss"
MATCH_LOSS = "Match Loss"
DISQUALIFICATION = "Disqualification"

# Pinned references: the chapter intros carry the upgrade sentences; the JAR introduction,
# Regular REL.
GPE_UPGRADE_REF = "ipg@2021-01-06:2"
TE_UPGRADE_REF = "ipg@2021-01-06:3"
REGULAR_REF = "jar@2019-01-21:Introduction"
# The Unsporting Conduct sections that upgrade a repeat themselves (Minor, Major).
USC_MINOR_REF = "ipg@2021-01-06:4.1"
USC_MAJOR_REF = "ipg@2021-01-06:4.2"
GAME_LOSS_REF = "ipg@2021-01-06:1.1"  # the penalty's definition: several Game Losses at once
RELATED_REF = "ipg@2021-01-06:1.2"  # one error, several related infractions: issue only one
# IPG 1.1, said where the count turns a Warning into a Game Loss: the infraction's own fix was
# written for the Warning, and the Game Loss's consequences are the penalty's.
_GAME_LOSS_MEANS = (
    " A Game Loss ends the current game immediately, or applies to the player's next game if it is "
    "not ongoing; the player receiving it chooses whether to play or draw in the next game of that "
    "match, and if it is issued before the match begins, neither player may use sideboards for the "
    "first game they play (IPG 1.1)."
)
# registered with rulesref.citing (calllog/apps.py)
PINNED_REFS = (
    GPE_UPGRADE_REF,
    TE_UPGRADE_REF,
    REGULAR_REF,
    USC_MINOR_REF,
    USC_MAJOR_REF,
    GAME_LOSS_REF,
    RELATED_REF,
)

# The infractions of IPG chapters 2 and 3 (2021-01-06), by category; chapter 4 has no count upgrade.
_CATEGORY_OF = {
    **{
        name: GAME_PLAY_ERROR
        for name in (
            "Missed Trigger",
            "Looking at Extra Cards",
            "Hidden Card Error",
            "Mulligan Procedure Error",
            "Game Rule Violation",
            "Failure to Maintain Game State",
        )
    },
    **{
        name: TOURNAMENT_ERROR
        for name in (
            "Tardiness",
            "Outside Assistance",
            "Slow Play",
            "Decklist Problem",
            "Deck Problem",
            "Deck/Decklist Problem",
            "Limited Procedure Violation",
            "Communication Policy Violation",
            "Marked Cards",
            "Insufficient Shuffling",
        )
    },
}
FTMGS = "Failure to Maintain Game State"
# The IPG names these "Unsporting Conduct - Minor" and "- Major": infraction_name keeps the part
# after the category, as for every infraction.
USC_MINOR = "Minor"
USC_MAJOR = "Major"
_CATEGORY_WORDS = {
    "gpe": GAME_PLAY_ERROR,
    "game play error": GAME_PLAY_ERROR,
    "game_play_error": GAME_PLAY_ERROR,
    "te": TOURNAMENT_ERROR,
    "tournament error": TOURNAMENT_ERROR,
    "tournament_error": TOURNAMENT_ERROR,
    "usc": UNSPORTING_CONDUCT,
    "unsporting conduct": UNSPORTING_CONDUCT,
    "unsporting_conduct": UNSPORTING_CONDUCT,
}


def _key(text: str) -> str:
    return " ".join(text.replace("_", " ").split()).casefold()


def _alias_table() -> dict[str, str]:
    table: dict[str, str] = {}
    for name, aliases in INFRACTION_ALIASES.items():
        for alias in aliases:
            # "D/DLP" is listed twice: the first (Decklist Problem) wins
            table.setdefault(_key(alias), name)
        table[_key(name)] = name
    return table


_ALIASES = _alias_table()


def infraction_name(text: str) -> str:
    """The IPG's name for an infraction given by name or abbreviation ("GRV", "GPE-FtMGS", "Slow
    Play"); the text itself (tidied) when it is not an IPG infraction."""
    cleaned = " ".join(text.split())
    if " - " in cleaned:  # "Game Play Error - Game Rule Violation", as the IPG titles sections
        cleaned = cleaned.split(" - ", 1)[1]
    return _ALIASES.get(_key(cleaned), cleaned)


def category_of(infraction: str, given: str = "") -> str:
    """game_play_error, tournament_error, unsporting_conduct, or "" when unknown. The IPG's own
    category wins over the one a guide states, so a mislabelled guide cannot change the count."""
    known = _CATEGORY_OF.get(infraction_name(infraction))
    if known:
        return known
    return _CATEGORY_WORDS.get(_key(given), "")


PENALTY_NAMES = ("Warning", "Game Loss", "Match Loss", "Disqualification")
# A penalty written with a note after it ("Game Loss (applied to the next game, IPG 4.1)")
_PENALTY_START = re.compile(
    r"\s*(?:warning|game loss|match loss|disqualification)\b", re.IGNORECASE
)


def is_penalty(text: str) -> bool:
    """Whether a call records a penalty: one of the four, also with a note after it; not "No
    penalty", a JAR handling ("None: educate ...") or an empty text (a call taken back)."""
    return bool(_PENALTY_START.match(text or ""))


_CATEGORY_TITLES = ("game play error", "tournament error", "unsporting conduct")
# "Warning (Tournament Error - Insufficient Shuffling)", "Warning (Game Play Error - Looking at
# Extra Cards), to the shuffler": a penalty, the infraction's IPG title in brackets (maybe more
# after a comma inside them), and at most who receives it.
_WITH_TITLE = re.compile(
    r"(?P<penalty>[^()]+?)\s*\((?P<inside>[^()]*)\)\s*(?:,\s*to the [\w' ]+)?\.?"
)


def penalty_label(text: str) -> str:
    """The one way the call log writes a penalty: "Warning", "Game Loss", "Match Loss",
    "Disqualification" alone when the text is one of them (any case, with the infraction's IPG title
    in brackets and who receives it after it); any other text (a JAR handling, "No penalty: ...",
    a condition) tidied of extra spaces and otherwise kept."""
    cleaned = " ".join(str(text).split())
    match = _WITH_TITLE.fullmatch(cleaned)
    head = cleaned
    if match:
        title = match["inside"].split(",", 1)[0]
        category = title.split(" - ", 1)[0] if " - " in title else ""
        if _key(category) not in _CATEGORY_TITLES:  # as static/judgeapp/penalty.js label() reads it
            return cleaned
        head = match["penalty"]
    for name in PENALTY_NAMES:
        if _key(head.rstrip(".")) == _key(name):
            return name
    return cleaned


def same_penalty(one: str, other: str) -> bool:
    """Whether two penalty texts are the same penalty once written the one way."""
    return _key(penalty_label(one)) == _key(penalty_label(other))


def is_warning(penalty: str) -> bool:
    """ "Warning", also when the guide adds the infraction: "Warning (Game Play Error - Game
    Rule Violation)"."""
    words = _key(penalty).replace("(", " ").split()
    return bool(words) and words[0] == "warning"


@dataclass(frozen=True)
class Offense:
    """One penalty given to one player: the infraction as the guide named it, its category, the
    penalty before any upgrade (the guide's penalty at the event's REL), the REL, the tournament
    day (1 for a one-day event; counts reset between days), and the penalty the player received
    (`given`: "" when it is `penalty`, as for the new offense being judged)."""

    infraction: str
    category: str
    penalty: str
    rel: str = "competitive"
    day: int = 1
    given: str = ""
    round: int | None = None  # the round it was given in, when the call says

    def received(self) -> str:
        return self.given or self.penalty


@dataclass(frozen=True)
class UpgradeResult:
    penalty: str  # the penalty to give
    upgraded: bool
    reason: str  # for the judge and the players; "" when there is nothing to say
    refs: tuple[str, ...] = ()  # pinned references behind the reason
    prior_warnings: int = 0  # earlier Warnings for the same infraction that count (same day)

    def with_note(self, note: str, ref: str) -> UpgradeResult:
        """The same result with `note` said after its reason and `ref` cited behind it."""
        return replace(self, reason=f"{self.reason} {note}".strip(), refs=(*self.refs, ref))


def precedes(old: Offense, new: Offense) -> bool:
    """Whether `old` was given before `new`: an earlier day, or the same day and an earlier or the
    same round (a call without a round is taken as given before, and a new one without a round as
    the latest)."""
    if old.day != new.day:
        return old.day < new.day
    return old.round is None or new.round is None or old.round <= new.round


def apply_upgrades(history: Iterable[Offense], new: Offense) -> UpgradeResult:
    """The penalty for `new`, given the same player's offenses at the event (`history`, any order;
    only those before `new` count: an earlier day, or an earlier or the same round of its day, so a
    call recorded late, synced from a tablet that was offline, is not upgraded by the calls of
    later rounds; entries for other infractions are ignored, and so are entries on other days
    except for Unsporting Conduct - Minor and - Major, whose sections do not reset the count). A
    Game Loss in a round where the player already received one says that the player receives only
    one for those given at the same time (IPG 1.1); the judge knows whether they were."""
    history = [old for old in history if precedes(old, new)]
    result = _related(history, new, _upgraded(history, new))
    if result.penalty != GAME_LOSS or new.round is None:
        return result
    if not any(
        old.round == new.round and old.day == new.day and same_penalty(old.received(), GAME_LOSS)
        for old in history
    ):
        return result
    note = (
        f"This player already received a Game Loss in round {new.round}: if the two are given at "
        "the same time (both before the match begins, say), the player receives only one (a "
        "player who would receive multiple Game Losses at the same time only receives one)."
    )
    return result.with_note(note, GAME_LOSS_REF)


def _related(history: list[Offense], new: Offense, result: UpgradeResult) -> UpgradeResult:
    """`result` with IPG 1.2's word when the player already has a call in the same round of the
    same day (Competitive and Professional): "If an error leads to multiple related infractions,
    only issue one with the most severe penalty." The judge knows whether they came from one
    error; the count cannot."""
    if new.round is None or new.rel == "regular":
        return result
    if not any(old.round == new.round and old.day == new.day for old in history):
        return result
    note = (
        f"This player already has a call in round {new.round}: if both come from one error, "
        "issue a single infraction: the one with the most severe penalty (IPG 1.2)."
    )
    return result.with_note(note, RELATED_REF)


_RELATED_NOTE = re.compile(
    r"\s*This player already has a call in round \d+: if both come from one error, issue a "
    r"single infraction: the one with the most severe penalty \(IPG 1\.2\)\."
)


def with_related_note_of(stored: str, counted: str) -> str:
    """A stored reason with IPG 1.2's same-round note as the count now says it (added, changed or
    dropped; _related), the rest of it as stored."""
    found = _RELATED_NOTE.search(counted)
    rest = _RELATED_NOTE.sub("", stored).strip()
    return f"{rest} {found.group(0).strip()}".strip() if found else rest


def _upgraded(history: list[Offense], new: Offense) -> UpgradeResult:
    """apply_upgrades' count: the upgrade by the player's earlier offenses alone."""
    name = infraction_name(new.infraction)
    category = category_of(new.infraction, new.category)
    base = penalty_label(new.penalty)
    repeat = _unsporting_repeat(name, base)
    if repeat is None and (
        not is_warning(base) or category not in (GAME_PLAY_ERROR, TOURNAMENT_ERROR)
    ):
        return UpgradeResult(base, False, "")
    if _key(new.rel) == "regular":
        # JAR introduction: the IPG's fixes and upgrades do not apply at Regular REL.
        return UpgradeResult(
            base,
            False,
            "Regular REL: no upgrade by count (the JAR applies, not the IPG). "
            "A player who keeps repeating a mistake may be told the next one is a Game Loss.",
            (REGULAR_REF,),
        )
    if repeat is not None:
        return _unsporting_upgrade(history, name, base, *repeat)
    # The Warnings this player received for the same infraction that day: those the upgrade counts.
    prior = sum(
        1
        for old in history
        if old.day == new.day
        and is_warning(old.received())
        and infraction_name(old.infraction) == name
    )
    if category == GAME_PLAY_ERROR:
        if name == FTMGS:
            # IPG 2 intro: Failure to Maintain Game State is never upgraded.
            return UpgradeResult(
                base, False, f"{FTMGS} is never upgraded.", (GPE_UPGRADE_REF,), prior
            )
        if prior >= 2:
            # IPG 2 intro: the third or subsequent Warning in the same category is a Game Loss.
            return UpgradeResult(
                GAME_LOSS,
                True,
                f"Upgraded to Game Loss: this player already received {_warnings(prior)} for {name}"
                f"{_day(new.day)} (the third or subsequent Game Play Error Warning in the same "
                f"category is a Game Loss).{_GAME_LOSS_MEANS}",
                (GPE_UPGRADE_REF, GAME_LOSS_REF),
                prior,
            )
        return UpgradeResult(
            base,
            False,
            _count_note(name, prior, 2, new.day),
            (GPE_UPGRADE_REF,) if prior else (),
            prior,
        )
    if prior >= 1:
        # IPG 3 intro: a Tournament Error Warning after a Warning in the same category is a
        # Game Loss.
        return UpgradeResult(
            GAME_LOSS,
            True,
            f"Upgraded to Game Loss: this player already received {_warnings(prior)} for {name}"
            f"{_day(new.day)} (a second Tournament Error Warning in the same category is a Game "
            f"Loss).{_GAME_LOSS_MEANS}",
            (TE_UPGRADE_REF, GAME_LOSS_REF),
            prior,
        )
    return UpgradeResult(base, False, "", (), prior)


# IPG 4.1 and 4.2: what a repeat of Unsporting Conduct - Minor (a Warning) and - Major (a Match
# Loss) becomes, the section's words for it, and its pinned reference.
_USC_REPEATS = {
    (USC_MINOR, WARNING): (
        GAME_LOSS,
        "subsequent Unsporting Conduct - Minor infractions, even for different offenses, result in "
        "a Game Loss",
        USC_MINOR_REF,
    ),
    (USC_MAJOR, MATCH_LOSS): (
        DISQUALIFICATION,
        "an Unsporting Conduct - Major offense repeated at a later time is a Disqualification and "
        "removal from the venue",
        USC_MAJOR_REF,
    ),
}


def _unsporting_repeat(name: str, base: str) -> tuple[str, str, str] | None:
    """(the penalty a repeat brings, why, reference) for an Unsporting Conduct infraction whose
    section upgrades a repeat (IPG 4.1, 4.2); None for any other infraction or penalty."""
    return _USC_REPEATS.get((name, penalty_label(base)))


def _unsporting_upgrade(
    history: Iterable[Offense], name: str, base: str, upgraded: str, why: str, ref: str
) -> UpgradeResult:
    """IPG 4.1 / 4.2: any earlier penalty for the same Unsporting Conduct infraction at the event,
    whatever it was and on whatever day (neither section resets the count), upgrades this one. A
    call whose penalty the head judge took back (edited to "No penalty", or any text that is no
    penalty) is no earlier infraction: IPG 4.1 upgrades "subsequent ... infractions" and 4.2 "the
    offense ... repeated"."""
    prior = sum(
        1
        for old in history
        if infraction_name(old.infraction) == name and is_penalty(old.received())
    )
    if not prior:
        return UpgradeResult(base, False, "", (), 0)
    earlier = "an earlier penalty" if prior == 1 else f"{prior} earlier penalties"
    game_loss = upgraded == GAME_LOSS
    return UpgradeResult(
        upgraded,
        True,
        f"Upgraded to {upgraded}: this player already received {earlier} for Unsporting Conduct - "
        f"{name} at this event ({why}).{_GAME_LOSS_MEANS if game_loss else ''}",
        (ref, GAME_LOSS_REF) if game_loss else (ref,),
        prior,
    )


def _warnings(count: int) -> str:
    return "a Warning" if count == 1 else f"{count} Warnings"


def _day(day: int) -> str:
    return f" on day {day}" if day > 1 else " at this event"


def _count_note(name: str, prior: int, limit: int, day: int) -> str:
    if prior == 0:
        return ""
    return (
        f"Warning number {prior + 1} for {name}{_day(day)}; the next one is a Game Loss."
        if prior + 1 == limit
        else ""
    )


def upgrade_why(reason: str) -> str:
    """An upgrade's reason without its "Upgraded to Game Loss: " opening, for a sentence that
    already names the penalty (so "upgraded" is said once)."""
    return re.sub(r"^Upgraded to [^:]+:\s*", "", reason or "")
