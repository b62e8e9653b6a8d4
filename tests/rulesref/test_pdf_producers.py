"""PDFs from three producers import the same rules as the HTML they were printed from (issue 29):
the project's reportlab generator (made here), headless Chromium and LibreOffice (made once, in
tests/fixtures/pdf, see its README). Each is compared rule by rule (number, kind, title, text,
examples) with the HTML import of the same file; a browser's running header, footer and page
numbers must not reach any rule."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesref.parsing.documents import parse_document
from rulesref.parsing.records import ParsedDocument, RuleKind
from tests.conftest import rules_files
from tests.fixtures.pdfgen import build_pdf

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
PDFS = FIXTURES / "pdf"
IPG_2021 = next(p for p in rules_files("ipg") if "20210106" in p.name)

SMALL = ["ipg_2021_small", "mtr_2019_small", "jar_small"]
PRINTED = [
    ("chromium_ipg_2021_small.pdf", FIXTURES / "ipg_2021_small.html"),
    ("chromium_mtr_2019_small.pdf", FIXTURES / "mtr_2019_small.html"),
    ("chromium_jar_small.pdf", FIXTURES / "jar_small.html"),
    ("chromium_InfractionProcedureGuide-20210106.pdf", IPG_2021),
    ("libreoffice_ipg_2021_small.pdf", FIXTURES / "ipg_2021_small.html"),
    ("libreoffice_mtr_2019_small.pdf", FIXTURES / "mtr_2019_small.html"),
    ("libreoffice_InfractionProcedureGuide-20210106.pdf", IPG_2021),
]


def rules(parsed: ParsedDocument) -> list[tuple]:
    """What a judge reads of each rule. Whitespace is compared collapsed: a print shows no
    difference between two <p> set without a gap and a <br> inside one, and the reportlab test does
    the same."""

    def flat(text: str) -> str:
        return " ".join(text.split())

    return [
        (
            r.number,
            r.kind,
            r.title,
            flat(r.text),
            tuple(flat(e) for e in r.examples),
            sorted((k, flat(str(v))) for k, v in dict(r.fields or {}).items()),
            tuple(r.aliases),
        )
        for r in parsed.rules
    ]


def assert_same_rules(pdf: ParsedDocument, html: ParsedDocument, *, tables: bool = True) -> None:
    assert [r.number for r in pdf.rules] == [r.number for r in html.rules]
    for got, want in zip(rules(pdf), rules(html)):
        if not tables and want[1] is RuleKind.APPENDIX:
            assert got[:3] == want[:3]
            continue
        assert got == want, f"rule {want[0]} differs"
    assert (pdf.doc, pdf.effective_date, pdf.title) == (html.doc, html.effective_date, html.title)


@pytest.mark.parametrize("name", SMALL)
def test_reportlab_pdf_imports_the_html_rules(name):
    html = FIXTURES / f"{name}.html"
    pdf = build_pdf(html.read_bytes(), html.name)
    assert_same_rules(
        parse_document(pdf, f"{name}.pdf"), parse_document(html.read_bytes(), html.name)
    )


@pytest.mark.parametrize(("pdf_name", "html"), PRINTED, ids=[p for p, _ in PRINTED])
def test_printed_pdf_imports_the_html_rules(pdf_name, html):
    raw = (PDFS / pdf_name).read_bytes()
    assert len(raw) < 1_500_000
    parsed = parse_document(raw, pdf_name)
    # LibreOffice sets the IPG's Appendix A penalty table with cells wrapped over lines at other
    # heights than their row: that appendix is compared by number, kind and title only (known gap).
    tables = pdf_name != "libreoffice_InfractionProcedureGuide-20210106.pdf"
    assert_same_rules(parsed, parse_document(html.read_bytes(), html.name), tables=tables)
    furniture = ("file://", "/work/", "PM\n", "AM\n")
    assert not [r.number for r in parsed.rules if any(f in r.text + "\n" for f in furniture)]
