"""The REL is asked once on a guide page: by the guide's own question when it has one (no REL menu
beside it), else by the REL menu (the page without JavaScript; the script adds the event's REL)."""

from __future__ import annotations

import pytest

from guides import services as guide_services

pytestmark = pytest.mark.django_db


def asks_rel(guide) -> bool:
    return any(
        dict(a.set).get("rel")
        for n in guide.nodes.values()
        for a in getattr(n, "answers", ()) or ()
    )


class RelOnceTests:
    def test_each_guide_page_has_exactly_one_place_that_asks_the_rel(self, client):
        guides = guide_services.guides()
        assert any(asks_rel(g) for g in guides.values()) and not all(
            asks_rel(g) for g in guides.values()
        )
        for slug, guide in guides.items():
            html = client.get(f"/guides/{slug}/").content.decode()
            menu = 'id="guide-rel"' in html
            assert menu != asks_rel(guide), slug
            if asks_rel(guide):
                # The question is the first step shown.
                assert (
                    "Rules Enforcement Level"
                    in html.split('id="guide-step"')[1].split("</section>")[0]
                )
