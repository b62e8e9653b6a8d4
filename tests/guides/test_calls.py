"""guides/calls.py, the call beside an IPG search hit: the section's Downgrade carried beside its
Upgrade (IPG 3.1 Tardiness: "A player who arrives at their seat before 1 minute has elapsed in the
round receives a warning"; 3.2 Outside Assistance: "... the penalty is a Game Loss"), so the
penalty read off a search hit is never only the Penalty line where the IPG lowers it. On the real
IPG the session imports."""

from __future__ import annotations

import pytest

from guides import calls as guide_calls
from rulesref.models import Version

pytestmark = pytest.mark.django_db


def _sections() -> tuple[dict[str, dict], dict[str, dict]]:
    version = Version.objects.get(document__slug="ipg", is_current=True)
    fields = {r.number: r.fields or {} for r in version.rules.all()}
    return guide_calls.infraction_calls(version.pk, version.content_hash), fields


class DowngradeBesideTheHitTests:
    def test_tardiness_and_outside_assistance_carry_their_downgrade(self):
        calls, fields = _sections()
        for number, words in (("3.1", "before 1 minute"), ("3.2", "between games")):
            downgrade = " ".join(fields[number]["downgrade"].split())
            assert words in downgrade
            assert calls[number]["downgrade"] == downgrade
        assert calls["3.1"]["penalty"]["competitive"] == "Game Loss"
        assert calls["3.2"]["penalty"]["competitive"] == "Match Loss"

    def test_only_a_section_with_a_downgrade_carries_one(self):
        calls, fields = _sections()
        assert len(calls) >= 15
        for number, call in calls.items():
            assert ("downgrade" in call) == bool(fields[number].get("downgrade")), number
