"""rulesref 0006: versions with chapters of their own text counted again, their documents' stored
comparisons dropped to be made again with those chapters (SQLite and PostgreSQL)."""

from __future__ import annotations

import datetime as dt

import pytest

from tests.migrating import latest, migrate

BEFORE = [("rulesref", "0005_searchvector_moved_to_search")]
AFTER = [("rulesref", "0006_chapters_with_text_are_sections")]


@pytest.mark.django_db(transaction=True)
def test_versions_with_chapters_of_text_are_counted_again_and_their_pairings_dropped():
    old = migrate(BEFORE)
    Document = old.get_model("rulesref", "Document")
    Version = old.get_model("rulesref", "Version")
    Rule = old.get_model("rulesref", "Rule")
    Pairing = old.get_model("rulesref", "VersionPairing")
    made = {}
    for slug, chapter_text in (("zz-ipg", "Judges are neutral arbiters."), ("zz-cr", "")):
        document = Document.objects.create(slug=slug, title=slug.upper())
        versions = []
        for day in (1, 2):
            version = Version.objects.create(
                document=document,
                effective_date=dt.date(2020, 1, day),
                content_hash=f"{slug}-{day}",
                rule_count=1,
            )
            Rule.objects.create(
                version=version, number="1", kind="chapter", text=chapter_text, position=0
            )
            Rule.objects.create(version=version, number="1.1", kind="section", text="x", position=1)
            versions.append(version)
        Pairing.objects.create(old=versions[0], new=versions[1])
        made[slug] = versions
    new = migrate(AFTER)
    counts = dict(
        new.get_model("rulesref", "Version")
        .objects.filter(document__slug__startswith="zz-")
        .values_list("content_hash", "rule_count")
    )
    assert counts == {"zz-ipg-1": 2, "zz-ipg-2": 2, "zz-cr-1": 1, "zz-cr-2": 1}
    kept = (
        new.get_model("rulesref", "VersionPairing")
        .objects.filter(old__document__slug__startswith="zz-")
        .values_list("old__document__slug", flat=True)
    )
    assert list(kept) == ["zz-cr"]
    migrate(latest())
