"""Rules search: find the rules, sections and infractions that answer a judge's question.

The pure engine (standard library only; no Django, no numpy):
    text.py        words, stems, stopwords
    records.py     SearchEntry (what is indexed), SearchHit (what is answered), SearchIndex
    vocabulary.py  the shipped word tables: judge phrases, spoken words, card descriptions
    spoken.py      a question re-said in the rules' words; "Read as"
    index.py       building the index: BM25F fields, asked-as questions, typos, glossary, names
    query.py       reading a question into weighted words
    ranking.py     scoring and ordering: lexical, then blended with embeddings
    snippets.py    the text shown under a hit
    asked.py       the asked-as questions of questions/*.toml (the real ones read: questions/real/)
The optional embeddings (numpy): model.py (which model), embedder.py (the encoder), vectors.py
(what is embedded, keys, scoring). With Django: service.py (indexes of the current versions,
answers), vector_store.py (stored vectors), tasks.py (building them on a worker).

The names below are the engine's public face: `import search; search.search(index, q)`.
"""

from search.index import build_index, entries_from_document, is_heading_text, parent_number
from search.model import english_words
from search.ranking import search
from search.records import SearchEntry, SearchHit, SearchIndex
from search.spoken import spoken_rewrite, understood
from search.text import phrase_key, stem, terms, words
from search.vocabulary import (
    card_descriptions,
    compile_vocabulary,
    load_cards,
    load_spoken,
    load_vocabulary,
    shipped_spoken,
    shipped_words,
)

__all__ = [
    "SearchEntry",
    "SearchHit",
    "SearchIndex",
    "build_index",
    "card_descriptions",
    "compile_vocabulary",
    "english_words",
    "entries_from_document",
    "is_heading_text",
    "load_cards",
    "load_spoken",
    "load_vocabulary",
    "parent_number",
    "phrase_key",
    "search",
    "shipped_spoken",
    "shipped_words",
    "spoken_rewrite",
    "stem",
    "terms",
    "understood",
    "words",
]
