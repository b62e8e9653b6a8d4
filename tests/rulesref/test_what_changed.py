"""The "What changed" page (rulesref/pages/what_changed.py) on the real CR versions conftest
imports: a page of changes at a time, filtered by kind and by chapter or section, the release
notes themselves unchanged."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client

from rulesref.models import Version
from rulesref.pages import what_changed
from tests.conftest import needs_history

pytestmark = [pytest.mark.django_db, needs_history]


@pytest.fixture
def versions():
    current = Version.objects.get(document__slug="cr", is_current=True)
    older = (
        Version.objects.filter(document__slug="cr", effective_date__lt=current.effective_date)
        .order_by("-effective_date")
        .first()
    )
    return older, current


def read(url: str) -> tuple[str, list[tuple[str, str]]]:
    """The page, and its changes as (kind, link) pairs."""
    page = Client().get(url).content.decode()
    items = re.findall(
        r'<li class="change change-(\w+)">\s*<p class="change-head">\s*'
        r'<a class="num" href="([^"]+)"',
        page,
    )
    return page, items


def every_page(url: str) -> list[tuple[str, str]]:
    base, items, seen = url.split("?")[0], [], 0
    while url and seen < 100:
        page, found = read(url)
        assert len(found) <= what_changed.PAGE_SIZE
        items += found
        after = re.search(r'<a class="button next" href="([^"]+)"', page)
        url, seen = (base + html.unescape(after.group(1)) if after else ""), seen + 1
    return items


class WhatChangedTests:
    def test_the_page_is_a_page_of_changes_not_all_of_them(self, versions):
        from rulesref import changes

        older, current = versions
        notes = changes.release_notes(older, current)
        assert len(notes) > what_changed.PAGE_SIZE  # else there is nothing to page
        page, items = read(f"/changes/cr/{current.effective_date}/")
        assert len(items) == what_changed.PAGE_SIZE
        assert len(page.encode()) < 120_000, len(page.encode())
        assert f"of {len(notes)}" in page  # "Changes 1–100 of 1037"
        # every page together is every change, once
        assert len(every_page(f"/changes/cr/{current.effective_date}/")) == len(
            [n for n in notes if n.get("number") or n.get("old_number")]
        )

    @pytest.mark.parametrize("kind", what_changed.KINDS)
    def test_a_kind_shows_only_changes_of_that_kind(self, versions, kind):
        from rulesref import changes

        older, current = versions
        wanted = [n for n in changes.release_notes(older, current) if n["kind"] == kind]
        items = every_page(f"/changes/cr/{current.effective_date}/?kind={kind}")
        assert {k for k, _ in items} <= {kind}
        assert len(items) == len([n for n in wanted if n.get("number") or n.get("old_number")])

    def test_renumbered_is_read_as_moved(self, versions):
        _, current = versions
        page, items = read(f"/changes/cr/{current.effective_date}/?kind=renumbered")
        assert items and {k for k, _ in items} == {"moved"}
        assert '<option value="moved" selected>' in page

    def test_a_chapter_or_a_section_shows_only_its_changes(self, versions):
        _, current = versions
        page, _ = read(f"/changes/cr/{current.effective_date}/")
        # The chapters and sections offered are the ones that have changes; take the first
        # section offered under a chapter (indented with "—").
        options = re.findall(r'<option value="([^"]*)"[^>]*>([^<]*)\((\d+)\)</option>', page)
        chapters = [(v, int(n)) for v, label, n in options if "—" not in label and v.isdigit()]
        sections = [(v, int(n)) for v, label, n in options if "—" in label]
        for number, count in [chapters[0], sections[0]]:
            items = every_page(f"/changes/cr/{current.effective_date}/?section={number}")
            assert len(items) == count, number
            for _, link in items:
                shown = link.split("/")[3]
                assert shown.startswith(number), (number, link)

    def test_unknown_filters_and_pages_are_ignored(self, versions):
        _, current = versions
        _, first = read(f"/changes/cr/{current.effective_date}/")
        for query in ("?kind=everything", "?page=abc", "?page=0", "?section=nowhere"):
            response = Client().get(f"/changes/cr/{current.effective_date}/{query}")
            assert response.status_code == 200
            assert read(f"/changes/cr/{current.effective_date}/{query}")[1] == first
        page, items = read(f"/changes/cr/{current.effective_date}/?page=9999")
        assert items and '<a class="button next"' not in page  # the last page
