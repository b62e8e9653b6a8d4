"""Uploads and imports bounded in memory and time (issue 29): a PDF's kind is told from its first
pages in the request, a "PDF bomb" and a 10,000-page file are refused naming the file (and the
page), in the API's JSON error shape or as a failed version's message; a refused or failed upload
leaves no file; a section given twice is an error naming both places; an over-long rule is refused
naming it; the same CR re-encoded in Windows-1252 is the same version, not "different content"."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.urls import include, path
from rest_framework.test import APIClient

import judgeapp.urls
from rulesref import services
from rulesref.models import Rule, Version
from rulesref.parsing.documents import detect_raw_kind, parse_document
from rulesref.parsing.pdf import PdfLimits, read_pages
from rulesref.parsing.records import DocKind, ParseError
from tests.conftest import RULES_DIR, rules_files
from tests.fixtures.hostile_pdf import hostile_pdf
from tests.fixtures.pdfgen import build_pdf
from tests.rulesref.test_curation import db_state, post_upload, upload_file

pytestmark = [pytest.mark.django_db, pytest.mark.urls(__name__)]
urlpatterns = [path("api/v1/", include("rulesref.curation_urls")), *judgeapp.urls.urlpatterns]

MB = 1024 * 1024


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.JUDGEAPP_PDF_MAX_STREAM_BYTES = 4 * MB
    return settings.MEDIA_ROOT


@pytest.fixture
def staff(people):
    client = APIClient()
    client.force_authenticate(people["head_judge"])
    return client


def stored_files(media: Path) -> list[Path]:
    return [p for p in media.rglob("*") if p.is_file()] if media.exists() else []


# ---------------------------------------------------------------- the reader's bounds (no database)


def test_a_bomb_stream_is_refused_naming_the_file_and_page_without_inflating_it_whole():
    raw = hostile_pdf(pages=3, bomb_page=2, inflated=64 * MB)
    assert len(raw) < MB  # a small file: the size cap cannot catch it
    with pytest.raises(ParseError) as caught:
        read_pages(raw, "bomb.pdf", max_stream_bytes=4 * MB)
    assert caught.value.page == 2 and str(caught.value).startswith(
        "bomb.pdf: page 2: a compressed stream inflates"
    )
    # Under a cap above its size the same file reads: the cap, not the file, refuses it.
    assert read_pages(raw, "bomb.pdf", max_stream_bytes=80 * MB).pages == 3


def test_the_kind_is_told_from_the_first_pages_only():
    raw = hostile_pdf(pages=4, bomb_page=4, inflated=64 * MB)  # the bomb lies past the pages read
    assert detect_raw_kind(raw, "late-bomb.pdf", PdfLimits(max_stream_bytes=4 * MB)) is DocKind.IPG
    with pytest.raises(ParseError, match=r"late-bomb.pdf: page 4: a compressed stream inflates"):
        parse_document(raw, "late-bomb.pdf", PdfLimits(max_stream_bytes=4 * MB))


def test_a_ten_thousand_page_file_is_refused_from_its_page_tree():
    raw = hostile_pdf(pages=10_000)
    for call in (
        lambda: detect_raw_kind(raw, "long.pdf", PdfLimits(max_pages=500)),
        lambda: parse_document(raw, "long.pdf", PdfLimits(max_pages=500)),
    ):
        with pytest.raises(
            ParseError, match=r"^long.pdf: page 1: the PDF has 10000 pages, more than the 500"
        ):
            call()


def test_a_section_read_twice_names_both_pages():
    ipg = next(p for p in rules_files("ipg") if "20210106" in p.name)
    twice = build_pdf(_duplicate(ipg.read_text(encoding="utf-8")).encode(), ipg.name)
    with pytest.raises(ParseError) as caught:
        parse_document(twice, "twice.pdf")
    message = str(caught.value)
    assert "section 1.5 appears twice: on page" in message and message.startswith(
        "twice.pdf: page "
    )
    first, second = [
        (int(page), int(line))
        for page, line in re.findall(r"on page (\d+) \(line (\d+)\)", message)
    ]
    assert first < second  # two places, in reading order


def _duplicate(text: str) -> str:
    """Section 1.5's heading and first paragraph printed again right after it (a bad export)."""
    start = text.index(">IPG 1.5 Sets<")
    heading_start = text.rindex("<h1", 0, start)
    end = text.index("</p>", start) + len("</p>")
    return text[:end] + text[heading_start:end] + text[end:]


# ------------------------------------------------------------------ uploads through the staff API


def test_a_bomb_on_the_first_pages_is_refused_in_the_request_and_nothing_is_stored(
    staff, media, django_capture_on_commit_callbacks
):
    before = db_state()
    raw = hostile_pdf(pages=3, bomb_page=1, inflated=64 * MB)
    response = post_upload(
        staff, django_capture_on_commit_callbacks, upload_file(None, "ipg-bomb.pdf", raw)
    )
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "invalid_upload" and error["details"] == {
        "file": "ipg-bomb.pdf",
        "page": 1,
    }
    assert error["message"].startswith(
        "ipg-bomb.pdf: page 1: a compressed stream inflates to more than 4.2 MB"
    )
    assert db_state() == before and stored_files(media) == []


def test_a_ten_thousand_page_upload_is_refused_in_the_request(
    staff, media, django_capture_on_commit_callbacks
):
    before = db_state()
    response = post_upload(
        staff,
        django_capture_on_commit_callbacks,
        upload_file(None, "long-ipg.pdf", hostile_pdf(pages=10_000)),
    )
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["details"]["file"] == "long-ipg.pdf" and error["details"]["pages"] == 10_000
    assert "long-ipg.pdf: the PDF has 10000 pages" in error["message"]
    assert db_state() == before and stored_files(media) == []


def test_a_bomb_past_the_first_pages_fails_the_job_naming_file_and_page_and_deletes_the_file(
    staff, media, django_capture_on_commit_callbacks
):
    rules = Rule.objects.count()
    raw = hostile_pdf(pages=4, bomb_page=3, inflated=64 * MB)
    response = post_upload(
        staff, django_capture_on_commit_callbacks, upload_file(None, "late-bomb.pdf", raw)
    )
    assert response.status_code in (201, 202), response.content
    version = Version.objects.get(source_name="late-bomb.pdf")
    assert version.status == Version.Status.FAILED and version.document.slug == "ipg"
    assert version.error.startswith(
        "late-bomb.pdf: page 3: a compressed stream inflates to more than"
    )
    assert not version.upload and stored_files(media) == []
    assert Rule.objects.count() == rules
    body = staff.get(f"/api/v1/admin/versions/{version.pk}").json()
    assert "late-bomb.pdf: page 3" in str(body)


# ------------------------------------------------------------------ rule size and re-encoded text


@pytest.mark.history  # a CR the session has not stored (2021, 2022): the history
def test_a_rule_longer_than_the_cap_is_refused_naming_it(settings):
    cr = RULES_DIR / "cr" / "MagicCompRules-20220218.txt"
    parsed = parse_document(cr.read_bytes(), cr.name)
    longest = max(parsed.rules, key=lambda r: len(r.text) + sum(map(len, r.examples)))
    size = len(longest.text) + sum(map(len, longest.examples))
    settings.JUDGEAPP_MAX_RULE_CHARS = size - 1
    versions = Version.objects.count()
    with pytest.raises(
        ParseError,
        match=rf"rule {longest.number} is {size:,} characters long, more than the {size - 1:,}",
    ):
        services.store_parsed(parsed, digest=services.content_hash(cr.read_bytes()), source=cr.name)
    assert Version.objects.count() == versions
    settings.JUDGEAPP_MAX_RULE_CHARS = size  # at the cap: stored
    version, created = services.store_parsed(
        parsed, digest=services.content_hash(cr.read_bytes()), source=cr.name
    )
    assert created and version.rule_count == len(parsed.counted_rules)


@pytest.mark.history  # a CR the session has not stored (2021, 2022): the history
def test_a_padded_rule_of_two_million_characters_is_refused():
    cr = RULES_DIR / "cr" / "MagicCompRules-20220218.txt"
    text = cr.read_bytes().decode("utf-8-sig")
    padded = text.replace(
        "100.1. These Magic rules apply", "100.1. These Magic rules apply" + " padding" * 250_000, 1
    )
    assert len(padded) - len(text) == 2_000_000
    parsed = parse_document(padded.encode(), "padded.txt")
    with pytest.raises(
        ParseError, match=r"^padded.txt:\d+: rule 100.1 is 2,0\d\d,\d\d\d characters long"
    ):
        services.store_parsed(
            parsed, digest=services.content_hash(padded.encode()), source="padded.txt"
        )


@pytest.mark.history  # a CR the session has not stored (2021, 2022): the history
def test_the_same_cr_in_windows_1252_is_the_same_version_not_different_content():
    # its text is all in Windows-1252's repertoire
    cr = RULES_DIR / "cr" / "MagicCompRules-20210422.txt"
    utf8 = cr.read_bytes()
    text = utf8.decode("utf-8-sig")
    assert not Version.objects.filter(document__slug="cr", source_name=cr.name).exists()
    cp1252 = text.replace("\n", "\r\n").encode("cp1252")
    assert cp1252 != utf8 and any(ord(c) > 127 for c in text)  # other bytes, non-ASCII text
    first, created = services.store_parsed(
        parse_document(utf8, cr.name), digest=services.content_hash(utf8), source=cr.name
    )
    assert created
    again, created = services.store_parsed(
        parse_document(cp1252, "cr-1252.txt"),
        digest=services.content_hash(cp1252),
        source="cr-1252.txt",
    )
    assert not created and again.pk == first.pk
    # A real change in the text is still refused as different content.
    edited = text.replace("These Magic rules apply", "These Magic rules do apply", 1).encode(
        "cp1252"
    )
    with pytest.raises(ParseError, match="already stored with different content"):
        services.store_parsed(
            parse_document(edited, "cr-edited.txt"),
            digest=services.content_hash(edited),
            source="cr-edited.txt",
        )
