"""Calls recorded from the shipped guides (judgeapp/guides/definitions): every conclusion naming an
IPG infraction with a Warning, reached by answering questions only, upgrades as the IPG says when
the same player gets it again at a Competitive event."""

from __future__ import annotations

import datetime as dt
import uuid
from collections import deque

import pytest

from calllog import penalties, recording, services
from calllog.models import Call
from guides import services as guide_services
from guides.schema import NodeKind

pytestmark = pytest.mark.django_db


def warning_paths(guide, rel: str = "competitive") -> dict[str, list[str]]:
    """Conclusion id -> the shortest list of answer labels reaching it through question nodes only,
    answering a question that asks the REL with `rel`."""
    paths: dict[str, list[str]] = {}
    queue = deque([(guide.start, [])])
    seen = {guide.start}
    while queue:
        node_id, answers = queue.popleft()
        node = guide.nodes[node_id]
        if node.kind is NodeKind.CONCLUSION:
            if node.infraction and node.penalty.competitive == "Warning":
                paths.setdefault(node_id, answers)
            continue
        if node.kind is not NodeKind.QUESTION:
            # inputs and computations need facts; their conclusions are walked by the guide tests
            continue
        for answer in node.answers:
            if dict(answer.set).get("rel") not in (None, rel):
                continue
            if answer.next not in seen:
                seen.add(answer.next)
                queue.append((answer.next, [*answers, answer.label]))
    return paths


def shipped():
    guide_services.guides.cache_clear()
    return guide_services.guides()


class RealGuideCallTests:
    def test_repeated_warnings_from_the_shipped_guides_upgrade_as_the_ipg_says(self, people):
        event = services.open_event(
            people["head_judge"], name="RCQ", date=dt.date(2026, 11, 22), rel="competitive"
        )
        checked = refused = 0
        kinds = set()
        for guide in shipped().values():
            for node_id, answers in warning_paths(guide).items():
                player = f"{guide.slug} {node_id}"
                got = []
                for _ in range(3):
                    body = {
                        "client_id": str(uuid.uuid4()),
                        "guide": guide.slug,
                        "answers": answers,
                        "conclusion": node_id,
                        "players": [player, "Opponent"],
                    }
                    call, created = recording.record_call(people["head_judge"], event, body)
                    assert created and call.conclusion == node_id
                    got.append(call.penalty)
                name = penalties.infraction_name(guide.nodes[node_id].infraction)
                category = penalties.category_of(name)
                if name == penalties.FTMGS:
                    expected = ["Warning"] * 3
                elif name == penalties.USC_MINOR:
                    # IPG 4.1: subsequent Unsporting Conduct - Minor infractions are Game Losses.
                    expected = ["Warning", "Game Loss", "Game Loss"]
                elif category == penalties.GAME_PLAY_ERROR:
                    expected = ["Warning", "Warning", "Game Loss"]
                elif category == penalties.TOURNAMENT_ERROR:
                    expected = ["Warning", "Game Loss", "Game Loss"]
                else:
                    expected = ["Warning"] * 3
                assert got == expected, (guide.slug, node_id, name)
                kinds.add("ftmgs" if name == penalties.FTMGS else category)
                checked += 1
        assert Call.objects.filter(event=event).count() == 3 * checked
        # Judged at another REL (the guide asked it): refused, never stored at this event's REL.
        for guide in shipped().values():
            for answers in warning_paths(guide, rel="regular").values():
                if guide_services.replay(guide.slug, answers)[1].facts.get("rel") != "regular":
                    continue
                body = {
                    "client_id": str(uuid.uuid4()),
                    "guide": guide.slug,
                    "answers": answers,
                    "players": ["Al"],
                }
                with pytest.raises(recording.RelMismatch):
                    recording.record_call(people["head_judge"], event, body)
                refused += 1
        assert refused >= 2 and Call.objects.filter(event=event).count() == 3 * checked
        assert checked >= 3, (
            "the shipped guides should reach several Warning conclusions by questions alone"
        )
        # Each rule is exercised by at least one shipped conclusion (25 of them when this
        # was written).
        assert kinds >= {penalties.GAME_PLAY_ERROR, penalties.TOURNAMENT_ERROR, "ftmgs"}, kinds


def test_unsporting_conduct_from_a_guide_is_named_as_the_ipg_titles_it(people):
    shipped()
    event = services.open_event(
        people["head_judge"], name="RCQ", date=dt.date(2026, 11, 22), rel="competitive"
    )
    guide = shipped()["infraction-finder"]
    paths = warning_paths(guide)
    (node_id,) = [
        n
        for n in paths
        if penalties.infraction_name(guide.nodes[n].infraction) == penalties.USC_MINOR
    ][:1]
    body = {
        "client_id": str(uuid.uuid4()),
        "guide": guide.slug,
        "answers": paths[node_id],
        "players": ["Ana Costa", "Ben Ito"],
    }
    from_guide, _ = recording.record_call(people["head_judge"], event, body)
    assert from_guide.infraction == "Unsporting Conduct - Minor"
    direct, _ = recording.record_call(
        people["head_judge"],
        event,
        {"client_id": str(uuid.uuid4()), "infraction": "4.1", "players": ["Ana Costa"]},
    )
    assert direct.infraction == from_guide.infraction and direct.computed_penalty == "Game Loss"
