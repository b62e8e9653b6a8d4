"""The search pages on the real Comprehensive Rules (imported once by conftest): /search/ and the
results-as-you-type fragment (search/pages.py)."""

from __future__ import annotations

import html
import re
from urllib.parse import urlencode

import pytest
from django.test import Client
from hypothesis import given
from hypothesis import strategies as st

from rulesref.models import Version
from rulesref.pages.outline import outline_for
from search.pages import highlight

pytestmark = pytest.mark.django_db


@pytest.fixture
def client():
    return Client()


@pytest.fixture
def current_cr():
    return Version.objects.get(document__slug="cr", is_current=True)


def search_engine():
    from search import service as search_service

    return search_service


class HighlightTests:
    def test_whole_words_of_the_query_are_marked_not_parts_of_words(self):
        marked = str(
            highlight(
                "Before then, the permanent does nothing for its controller.",
                "does it do anything for me before",
            )
        )
        # stopwords, and "for" inside "before", are not the question's words
        assert "<mark>" not in marked

    def test_the_rules_words_a_spoken_word_stands_for_are_marked(self):
        marked = str(
            highlight(
                "A planeswalker with 0 loyalty is put into its owner's graveyard.",
                "my walker went to zero",
            )
        )
        assert "<mark>planeswalker</mark>" in marked and "<mark>loyalty</mark>" not in marked

    @given(st.text(max_size=80), st.text(max_size=30))
    def test_marking_never_changes_the_text_and_always_escapes_it(self, snippet, query):
        marked = str(highlight(snippet, query))
        assert html.unescape(marked.replace("<mark>", "").replace("</mark>", "")) == snippet
        assert "<" not in marked.replace("<mark>", "").replace("</mark>", "")


class SearchPageTests:
    def test_results_are_the_search_service_hits_in_order_inside_their_sections(
        self, client, current_cr
    ):
        search_service = search_engine()
        expected = search_service.search_rules("fragmented loop", limit=40)
        page = client.get("/search/?q=fragmented+loop").content.decode()
        shown = re.findall(r'<a class="hit" href="/rules/(\w+)/([^/"]+)/">', page)
        assert shown == [(h["doc"], h["number"]) for h in expected] and shown
        current = {
            v.document.slug: v
            for v in Version.objects.filter(is_current=True).select_related("document")
        }
        for hit in expected:
            heading = outline_for(current[hit["doc"]]).heading_of(hit["number"])
            assert heading is not None and f"{heading.number} · {heading.title}" in page, hit

    def test_fragment_for_results_as_you_type(self, client):
        search_engine()
        response = client.get("/search/fragment/?q=trample")
        fragment = response.content.decode()
        assert response.status_code == 200 and "<html" not in fragment
        assert '<a class="hit"' in fragment and "/search/?q=trample" in fragment

    def test_a_glossary_term_query_shows_its_definition_first(self, client, current_cr):
        search_engine()
        term = current_cr.glossary.get(key="trample")
        fragment = client.get("/search/fragment/?q=trample").content.decode()
        assert fragment.index('class="term-card"') < fragment.index('<a class="hit"')
        assert html.escape(term.definition[:40]) in fragment or term.definition[
            :40
        ] in html.unescape(fragment)
        assert (
            'class="term-card"'
            not in client.get("/search/fragment/?q=fragmented+loop").content.decode()
        )

    def test_results_say_how_the_judges_words_were_read(self, client, current_cr):
        search_engine()
        fragment = html.unescape(
            client.get("/search/fragment/?q=my+walker+went+to+zero").content.decode()
        )
        assert (
            'class="read-as' in fragment
            and 'walker</span> → <span class="means">planeswalker' in fragment
        )
        assert (
            'class="read-as'
            not in client.get("/search/fragment/?q=fragmented+loop").content.decode()
        )

    def test_a_guy_at_the_table_is_read_as_a_player_and_a_guy_on_the_battlefield_as_a_creature(
        self, client, current_cr
    ):
        search_engine()
        conduct = html.unescape(
            client.get(
                "/search/fragment/?q=guy+keeps+dropping+f-bombs+at+the+table"
            ).content.decode()
        )
        assert (
            'guy</span> → <span class="means">player' in conduct
            and "creature" not in conduct.split("read-as")[1].split("</p>")[0]
        )
        combat = html.unescape(
            client.get("/search/fragment/?q=my+guy+got+chumped").content.decode()
        )
        assert 'guy</span> → <span class="means">creature' in combat

    def test_fragment_offers_the_rule_for_a_number(self, client):
        fragment = client.get("/search/fragment/?q=729.3").content.decode()
        assert 'href="/rules/cr/729.3/"' in fragment

    def test_missing_search_engine_gives_a_friendly_message_and_numbers_still_jump(
        self, client, monkeypatch
    ):
        import sys

        import search

        # As before the engine existed: importing it raises ImportError.
        monkeypatch.delattr(search, "service", raising=False)
        monkeypatch.setitem(sys.modules, "search.service", None)
        page = client.get("/search/?q=trample").content.decode()
        assert "Search is not available yet" in page
        fragment = client.get("/search/fragment/?q=729.3").content.decode()
        assert 'href="/rules/cr/729.3/"' in fragment and "Search is not available yet" in fragment

    def test_query_is_escaped(self, client):
        page = client.get(
            "/search/?" + urlencode({"q": '<script>alert("x")</script>'})
        ).content.decode()
        assert '<script>alert("x")' not in page

    def test_search_page_without_query_shows_the_form(self, client):
        page = client.get("/search/").content.decode()
        assert 'name="q"' in page and '<a class="hit"' not in page
