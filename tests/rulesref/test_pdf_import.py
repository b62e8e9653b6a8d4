"""The IPG as Wizards publishes it (PDF) through import_rules and the admin: a PDF made from IPG
2021-01-06 arrives pending with the HTML import's sections and publishing it changes nothing a
judge sees; a PDF with one edited infraction shows the edit in the release notes and the guides
citing that infraction on the review page; a bad PDF changes nothing."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.test import Client

from rulesref.models import Document, GlossaryTerm, Rule, Version, VersionEvent
from tests.conftest import rules_files
from tests.fixtures.pdfgen import build_pdf
from tests.rulesref.parsing.test_pdf import small_pdf

pytestmark = pytest.mark.django_db
IPG_2021 = next(p for p in rules_files("ipg") if "20210106" in p.name)


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture
def staff(people):
    client = Client()
    client.force_login(people["head_judge"])
    return client


def db_state() -> dict:
    return {
        "versions": list(Version.objects.order_by("pk").values_list("pk", "status", "is_current")),
        "events": VersionEvent.objects.count(),
        "rules": Rule.objects.count(),
        "glossary": GlossaryTerm.objects.count(),
        "documents": Document.objects.count(),
    }


def upload(staff, raw: bytes, name: str, django_capture_on_commit_callbacks) -> Version:
    with django_capture_on_commit_callbacks(execute=True):
        response = staff.post(
            "/admin/rulesref/version/upload/",
            {"file": SimpleUploadedFile(name, raw, "application/pdf"), "document": ""},
        )
    version = Version.objects.get(source_name=name)
    assert response.status_code == 302, response.content[:500]
    return version


def judge_view(client: Client, numbers: list[str]) -> dict:
    """What a judge reads of every IPG rule: the API answer and the rule page."""
    seen = {}
    for number in numbers:
        api = client.get(f"/api/v1/rules/ipg/{number}").json()
        page = client.get(f"/rules/ipg/{number}/")
        seen[number] = (api, page.status_code)
    return seen


@pytest.mark.parametrize("draw", ["encrypted", "image", "letter"])
def test_import_rules_refuses_a_bad_pdf_naming_file_and_page_and_changes_nothing(draw, tmp_path):
    bad = tmp_path / f"{draw}.pdf"
    bad.write_bytes(small_pdf(draw))
    before = db_state()
    with pytest.raises(CommandError, match=rf"{bad}: page 1: .*\nNothing was imported"):
        call_command("import_rules", str(bad), stdout=io.StringIO())
    assert db_state() == before


def test_a_pdf_of_ipg_2021_imports_as_pending_with_the_html_sections_and_publishing_changes_nothing(
    staff, django_capture_on_commit_callbacks
):
    html_version = Version.objects.get(document__slug="ipg", is_current=True)
    assert html_version.effective_date.isoformat() == "2021-01-06"
    numbers = list(html_version.rules.order_by("position").values_list("number", flat=True))
    before = judge_view(Client(), numbers)
    # The same version is already stored from HTML; the site replaces it with the PDF
    # Wizards publishes.
    Version.objects.filter(pk=html_version.pk).update(status=Version.Status.DISCARDED)
    version = upload(
        staff,
        build_pdf(IPG_2021.read_bytes(), IPG_2021.name),
        "MTG_IPG_2021-01-06.pdf",
        django_capture_on_commit_callbacks,
    )
    assert version.status == Version.Status.PENDING and not version.is_current, version.error
    assert (version.document.slug, version.effective_date.isoformat()) == ("ipg", "2021-01-06")

    def rows(v):
        return [
            (
                r.number,
                r.kind,
                r.title,
                " ".join(r.text.split()),
                sorted((k, " ".join(str(t).split())) for k, t in (r.fields or {}).items()),
                r.aliases,
            )
            for r in v.rules.order_by("position")
        ]

    assert rows(version) == rows(html_version)
    staff.post(f"/admin/rulesref/version/{version.pk}/publish/")
    version.refresh_from_db()
    assert version.is_current
    assert judge_view(Client(), numbers) == before


def test_the_ipg_2021_printed_by_chromium_imports_as_pending_with_the_html_sections(
    staff, django_capture_on_commit_callbacks
):
    """Issue 29: this print (running header and footer, page numbers) ended in an IntegrityError."""
    html_version = Version.objects.get(document__slug="ipg", is_current=True)
    Version.objects.filter(pk=html_version.pk).update(status=Version.Status.DISCARDED)
    raw = (
        Path(__file__).resolve().parents[1]
        / "fixtures"
        / "pdf"
        / "chromium_InfractionProcedureGuide-20210106.pdf"
    ).read_bytes()
    version = upload(staff, raw, "IPG printed.pdf", django_capture_on_commit_callbacks)
    assert version.status == Version.Status.PENDING, version.error
    assert (version.document.slug, version.effective_date.isoformat()) == ("ipg", "2021-01-06")

    def rows(v):
        return [
            (r.number, r.kind, r.title, " ".join(r.text.split()))
            for r in v.rules.order_by("position")
        ]

    assert rows(version) == rows(html_version)


def test_a_pdf_with_one_edited_infraction_shows_the_edit_and_the_guides_citing_it(
    staff, django_capture_on_commit_callbacks
):
    current = Version.objects.get(document__slug="ipg", is_current=True)
    mpe = current.rules.get(number="2.4")
    definition = mpe.fields["definition"].split("\n\n")[0]
    words = definition.split()[:8]
    sentence, edited = " ".join(words), " ".join([*words[:-1], "clearly", words[-1]])
    assert edited != sentence

    def edit(text: str) -> str:
        return text.replace("January 6, 2021", "March 1, 2021").replace(sentence, edited)

    raw = build_pdf(IPG_2021.read_bytes(), IPG_2021.name, edit=edit)
    version = upload(staff, raw, "MTG_IPG_2021-03-01.pdf", django_capture_on_commit_callbacks)
    assert version.status == Version.Status.PENDING, version.error
    assert version.effective_date.isoformat() == "2021-03-01"
    assert edited in " ".join(version.rules.get(number="2.4").text.split())
    page = staff.get(f"/admin/rulesref/version/{version.pk}/review/")
    assert page.status_code == 200
    review = page.context["review"]
    changed = [item for item in review.release_notes if item["number"] == "2.4"]
    assert changed and changed[0]["kind"] == "changed", review.release_notes
    assert [item["number"] for item in review.release_notes] == ["2.4"], (
        "only the edited infraction changed"
    )
    guides = {g["slug"] for g in review.affected_guides}
    assert "drawing-and-mulligans" in guides
    html = page.content.decode()
    assert (
        "2.4" in html
        and "drawing-and-mulligans" in html
        or any(g["title"] in html for g in review.affected_guides)
    )


def test_an_unreadable_pdf_upload_becomes_a_failed_version_naming_the_file_and_page(
    staff, django_capture_on_commit_callbacks
):
    before = {k: v for k, v in db_state().items() if k != "versions"}
    rules_before = Rule.objects.count()
    version = upload(
        staff, small_pdf("encrypted"), "MTG_IPG_locked.pdf", django_capture_on_commit_callbacks
    )
    # placed by its name
    assert version.status == Version.Status.FAILED and version.document.slug == "ipg"
    assert "MTG_IPG_locked.pdf: page 1: the PDF is encrypted" in version.error
    assert Rule.objects.count() == rules_before and db_state()["documents"] == before["documents"]


def test_a_pdf_upload_is_placed_by_the_title_it_prints_not_its_name(
    staff, django_capture_on_commit_callbacks
):
    jar = rules_files("jar")[-1]
    version = upload(
        staff,
        build_pdf(jar.read_bytes(), jar.name),
        "download (3).pdf",
        django_capture_on_commit_callbacks,
    )
    assert version.document.slug == "jar"
    # conftest stored this JAR version from its HTML: the PDF is read, holds the same rules, and is
    # refused as a second copy of that version (not as "different content").
    assert version.status == Version.Status.FAILED
    assert "the same document is already stored as JAR 2019-01-21" in version.error
