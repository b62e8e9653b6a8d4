"""Every infraction of the current IPG, read from the imported document, for recording a call
directly (without a guide): its section, name, category, the IPG's own Penalty line (the penalty at
Competitive and Professional), its Upgrade text, and how Judging at Regular REL handles it.

Nothing here is a hard-coded list of infractions: a new IPG adds, renames or renumbers sections and
the catalogue follows (the sections of chapters 2-4 that the parser gave a Penalty). What the JAR
says at Regular is by category and behaviour, since the JAR has no per-infraction sections.
"""

from __future__ import annotations

from dataclasses import dataclass

from calllog import penalties

# The JAR's own headings, pinned (rulesref resolves a JAR heading as the reference's "number").
JAR_INTRO = "jar@2019-01-21:Introduction"
JAR_IN_GAME = "jar@2019-01-21:Common Issues"
JAR_UNWANTED = "jar@2019-01-21:General Unwanted Behaviors"
JAR_SERIOUS = "jar@2019-01-21:Serious Problems"

# Regular REL (JAR 2019-01-21), by the IPG infraction's name: what the JAR prescribes instead.
# Game Play Errors are in-game mistakes (JAR "Common Issues": fix and educate); the JAR's "General
# Unwanted Behaviors" lists inadequate shuffling, unreasonable time, strategic advice, tardiness and
# improper ways of determining a result; "Serious Problems" are aggression, knowingly breaking rules
# (cheating) and theft.
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
        "late has forfeited the match",
        JAR_UNWANTED,
    ),
    "Improperly Determining a Winner": (_UNWANTED, JAR_UNWANTED),
    "Bribery and Wagering": (_UNWANTED, JAR_UNWANTED),
    "Aggressive Behavior": (_SERIOUS, JAR_SERIOUS),
    "Theft of Tournament Material": (_SERIOUS, JAR_SERIOUS),
    "Cheating": (_SERIOUS, JAR_SERIOUS),
    penalties.USC_MAJOR: (_HARASSING, JAR_SERIOUS),
    "Stalling": (_KNOWINGLY_SLOW, JAR_SERIOUS),
    "Deck Problem": ("None: fix the deck as the JAR describes and educate the player", JAR_IN_GAME),
}
_REGULAR_DEFAULT = {
    penalties.GAME_PLAY_ERROR: (
        "None: fix the error as the JAR describes and educate the player",
        JAR_IN_GAME,
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


@dataclass(frozen=True)
class Infraction:
    number: str  # the IPG section, "3.3"
    name: str  # "Slow Play"
    title: str  # "Tournament Error - Slow Play"
    category: str  # penalties.GAME_PLAY_ERROR ...
    penalty: str  # the IPG's Penalty line: Competitive and Professional
    regular: str  # the JAR's handling at Regular REL
    regular_ref: str
    upgrade: str  # the section's own Upgrade text ("" when none)
    ref: str  # pinned reference to the section, "ipg@2021-01-06:3.3"

    def penalty_at(self, rel: str) -> str:
        return self.regular if rel == "regular" else self.penalty

    def by_rel(self) -> dict[str, str]:
        return {"regular": self.regular, "competitive": self.penalty, "professional": self.penalty}

    def count_upgrade(self) -> str:
        """The upgrade by count the IPG gives this infraction's category (chapter 2 and
        3 intros)."""
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
    out = []
    for rule in version.rules.order_by("position"):
        fields = rule.fields or {}
        if not fields.get("penalty") or rule.number.split(".")[0] not in ("2", "3", "4"):
            continue
        name = penalties.infraction_name(rule.title)
        category = penalties.category_of(name, _category_word(rule.title))
        regular, regular_ref = _REGULAR.get(name) or _REGULAR_DEFAULT.get(
            category, _REGULAR_DEFAULT[penalties.TOURNAMENT_ERROR]
        )
        out.append(
            Infraction(
                number=rule.number,
                name=name,
                title=rule.title,
                category=category,
                penalty=" ".join(str(fields["penalty"]).split()),
                regular=regular,
                regular_ref=regular_ref,
                upgrade=str(fields.get("upgrade") or ""),
                ref=f"ipg@{pinned}:{rule.number}",
            )
        )
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
