"""sync_rules beyond the CR: the MTR, IPG and JAR PDFs linked from the official
rules-documents page.

Wizards publishes the policy documents only as PDF, linked from one page
(settings.JUDGEAPP_SYNC_PAGES). `document_links` reads that page's links and keeps the ones to
a rules document (a PDF whose address or link text names the MTR, the IPG or Judging at Regular
REL, and the CR's TXT); `sync_with_pages` fetches the configured document URLs and those links,
parses everything before writing anything (rulesref.curation.sync_documents does the same for
the URLs alone), and stores each new document as a pending version: its review (release notes,
moved references, the guides it affects) is the one a new CR gets (curation.review_version).

A linked document whose version is already stored, from this file or another one (the same IPG
imported from its HTML rendering), is reported as already stored and left as it is.
"""

from __future__ import annotations

import re
import urllib.parse
from collections.abc import Sequence
from html.parser import HTMLParser
from pathlib import Path

from django.db import transaction

from rulesref import curation, services
from rulesref.models import Version
from rulesref.parsing.documents import parse_document
from rulesref.parsing.records import ParseError

DEFAULT_PAGES = ("https://magic.wizards.com/en/rules",)
_WANTED = re.compile(
    r"tournament[\s_%20-]*rules|(?<![a-z])mtr(?![a-z])|infraction[\s_%20-]*procedure|(?<![a-z])ipg(?![a-z])"
    r"|judging[\s_%20-]*at[\s_%20-]*regular|(?<![a-z])jar(?![a-z])"
    r"|comp(?:rehensive)?[\s_%20-]*rules",
    re.IGNORECASE,
)


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.links: list[tuple[str, str]] = []
        self._href: str | None = None
        self._text: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag == "a":
            self._href, self._text = dict(attrs).get("href"), []

    def handle_data(self, data):
        if self._href is not None:
            self._text.append(data)

    def handle_endtag(self, tag):
        if tag == "a" and self._href:
            self.links.append((self._href, " ".join("".join(self._text).split())))
            self._href = None


def document_links(page: str, base_url: str) -> list[str]:
    """Absolute URLs of the rules documents a page links to (PDF, or the CR's TXT), in
    page order."""
    reader = _Links()
    reader.feed(page)
    found: dict[str, None] = {}
    for href, text in reader.links:
        url = urllib.parse.urljoin(base_url, href.strip())
        path = urllib.parse.unquote(urllib.parse.urlparse(url).path)
        suffix = Path(path).suffix.lower()
        if suffix not in (".pdf", ".txt") or urllib.parse.urlparse(url).scheme not in (
            "http",
            "https",
        ):
            continue
        if _WANTED.search(Path(path).name) or _WANTED.search(text):
            found.setdefault(url, None)
    return list(found)


def sync_with_pages(
    urls: Sequence[str], pages: Sequence[str], *, timeout: float = 20.0, actor=None
) -> list[curation.SyncOutcome]:
    """Fetch `urls` and the rules documents linked from `pages`; store the new ones as pending.

    Every fetch and parse happens before anything is written: one that fails raises SyncError
    naming its URL and changes nothing.
    """
    if not urls and not pages:
        raise curation.SyncError(
            "no URLs to fetch: set JUDGEAPP_SYNC_URLS / JUDGEAPP_SYNC_PAGES or pass --url / --page"
        )
    fetched = [(url, curation.fetch_document(url, timeout=timeout), False) for url in urls]
    linked: list[str] = []
    for page_url in pages:
        raw = curation.fetch_document(page_url, timeout=timeout)
        links = document_links(raw.decode("utf-8", errors="replace"), page_url)
        if not links:
            raise curation.SyncError(
                f"{page_url} links to no rules document (has the page changed?)",
                details={"url": page_url},
            )
        linked.extend(link for link in links if link not in urls and link not in linked)
    fetched.extend((url, curation.fetch_document(url, timeout=timeout), True) for url in linked)
    parsed = []
    for url, raw, from_page in fetched:
        source = urllib.parse.unquote(Path(urllib.parse.urlparse(url).path).name) or url
        try:
            parsed.append(
                (url, source, parse_document(raw, source), services.content_hash(raw), from_page)
            )
        except ParseError as exc:
            raise curation.SyncError(
                f"{url} is not a rules document the parser accepts: {exc}", details={"url": url}
            ) from None
    outcomes = []
    with transaction.atomic():
        for url, source, document, digest, from_page in parsed:
            same_date = (
                Version.objects.filter(
                    document__slug=document.doc.value, effective_date=document.effective_date
                )
                .exclude(status__in=[Version.Status.FAILED, Version.Status.DISCARDED])
                .exclude(content_hash=digest)
                .first()
            )
            if from_page and same_date is not None:
                outcomes.append(
                    curation.SyncOutcome(
                        url,
                        document.doc.value,
                        document.effective_date.isoformat(),
                        same_date.pk,
                        False,
                        same_date.rule_count,
                    )
                )
                continue
            try:
                version, created = services.store_parsed(
                    document,
                    digest=digest,
                    source=source,
                    uploaded_by=curation._user_or_none(actor),
                )
            except ParseError as exc:
                raise curation.SyncError(f"{url}: {exc}", details={"url": url}) from None
            outcomes.append(
                curation.SyncOutcome(
                    url,
                    document.doc.value,
                    version.effective_date.isoformat(),
                    version.pk,
                    created,
                    version.rule_count,
                )
            )
    return outcomes
