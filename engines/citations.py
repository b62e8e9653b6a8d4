"""Pinned rule references that the loop and game engines cite.

Each constant names a rule in the version it was written against ("cr@2025-02-07:729.4": rule
729.4 of the Comprehensive Rules effective February 7, 2025; "mtr@2019-06-06:4.4": section 4.4 of
the Tournament Rules last updated June 6, 2019). The rules reference resolves them to the numbering
of whatever version is current, so nothing here changes when the rules are renumbered.
"""

from __future__ import annotations

from types import ModuleType

CR = "cr@2025-02-07:"
MTR = "mtr@2019-06-06:"

# CR 101.1: a card that contradicts the rules wins ('can't lose', 'can't win'), except that anyone
# may concede.
CARD_OVERRIDES_RULES = CR + "101.1"

# CR 104: ending the game.
GAME_ENDS = CR + "104.1"
WIN_OPPONENTS_LEFT = CR + "104.2a"
WIN_EFFECT = CR + "104.2b"
WIN_TEAM = CR + "104.2c"
LOSE_CONCEDE = CR + "104.3a"
LOSE_LIFE = CR + "104.3b"
LOSE_EMPTY_LIBRARY = CR + "104.3c"
LOSE_POISON = CR + "104.3d"
LOSE_EFFECT = CR + "104.3e"
WIN_AND_LOSE = CR + "104.3f"
LOSE_TEAM = CR + "104.3g"
LOSE_COMMANDER = CR + "104.3j"
DRAW_ALL_LOSE = CR + "104.4a"
DRAW_MANDATORY_LOOP = CR + "104.4b"
DRAW_EFFECT = CR + "104.4c"
DRAW_ALL_TEAMS_LOSE = CR + "104.4d"
LEAVES_GAME = CR + "104.5"

# CR 704: state-based actions, checked whenever a player would receive priority.
SBA_CHECK = CR + "704.3"
SBA_LIFE = CR + "704.5a"
SBA_EMPTY_LIBRARY = CR + "704.5b"
SBA_POISON = CR + "704.5c"
SBA_TEAM_LIFE = CR + "704.6a"
SBA_TEAM_POISON = CR + "704.6b"
SBA_COMMANDER = CR + "704.6c"

# Multiplayer, Two-Headed Giant and Commander.
MULTIPLAYER_CONTINUES = CR + "800.4"
LEAVES_WITH_OBJECTS = CR + "800.4a"
THG_TEAMS = CR + "810.1"
THG_SHARED_LIFE = CR + "810.4"
THG_TEAM_WINS_LOSES = CR + "810.8a"
THG_CONCEDE = CR + "810.8b"
THG_TEAM_LIFE = CR + "810.8c"
THG_TEAM_POISON = CR + "810.8d"
THG_POISON_SHARED = CR + "810.10"
THG_BIGGER_TEAMS = CR + "810.11"
COMMANDER_DAMAGE = CR + "903.10a"

# CR 729: taking shortcuts and loops.
LOOP_SHORTCUTS = CR + "729.1b"
TOURNAMENT_RULES_PREVAIL = CR + "729.1c"
SHORTCUT_PROPOSAL = CR + "729.2a"
SHORTCUT_SHORTEN = CR + "729.2b"
SHORTCUT_TAKEN = CR + "729.2c"
LOOP_FRAGMENTED = CR + "729.3"
LOOP_MANDATORY = CR + "729.4"
LOOP_NOT_FORCED = CR + "729.5"
LOOP_UNLESS = CR + "729.6"

# MTR 4.4: loops in tournaments (who names numbers, lowest wins, across turns, no restarts).
MTR_LOOPS = MTR + "4.4"
MTR_SHORTCUTS = MTR + "4.2"

ALL = tuple(
    value for name, value in sorted(globals().items()) if name.isupper() and ":" in str(value)
)


def pinned_in(*modules: ModuleType) -> tuple[str, ...]:
    """The pinned references that modules name as upper-case constants (like LOOP_MANDATORY above;
    not the version prefixes CR and MTR), sorted:
    the data an app registers with the rules reference for the engines (jobs.apps)."""
    return tuple(
        sorted(
            {
                value
                for module in modules
                for name, value in vars(module).items()
                if name.isupper()
                and isinstance(value, str)
                and "@" in value
                and not value.endswith(":")
            }
        )
    )
