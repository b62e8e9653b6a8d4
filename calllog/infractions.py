"""Every infraction of the current IPG, read from the imported document, for recording a call
directly (without a guide): its section, name, category, the IPG's own Penalty line (the penalty at
Competitive and Professional), its Upgrade and Downgrade texts, and how Judging at Regular REL
handles it.

Nothing here is a hard-coded list of infractions: a new IPG adds, renames or renumbers sections and
the catalogue follows (the sections of chapters 2-4 that the parser gave a Penalty). What the JAR
says at Regular is by category and behaviour, since the JAR has no per-infraction sections.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from calllog import penalties
from guides import calls as guide_calls
from guides.loader import HEAD_JUDGE_NOTE, head_judge_exempt

# The JAR's own headings, pinned (rulesref resolves a JAR heading as the reference's "number").
JAR_INTRO = "jar@2019-01-21:Introduction"
JAR_UNWANTED = "jar@2019-01-21:General Unwanted Behaviors"
JAR_SERIOUS = "jar@2019-01-21:Serious Problems"
# The situations under the JAR's "Common Issues" (a heading without text of its own), pinned by the
# number the JAR parser gives them (rulesref/parsing/jar.py), as the guides cite them.
JAR_TRIGGER = "jar@2019-01-21:1.1"  # "A player forgets a triggered ability ..."
JAR_CARD_SEEN = "jar@2019-01-21:1.2"  # "A player sees a card in a library that they shouldn't ..."
JAR_EXTRA_CARDS = "jar@2019-01-21:1.3"  # "A player accidentally draws or has more cards than ..."
JAR_GAME_ERROR = "jar@2019-01-21:1.4"  # "A player makes an in-game error not mentioned above"
JAR_ILLEGAL_DECK = "jar@2019-01-21:1.5"  # "A player has illegal, insufficient, or another ..."
# registered with rulesref.citing (calllog/apps.py), so a new JAR flags them in the curation review
PINNED_REFS = (
    JAR_INTRO,
    JAR_UNWANTED,
    JAR_SERIOUS,
    JAR_TRIGGER,
    JAR_CARD_SEEN,
    JAR_EXTRA_CARDS,
    JAR_GAME_ERROR,
    JAR_ILLEGAL_DECK,
)

# Regular REL (JAR 2019-01-21), by the IPG infraction's name: what the JAR prescribes instead.
# Game Play Errors are in-game mistakes (JAR "Common Issues": fix and educate, each cited by its
# situation, _JAR_SITUATION); the JAR's "General Unwanted Behaviors" lists inadequate shuffling,
# unreasonable time, strategic advice, tardiness and improper ways of determining a result; "Serious
# Problems" are aggression, knowingly breaking rules (cheating) and theft.
_UNWANTED = (
    "None: educate the player (a General Unwanted Behavior); a Game Loss may reinforce the "
    "education if it continues"
)
_SERIOUS = "Disqualification: a Serious Problem (the player is removed from the event)"
# JAR introduction: "if a player is being threatening, aggressive or harassing other players, these
# situations are Serious Problems"; Serious Problems: "Aggressive, violent, harassing or abusive
# behavior (physical or verbal)". Unsporting Conduct - Major is harassment by its IPG definition.
_HARASSING = (
    "Disqualification: harassing behaviour is a Serious Problem (the player is removed from the "
    "event)"
)
# JAR General Unwanted Behaviors: "Knowingly committing one of these behaviors is a Serious
# Problem"; Stalling is taking unreasonable time on purpose to use the time limit (IPG 4.7).
_KNOWINGLY_SLOW = (
    "Disqualification: knowingly taking unreasonable time is a Serious Problem (the player is "
    "removed from the event)"
)
_REGULAR: dict[str, tuple[str, str]] = {
    "Slow Play": (_UNWANTED, JAR_UNWANTED),
    "Outside Assistance": (_UNWANTED, JAR_UNWANTED),
    "Insufficient Shuffling": (_UNWANTED, JAR_UNWANTED),
    "Tardiness": (
        "None: educate the player (a General Unwanted Behavior); a player more than 10 minutes "
        "late to a match has forfeited it and should be dropped from the tournament at the end of "
        "the round if still absent",
        JAR_UNWANTED,
    ),
    "Improperly Determining a Winner": (_UNWANTED, JAR_UNWANTED),
    "Bribery and Wagering": (_UNWANTED, JAR_UNWANTED),
    "Aggressive Behavior": (_SERIOUS, JAR_SERIOUS),
    "Theft of Tournament Material": (_SERIOUS, JAR_SERIOUS),
    "Cheating": (_SERIOUS, JAR_SERIOUS),
    penalties.USC_MAJOR: (_HARASSING, JAR_SERIOUS),
    "Stalling": (_KNOWINGLY_SLOW, JAR_SERIOUS),
    "Deck Problem": (
        "None: fix the deck as the JAR describes and educate the player",
        JAR_ILLEGAL_DECK,
    ),
}
# The JAR situation a Game Play Error is handled by at Regular, as the infraction finder cites it; a
# Game Play Error not listed is "an in-game error not mentioned above" (JAR 1.4).
_JAR_SITUATION = {
    "Missed Trigger": JAR_TRIGGER,
    "Looking at Extra Cards": JAR_CARD_SEEN,
    "Hidden Card Error": JAR_EXTRA_CARDS,
    # the usual Mulligan Procedure Error: extra cards in an opening hand (JAR 1.3's last sentence)
    "Mulligan Procedure Error": JAR_EXTRA_CARDS,
    "Game Rule Violation": JAR_GAME_ERROR,
    # JAR 1.1: "Unlike other illegal actions (which must be pointed out), players may choose whether
    # or not to point out their opponent's missed triggers": what Failure to Maintain Game State is
    # (and is not) at Regular.
    penalties.FTMGS: JAR_TRIGGER,
}
_REGULAR_DEFAULT = {
    penalties.GAME_PLAY_ERROR: (
        "None: fix the error as the JAR describes and educate the player",
        JAR_GAME_ERROR,
    ),
    penalties.TOURNAMENT_ERROR: (
        "None: the IPG does not apply at Regular REL; educate the player (a Game Loss only after "
        "repeated reminders)",
        JAR_INTRO,
    ),
    penalties.UNSPORTING_CONDUCT: (
        "None: educate the player and ask them to stop; a Game Loss may reinforce it if they do "
        "not (a Serious Problem if threatening or harassing)",
        JAR_INTRO,
    ),
}


# JAR introduction: "The fixes found in the Infraction Procedure Guide, are designed for a stricter
# environment and don't apply at Regular REL" and "If a player continues to repeat a mistake despite
# multiple reminders, you may warn them that the next occurrence will result in a Game Loss."
_REGULAR_NO_IPG = "Regular REL: the IPG's upgrades and downgrades do not apply (JAR)."
# JAR introduction: "The fixes found in the Infraction Procedure Guide, are designed for a stricter
# environment and don't apply at Regular REL. If a player accidentally breaks a rule, use the
# remedies described below and your common sense ..."; "Player education is a priority".
_REGULAR_NO_FIX = (
    "The IPG's fixes do not apply at Regular REL: use common sense to make the best ruling you "
    "can, and educate the player (Judging at Regular REL, introduction)."
)
# The fix at Regular where it is not the text the penalty cites: Failure to Maintain Game State is
# cited by JAR 1.1's "(which must be pointed out)", and fixed as the underlying in-game error.
_JAR_FIX = {penalties.FTMGS: JAR_GAME_ERROR}
# Which of the JAR's General Unwanted Behaviors each infraction is (words of its line).
_JAR_BULLET = {
    "Insufficient Shuffling": "shuffling",
    "Slow Play": "unreasonable amounts of time",
    "Outside Assistance": "strategic advice",
    "Tardiness": "Tardiness",
    "Improperly Determining a Winner": "match outcomes",
    "Bribery and Wagering": "match outcomes",
}
# IPG 1.4: "Only the Head Judge may authorize a backup."
_BACKUP = re.compile(r"\bback(?:ing)?\s?-?up\b", re.IGNORECASE)
_BACKUP_IS_HEAD_JUDGES = "Only the Head Judge may authorize a backup (IPG 1.4)."
_REGULAR_REPEAT = (
    " A player who keeps repeating a mistake despite multiple reminders may be warned that the "
    "next occurrence will be a Game Loss."
)
# A Penalty line that qualifies its penalty ("Warning with potential upgrade", IPG 3.5): the penalty
# to give is the one named; the upgrades are the section's Upgrade paragraphs.
_QUALIFIED = re.compile(
    "(?P<penalty>"
    + "|".join(penalties.PENALTY_NAMES)
    + ")"
    + guide_calls.POTENTIAL_UPGRADE.pattern,  # the qualifier as the search hit reads it
    re.IGNORECASE,
)
_NAMED = re.compile(
    r"\b(?:" + "|".join(re.escape(n) for n in penalties.PENALTY_NAMES) + r")\b", re.IGNORECASE
)


def penalty_to_give(line: str) -> str:
    """The penalty a Penalty line gives, as the call log writes it: "Warning" for "Warning with
    potential upgrade" (the section's Upgrade says when it is more); any other line as
    penalties.penalty_label writes it."""
    cleaned = " ".join(str(line).split())
    match = _QUALIFIED.fullmatch(cleaned)
    return penalties.penalty_label(match["penalty"] if match else cleaned)


def named_penalty(text: str) -> str:
    """The one penalty a Downgrade text names ("... receives a warning" -> "Warning"); "" when it
    names none or more than one (then the judge reads the text and no choice is offered)."""
    found = {penalties.penalty_label(m.group(0)) for m in _NAMED.finditer(text or "")}
    return found.pop() if len(found) == 1 else ""


@dataclass(frozen=True)
class Infraction:
    number: str  # the IPG section, "3.3"
    name: str  # "Slow Play"
    title: str  # "Tournament Error - Slow Play"
    category: str  # penalties.GAME_PLAY_ERROR ...
    penalty: str  # the penalty the Penalty line gives at Competitive and Professional ("Warning")
    regular: str  # the JAR's handling at Regular REL
    regular_ref: str
    upgrade: str  # the section's own Upgrade text ("" when none)
    ref: str  # pinned reference to the section, "ipg@2021-01-06:3.3"
    downgrade: str = ""  # the section's own Downgrade text ("" when none)
    penalty_line: str = ""  # the IPG's Penalty line as printed ("Warning with potential upgrade")
    remedy: str = ""  # the section's Additional Remedy, its paragraphs one per line ("" when none)

    def penalty_at(self, rel: str, *, downgraded: bool = False, upgraded: bool = False) -> str:
        """The penalty at `rel`; with `downgraded` (or `upgraded`), the one the section's Downgrade
        (or Upgrade) gives (Competitive and Professional only: check can_downgrade, can_upgrade
        first)."""
        if rel == "regular":
            return self.regular
        if upgraded:
            return self.upgrade_penalty()
        return self.downgrade_penalty() if downgraded else self.penalty

    def by_rel(self) -> dict[str, str]:
        return {"regular": self.regular, "competitive": self.penalty, "professional": self.penalty}

    def downgrade_penalty(self) -> str:
        """The penalty the section's Downgrade gives ("" when it has none or names no one
        penalty)."""
        return named_penalty(self.downgrade)

    def upgrade_penalty(self) -> str:
        """The penalty the section's Upgrade gives (Tardiness: "... 10 minutes into the round will
        receive a Match Loss"); "" when it has none or names no one penalty."""
        return named_penalty(self.upgrade)

    def can_upgrade(self, rel: str) -> bool:
        """Whether a judge can record the Upgrade's penalty: the section names one other than its
        own, and the IPG applies (not at Regular REL: JAR introduction)."""
        named = self.upgrade_penalty()
        return rel != "regular" and bool(named) and not penalties.same_penalty(named, self.penalty)

    def can_downgrade(self, rel: str) -> bool:
        """Whether a judge can record the Downgrade's penalty: the section names one, and the IPG
        applies (not at Regular REL: JAR introduction)."""
        return rel != "regular" and bool(self.downgrade_penalty())

    def fix_at(self, rel: str) -> str:
        """The fix a judge explains with the penalty (IPG 1.2: "the judge must explain the
        infraction, the procedure for fixing the situation, and the penalty"): at Competitive and
        Professional the section's Additional Remedy, or that it has none; at Regular REL, where
        the IPG's fixes do not apply, what Judging at Regular REL says to do (the text of the JAR
        part the penalty cites, or, for an infraction the JAR does not name, its introduction's
        word: educate the player)."""
        if rel != "regular":
            if not self.remedy:
                return f"No additional remedy (IPG {self.number})."
            fix = f"{self.remedy} (IPG {self.number}, Additional Remedy)"
            if _BACKUP.search(self.remedy):
                fix += f" {_BACKUP_IS_HEAD_JUDGES}"
            return fix
        ref = _JAR_FIX.get(self.name, self.regular_ref)
        if ref == JAR_INTRO:
            return _REGULAR_NO_FIX
        text = _jar_text(ref)
        if ref == JAR_UNWANTED and self.name in _JAR_BULLET:
            text = _unwanted(text, _JAR_BULLET[self.name])
        text = " ".join(text.split())
        if not text:
            return _REGULAR_NO_FIX
        if self.name == penalties.FTMGS:
            # IPG 2.6 has no remedy; at Regular the underlying error is fixed as JAR 1.4 says
            return (
                "No fix of its own: fix the underlying error as for any in-game error: "
                f"{text} (Judging at Regular REL)"
            )
        return f"{text} (Judging at Regular REL)"

    def regular_note(self) -> str:
        """What Regular REL says in place of the IPG's upgrades (JAR introduction)."""
        if self.category in (penalties.GAME_PLAY_ERROR, penalties.TOURNAMENT_ERROR):
            return _REGULAR_NO_IPG + _REGULAR_REPEAT
        return _REGULAR_NO_IPG

    def gives_warning(self) -> bool:
        """Whether this infraction can give a Warning (its penalty, its Upgrade's or its
        Downgrade's): IPG 2 and 3 upgrade repeated Warnings, so a section that never gives one
        (Outside Assistance, Decklist Problem) has no upgrade by count."""
        return (
            penalties.is_warning(self.penalty)
            or "warning" in self.upgrade.lower()
            or "warning" in self.downgrade.lower()
        )

    def count_upgrade(self) -> str:
        """The upgrade by count the IPG gives this infraction's category (chapter 2 and
        3 intros; "" for a Game Play Error or Tournament Error that never gives a Warning)."""
        if (
            self.category in (penalties.GAME_PLAY_ERROR, penalties.TOURNAMENT_ERROR)
            and not self.gives_warning()
        ):
            return ""
        if self.category == penalties.GAME_PLAY_ERROR:
            if self.name == penalties.FTMGS:
                return "Never upgraded (IPG 2)."
            return "The third or subsequent Warning for it on the same day is a Game Loss (IPG 2)."
        if self.category == penalties.TOURNAMENT_ERROR:
            return "A second Warning for it on the same day is a Game Loss (IPG 3)."
        if self.name == penalties.USC_MINOR:
            return (
                "Any later Unsporting Conduct - Minor at the event, even for a different offense, "
                f"is a Game Loss (IPG {self.number}, Additional Remedy)."
            )
        if self.name == penalties.USC_MAJOR:
            return (
                "The offense repeated at a later time is a Disqualification and removal from the "
                f"venue (IPG {self.number}, Upgrade)."
            )
        return ""

    def as_dict(self) -> dict:
        return {
            "number": self.number,
            "name": self.name,
            "title": self.title,
            "category": self.category,
            "penalty": self.by_rel(),
            "regular_ref": self.regular_ref,
            "upgrade": self.upgrade,
            "count_upgrade": self.count_upgrade(),
            "ref": self.ref,
            "penalty_line": self.penalty_line or self.penalty,
            "downgrade": self.downgrade,
            "downgrade_penalty": self.downgrade_penalty(),
            "upgrade_penalty": self.upgrade_penalty() if self.can_upgrade("competitive") else "",
            "regular_note": self.regular_note(),
            "fix": {rel: self.fix_at(rel) for rel in ("regular", "competitive", "professional")},
            # said with the penalty while it is a Game Loss or more (IPG 1.2; Call.head_judge_note)
            "head_judge_note": "" if head_judge_exempt(self.name) else HEAD_JUDGE_NOTE,
        }


def current_ipg():
    from rulesref.models import Version

    return Version.objects.filter(document__slug="ipg", is_current=True).first()


def catalogue() -> list[Infraction]:
    """Every infraction of the current IPG, in document order ([] when no IPG is imported)."""
    version = current_ipg()
    if version is None:
        return []
    pinned = version.effective_date.isoformat() if version.effective_date else ""
    found = (of_rule(rule, pinned) for rule in version.rules.order_by("position"))
    return [infraction for infraction in found if infraction is not None]


def of_rule(rule, pinned: str) -> Infraction | None:
    """The infraction an IPG section of chapters 2 to 4 with a Penalty describes (None for any
    other section); `pinned`, the version's date, pins its reference."""
    fields = rule.fields or {}
    if not fields.get("penalty") or rule.number.split(".")[0] not in ("2", "3", "4"):
        return None
    name = penalties.infraction_name(rule.title)
    category = penalties.category_of(name, _category_word(rule.title))
    regular, regular_ref = _REGULAR.get(name) or _REGULAR_DEFAULT.get(
        category, _REGULAR_DEFAULT[penalties.TOURNAMENT_ERROR]
    )
    if category == penalties.GAME_PLAY_ERROR:
        regular_ref = _JAR_SITUATION.get(name, regular_ref)
    line = " ".join(str(fields["penalty"]).split())
    return Infraction(
        number=rule.number,
        name=name,
        title=rule.title,
        category=category,
        penalty=penalty_to_give(line),
        regular=regular,
        regular_ref=regular_ref,
        upgrade=str(fields.get("upgrade") or ""),
        ref=f"ipg@{pinned}:{rule.number}",
        downgrade=" ".join(str(fields.get("downgrade") or "").split()),
        penalty_line=line,
        remedy="\n".join(
            " ".join(part.split())
            for part in str(fields.get("additional_remedy") or "").split("\n\n")
            if part.strip()
        ),
    )


def _jar_text(ref: str) -> str:
    """The current text of a pinned JAR part, as written ("" when no JAR is imported or the part
    is gone)."""
    from rulesref import references

    try:
        resolved = references.resolve(ref)
    except references.ReferenceError:
        return ""
    return resolved.text if resolved.found else ""


def _unwanted(text: str, words: str) -> str:
    """Of the JAR's "General Unwanted Behaviors", the listed behaviour holding `words` and what the
    JAR says of them all (the paragraphs after the list); the whole text when none holds them."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    listed = [line for line in lines if line.startswith(("-", "•"))]
    said = [line for line in lines if not line.startswith(("-", "•"))]
    mine = [line for line in listed if words.casefold() in line.casefold()]
    if not mine:
        return text
    return " ".join([mine[0].lstrip("-• ").strip(), *said])


def repeat_calls(version_id: int, content_hash: str) -> dict[str, dict]:
    """{IPG section: {"repeat": its upgrade by a repeat}} of an IPG version, for the call a search
    hit shows (search.calls; `content_hash` names the version's content there)."""
    from rulesref.models import Rule

    out = {}
    for rule in Rule.objects.filter(version_id=version_id).order_by("position"):
        infraction = of_rule(rule, "")
        # IPG 2 and 3 count Warnings: said only of an infraction that can give one
        # (count_upgrade); Unsporting Conduct's repeats always
        if infraction is not None and (repeat := infraction.count_upgrade()):
            out[rule.number] = {"repeat": repeat}
    return out


def _category_word(title: str) -> str:
    head = title.split(" - ", 1)[0] if " - " in title else ""
    return head.replace("Unsporting conduct", "Unsporting Conduct")


def find(text: str) -> Infraction | None:
    """An infraction by section number ("3.3"), IPG name or abbreviation ("Slow Play", "SP")."""
    wanted = " ".join(str(text).split())
    name = penalties.infraction_name(wanted)
    for infraction in catalogue():
        if (
            wanted in (infraction.number, infraction.title)
            or infraction.name.casefold() == name.casefold()
        ):
            return infraction
    return None
