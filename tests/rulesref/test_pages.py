"""The tablet pages on the real Comprehensive Rules (2022-04-29 and 2025-02-07, imported once
by conftest)."""

from __future__ import annotations

import html
import json
import re
from urllib.parse import urlencode

import pytest
from django.contrib.staticfiles import finders
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulesref.models import Rule, Version
from rulesref.pages.outline import outline_for
from tests.conftest import needs_history

pytestmark = pytest.mark.django_db
FIXTURE_SETTINGS = settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@pytest.fixture
def client():
    return Client()


@pytest.fixture
def current_cr():
    return Version.objects.get(document__slug="cr", is_current=True)


@pytest.fixture
def older_cr(current_cr):
    return (
        Version.objects.filter(document__slug="cr", effective_date__lt=current_cr.effective_date)
        .order_by("-effective_date")
        .first()
    )


def static_text(name: str) -> str:
    with open(finders.find(name), encoding="utf-8") as handle:
        return handle.read()


def visible_text(page: str) -> str:
    """What a reader sees: tags dropped, entities decoded, spaces collapsed."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", page)).split())


def article(page: str, number: str) -> str:
    match = re.search(rf'<article [^>]*id="r-{re.escape(number)}">(.*?)</article>', page, re.DOTALL)
    assert match is not None, f"no block for {number}"
    return match.group(1)


class HomePageTests:
    def test_home_lists_documents_with_their_effective_date(self, client, current_cr):
        page = client.get("/").content.decode()
        assert 'action="/jump/"' in page
        assert "/rules/cr/" in page
        assert (
            current_cr.effective_date.strftime("%B") in page
            and str(current_cr.effective_date.year) in page
        )

    def test_pages_need_no_login(self, client):
        for url in ["/", "/rules/cr/", "/rules/cr/729.3/", "/glossary/", "/search/?q=trample"]:
            assert client.get(url).status_code == 200, url

    def test_documents_are_listed_in_the_order_judges_use_them(self, client):
        page = client.get("/").content.decode()
        shown = re.findall(r'<h2><a href="/rules/(\w+)/"', page)
        order = ["cr", "mtr", "ipg", "jar"]
        assert shown == [d for d in order if d in shown] and "cr" in shown


class RulePageTests:
    def test_rule_shows_its_text_and_example(self, client, current_cr):
        rule = Rule.objects.get(version=current_cr, number="729.3")
        assert rule.examples, "729.3 has an example in the 2025 CR"
        block = visible_text(article(client.get("/rules/cr/729.3/").content.decode(), "729.3"))
        assert " ".join(rule.text.split()) in block
        for example in rule.examples:
            assert " ".join(example.split()) in block

    def test_cited_rules_are_links(self, client, current_cr):
        rule = Rule.objects.get(version=current_cr, number="729.4")
        assert rule.references, "729.4 cites 104.4b and 104.4f"
        block = article(client.get("/rules/cr/729.4/").content.decode(), "729.4")
        for number in rule.references:
            assert re.search(
                rf'<a class="ref" href="/rules/cr/{re.escape(number)}/">{re.escape(number)}</a>',
                block,
            ), number

    @FIXTURE_SETTINGS
    @given(data=st.data())
    def test_every_cited_rule_that_exists_is_linked_and_no_word_is_lost(
        self, client, current_cr, data
    ):
        cited = list(
            Rule.objects.filter(version=current_cr)
            .exclude(references=[])
            .exclude(kind="chapter")
            .values_list("number", flat=True)
        )
        number = data.draw(st.sampled_from(cited))
        rule = Rule.objects.get(version=current_cr, number=number)
        response = client.get(f"/rules/cr/{number}/")
        block = article(response.content.decode(), number)
        outline = outline_for(current_cr)
        for ref in rule.references:
            if (
                ref in outline
                and ref != number
                and re.search(
                    rf"(?<![\d.]){re.escape(ref)}(?![\d a-z])", rule.text + " ".join(rule.examples)
                )
            ):
                assert f'href="/rules/cr/{ref}/"' in block, (number, ref)
        # Links and term marks only wrap words; the text a reader sees is the rule's
        # text, unchanged.
        assert " ".join(rule.text.split()) in visible_text(block)

    def test_every_rule_of_every_document_keeps_its_words_and_links_what_it_cites(self):
        """All current documents, every paragraph: markup only wraps words, and each cited rule that
        exists is a link (CR numbers and ranges, "section 8", "sections 2-4", "Appendix F")."""
        from rulesref.pages.content import renderer_for

        problems = []
        for version in Version.objects.filter(is_current=True).select_related("document"):
            renderer, outline = renderer_for(version), outline_for(version)
            for rule in Rule.objects.filter(version=version):
                seen: set[int] = set()
                for paragraph in [rule.text, *rule.examples]:
                    out = str(
                        renderer.render(
                            paragraph,
                            references=rule.references,
                            seen_terms=seen,
                            skip_number=rule.number,
                        )
                    )
                    if visible_text(out) != " ".join(paragraph.split()):
                        problems.append((version.document.slug, rule.number, "text changed"))
                    for ref in rule.references:
                        shown = re.search(rf"(?<![\d.]){re.escape(ref)}(?![\d a-z])", paragraph)
                        if (
                            ref in outline
                            and ref != rule.number
                            and shown
                            and f"/{ref}/" not in out
                        ):
                            problems.append((version.document.slug, rule.number, ref))
        assert problems == []

    def test_section_page_lists_every_subrule_in_order(self, client, current_cr):
        page = client.get("/rules/cr/729/").content.decode()
        expected = list(
            Rule.objects.filter(version=current_cr, number__startswith="729.")
            .order_by("position")
            .values_list("number", flat=True)
        )
        shown = re.findall(r'<article [^>]*id="r-(729\.[^"]+)"', page)
        assert shown == expected and len(expected) > 5
        assert "Taking Shortcuts" in page

    def test_big_section_is_fetched_in_a_few_queries(
        self, client, current_cr, django_assert_max_num_queries
    ):
        client.get("/rules/cr/702/")  # fills the per-version caches
        # 700 subrules in one query; the rest is the banner, the switcher and the section's history.
        with django_assert_max_num_queries(15):
            response = client.get("/rules/cr/702/")
        count = Rule.objects.filter(version=current_cr, number__startswith="702.").count()
        assert count > 300
        assert response.content.decode().count('<article class="rule') == count + 1

    def test_glossary_terms_are_explained_once_per_rule(self, client, current_cr):
        page = client.get("/rules/cr/729.3/").content.decode()
        popovers = json.loads(
            re.search(
                r'<script id="glossary-terms" type="application/json">(.*?)</script>',
                page,
                re.DOTALL,
            ).group(1)
        )
        by_term = {p["term"]: p for p in popovers}
        assert "Active Player" in by_term
        assert (
            by_term["Active Player"]["definition"]
            == current_cr.glossary.get(key="active player").definition
        )
        block = article(page, "729.3")
        marked = re.findall(r'<a class="term" href="[^"]+" data-term="(\d+)">', block)
        assert marked and len(marked) == len(set(marked))
        assert f'data-term="{by_term["Active Player"]["id"]}">active player</a>' in block

    def test_number_typed_loosely_redirects_to_the_rule(self, client):
        response = client.get("/rules/cr/7292a/")
        assert response.status_code == 302 and response["Location"] == "/rules/cr/729.2a/"

    def test_banner_says_which_version_and_since_when(self, client, current_cr):
        page = client.get("/rules/cr/729.3/").content.decode()
        banner = visible_text(
            re.search(r'<div class="banner[^"]*".*?</p>', page, re.DOTALL).group(0)
        )
        date = current_cr.effective_date
        assert f"Comprehensive Rules — effective {date:%B} {date.day}, {date.year}" in banner
        assert "current" in banner

    def test_unknown_number_is_a_404_page_with_nearest_rules(self, client):
        response = client.get("/rules/cr/729.9/")
        assert response.status_code == 404
        page = response.content.decode()
        suggested = re.findall(r'href="/rules/cr/([^/"]+)/"><span class="num">', page)
        assert "729.6" in suggested
        assert all(client.get(f"/rules/cr/{n}/").status_code == 200 for n in suggested)

    def test_unknown_document_is_a_404_page(self, client):
        assert client.get("/rules/xyz/1/").status_code == 404


class VersionTests:
    @needs_history
    def test_older_version_is_shown_with_a_warning_and_links_stay_in_it(
        self, client, current_cr, older_cr
    ):
        assert older_cr is not None
        old = older_cr.effective_date.isoformat()
        rule = Rule.objects.filter(version=older_cr, kind="section", title="Taking Shortcuts").get()
        response = client.get(f"/rules/cr/{rule.number}/?version={old}")
        page = response.content.decode()
        assert response.status_code == 200
        assert re.search(r'<div class="banner old"', page)
        assert (
            f"{older_cr.effective_date:%B} {older_cr.effective_date.day}, "
            f"{older_cr.effective_date.year}"
        ) in page
        assert "older version" in page
        assert f'href="/rules/cr/{rule.number}.1/?version={old}"' in page
        # The switcher offers both stored versions, the shown one selected.
        options = re.findall(r'<option value="([\d-]+)"( selected)?>', page)
        assert (old, " selected") in options and (
            current_cr.effective_date.isoformat(),
            "",
        ) in options

    @needs_history
    def test_text_comes_from_the_version_asked_for(self, client, current_cr, older_cr):
        old_rule = Rule.objects.filter(
            version=older_cr, kind="section", title="Taking Shortcuts"
        ).get()
        assert not Rule.objects.filter(
            version=current_cr, number=old_rule.number, title="Taking Shortcuts"
        ).exists()
        page = client.get(
            f"/rules/cr/{old_rule.number}/?version={older_cr.effective_date}"
        ).content.decode()
        assert "Taking Shortcuts" in page

    def test_unknown_version_date_is_a_404(self, client):
        assert client.get("/rules/cr/729.3/?version=1999-01-01").status_code == 404
        assert client.get("/rules/cr/729.3/?version=soon").status_code == 400


class JumpBoxTests:
    @pytest.mark.parametrize(
        "typed, target",
        [
            ("729.3", "/rules/cr/729.3/"),
            ("cr 704.5a", "/rules/cr/704.5a/"),
            ("CR 7292a", "/rules/cr/729.2a/"),
            ("702", "/rules/cr/702/"),
            ("729.9", "/rules/cr/729.9/"),  # not a rule: its page suggests the nearest
            ("cr", "/rules/cr/"),
        ],
    )
    def test_numbers_go_straight_to_the_rule(self, client, typed, target):
        response = client.get("/jump/?" + urlencode({"q": typed}))
        assert response.status_code == 302 and response["Location"] == target

    def test_words_search(self, client):
        response = client.get("/jump/?q=fragmented+loop")
        assert response.status_code == 302 and response["Location"] == "/search/?q=fragmented+loop"

    def test_named_rules_of_other_documents(self, client):
        ipg = Version.objects.get(document__slug="ipg", is_current=True)
        named = Rule.objects.filter(version=ipg).exclude(aliases=[]).first()
        assert named is not None, "IPG infractions carry short names (GRV, DEC, ...)"
        response = client.get("/jump/?" + urlencode({"q": named.aliases[0]}))
        assert response["Location"] == f"/rules/ipg/{named.number}/"


class GlossaryPageTests:
    def test_term_page_shows_definition_and_links_its_rules(self, client, current_cr):
        term = current_cr.glossary.get(key="trample")
        page = client.get("/glossary/Trample/").content.decode()
        assert " ".join(term.definition.split()) in visible_text(page)
        for number in term.references:
            assert f'href="/rules/cr/{number}/"' in page

    def test_term_is_found_by_any_spelling_case(self, client):
        assert client.get("/glossary/active%20player/").status_code == 200

    def test_unknown_term_is_a_404(self, client):
        assert client.get("/glossary/Flibbertigibbet/").status_code == 404

    def test_index_lists_every_term(self, client, current_cr):
        page = client.get("/glossary/").content.decode()
        assert page.count('<a class="row" href="/glossary/') == current_cr.glossary.count()


class HistoryPagesTests:
    def test_trace_page_renders_before_and_after_the_change_service_lands(self, client):
        response = client.get("/rules/cr/729.3/trace/")
        assert response.status_code == 200
        page = response.content.decode()
        assert "not available yet" in page or "/rules/cr/" in page

    @needs_history
    def test_changes_page_compares_with_the_previous_stored_version(
        self, client, current_cr, older_cr
    ):
        response = client.get(f"/changes/cr/{current_cr.effective_date}/")
        assert response.status_code == 200
        date = older_cr.effective_date
        assert f"{date:%B} {date.day}, {date.year}" in response.content.decode()

    def test_changes_of_the_current_version_by_default(self, client, current_cr):
        response = client.get("/changes/cr/")
        assert response["Location"] == f"/changes/cr/{current_cr.effective_date}/"


class DesignTests:
    def test_dark_mode_follows_the_system_and_a_remembered_toggle(self):
        css = static_text("judgeapp/app.css")
        assert "@media (prefers-color-scheme: dark)" in css and ':root[data-theme="dark"]' in css
        theme = static_text("judgeapp/theme.js")
        assert "localStorage" in theme

    def test_no_width_wider_than_a_portrait_tablet(self):
        css = static_text("judgeapp/app.css")
        css = re.sub(r"@media[^{]*\{", "{", css)  # breakpoints are not widths
        widths = [int(px) for px in re.findall(r"(?<![-\w])(?:min-)?width:\s*(\d+)px", css)]
        assert all(px <= 320 for px in widths), widths

    def test_touch_targets_are_at_least_44px(self):
        css = static_text("judgeapp/app.css")
        assert (
            re.search(r"--tap:\s*(\d+)px", css)
            and int(re.search(r"--tap:\s*(\d+)px", css).group(1)) >= 44
        )

    def test_service_worker_is_served_from_the_root_for_the_whole_site(self, client):
        response = client.get("/sw.js")
        assert response.status_code == 200
        assert response["Content-Type"].startswith("application/javascript")
        assert response["Service-Worker-Allowed"] == "/"
        assert "caches" in response.content.decode()

    def test_pages_are_set_up_for_a_tablet(self, client):
        page = client.get("/").content.decode()
        assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in page


class RenumberingTests:
    """The loop rules judges cite as 729.3-729.6 in 2025 were 725.3-725.6 in 2022 (rules README)."""

    @needs_history
    def test_trace_page_follows_the_rule_through_renumbering(self, client, current_cr, older_cr):
        from rulesref import changes

        changes.trace(current_cr, "729.3")
        page = client.get("/rules/cr/729.3/trace/").content.decode()
        assert f'href="/rules/cr/725.3/?version={older_cr.effective_date}"' in page

    @needs_history
    def test_rule_page_says_what_the_rule_was_numbered_before(self, client, current_cr, older_cr):
        from rulesref import changes

        history = changes.rule_history(current_cr, "729.3")
        assert any(w["number"] == "725.3" for w in history.get("was", []))
        page = visible_text(client.get("/rules/cr/729.3/").content.decode())
        date = older_cr.effective_date
        assert f"Was 725.3 in the version of {date:%B} {date.day}, {date.year}" in page

    @needs_history
    def test_what_changed_links_every_item_to_a_real_page(self, client, current_cr, older_cr):
        from rulesref import changes

        notes = changes.release_notes(older_cr, current_cr)
        url, links = f"/changes/cr/{current_cr.effective_date}/", []
        while url:  # the changes come a page at a time: follow the pager to the last page
            page = client.get(url).content.decode()
            links += re.findall(r'<a class="num" href="(/rules/cr/[^"]+)"', page)
            after = re.search(r'<a class="button next" href="([^"]+)"', page)
            url = (
                f"/changes/cr/{current_cr.effective_date}/" + html.unescape(after.group(1))
                if after
                else ""
            )
        assert len(links) == len([n for n in notes if n.get("number") or n.get("old_number")])
        for url in links[:20]:
            assert client.get(html.unescape(url)).status_code == 200, url

    def test_rule_page_never_waits_for_the_differ(self, client):
        from rulesref.models import VersionPairing

        VersionPairing.objects.all().delete()
        page = client.get("/rules/cr/729.3/").content.decode()
        assert VersionPairing.objects.count() == 0
        assert 'href="/rules/cr/729.3/trace/"' in page

    @needs_history
    def test_version_switcher_follows_the_rule_not_its_number(self, client, current_cr, older_cr):
        from rulesref import changes

        changes.trace(current_cr, "729.3")
        page = client.get("/rules/cr/729.3/").content.decode()
        assert f'<input type="hidden" name="from" value="{current_cr.effective_date}">' in page
        response = client.get(
            f"/rules/cr/729.3/?version={older_cr.effective_date}&from={current_cr.effective_date}"
        )
        assert response["Location"] == f"/rules/cr/725.3/?version={older_cr.effective_date}"
        back = client.get(
            f"/rules/cr/725.3/?version={current_cr.effective_date}&from={older_cr.effective_date}"
        )
        assert back["Location"] == "/rules/cr/729.3/"

    @needs_history
    def test_switching_to_a_version_without_the_rule_says_so(self, client, current_cr, older_cr):
        from rulesref import changes

        steps = changes.trace(current_cr, "100.2d")
        assert (
            next(s for s in steps if s["effective_date"] == older_cr.effective_date.isoformat())[
                "number"
            ]
            is None
        )
        response = client.get(
            f"/rules/cr/100.2d/?version={older_cr.effective_date}&from={current_cr.effective_date}"
        )
        assert response.status_code == 404
        assert "has no counterpart" in response.content.decode()


class OtherDocumentTests:
    def test_ipg_infraction_page_shows_its_structured_parts(self, client):
        ipg = Version.objects.get(document__slug="ipg", is_current=True)
        infraction = (
            Rule.objects.filter(version=ipg).exclude(fields={}).order_by("position").first()
        )
        assert infraction is not None, (
            "IPG infractions carry their definition, philosophy, penalty..."
        )
        page = client.get(f"/rules/ipg/{infraction.number}/").content.decode()
        block = visible_text(article(page, infraction.number))
        for key, value in infraction.fields.items():
            assert key.replace("_", " ").strip().capitalize() in block
            first = value[0] if isinstance(value, list) else str(value).split("\n")[0]
            assert " ".join(first.split())[:60] in block

    def test_ipg_downgrades_are_shown_as_their_own_part(self, client):
        """IPG 3.1's "Downgrade:" paragraph and 3.2's Downgrade box are not shown under Upgrade
        or Philosophy."""
        for number, part_before, words in (
            ("3.1", "upgrade", "arrives at their seat before 1 minute"),
            ("3.2", "philosophy", "information that the player would have access to between games"),
        ):
            page = client.get(f"/rules/ipg/{number}/").content.decode()
            section = re.search(
                r'<section class="field field-downgrade" '
                rf'id="r-{re.escape(number)}-downgrade">(.*?)</section>',
                page,
                re.S,
            )
            assert section is not None, number
            assert "Downgrade" in visible_text(section.group(1)) and words in visible_text(
                section.group(1)
            )
            before = re.search(
                rf'id="r-{re.escape(number)}-{part_before}">(.*?)</section>', page, re.S
            )
            assert before is not None and words not in visible_text(before.group(1))
            assert page.index(f'id="r-{number}-{part_before}"') < page.index(
                f'id="r-{number}-downgrade"'
            )

    def test_jar_pages_are_titled_by_their_situation_never_by_a_number(self, client):
        """The JAR prints no numbers: its sections are named by their headings wherever a judge
        reads them. The addresses keep the stored numbers (/rules/jar/1.3/)."""
        jar = Version.objects.get(document__slug="jar", is_current=True)
        rules = list(Rule.objects.filter(version=jar).order_by("position"))
        situation = next(r for r in rules if r.kind == "rule" and r.title)
        numbers = {r.number for r in rules}
        shown = re.compile(
            r"(?<![\w./-])(?:"
            + "|".join(re.escape(n) for n in sorted(numbers, key=len, reverse=True))
            + r")(?![\w.])"
        )
        # Where pages name rules: the title, headings, crumbs, pager, contents rows, results' heads,
        # number chips.
        naming = re.compile(
            r"<title>(.*?)</title>|<h[1-4][^>]*>(.*?)</h[1-4]>|<nav "
            r'class="(?:crumbs|pager)"[^>]*>(.*?)</nav>|<summary>(.*?)</summary>|class="(?:num|where|hit-head|row|ref '  # noqa: E501
            r'chip)"[^>]*>(.*?)</(?:a|span)>',  # noqa: E501
            re.S,
        )

        def assert_no_jar_number(page: str, where: str) -> None:
            named = [visible_text("".join(m)) for m in naming.findall(page)]
            found = [(text, shown.findall(text)) for text in named if shown.findall(text)]
            assert not found, f"{where} shows JAR numbers: {found}"
            # "1.3" in any text at all
            dotted = [n for n in shown.findall(visible_text(page)) if "." in n]
            assert not dotted, f"{where} shows JAR numbers {dotted}"

        for r in rules:
            page = client.get(f"/rules/jar/{r.number}/").content.decode()
            title = visible_text(re.search(r"<title>(.*?)</title>", page, re.S).group(1))
            assert title.startswith(html.unescape(r.title)), title
            assert_no_jar_number(page, f"page {r.number}")
        head = visible_text(
            article(
                client.get(f"/rules/jar/{situation.number}/").content.decode(), situation.number
            )
        )
        assert head.startswith(situation.title)
        contents = client.get("/rules/jar/").content.decode()
        assert next(r.title for r in rules if r.number == situation.parent) in html.unescape(
            contents
        )
        assert_no_jar_number(contents, "contents")
        for url in ("/search/?", "/search/fragment/?"):
            results = client.get(
                url + urlencode({"q": situation.title, "doc": "jar"})
            ).content.decode()
            assert f'href="/rules/jar/{situation.number}/' in results
            assert_no_jar_number(results, url)
        trace = client.get(f"/rules/jar/{situation.number}/trace/").content.decode()
        assert situation.title in html.unescape(trace)
        assert_no_jar_number(trace, "trace")
        api = client.get(f"/api/v1/rules/jar/{situation.number}").json()
        assert (api["doc"], api["number"], api["title"]) == (
            "jar",
            situation.number,
            situation.title,
        )

    def test_other_documents_keep_their_numbers_in_titles(self, client):
        page = client.get("/rules/cr/729.3/").content.decode()
        assert re.search(r"<title>CR 729\.3", page)
        ipg = client.get("/rules/ipg/2.5/").content.decode()
        assert re.search(r"<title>IPG 2\.5 Game Play Error", ipg)

    @pytest.mark.parametrize("doc", ["mtr", "ipg", "jar"])
    def test_contents_of_other_documents(self, client, doc):
        version = Version.objects.get(document__slug=doc, is_current=True)
        page = client.get(f"/rules/{doc}/").content.decode()
        tops = Rule.objects.filter(version=version, parent="").order_by("position")
        for top in tops:
            assert f'href="/rules/{doc}/{top.number}/"' in page
