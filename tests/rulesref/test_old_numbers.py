"""Old numbers lead to the new ones, on the real 2022 and 2025 CRs that conftest imports: "Taking
Shortcuts" was 725 in 2022 and is 729 in 2025 (shared/rules/README.md). The expected numbers are
read from the trace, and checked against that known renumbering."""

from __future__ import annotations

import pytest
from django.test import Client

from rulesref import changes, old_numbers
from rulesref.models import Version
from tests.conftest import needs_history

pytestmark = [pytest.mark.django_db, needs_history]


@pytest.fixture
def crs():
    old, new = Version.objects.filter(document__slug="cr").order_by("effective_date")
    assert (old.effective_date.isoformat(), new.effective_date.isoformat(), new.is_current) == (
        "2022-04-29",
        "2025-02-07",
        True,
    )
    return old, new


def now_in_2025(crs, number: str) -> str:
    old, new = crs
    steps = {s["effective_date"]: s["number"] for s in changes.trace(old, number)}
    return steps[new.effective_date.isoformat()]


def test_the_trace_takes_725_3_to_729_3(crs):
    assert now_in_2025(crs, "725.3") == "729.3"


def test_api_404_for_an_old_number_says_where_the_rule_is_now(crs):
    old, new = crs
    if new.rules.filter(number="725.3").exists():
        pytest.fail("725.3 exists in the 2025 CR; the test needs a number the current CR lacks")
    response = Client().get("/api/v1/rules/cr/725.3")
    assert response.status_code == 404
    error = response.json()["error"]
    assert error["code"] == "not_found"
    assert error["details"]["now"] == {
        "number": now_in_2025(crs, "725.3"),
        "version": "2025-02-07",
        "from": {"number": "725.3", "version": "2022-04-29"},
    }
    assert "725.3 in the CR of 2022-04-29 is now 729.3" in error["message"]
    assert error["details"]["suggestions"], "the nearest numbers are still offered"


def test_as_of_with_a_number_of_another_era_says_where_it_stands_then(crs):
    response = Client().get("/api/v1/rules/cr/729.3?as_of=2022-06-01")
    assert response.status_code == 404
    now = response.json()["error"]["details"]["now"]
    assert now == {
        "number": "725.3",
        "version": "2022-04-29",
        "from": {"number": "729.3", "version": "2025-02-07"},
    }
    assert Client().get("/api/v1/rules/cr/725.3?as_of=2022-06-01").json()["number"] == "725.3"


def test_a_number_no_version_ever_had_gives_no_now(crs):
    response = Client().get("/api/v1/rules/cr/799.9")
    assert response.status_code == 404 and "now" not in response.json()["error"]["details"]


def test_the_jump_box_opens_the_current_rule_with_a_line_saying_where_it_came_from(crs):
    client = Client()
    response = client.get("/jump/", {"q": "725.3"})
    assert response.status_code == 302 and response["Location"] == "/rules/cr/729.3/?was=725.3"
    page = client.get(response["Location"])
    html = page.content.decode()
    assert page.status_code == 200 and "725.3 in the CR of 2022-04-29 is now 729.3" in html
    assert "Taking Shortcuts" in html and "729.3" in html


def test_the_rule_page_of_an_old_number_opens_the_rule_it_became(crs):
    client = Client()
    response = client.get("/rules/cr/725.3/")
    assert response.status_code == 302 and response["Location"] == "/rules/cr/729.3/?was=725.3"
    assert "is now 729.3" in client.get(response["Location"]).content.decode()


def test_a_link_cannot_make_the_page_claim_a_renumbering(crs):
    html = Client().get("/rules/cr/729.3/", {"was": "100.1"}).content.decode()
    assert "is now" not in html and "100.1 in the CR" not in html


def test_results_as_you_type_say_where_an_old_number_went_and_nothing_else(crs):
    now = now_in_2025(crs, "725.3")
    fragment = Client().get("/search/fragment/", {"q": "725.3"}).content.decode()
    assert f"725.3 in the CR of 2022-04-29 is now {now}" in fragment
    assert f'href="/rules/cr/{now}/?was=725.3"' in fragment
    # the digits searched as words ("725", "3") answer nothing about a rule number
    assert 'class="hit"' not in fragment


def test_the_rule_page_says_a_renumbering_once(crs):
    now = now_in_2025(crs, "725.3")
    changes.rule_history(crs[1], now)  # the history aside is shown once the pairings exist
    html = Client().get(f"/rules/cr/{now}/", {"was": "725.3"}).content.decode()
    main = html.split('<main id="main">', 1)[1]
    assert main.count(">725.3<") + main.count("725.3 in the CR") == 1, main.count("725.3")
    assert "Trace it through every version" in main  # the history is there, without the old number


def test_a_number_that_named_another_rule_before_says_so_and_where_that_rule_is(crs):
    old, new = crs
    # 725.1 was "Taking Shortcuts" in 2022; 725.1 of 2025 is another rule.
    assert new.rules.filter(number="725.1").exists()
    went = now_in_2025(crs, "725.1")
    assert went not in (None, "725.1")
    changes.rule_history(new, "725.1")  # the pairings exist once a history was asked for
    assert old_numbers.reused(new, "725.1") == [
        {"number": "725.1", "from": "2022-04-29", "until": "2022-04-29", "now": went}
    ]
    main = Client().get("/rules/cr/725.1/").content.decode().split('<main id="main">', 1)[1]
    line = main.split('class="renumbered reused">', 1)[1].split("</p>", 1)[0]
    assert line.startswith("725.1 in the CR of April 29, 2022 was another rule, now <a href=")
    assert f">{went}</a>" in line
    words = new.rules.get(number=went).text[:30]
    assert words in line


def test_a_number_that_kept_its_rule_says_nothing_of_it(crs):
    old, new = crs
    assert now_in_2025(crs, "100.1") == "100.1"
    changes.rule_history(new, "100.1")
    assert old_numbers.reused(new, "100.1") == []
    assert "reused" not in Client().get("/rules/cr/100.1/").content.decode()


def test_the_oldest_version_has_nothing_before_it(crs):
    old, _ = crs
    assert old_numbers.reused(old, "725.1") == []
