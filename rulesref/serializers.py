"""Shapes of the rules API's answers (docs/API.md). Plain functions: the output is not a
table row."""

from __future__ import annotations

from rulesref.models import Document, GlossaryTerm, Rule, Version


def version_summary(version: Version) -> dict:
    return {
        "effective_date": version.effective_date.isoformat() if version.effective_date else None,
        "current": version.is_current,
        "status": version.status,
        "title": version.title,
        "counts": {
            "rules": version.rule_count,
            "examples": version.example_count,
            "glossary": version.glossary_count,
        },
    }


def rule_detail(rule: Rule, *, children: list[str], section_title: str = "") -> dict:
    version = rule.version
    body = {
        "doc": version.document.slug,
        "number": rule.number,
        "title": rule.title,
        "kind": rule.kind,
        "text": rule.text,
        "examples": list(rule.examples),
        "parent": rule.parent or None,
        "children": children,
        "section_title": section_title,
        "version": {
            "effective_date": version.effective_date.isoformat(),
            "current": version.is_current,
        },
        "references": list(rule.references),
    }
    if rule.aliases:
        body["aliases"] = list(rule.aliases)
    if rule.fields:
        body["fields"] = dict(rule.fields)
    return body


def glossary_detail(term: GlossaryTerm) -> dict:
    return {
        "term": term.term,
        "definition": term.definition,
        "references": list(term.references),
        "aliases": list(term.aliases),
        "version": {"effective_date": term.version.effective_date.isoformat()},
    }


def document_listing(document: Document, *, include_pending: bool = False) -> dict:
    """Published versions; pending (unreviewed) ones too for staff."""
    shown = (
        (Version.Status.PUBLISHED, Version.Status.PENDING)
        if include_pending
        else (Version.Status.PUBLISHED,)
    )
    versions = sorted(
        (v for v in document.versions.all() if v.status in shown),
        key=lambda v: v.effective_date,
        reverse=True,
    )
    return {
        "doc": document.slug,
        "title": document.title,
        "versions": [version_summary(v) for v in versions],
    }
