"""The checks behind the parsers' 400s, against a plain recursive reading of the same data."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from judgeapp.text_checks import bad_text_reason, depth_of, find_bad_text

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4)
    ),
    max_leaves=20,
)


def strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from strings(item)


def depth(value) -> int:
    if isinstance(value, list | dict):
        items = value.values() if isinstance(value, dict) else value
        return 1 + max((depth(i) for i in items), default=0)
    return 0


def is_bad(text: str) -> bool:
    return any(c == "\x00" or 0xD800 <= ord(c) <= 0xDFFF for c in text)


class TextCheckTests:
    @given(JSON)
    def test_a_bad_string_is_found_exactly_when_there_is_one(self, value):
        assert (find_bad_text(value) is not None) == any(is_bad(s) for s in strings(value))

    @given(JSON)
    def test_depth_matches_the_recursive_definition(self, value):
        assert depth_of(value) == depth(value)

    @given(st.text(max_size=20))
    def test_reason_given_for_every_bad_string_and_none_for_good_ones(self, text):
        assert (bad_text_reason(text) is not None) == is_bad(text)

    def test_the_field_is_named_by_its_path(self):
        assert find_bad_text({"players": [{"name": "ok"}, {"name": "a\x00"}]}) == (
            "players[1].name",
            "holds a NUL character",
        )
        assert find_bad_text({"q": "\ud800"}) == ("q", "holds an unpaired surrogate character")
