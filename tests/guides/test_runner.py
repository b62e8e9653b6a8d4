"""The pure runner: answers move through a guide, compute nodes wait for their result, replay
rebuilds the same state from the answers alone."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from guides import loader, runner
from guides.schema import NodeKind

GUIDE = loader.parse_guide(
    {
        "title": "Counting",
        "start": "rel",
        "facts": {"bonus": 0},
        "nodes": [
            {
                "id": "rel",
                "kind": "question",
                "text": "REL?",
                "answers": [
                    {"label": "Regular", "next": "n", "set": {"rel": "regular"}},
                    {
                        "label": "Competitive",
                        "next": "n",
                        "set": {"rel": "competitive", "bonus": 5},
                    },
                ],
            },
            {
                "id": "n",
                "kind": "input",
                "text": "How many?",
                "field": "n",
                "input": "int",
                "min": 0,
                "max": 100,
                "default": 3,
                "next": "who",
            },
            {
                "id": "who",
                "kind": "input",
                "text": "Who?",
                "field": "who",
                "input": "players",
                "next": "colour",
            },
            {
                "id": "colour",
                "kind": "input",
                "text": "Colour?",
                "field": "colour",
                "input": "choice",
                "choices": ["White", "Blue"],
                "next": "sum",
            },
            {
                "id": "sum",
                "kind": "compute",
                "computation": "game-outcome",
                "request": {
                    "values": ["$n", "$bonus"],
                    "first": "$who.0",
                    "by": {"$who.1": "$colour"},
                },
                "branch_on": "parity",
                "branches": {"even": "even"},
                "default": "check",
            },
            {
                "id": "check",
                "kind": "switch",
                "branch_on": "result.big",
                "branches": {"true": "big"},
                "default": "odd",
            },
            {
                "id": "even",
                "kind": "conclusion",
                "ruling": "even",
                "fix": "f",
                "refs": ["cr@2025-02-07:729.4"],
                "penalty": {"regular": "a", "competitive": "b", "professional": "c"},
            },
            {
                "id": "odd",
                "kind": "conclusion",
                "ruling": "odd",
                "fix": "f",
                "refs": ["cr@2025-02-07:729.4"],
                "penalty": {"regular": "a", "competitive": "b", "professional": "c"},
            },
            {
                "id": "big",
                "kind": "conclusion",
                "ruling": "big and odd",
                "fix": "f",
                "refs": ["cr@2025-02-07:729.4"],
                "penalty": {"regular": "a", "competitive": "b", "professional": "c"},
            },
        ],
    },
    source="counting.toml",
    default_slug="counting",
)


def adder(computation, request):
    total = sum(request["values"])
    return {
        "parity": "even" if total % 2 == 0 else "odd",
        "big": total > 50,
        "total": total,
        "seen": request,
    }


class AdvanceTests:
    def test_start_is_the_first_node_with_the_starting_facts(self):
        state = runner.start(GUIDE)
        assert (state.node_id, state.answers, state.path, dict(state.facts)) == (
            "rel",
            (),
            ("rel",),
            {"bonus": 0},
        )

    def test_an_answer_by_index_or_label_records_the_label_and_its_facts(self):
        by_index = runner.advance(GUIDE, runner.start(GUIDE), 1)
        by_label = runner.advance(GUIDE, runner.start(GUIDE), "  competitive ")
        assert by_index == by_label
        assert (
            by_index.answers == ("Competitive",)
            and by_index.facts["rel"] == "competitive"
            and by_index.facts["bonus"] == 5
        )

    def test_arriving_at_a_compute_node_builds_its_request_from_the_facts(self):
        state = runner.start(GUIDE)
        for answer in ("Regular", "7", "Ann, Bob", "blue"):
            state = runner.advance(GUIDE, state, answer)
        assert state.node_id == "sum" and state.needs_computation
        assert state.request == {"values": [7, 0], "first": "Ann", "by": {"Bob": "Blue"}}
        with pytest.raises(runner.AnswerError, match="waiting for its computation"):
            runner.advance(GUIDE, state, 0)
        done = runner.apply_result(GUIDE, state, adder("game-outcome", state.request))
        assert done.node_id == "odd" and done.path == (
            "rel",
            "n",
            "who",
            "colour",
            "sum",
            "check",
            "odd",
        )
        assert done.result["total"] == 7 and not done.needs_computation

    @pytest.mark.parametrize(
        ("node_answers", "message"),
        [
            ((), "not an answer"),
            (("Regular",), "at most 100"),
            (("Regular", 3), "two or more different players"),
            (("Regular", 3, ["Ann", "Bob"]), "must be one of"),
        ],
    )
    def test_bad_answers_are_refused(self, node_answers, message):
        state = runner.start(GUIDE)
        for answer in node_answers:
            state = runner.advance(GUIDE, state, answer)
        bad = {0: "Casual", 1: 101, 2: ["Ann", "Ann"], 3: "Green"}[len(node_answers)]
        with pytest.raises(runner.AnswerError, match=message):
            runner.advance(GUIDE, state, bad)

    def test_an_input_refuses_a_boolean_for_a_number(self):
        state = runner.advance(GUIDE, runner.start(GUIDE), 0)
        with pytest.raises(runner.AnswerError, match="whole number"):
            runner.advance(GUIDE, state, True)


class ReplayTests:
    @given(
        rel=st.sampled_from(["Regular", "Competitive"]),
        n=st.integers(0, 100),
        colour=st.sampled_from(["White", "Blue"]),
    )
    def test_the_conclusion_is_the_parity_of_the_sum_worked_out_independently(self, rel, n, colour):
        state = runner.replay(GUIDE, [rel, n, ["Ann", "Bob"], colour], adder)
        total = n + (5 if rel == "Competitive" else 0)
        expected = "even" if total % 2 == 0 else ("big" if total > 50 else "odd")
        assert state.node_id == expected
        assert GUIDE.nodes[state.node_id].kind is NodeKind.CONCLUSION

    @given(n=st.integers(0, 100))
    def test_replay_equals_answering_one_by_one(self, n):
        answers = ["Competitive", n, "Ann,Bob", "White"]
        state = runner.start(GUIDE)
        for answer in answers:
            state = runner.run_pending(GUIDE, runner.advance(GUIDE, state, answer), adder)
        assert runner.replay(GUIDE, answers, adder) == state

    def test_a_bad_answer_is_named_by_its_position(self):
        with pytest.raises(runner.AnswerError) as caught:
            runner.replay(GUIDE, ["Regular", 3, "Ann,Bob", "Green"], adder)
        assert caught.value.field == "answers[3]"

    def test_answers_after_the_conclusion_are_refused(self):
        with pytest.raises(runner.AnswerError) as caught:
            runner.replay(GUIDE, ["Regular", 4, "Ann,Bob", "White", "more"], adder)
        assert caught.value.field == "answers[4]" and "conclusion" in caught.value.message

    def test_a_fact_used_before_it_is_set_is_a_guide_error(self):
        guide = loader.parse_guide(
            {
                "slug": "broken",
                "title": "Broken",
                "start": "c",
                "nodes": [
                    {
                        "id": "c",
                        "kind": "compute",
                        "computation": "shuffle-check",
                        "request": {"rel": "$rel"},
                        "branch_on": "x",
                        "default": "end",
                    },
                    {
                        "id": "end",
                        "kind": "conclusion",
                        "ruling": "r",
                        "fix": "f",
                        "refs": ["cr@2025-02-07:729.4"],
                        "penalty": {"regular": "a", "competitive": "b", "professional": "c"},
                    },
                ],
            }
        )
        with pytest.raises(runner.GuideFlowError, match="'rel' is used before"):
            runner.start(guide)
