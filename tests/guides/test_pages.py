"""The guide pages without a browser: the list, a guide page with its data for the script, and the
walk a reader without JavaScript takes through the query string (?a=0&a=2...) to a conclusion."""

from __future__ import annotations

import datetime as dt
import json
import re
from html import unescape

import pytest

from guides import services as guide_services
from guides.schema import NodeKind
from tests.browser.guide_paths import conclusion_paths

pytestmark = pytest.mark.django_db


def step_of(html: str) -> tuple[str, str]:
    match = re.search(r'id="guide-step"[^>]*data-node="([^"]*)" data-kind="([^"]*)"', html)
    assert match, "no step on the page"
    return match[1], match[2]


def embedded(html: str, element_id: str):
    match = re.search(
        rf'<script id="{element_id}" type="application/json">(.*?)</script>', html, re.DOTALL
    )
    assert match, f"no {element_id} on the page"
    return json.loads(match[1])


class GuideListPageTests:
    def test_every_guide_is_listed_with_a_link_to_its_page(self, client):
        response = client.get("/guides/")
        assert response.status_code == 200
        page = response.content.decode()
        for guide in guide_services.guide_list():
            assert f'href="/guides/{guide["slug"]}/"' in page
            assert guide["title"] in unescape(page)


class GuideRunPageTests:
    def test_the_page_embeds_the_guide_as_the_api_serves_it(self, client):
        for slug in guide_services.guides():
            page = client.get(f"/guides/{slug}/").content.decode()
            assert embedded(page, "guide-data") == client.get(f"/api/v1/guides/{slug}").json()
            guide = guide_services.get_guide(slug)
            assert step_of(page) == (guide.start, guide.nodes[guide.start].kind.value)

    def test_an_unknown_guide_is_not_found(self, client):
        assert client.get("/guides/no-such-guide/").status_code == 404

    def test_a_question_offers_one_link_per_answer_carrying_the_answers_so_far(self, client):
        guide = guide_services.get_guide("shortcut-disputes")
        start = guide.nodes[guide.start]
        assert start.kind is NodeKind.QUESTION
        page = client.get("/guides/shortcut-disputes/?rel=regular").content.decode()
        links = re.findall(r'<a class="answer" href="([^"]*)">([^<]*)</a>', page)
        # One link an answer (shown under its group's heading: their order is the groups'), each
        # carrying its own index.
        assert sorted((unescape(href), unescape(label)) for href, label in links) == sorted(
            (f"?rel=regular&a={i}", a.label) for i, a in enumerate(start.answers)
        )

    def test_without_javascript_grouped_answers_show_under_the_same_headings(self, client):
        """The first shortcut question's answers under their `group` headings, as guides.js groups
        them: headings in the order they first appear, each answer under its own."""
        guide = guide_services.get_guide("shortcut-disputes")
        start = guide.nodes[guide.start]
        expected: dict[str, list[tuple[str, str]]] = {}
        for i, answer in enumerate(start.answers):
            expected.setdefault(answer.group, []).append((f"?rel=regular&a={i}", answer.label))
        assert len(expected) > 1 and "" not in expected, "the first question is grouped"
        page = client.get("/guides/shortcut-disputes/?rel=regular").content.decode()
        shown = {
            unescape(name): [
                (unescape(href), unescape(label))
                for href, label in re.findall(r'<a class="answer" href="([^"]*)">([^<]*)</a>', body)
            ]
            for name, body in re.findall(
                r'<details class="answer-group"><summary><span class="group-name">([^<]*)</span>'
                r"(.*?)</details>",
                page,
                re.DOTALL,
            )
        }
        assert list(shown) == list(expected)
        assert shown == expected
        # Each heading says how many answers it holds, as the script's does.
        counts = re.findall(r'<span class="group-count muted">(\d+) answers?</span>', page)
        assert [int(c) for c in counts] == [len(v) for v in expected.values()]

    def test_without_javascript_ungrouped_answers_are_one_list(self, client):
        guide = guide_services.get_guide("loop-resolution")
        start = guide.nodes[guide.start]
        assert not any(a.group for a in start.answers)
        page = client.get("/guides/loop-resolution/").content.decode()
        assert 'class="answer-group"' not in page
        assert len(re.findall(r'<a class="answer" href=', page)) == len(start.answers)

    def test_without_javascript_the_query_string_walks_to_every_conclusion(self, client):
        for slug, guide in guide_services.guides().items():
            for node_id, answers in conclusion_paths(guide).items():
                query = "&".join(
                    ["rel=professional"]
                    + [f"a={','.join(a) if isinstance(a, list) else a}" for a in answers]
                )
                response = client.get(f"/guides/{slug}/?{query}")
                page = unescape(response.content.decode())
                assert response.status_code == 200, (slug, answers)
                assert step_of(page) == (node_id, "conclusion"), (slug, answers)
                node = guide.nodes[node_id]
                assert node.ruling.strip() in page and node.fix.strip() in page
                # The REL asked for (in the address, or by the guide itself) is the highlighted row;
                # the others are there too.
                asked = guide_services.walk(slug, answers)["facts"].get("rel")
                rel = (
                    asked if asked in ("regular", "competitive", "professional") else "professional"
                )
                current = re.search(r'<tr class="current"><th>([^<]*)</th><td>([^<]*)</td>', page)
                assert (
                    current
                    and current[1] == rel.capitalize()
                    and current[2] == getattr(node.penalty, rel)
                )
                assert node.penalty.regular in page and node.penalty.competitive in page
                # Rules to show the players link to the rules pages, with their text.
                resolved = guide_services.node_data(node)["citations"]
                for citation in resolved:
                    if citation["number"]:
                        assert f'href="/rules/{citation["doc"]}/{citation["number"]}/"' in page
                # One breadcrumb per answer, and a back link that drops the last one.
                assert page.count('<li><span class="muted">') == len(answers)
                back = re.search(r'<a class="button back" href="([^"]*)">', page)
                assert back and unescape(back[1]).count("a=") == len(answers) - 1

    def test_an_answer_that_does_not_fit_starts_again_and_says_why(self, client):
        guide = guide_services.get_guide("shortcut-disputes")
        count = len(guide.nodes[guide.start].answers)
        response = client.get(f"/guides/shortcut-disputes/?a={count}")
        assert response.status_code == 400
        page = response.content.decode()
        assert "answers[0]" in page
        assert step_of(page) == (guide.start, "question")

    def test_an_input_step_is_a_form_that_keeps_the_answers_given(self, client):
        guide = guide_services.get_guide("loop-resolution")
        answers = next(
            a
            for _, a in sorted(conclusion_paths(guide).items(), key=lambda item: len(item[1]))
            if any(
                guide.nodes[p].kind is NodeKind.INPUT
                for p in guide_services.walk("loop-resolution", a)["path"]
            )
        )
        walked = guide_services.walk("loop-resolution", answers)
        asked = [
            p for p in walked["path"] if guide.nodes[p].kind in (NodeKind.QUESTION, NodeKind.INPUT)
        ]
        first_input = next(i for i, p in enumerate(asked) if guide.nodes[p].kind is NodeKind.INPUT)
        given = answers[:first_input]
        page = client.get(
            "/guides/loop-resolution/?" + "&".join(f"a={a}" for a in given)
        ).content.decode()
        assert step_of(page) == (asked[first_input], "input")
        hidden = re.findall(r'<input type="hidden" name="a" value="([^"]*)">', page)
        # in the REL switcher and in the input's own form
        assert hidden == [str(a) for a in given] * 2
        assert re.search(r'<input id="guide-input" name="a"', page)


class SaveCallOnThePageTests:
    def test_a_signed_in_judge_gets_their_events_and_a_csrf_cookie(self, client, people):
        from calllog import services as calllog

        judge = people["floor_judge"]
        event = calllog.open_event(
            judge, name="Regional Qualifier", date=dt.date(2026, 11, 21), rel="professional"
        )
        calllog.open_event(
            people["head_judge"], name="Someone else's event", date=dt.date(2026, 11, 21)
        )
        client.force_login(judge)
        response = client.get("/guides/shortcut-disputes/")
        events = embedded(response.content.decode(), "guide-events")
        assert events == [
            {
                "id": event.pk,
                "name": "Regional Qualifier",
                "date": "2026-11-21",
                "rel": "professional",
            }
        ]
        assert "csrftoken" in response.cookies
        assert 'data-signed-in="yes"' in response.content.decode()

    def test_a_reader_who_is_not_signed_in_gets_no_events(self, client):
        page = client.get("/guides/shortcut-disputes/").content.decode()
        assert embedded(page, "guide-events") == []
        assert 'data-signed-in="no"' in page
