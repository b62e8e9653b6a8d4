"""How rules are named for judges (rulesref.naming): numbers as printed, and the JAR, which prints
none, by its headings."""

from __future__ import annotations

from rulesref import naming, references


class NamingTests:
    def test_numbered_documents_keep_their_numbers(self):
        assert naming.rule_name("cr", "729.3", "") == "CR 729.3"
        assert (
            naming.rule_name("ipg", "2.5", "Game Play Error - Game Rule Violation")
            == "IPG 2.5 Game Play Error - Game Rule Violation"
        )
        assert naming.shown_number("mtr", "4.4") == "4.4"

    def test_the_jar_is_named_by_its_situation(self):
        title = "A player accidentally draws or has more cards than they were supposed to"
        assert naming.rule_name("jar", "1.3", title) == title
        assert naming.shown_number("jar", "1.3") == "" and naming.shown_number("JAR", "1.3") == ""
        assert naming.citation_label("jar", "1.3", title) == f"JAR: {title}"
        assert naming.citation_label("jar", "0", "Introduction") == "JAR: the opening paragraphs"

    def test_citations_are_labelled_through_the_same_helper(self):
        assert references.citation_label is naming.citation_label
        assert (
            references.labelled([{"doc": "jar", "number": "1.3", "title": "T"}])[0]["label"]
            == "JAR: T"
        )
        assert (
            references.labelled([{"doc": "cr", "number": "729.3", "title": "T"}])[0]["label"]
            == "CR 729.3"
        )
