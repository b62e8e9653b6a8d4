"""Card names as judges type them (cards/names.py)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from cards.names import match_name, name_key

NAMES = [
    "Thassa's Oracle",
    "Lim-Dûl's Vault",
    "Fire // Ice",
    "Lightning Bolt",
    "Lightning Helix",
    "Blood Moon",
    "Opt",
]
KEYS = [name_key(n) for n in NAMES]


class NameTests:
    def test_keys(self):
        assert name_key("Thassa’s Oracle") == name_key("thassas oracle") == "thassas oracle"
        assert name_key("Lim-Dûl's Vault") == "limduls vault"
        assert name_key("Fire // Ice") == "fire ice"

    def test_exact_prefix_and_misspelling(self):
        assert match_name("THASSAS ORACLE", KEYS).found == "thassas oracle"
        assert match_name("Blood Mo", KEYS).found == "blood moon"
        assert match_name("lightening bolt", KEYS).found == "lightning bolt"
        assert match_name("limdul vault", KEYS).found == "limduls vault"

    def test_ambiguous_gives_close_names_not_a_guess(self):
        found = match_name("Lightning", KEYS)
        assert found.found is None and set(found.close) == {"lightning bolt", "lightning helix"}
        assert match_name("zzzzzz", KEYS).found is None

    @given(
        st.sampled_from(NAMES),
        st.sampled_from([str.upper, str.lower, str.title, lambda s: f"  {s}  "]),
    )
    def test_every_name_is_found_however_it_is_cased_or_spaced(self, name, spelling):
        assert match_name(spelling(name), KEYS).found == name_key(name)

    @given(st.text(max_size=40))
    def test_keys_are_stable(self, text):
        assert name_key(name_key(text)) == name_key(text)


def test_the_start_of_a_front_face_names_its_one_card():
    """A double-faced card's key and its front face's both begin "delver": one card, found (cards
    audit F8); two cards beginning alike still name none."""
    from cards.names import match_name

    table = {
        "delver of secrets // insectile aberration": 1,
        "delver of secrets": 1,
        "insectile aberration": 1,
        "lightning bolt": 2,
        "lightning helix": 3,
    }
    assert match_name("Delver", table).found == "delver of secrets"
    assert match_name("Lightning", table).found is None
