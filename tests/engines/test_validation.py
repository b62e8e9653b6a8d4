"""The engines' request models (engines/validation.py): errors name the field in the API's terms,
and no input, however malformed, gets pydantic's own words or an exception other than
RequestError."""

from __future__ import annotations

import unittest

from hypothesis import given, settings
from hypothesis import strategies as st

from engines import games, loops, shuffles
from engines.errors import RequestError
from engines.validation import NUMBER_TAG, path_of

KEYS = [
    "players",
    "iteration",
    "state",
    "declared",
    "breakers",
    "player",
    "kind",
    "effects",
    "unless_player",
    "text",
    "times",
    "set",
    "per",
    "factor",
    "counter",
    "iterations",
    "after_action",
    "format",
    "name",
    "life",
    "poison",
    "team",
    "type",
    "commander_damage",
    "left_game",
    "deck_size",
    "procedure",
    "method",
    "piles",
    "observed",
    "pattern",
    "lands",
    "seed",
    "AP",
    "NAP",
    "A",
    "B",
    "library",
    "cards_drawn",
    "",
]
WORDS = st.sampled_from(
    [
        "AP",
        "NAP",
        "A",
        "B",
        "optional",
        "unless",
        "accept",
        "riffle",
        "pile",
        "commander",
        "two_player",
        "lose",
        "draw",
        "LSSL",
        "life",
        "library",
        "",
    ]
)
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-3, 70)
    | st.sampled_from([10**18, 10**19, -(10**19), 2**63])
    | st.floats(allow_nan=False, allow_infinity=False)
    | WORDS
)
JSON = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(KEYS), inner, max_size=6)
    ),
    max_leaves=25,
)
VALIDATORS = [
    loops.validate_loop_request,
    games.validate_game_request,
    shuffles.validate_shuffle_request,
]
PYDANTIC_WORDS = ("Input should", "validation error", "Value error", "is not valid")


class ErrorPathTests(unittest.TestCase):
    def test_indexes_keys_and_union_tags_read_as_the_api_names_fields(self) -> None:
        self.assertEqual(
            path_of(("iteration", 1, "effects", "NAP", "[key]")), "iteration[1].effects.NAP"
        )
        self.assertEqual(
            path_of(("iteration", 0, "effects", "AP", "life", NUMBER_TAG)),
            "iteration[0].effects.AP.life",
        )
        self.assertEqual(path_of((2, "method"), "procedure"), "procedure[2].method")

    def test_a_refused_field_inside_a_list_is_named_with_its_index(self) -> None:
        data = {
            "players": ["AP", "NAP"],
            "iteration": [
                {"player": "AP", "kind": "optional"},
                {"player": "NAP", "kind": "sometimes"},
            ],
        }
        with self.assertRaises(RequestError) as caught:
            loops.validate_loop_request(data)
        self.assertEqual(
            (caught.exception.field, caught.exception.message),
            ("iteration[1].kind", "must be optional, mandatory or unless"),
        )

    def test_the_first_error_in_the_requests_order_is_the_one_reported(self) -> None:
        # players come before iteration, whatever the JSON's order
        with self.assertRaises(RequestError) as caught:
            loops.validate_loop_request({"iteration": "x", "players": ["AP"]})
        self.assertEqual(caught.exception.field, "players")


class MalformedInputTests(unittest.TestCase):
    @settings(max_examples=300, deadline=None)
    @given(JSON, st.sampled_from(VALIDATORS))
    def test_any_json_is_read_or_refused_in_the_projects_words(
        self, data: object, validate
    ) -> None:
        try:
            validate(data)
        except RequestError as exc:
            self.assertTrue(exc.field)
            self.assertFalse(any(w in exc.message for w in PYDANTIC_WORDS), exc.message)
