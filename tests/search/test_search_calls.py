"""From a policy hit to the call (issue 28, item 5): an IPG infraction among the search results
carries its penalty at each REL (Competitive and Professional from the imported IPG's Penalty line,
Regular from the infraction finder's conclusion) and the address that opens the finder there; in
GET /api/v1/search and on the results page. On the real IPG the session imports."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from guides import calls as guide_calls
from guides import services as guide_services
from guides.schema import NodeKind
from rulesref.models import Rule, Version

pytestmark = pytest.mark.django_db

QUESTION = "my opponent had a hidden card error, what is the penalty"


def _ipg_rules() -> dict[str, Rule]:
    return {
        r.number: r
        for r in Rule.objects.filter(version__document__slug="ipg", version__is_current=True)
    }


def _hce() -> dict:
    body = APIClient().get("/api/v1/search", {"q": QUESTION}).json()
    hits = [r for r in body["results"] if r["doc"] == "ipg" and r["number"] == "2.3"]
    assert hits, body["results"]
    return hits[0]


def test_an_infraction_hit_carries_its_penalty_at_each_rel():
    call = _hce()["call"]
    line = _ipg_rules()["2.3"].fields["penalty"]
    assert call["penalty"]["competitive"] == call["penalty"]["professional"] == line.strip()
    finder = guide_services.get_guide("infraction-finder")
    regulars = {
        n.penalty.regular
        for n in finder.nodes.values()
        if n.kind is NodeKind.CONCLUSION
        and n.penalty
        and n.infraction
        and n.infraction.casefold() in {a.casefold() for a in _ipg_rules()["2.3"].aliases}
    }
    assert call["penalty"]["regular"] in regulars
    assert call["infraction"] == _ipg_rules()["2.3"].title


def test_the_finder_link_opens_the_finder_at_that_infraction():
    call = _hce()["call"]
    assert call["finder"].startswith("/guides/infraction-finder/?")
    page = Client().get(call["finder"])
    assert page.status_code == 200
    html = page.content.decode()
    assert "Hidden Card Error" in html and call["penalty"]["competitive"] in html


def test_no_call_beside_a_rule_that_is_no_infraction():
    body = APIClient().get("/api/v1/search", {"q": "what does trample do", "limit": 20}).json()
    rules = _ipg_rules()
    for hit in body["results"]:
        infraction = hit["doc"] == "ipg" and rules[hit["number"]].fields.get("penalty")
        assert ("call" in hit) == bool(infraction), hit


def test_every_infraction_the_finder_concludes_on_has_its_own_penalty_line():
    version = Version.objects.get(document__slug="ipg", is_current=True)
    calls = guide_calls.infraction_calls(version.pk, version.content_hash)
    rules = _ipg_rules()
    assert len(calls) >= 15
    for number, call in calls.items():
        line = guide_calls.base_penalty(rules[number].fields["penalty"])
        # the Penalty line, or for "Warning with potential upgrade" (3.5) the Warning it is
        assert call["penalty"]["competitive"] == (
            "Warning" if line == "Warning with potential upgrade" else line
        )
        assert call["penalty"]["regular"]
    assert calls["3.5"]["penalty"]["competitive"] == "Warning"


def test_a_section_a_repeat_upgrades_says_so_beside_its_penalty():
    """IPG 4.1's Additional Remedy: "Subsequent Unsporting Conduct - Minor infractions, even for
    different offenses, will result in a Game Loss"; IPG 2 and 3 count Warnings by the day."""
    from search import calls as search_calls

    version = Version.objects.get(document__slug="ipg", is_current=True)
    search_calls.forget_calls()
    calls = search_calls.calls_for(version.pk, version.content_hash)
    assert (
        "Game Loss" in calls["4.1"]["repeat"]
        and "even for a different offense" in (calls["4.1"]["repeat"])
    )
    assert "Disqualification" in calls["4.2"]["repeat"]
    assert "third or subsequent Warning" in calls["2.3"]["repeat"]
    assert calls["2.6"]["repeat"].startswith("Never upgraded")
    # IPG 3 counts Warnings: Outside Assistance (a Match Loss, its Downgrade a Game Loss) has none
    assert "repeat" not in calls["3.2"]
    body = Client().get("/search/", {"q": "unsporting conduct minor penalty"}).content.decode()
    assert 'class="call-repeat"' in body


def test_the_results_page_shows_the_call():
    call = _hce()["call"]
    html = Client().get("/search/", {"q": QUESTION}).content.decode()
    assert 'class="call-finder" href="' + call["finder"].replace("&", "&amp;") + '"' in html
    assert "Competitive" in html and call["penalty"]["regular"] in html


def test_a_section_with_an_upgrade_says_it_beside_its_penalty():
    """IPG 2.1 Missed Trigger's Penalty line is "None", and its Upgrade makes a detrimental trigger
    a Warning: a missed Dark Confidant trigger shown as "No penalty" alone would be announced
    wrong. The call carries the section's Upgrade, on the results page too."""
    rules = _ipg_rules()
    question = "my opponent missed his dark confidant trigger, what is the penalty"
    body = APIClient().get("/api/v1/search", {"q": question}).json()
    (hit,) = [r for r in body["results"] if r["doc"] == "ipg" and r["number"] == "2.1"]
    upgrade = " ".join(rules["2.1"].fields["upgrade"].split())
    assert "detrimental" in upgrade and "Warning" in upgrade
    assert hit["call"]["penalty"]["competitive"] == "No penalty"
    assert hit["call"]["upgrade"] == upgrade
    page = Client().get("/search/", {"q": question}).content.decode()
    assert "call-upgrade" in page and "usually considered detrimental" in page
    # a section with no Upgrade carries none
    version = Version.objects.get(document__slug="ipg", is_current=True)
    for number, call in guide_calls.infraction_calls(version.pk, version.content_hash).items():
        assert ("upgrade" in call) == bool((rules[number].fields or {}).get("upgrade")), number


def test_a_section_with_a_downgrade_says_it_beside_its_penalty():
    """IPG 3.1 Tardiness is a Game Loss, and its Downgrade makes a player seated within the first
    minute a Warning: the results page shows it beside the penalty, as the API carries it."""
    rules = _ipg_rules()
    question = "player arrived late to his seat after the round started, what is the penalty"
    body = APIClient().get("/api/v1/search", {"q": question}).json()
    hits = [r for r in body["results"] if r["doc"] == "ipg" and r["number"] == "3.1"]
    assert hits, [(r["doc"], r["number"]) for r in body["results"]]
    downgrade = " ".join(rules["3.1"].fields["downgrade"].split())
    assert "1 minute" in downgrade and hits[0]["call"]["downgrade"] == downgrade
    page = Client().get("/search/", {"q": question}).content.decode()
    assert 'class="call-downgrade"' in page and "before 1 minute has elapsed" in page


def test_a_missed_trigger_hit_opens_the_finder_where_the_judge_says_whether_it_was_missed():
    """IPG 2.1: a trigger is missed only when awareness was not shown in time; the hit must not walk
    the judge past that to the Missed Trigger conclusion (a remembered trigger simply resolves)."""
    from urllib.parse import parse_qs, urlsplit

    from guides import calls, links

    version = Rule.objects.filter(version__document__slug="ipg", version__is_current=True).first()
    version = version.version
    call = calls.infraction_calls(version.pk, version.content_hash)["2.1"]
    answers = [int(a) for a in parse_qs(urlsplit(call["finder"]).query)["a"]]
    finder = guide_services.get_guide("infraction-finder")
    node = finder.nodes[finder.start]
    for index in answers:
        node = finder.nodes[node.answers[index].next]
    assert node.kind is NodeKind.QUESTION, node.id
    assert len(answers) < len(links.path_to(finder, "mt"))
    reachable = {n.next for n in node.answers}
    assert "mt-remembered" in {
        a.next
        for nid in reachable
        if finder.nodes[nid].kind is NodeKind.QUESTION
        for a in finder.nodes[nid].answers
    }
    # the page opens at that question, not at a conclusion
    html = Client().get(call["finder"]).content.decode()
    assert node.text in html.replace("&#x27;", "'").replace("&quot;", '"')
