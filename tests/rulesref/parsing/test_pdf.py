"""The PDF importer on PDFs typeset from every shipped MTR, IPG and JAR (tests/fixtures/pdfgen.py):
each section imported from the PDF equals the same version imported from its HTML; the layout the
PDF adds (running header, page numbers, contents page, hyphenation, ligatures) is gone; a bad PDF
is refused naming the file and the page."""

from __future__ import annotations

import io
import os
import tempfile
from pathlib import Path

import pytest

from rulesref.parsing.documents import parse_document
from rulesref.parsing.pdf import read_pages, strip_furniture
from rulesref.parsing.pdf_blocks import make_blocks
from rulesref.parsing.records import ParseError
from tests.conftest import rules_files
from tests.fixtures.pdfgen import cached_pdf

HTML_VERSIONS = [path for kind in ("mtr", "ipg", "jar") for path in rules_files(kind)]


@pytest.fixture(scope="session")
def pdf_cache(request):
    """Generated PDFs, kept between runs (JUDGEAPP_PDF_CACHE, default a folder in the
    system temp)."""
    folder = Path(
        os.environ.get("JUDGEAPP_PDF_CACHE", Path(tempfile.gettempdir()) / "judgeapp-pdfs")
    )
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def norm(text: str) -> str:
    return " ".join(text.split())


def comparable(rule) -> dict:
    return {
        "kind": rule.kind,
        "title": norm(rule.title),
        "text": norm(rule.text),
        "parent": rule.parent,
        "examples": [norm(e) for e in rule.examples],
        "fields": [(k, norm(v)) for k, v in rule.fields],
        "aliases": rule.aliases,
        "references": rule.references,
    }


@pytest.mark.parametrize("html_path", HTML_VERSIONS, ids=lambda p: p.stem)
def test_every_section_of_the_pdf_equals_the_html_import(html_path, pdf_cache):
    from_html = parse_document(html_path.read_bytes(), html_path.name)
    pdf_path = cached_pdf(html_path, pdf_cache)
    from_pdf = parse_document(pdf_path.read_bytes(), pdf_path.name)
    assert (from_pdf.doc, from_pdf.title, from_pdf.effective_date) == (
        from_html.doc,
        from_html.title,
        from_html.effective_date,
    )
    assert [r.number for r in from_pdf.rules] == [r.number for r in from_html.rules]
    for html_rule, pdf_rule in zip(from_html.rules, from_pdf.rules):
        assert comparable(pdf_rule) == comparable(html_rule), f"{html_path.stem} {html_rule.number}"


@pytest.fixture(scope="module")
def ipg_2021(pdf_cache):
    html = next(p for p in rules_files("ipg") if "20210106" in p.name)
    return cached_pdf(html, pdf_cache).read_bytes()


def test_the_pdf_ipg_keeps_downgrades_as_their_own_part(ipg_2021):
    """Tardiness ("Downgrade: ..." after its upgrade) and Outside Assistance (a Downgrade box), from
    the PDF."""
    rules = {r.number: dict(r.fields) for r in parse_document(ipg_2021, "ipg.pdf").rules}
    assert rules["3.1"]["downgrade"].startswith(
        "A player who arrives at their seat before 1 minute"
    )
    assert "Downgrade" not in rules["3.1"]["upgrade"]
    assert rules["3.2"]["downgrade"].startswith("If the information acquired is information")
    assert "Downgrade" not in rules["3.2"]["philosophy"]


class LayoutTests:
    def test_the_generated_pdf_carries_the_layout_of_an_official_one(self, ipg_2021):
        text = read_pages(ipg_2021, "ipg.pdf")
        lines = [ln.text for ln in text.lines]
        assert text.pages >= 25
        # title page + header
        assert sum(1 for t in lines if t == "Magic Infraction Procedure Guide") >= text.pages
        assert [f"Page {n}" for n in range(1, text.pages + 1)] == [
            t for t in lines if t.startswith("Page ")
        ]
        # contents
        assert any(
            t.startswith("2.1. Game Play Error") and t.rstrip("0123456789").endswith(". ")
            for t in lines
        )
        assert any(t.endswith("-") and t[-2].isalpha() for t in lines), (
            "words are hyphenated at line ends"
        )
        assert any(t.startswith("\u2022") for t in lines), "bulleted lists"

    def test_headers_page_numbers_contents_and_hyphens_are_gone_from_the_blocks(self, ipg_2021):
        text = read_pages(ipg_2021, "ipg.pdf")
        kept, contents = strip_furniture(text)
        blocks = make_blocks(kept)
        assert len(contents) >= 34  # every section, chapter and appendix
        assert "2.1. Game Play Error - Missed Trigger" in [e.title for e in contents]
        texts = [b.text for b in blocks]
        assert texts.count("Magic Infraction Procedure Guide") == 1, (
            "only the title, no running header"
        )
        assert not any(t.startswith("Page ") and t[5:].isdigit() for t in texts)
        hyphenated = [
            ln.text for ln in text.lines if ln.text.endswith("-") and ln.text[-2].isalpha()
        ]
        assert hyphenated
        joined = " ".join(texts)
        for line in hyphenated[:20]:
            assert line not in joined, "a hyphen added at a line end stays in the text"

    def test_a_paragraph_broken_over_a_page_is_one_paragraph(self, ipg_2021):
        text = read_pages(ipg_2021, "ipg.pdf")
        kept, _ = strip_furniture(text)
        blocks = make_blocks(kept)
        pages = {number: ln.page for number, ln in kept}
        last_line_of = {}
        for number, _ in kept:
            last_line_of[pages[number]] = number
        spanning = [
            b
            for b in blocks
            if any(
                b.line < last_line_of[p] < next_line
                for p in last_line_of
                for next_line in [min((n for n, _ in kept if n > last_line_of[p]), default=0)]
                if b.line <= last_line_of[p]
                and b.kind in ("p", "li")
                and pages[b.line] == p
                and len(b.text) > 200
            )
        ]
        assert spanning, "some paragraph starts on one page and goes on to the next"

    def test_ligatures_are_spelled_out(self):
        from rulesref.parsing.pdf import _spell

        assert (
            _spell("de\ufb01nition of the \ufb02oor judge, e\ufb03cient")
            == "definition of the floor judge, efficient"
        )


def small_pdf(draw) -> bytes:
    from reportlab.pdfgen import canvas

    buffer = io.BytesIO()
    kwargs = {}
    if draw == "encrypted":
        kwargs["encrypt"] = "secret"
    pdf = canvas.Canvas(buffer, **kwargs)
    if draw == "image":
        from PIL import Image
        from reportlab.lib.utils import ImageReader

        pdf.drawImage(ImageReader(Image.new("RGB", (200, 100), "white")), 72, 500, 400, 200)
    elif draw == "letter":
        pdf.drawString(72, 720, "Dear head judge,")
        pdf.drawString(72, 700, "the side event starts at noon.")
    else:
        pdf.drawString(72, 720, "Magic Infraction Procedure Guide")
    pdf.showPage()
    pdf.save()
    return buffer.getvalue()


class BadPdfTests:
    @pytest.mark.parametrize(
        ("draw", "message", "page"),
        [
            ("encrypted", "encrypted", 1),
            ("image", "image with no text", 1),
            ("letter", "not a rules document", 1),
        ],
    )
    def test_a_bad_pdf_is_refused_naming_the_file_and_page(self, draw, message, page):
        with pytest.raises(ParseError) as refused:
            parse_document(small_pdf(draw), "upload.pdf")
        assert message in str(refused.value) and str(refused.value).startswith(
            f"upload.pdf: page {page}: "
        )

    def test_a_truncated_pdf_is_refused_naming_the_file_and_page(self, ipg_2021):
        cut = ipg_2021[: len(ipg_2021) * 2 // 3]
        with pytest.raises(ParseError, match=r"^cut\.pdf: page \d+: .*truncated"):
            parse_document(cut, "cut.pdf")
