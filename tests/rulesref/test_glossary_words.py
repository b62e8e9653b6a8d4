"""Glossary links on rule pages (rulesref/pages/markup.py) catch a term, not an ordinary word that
spells it: "in which case" is no Case, "demonstrate awareness" no Demonstrate; the subtype "Case"
written as the rules write it still is. The rules are the real ones conftest imports."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from rulesref.models import Rule, Version
from rulesref.pages import content, markup

pytestmark = pytest.mark.django_db
TERM_LINK = re.compile(r'<a class="term" href="[^"]+" data-term="\d+">([^<]+)</a>')


def linked_words(doc: str, number: str) -> list[str]:
    page = Client().get(content.rule_url(doc, number)).content.decode()
    main = page.split('<main id="main">', 1)[1]
    return TERM_LINK.findall(main)


def first_rule(doc: str, pattern: str) -> Rule:
    """The first current rule of `doc` whose text matches `pattern` (case-sensitive)."""
    version = Version.objects.get(document__slug=doc, is_current=True)
    for rule in Rule.objects.filter(version=version).order_by("position"):
        if re.search(pattern, rule.text):
            return rule
    raise AssertionError(f"no {doc} rule matches {pattern}")


class GlossaryWordTests:
    def test_every_listed_word_is_a_glossary_term(self):
        version = Version.objects.get(document__slug="cr", is_current=True)
        index = markup.glossary_for(version)
        assert index is not None
        assert markup.ORDINARY_WORDS <= set(index.names), markup.ORDINARY_WORDS - set(index.names)

    def test_in_which_case_is_not_the_case_subtype(self):
        rule = first_rule("cr", r"\bin which case\b")
        assert "case" not in [w.casefold() for w in linked_words("cr", rule.number)]

    def test_the_case_subtype_written_with_a_capital_is_the_term(self):
        rule = first_rule("cr", r"[a-z,] Cases?\b")
        assert "Case" in [w.rstrip("s") for w in linked_words("cr", rule.number)]

    def test_demonstrate_awareness_is_not_the_keyword(self):
        rule = first_rule("ipg", r"\bdemonstrate awareness\b")
        assert "demonstrate" not in [w.casefold() for w in linked_words("ipg", rule.number)]
