"""sync_rules follows the official rules-documents page to the MTR, IPG and JAR PDFs: a saved page
and PDFs typeset from the shipped HTML (tests/fixtures/pdfgen.py) are served by a real HTTP server
on 127.0.0.1. A new IPG arrives pending with its release notes and the guides it affects; a version
already stored (from its HTML) is reported and left alone; a bad page changes nothing."""

from __future__ import annotations

import functools
import http.server
import io
import threading

import pytest
from django.core.management import CommandError, call_command

from rulesref import curation
from rulesref.models import Version
from rulesref.sync_pages import document_links
from tests.conftest import rules_files
from tests.fixtures.pdfgen import build_pdf
from tests.rulesref.test_sync_rules import QuietHandler, db_state

pytestmark = pytest.mark.django_db

PAGE = """<!doctype html><html><head><title>Rules | Magic: The Gathering</title></head><body>
<nav><a href="/en/news">News</a> <a href="https://example.invalid/store">Store</a></nav>
<h2>Comprehensive Rules</h2><p><a href="docs/MagicCompRules%2020250207.txt">TXT</a></p>
<h2>Magic: The Gathering Tournament Rules</h2><p><a href="docs/MTG_MTR_2019_Jun6_EN.pdf">Download (PDF)</a></p>
<h2>Infraction Procedure Guide</h2><p><a href="docs/MTG_IPG_2021_Mar1_EN.pdf">Download (PDF)</a></p>
<h2>Banned and Restricted</h2><p><a href="docs/banned.pdf">Download (PDF)</a></p>
</body></html>"""  # noqa: E501


def test_the_page_links_to_the_rules_documents_and_nothing_else():
    assert document_links(PAGE, "https://magic.wizards.com/en/rules") == [
        "https://magic.wizards.com/en/docs/MagicCompRules%2020250207.txt",
        "https://magic.wizards.com/en/docs/MTG_MTR_2019_Jun6_EN.pdf",
        "https://magic.wizards.com/en/docs/MTG_IPG_2021_Mar1_EN.pdf",
    ]


@pytest.fixture
def site(tmp_path):
    """The saved page and the documents it links to, served over HTTP on 127.0.0.1."""
    docs = tmp_path / "en" / "docs"
    docs.mkdir(parents=True)
    (tmp_path / "en" / "rules.html").write_text(PAGE, encoding="utf-8")
    (tmp_path / "en" / "empty.html").write_text(
        "<html><body><a href='/en/news'>News</a></body></html>", encoding="utf-8"
    )
    cr = next(p for p in rules_files("cr") if "20250207" in p.name)
    (docs / "MagicCompRules 20250207.txt").write_bytes(cr.read_bytes())
    mtr = rules_files("mtr")[-1]
    (docs / "MTG_MTR_2019_Jun6_EN.pdf").write_bytes(build_pdf(mtr.read_bytes(), mtr.name))
    ipg = next(p for p in rules_files("ipg") if "20210106" in p.name)
    current = Version.objects.get(document__slug="ipg", is_current=True)
    words = current.rules.get(number="2.4").fields["definition"].split()[:8]
    sentence, edited = " ".join(words), " ".join([*words[:-1], "clearly", words[-1]])

    def edit(text: str) -> str:
        return text.replace("January 6, 2021", "March 1, 2021").replace(sentence, edited)

    (docs / "MTG_IPG_2021_Mar1_EN.pdf").write_bytes(
        build_pdf(ipg.read_bytes(), ipg.name, edit=edit)
    )
    (docs / "banned.pdf").write_bytes(b"%PDF-1.4 not a rules document")
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(QuietHandler, directory=str(tmp_path))
    )
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield {"base": f"http://127.0.0.1:{server.server_address[1]}", "edited": edited}
    server.shutdown()
    server.server_close()
    thread.join(timeout=5)


def sync_page(url: str) -> str:
    out = io.StringIO()
    call_command("sync_rules", "--page", url, "--timeout", "10", stdout=out)
    return out.getvalue()


def test_a_new_ipg_pdf_on_the_page_arrives_pending_with_release_notes_and_the_guides_it_affects(
    site,
):
    current_mtr = Version.objects.get(document__slug="mtr", is_current=True)
    current_cr = Version.objects.get(document__slug="cr", is_current=True)
    lines = sync_page(f"{site['base']}/en/rules.html").splitlines()
    assert len(lines) == 3, lines
    ipg = Version.objects.get(document__slug="ipg", effective_date="2021-03-01")
    assert ipg.status == Version.Status.PENDING and not ipg.is_current
    assert lines[2] == (
        f"{site['base']}/en/docs/MTG_IPG_2021_Mar1_EN.pdf: IPG 2021-03-01 stored as "
        f"pending version #{ipg.pk} ({ipg.rule_count} rules)"
    )
    assert f"already stored as version #{current_cr.pk}" in lines[0]
    assert (
        f"MTR {current_mtr.effective_date.isoformat()} already stored as version #{current_mtr.pk}"
        in lines[1]
    ), "the MTR already stored from its HTML is not stored again from the PDF"
    review = curation.review_version(ipg)
    assert [item["number"] for item in review.release_notes] == ["2.4"]
    assert site["edited"] in " ".join(ipg.rules.get(number="2.4").text.split())
    assert "drawing-and-mulligans" in {g["slug"] for g in review.affected_guides}


def test_a_page_that_links_to_no_rules_document_fails_naming_it_and_changes_nothing(site):
    before = db_state()
    url = f"{site['base']}/en/empty.html"
    with pytest.raises(
        CommandError, match=f"{url} links to no rules document.*nothing was changed"
    ):
        sync_page(url)
    assert db_state() == before
