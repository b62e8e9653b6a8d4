"""Property: whatever paragraphs and list items reportlab typesets (hyphenated at line ends, broken
over pages, set at any text width), the PDF reader gives back the same blocks, word for word."""

from __future__ import annotations

import io

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reportlab.lib.pagesizes import LETTER
from reportlab.platypus import BaseDocTemplate, Frame, PageTemplate, Paragraph

from rulesref.parsing.pdf import read_pages, strip_furniture
from rulesref.parsing.pdf_blocks import make_blocks
from tests.fixtures.pdfgen import _fonts, _styles

WORDS = st.sampled_from(
    "the a player judge opponent must reveal their hand library penalty warning infraction "
    "procedure communication tournament responsibilities unsportsmanlike misrepresentation "
    "reconsideration Knight Infamy Ancestral Recall game loss (seven) cards, turn. draws: "
    "it's triggered ability".split()
)
PARAGRAPH = st.lists(WORDS, min_size=1, max_size=90).map(" ".join)
BLOCK = st.tuples(st.sampled_from(["p", "li"]), PARAGRAPH)


def typeset(blocks: list[tuple[str, str]], width: float) -> bytes:
    _fonts()
    styles = _styles()
    buffer = io.BytesIO()
    doc = BaseDocTemplate(buffer, pagesize=LETTER, invariant=1)
    doc.addPageTemplates([PageTemplate("p", [Frame(72, 72, width, LETTER[1] - 144)])])
    story = []
    for kind, text in blocks:
        if kind == "li":
            story.append(Paragraph(text, styles["item"], bulletText="\u2022"))
        else:
            story.append(Paragraph(text, styles["body"]))
    doc.build(story)
    return buffer.getvalue()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    blocks=st.lists(BLOCK, min_size=1, max_size=40), width=st.integers(min_value=180, max_value=468)
)
def test_typeset_blocks_read_back_word_for_word(blocks, width):
    text = read_pages(typeset(blocks, width), "made.pdf")
    kept, _ = strip_furniture(text)
    read = [(b.kind, " ".join(b.text.split())) for b in make_blocks(kept)]
    assert read == [(kind, " ".join(words.split())) for kind, words in blocks]
