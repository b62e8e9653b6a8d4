"""Importing cards, finding them, the rules they cite, the API and the pages (cards/)."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from rest_framework.test import APIClient

from cards import scryfall
from tests.cards.conftest import CARDS, RULINGS
from tests.conftest import needs_history

pytestmark = pytest.mark.django_db


def current_rule_titled(title: str, prefix: str) -> str:
    from rulesref.models import Rule

    rule = (
        Rule.objects.filter(
            version__is_current=True, version__document__slug="cr", number__startswith=prefix
        )
        .filter(text__iexact=title)
        .exclude(number__contains=" ")
        .order_by("position")
        .first()
        or Rule.objects.filter(
            version__is_current=True,
            version__document__slug="cr",
            number__startswith=prefix,
            title__iexact=title,
        ).first()
    )
    assert rule is not None, title
    return rule.number


class ImportTests:
    def test_import_counts_and_is_idempotent(self, imported):
        from cards import services
        from cards.models import Card, CardRuling, CardSync

        assert (
            imported.cards == Card.objects.count() == 17
            and imported.rulings == CardRuling.objects.count() == 6
        )
        assert imported.sync.status == CardSync.Status.SUCCEEDED
        again = services.import_bulk(CARDS, RULINGS)
        assert (again.added, again.updated, again.removed) == (0, 0, 0)

    def test_a_card_gone_from_the_file_is_removed_and_a_changed_one_updated(
        self, imported, tmp_path
    ):
        from cards import services
        from cards.models import Card

        cards = json.loads(CARDS.read_text(encoding="utf-8"))
        cards = [c for c in cards if c["name"] != "Opt"]
        bolt = next(c for c in cards if c["name"] == "Lightning Bolt")
        bolt["oracle_text"] = "Lightning Bolt deals 3 damage to any target. (edited)"
        path = tmp_path / "cards.json"
        path.write_text(json.dumps(cards))
        outcome = services.import_bulk(path, RULINGS)
        assert (outcome.added, outcome.updated, outcome.removed) == (0, 1, 1)
        assert not Card.objects.filter(name="Opt").exists()
        assert Card.objects.get(name="Lightning Bolt").oracle_text.endswith("(edited)")

    def test_a_bad_file_changes_nothing_and_says_why(self, imported, tmp_path):
        from cards.models import Card, CardSync

        before = sorted(Card.objects.values_list("name", "oracle_text"))
        truncated = tmp_path / "oracle-cards.json"
        truncated.write_text(CARDS.read_text(encoding="utf-8")[:5000])
        with pytest.raises(CommandError, match=r"oracle-cards.json, line \d+"):
            call_command("import_cards", str(truncated), str(RULINGS))
        assert sorted(Card.objects.values_list("name", "oracle_text")) == before
        failed = CardSync.objects.first()
        assert failed.status == CardSync.Status.FAILED and failed.message.startswith(
            "Cards not changed: oracle-cards.json, line"
        )

    def test_the_command_prints_one_line(self, db, capsys):
        call_command("import_cards", str(CARDS), str(RULINGS))
        assert capsys.readouterr().out.strip() == "cards: 17 (17 new, 0 changed, 0 gone), 6 rulings"


class RulesOfACardTests:
    def test_keywords_and_actions_lead_to_the_current_crs_rules(self, imported):
        from cards import services

        trample = current_rule_titled("Trample", "702.")
        assert {"doc": "cr", "number": trample, "title": "Trample"} in services.card_rules(
            services.find_card("Colossal Dreadmaw")
        )
        ephemerate = {r["title"] for r in services.card_rules(services.find_card("Ephemerate"))}
        # "cast" is only in its reminder text
        assert {"Exile", "Rebound"} <= ephemerate and "Cast" not in ephemerate
        assert "Scry" in {r["title"] for r in services.card_rules(services.find_card("Opt"))}
        assert {"Reveal", "Discard"} <= {
            r["title"] for r in services.card_rules(services.find_card("Thoughtseize"))
        }

    @needs_history
    def test_numbers_follow_the_current_version(self, imported):
        from cards import services
        from rulesref import services as rules
        from rulesref.models import Version

        current = Version.objects.get(document__slug="cr", is_current=True)
        older = Version.objects.get(document__slug="cr", effective_date="2022-04-29")
        in_2025 = services.card_rules(services.find_card("Colossal Dreadmaw"))
        rules.publish_version(older)
        try:
            in_2022 = services.card_rules(services.find_card("Colossal Dreadmaw"))
            assert [r["title"] for r in in_2022] == [r["title"] for r in in_2025]
            assert in_2022[0]["number"] == current_rule_titled("Trample", "702.")
        finally:
            rules.publish_version(current)


class CardApiTests:
    @pytest.fixture
    def api(self):
        return APIClient()

    @pytest.mark.parametrize(
        "typed", ["Thassa's Oracle", "thassas oracle", "THASSA’S ORACLE", "thasas oracle", "Thassa"]
    )
    def test_names_are_matched_tolerantly(self, api, imported, typed):
        body = api.get(f"/api/v1/cards/{typed}").json()
        assert body["name"] == "Thassa's Oracle"
        assert body["mana_cost"] == "{U}{U}" and body["type_line"] == "Creature — Merfolk Wizard"
        assert body["rulings"] == [
            {"date": "2020-01-24", "text": body["rulings"][0]["text"], "source": "wotc"}
        ]

    def test_a_face_name_finds_its_card(self, api, imported):
        assert (
            api.get("/api/v1/cards/Insectile Aberration").json()["name"]
            == "Delver of Secrets // Insectile Aberration"
        )
        assert api.get("/api/v1/cards/ice").json()["name"] == "Fire // Ice"

    def test_rulings_in_date_order_and_rules(self, api, imported):
        body = api.get("/api/v1/cards/platinum angel").json()
        assert [r["date"] for r in body["rulings"]] == ["2004-10-04", "2020-08-07"]
        assert {
            "doc": "cr",
            "number": current_rule_titled("Flying", "702."),
            "title": "Flying",
        } in body["rules"]

    def test_unknown_name_is_404_with_close_names(self, api, imported):
        response = api.get("/api/v1/cards/Angel")
        assert response.status_code == 404
        error = response.json()["error"]
        assert error["code"] == "not_found" and "Serra Angel" in error["details"]["close"]
        # the one card it starts
        assert api.get("/api/v1/cards/Lightning").json()["name"] == "Lightning Bolt"

    def test_bad_input_is_400_json(self, api, imported):
        assert api.get("/api/v1/cards/a%00b").status_code == 400
        assert api.get("/api/v1/cards/" + "x" * 300).json()["error"]["code"] == "invalid"
        assert api.get("/api/v1/cards?q=").status_code == 400

    def test_search(self, api, imported):
        body = api.get("/api/v1/cards?q=angel").json()
        assert {r["name"] for r in body["results"]} == {"Platinum Angel", "Serra Angel"}
        assert "Walking Ballista" in {
            r["name"] for r in api.get("/api/v1/cards?q=counter from").json()["results"]
        }


class CardPageTests:
    def test_card_page_with_rulings_and_rule_links(self, client, imported):
        page = client.get("/cards/Platinum Angel/").content.decode()
        assert "You can&#x27;t lose the game" in page and "2004-10-04" in page
        assert f'href="/rules/cr/{current_rule_titled("Flying", "702.")}/"' in page

    def test_a_tolerant_name_redirects_to_the_card(self, client, imported):
        response = client.get("/cards/platinum angle/")
        assert response.status_code == 302 and response["Location"] == "/cards/Platinum%20Angel/"

    def test_unknown_card_page_offers_close_names(self, client, imported):
        response = client.get("/cards/Angel/")
        assert response.status_code == 404 and "Serra Angel" in response.content.decode()


class SyncTests:
    """sync_cards against a local HTTP server that answers as Scryfall's bulk-data API does."""

    @pytest.fixture
    def scryfall(self, tmp_path, settings):
        import gzip
        import http.server
        import threading

        served = tmp_path / "served"
        served.mkdir()
        shutil.copy(RULINGS, served / "rulings.json")
        (served / "oracle-cards.json.gz").write_bytes(gzip.compress(CARDS.read_bytes()))

        class Handler(http.server.BaseHTTPRequestHandler):
            updated = "2026-11-24T10:00:00+00:00"
            cut_list = False  # the list of files cut short in transit
            cut_files = False  # the Oracle-cards file cut short in transit

            def do_GET(self):
                port = self.server.server_address[1]
                if self.path == "/bulk-data" and Handler.cut_list:
                    body = gzip.compress(b'{"object": "list", "data": []}' * 50)[:40]
                    self.send_response(200)
                    self.send_header("Content-Encoding", "gzip")
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                    return
                if self.path == "/bulk-data":
                    body = json.dumps(
                        {
                            "object": "list",
                            "data": [
                                {
                                    "object": "bulk_data",
                                    "type": "oracle_cards",
                                    "updated_at": Handler.updated,
                                    "download_uri": f"http://127.0.0.1:{port}/oracle-cards.json",
                                },
                                {
                                    "object": "bulk_data",
                                    "type": "rulings",
                                    "updated_at": Handler.updated,
                                    "download_uri": f"http://127.0.0.1:{port}/rulings.json",
                                },
                            ],
                        }
                    ).encode()
                    encoding = None
                elif self.path == "/oracle-cards.json":
                    body, encoding = (served / "oracle-cards.json.gz").read_bytes(), "gzip"
                    if Handler.cut_files:
                        body = body[:200]
                elif self.path == "/rulings.json":
                    body, encoding = (served / "rulings.json").read_bytes(), None
                else:
                    self.send_error(404)
                    return
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                if encoding:
                    self.send_header("Content-Encoding", encoding)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        settings.JUDGEAPP_SCRYFALL_BULK_URL = (
            f"http://127.0.0.1:{server.server_address[1]}/bulk-data"
        )
        yield Handler
        server.shutdown()

    def test_sync_imports_then_skips_files_it_has(self, scryfall, capsys):
        from cards.models import Card, CardSync

        call_command("sync_cards")
        assert Card.objects.count() == 17
        assert "succeeded" in capsys.readouterr().out
        call_command("sync_cards")
        assert CardSync.objects.first().status == CardSync.Status.UNCHANGED
        scryfall.updated = "2026-11-25T10:00:00+00:00"
        from cards import tasks

        tasks.sync_cards()  # the daily beat task
        assert CardSync.objects.first().status == CardSync.Status.SUCCEEDED

    def test_a_download_cut_short_is_a_failed_sync_with_a_message(self, scryfall):
        """A file or the list of files cut short in transit (a gzip stream ended early) is a failed
        sync with a message, never a traceback with the sync left "running" (cards audit F5, R3)."""
        from cards.models import CardSync

        for cut in ("cut_files", "cut_list"):
            setattr(scryfall, cut, True)
            with pytest.raises(CommandError, match="cut short or damaged"):
                call_command("sync_cards")
            sync = CardSync.objects.first()
            assert sync.status == CardSync.Status.FAILED and "cut short" in sync.message
            setattr(scryfall, cut, False)

    def test_an_unreachable_scryfall_changes_nothing(self, db, settings):
        from cards.models import CardSync

        settings.JUDGEAPP_SCRYFALL_BULK_URL = "http://127.0.0.1:9/bulk-data"
        with pytest.raises(CommandError, match="card sync failed, cards not changed"):
            call_command("sync_cards")
        assert CardSync.objects.first().status == CardSync.Status.FAILED

    def test_the_daily_task_is_scheduled(self, settings):
        assert any(
            entry["task"] == "cards.sync_cards" for entry in settings.CELERY_BEAT_SCHEDULE.values()
        )


class CardsAuditTests:
    """The cards audit's findings (2026-11-29): a file that would empty the table, wrong types, a
    download cut short, a NUL on the card page, the command's background vectors."""

    def _bulk(self, tmp_path, cards: list) -> Path:
        path = tmp_path / "oracle-cards.json"
        path.write_text(json.dumps(cards), encoding="utf-8")
        return path

    def test_an_empty_or_much_smaller_file_changes_nothing(self, imported, tmp_path):
        from cards import services
        from cards.models import Card, CardSync

        held = Card.objects.count()
        every = json.loads(CARDS.read_text(encoding="utf-8"))
        for cards, says in (([], "holds no cards"), (every[:2], "fewer than half")):
            with pytest.raises(services.SizeRefused, match=says):
                services.import_bulk(self._bulk(tmp_path, cards), RULINGS)
            assert Card.objects.count() == held
            sync = CardSync.objects.first()
            assert sync.status == CardSync.Status.FAILED
            assert sync.message.startswith("Cards not changed: oracle-cards.json holds")
        with pytest.raises(CommandError, match="cards not changed: oracle-cards.json holds no"):
            call_command("import_cards", str(self._bulk(tmp_path, [])), str(RULINGS))
        # the operator who means it
        cards = [c for c in every if c.get("object") == "card"][:2]
        services.import_bulk(self._bulk(tmp_path, cards), RULINGS, replace=True)
        assert Card.objects.count() < held

    @pytest.mark.parametrize(
        ("change", "says"),
        [
            ({"keywords": "Flying"}, "'keywords' must be a list of strings"),
            ({"color_identity": [1]}, "'color_identity' must be a list of strings"),
            ({"type_line": None, "card_faces": None}, "'type_line' is missing"),
            ({"scryfall_uri": "not a url"}, "is not a web address"),
            ({"name": "x" * 301}, "over 300 characters"),
        ],
    )
    def test_wrong_types_are_refused_naming_the_item(self, tmp_path, change, says):
        every = json.loads(CARDS.read_text(encoding="utf-8"))
        card = next(c for c in every if c.get("object") == "card" and not c.get("card_faces"))
        broken = {**card, **change}
        with pytest.raises(scryfall.BulkError, match=says):
            list(scryfall.read_cards(io.StringIO(json.dumps([broken])), "bulk.json"))

    def test_a_nul_on_the_card_page_is_no_error(self, client, imported):
        assert client.get("/cards/", {"q": "blood\x00moon"}).status_code in (200, 302)

    def test_the_command_waits_for_the_vectors_it_started(self):
        """With the embedded broker the vectors of the questions naming the new cards are computed
        in a thread of the command's process; a process that ends under it aborts (exit 134)."""
        import threading
        import time

        from cards.services import wait_for_search_vectors
        from search import tasks as search_tasks

        done = threading.Event()

        def build():
            time.sleep(0.3)
            done.set()
            with search_tasks._running_lock:
                search_tasks._running.pop(-1, None)

        thread = threading.Thread(target=build)
        with search_tasks._running_lock:
            search_tasks._running[-1] = thread
        thread.start()
        out = io.StringIO()
        wait_for_search_vectors(out)
        assert done.is_set() and "search vectors done" in out.getvalue()
