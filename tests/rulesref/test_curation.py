"""Rules curation: upload -> parse task -> pending -> review -> publish / discard / roll back,
through the staff API and the Django admin, on the real Comprehensive Rules files."""

from __future__ import annotations

import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import include, path
from django.utils.html import escape
from rest_framework.test import APIClient

import judgeapp.urls
from rulesref import curation, tasks
from rulesref.models import Document, GlossaryTerm, Rule, Version, VersionEvent
from rulesref.parsing.documents import parse_document
from rulesref.parsing.records import RuleKind
from tests.conftest import RULES_DIR, needs_history

# The staff API is mounted here until judgeapp.urls includes rulesref.curation_urls; afterwards the
# duplicate route is harmless (the first match wins and both lead to the same views).
urlpatterns = [path("api/v1/", include("rulesref.curation_urls")), *judgeapp.urls.urlpatterns]
pytestmark = [pytest.mark.django_db, pytest.mark.urls(__name__)]

# not among the base documents conftest publishes
NEW_CR = RULES_DIR / "cr" / "MagicCompRules-20220218.txt"
CURRENT_CR = RULES_DIR / "cr" / "MagicCompRules-20250207.txt"


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


@pytest.fixture
def api(people):
    """API clients for the named people: head_judge (staff), floor_judge (not staff),
    stranger (anonymous)."""
    clients = {name: APIClient() for name in people}
    for name, user in people.items():
        if user is not None:
            clients[name].force_authenticate(user)
    return clients


def upload_file(
    file_path, name: str | None = None, content: bytes | None = None
) -> SimpleUploadedFile:
    raw = file_path.read_bytes() if content is None else content
    return SimpleUploadedFile(name or file_path.name, raw, content_type="text/plain")


def db_state() -> dict:
    """Everything a refused request must leave as it was."""
    return {
        "versions": list(
            Version.objects.order_by("pk").values_list(
                "pk", "status", "is_current", "progress", "error"
            )
        ),
        "events": VersionEvent.objects.count(),
        "rules": Rule.objects.count(),
        "glossary": GlossaryTerm.objects.count(),
        "documents": Document.objects.count(),
    }


def current_cr() -> Version:
    return Version.objects.get(document__slug="cr", is_current=True)


def post_upload(client, django_capture_on_commit_callbacks, file: SimpleUploadedFile, **extra):
    with django_capture_on_commit_callbacks(execute=True):
        return client.post("/api/v1/admin/versions", {"file": file, **extra}, format="multipart")


class UploadTests:
    @needs_history
    def test_real_cr_upload_is_parsed_by_the_task_into_a_pending_version_with_its_counts(
        self, api, people, django_capture_on_commit_callbacks
    ):
        before = current_cr()
        response = post_upload(
            api["head_judge"], django_capture_on_commit_callbacks, upload_file(NEW_CR)
        )
        assert response.status_code == 202, response.content
        body = response.json()
        assert response["Location"] == body["url"]
        status = api["head_judge"].get(body["url"]).json()
        parsed = parse_document(NEW_CR.read_bytes(), NEW_CR.name)
        assert status["status"] == "pending" and status["progress"] == 100 and status["error"] == ""
        assert status["effective_date"] == "2022-02-18"
        assert status["counts"] == {
            "rules": len(parsed.counted_rules),
            "examples": parsed.example_count,
            "glossary": len(parsed.glossary),
        }
        version = Version.objects.get(pk=body["id"])
        # The counts describe the rows actually stored.
        assert (
            version.rules.exclude(kind=RuleKind.CHAPTER.value).count() == status["counts"]["rules"]
        )
        assert version.glossary.count() == status["counts"]["glossary"]
        assert version.uploaded_by == people["head_judge"] and version.source_name == NEW_CR.name
        assert version.upload.read() == NEW_CR.read_bytes()
        assert current_cr() == before and not version.is_current

    @needs_history
    def test_status_shows_parsing_until_the_task_runs_and_a_redelivered_task_does_nothing(
        self, api
    ):
        body = (
            api["head_judge"]
            .post("/api/v1/admin/versions", {"file": upload_file(NEW_CR)}, format="multipart")
            .json()
        )
        # Without the commit callbacks the task has not run: the version waits, at 0%.
        assert body["status"] == "parsing" and body["progress"] == 0
        tasks.parse_upload(body["id"])
        assert api["head_judge"].get(body["url"]).json()["status"] == "pending"
        stored = db_state()
        tasks.parse_upload(body["id"])  # the same message delivered twice
        assert db_state() == stored

    @needs_history
    def test_truncated_file_becomes_a_failed_version_with_file_and_line(
        self, api, django_capture_on_commit_callbacks
    ):
        before, raw = db_state(), NEW_CR.read_bytes()
        cut = raw[: len(raw) // 3]
        response = post_upload(
            api["head_judge"], django_capture_on_commit_callbacks, upload_file(NEW_CR, content=cut)
        )
        assert response.status_code == 202
        status = api["head_judge"].get(response.json()["url"]).json()
        assert status["status"] == "failed" and status["progress"] == 100
        match = re.match(rf"^{re.escape(NEW_CR.name)}:(\d+): \S", status["error"])
        assert match, status["error"]
        assert 1 <= int(match[1]) <= cut.count(b"\n") + 1
        assert status["counts"] == {"rules": 0, "examples": 0, "glossary": 0}
        after = db_state()
        assert after["versions"][:-1] == before["versions"], "no other version changed"
        assert (after["rules"], after["glossary"]) == (before["rules"], before["glossary"])

    @needs_history
    def test_binary_file_named_as_a_cr_becomes_a_failed_version_naming_the_line(
        self, api, django_capture_on_commit_callbacks
    ):
        current = current_cr()
        content = b"Magic: The Gathering Comprehensive Rules\n\n" + bytes(range(256)) * 8
        response = post_upload(
            api["head_judge"],
            django_capture_on_commit_callbacks,
            upload_file(NEW_CR, name="MagicCompRules-20990101.txt", content=content),
        )
        version = Version.objects.get(pk=response.json()["id"])
        assert version.status == Version.Status.FAILED and version.document.slug == "cr"
        # The NUL byte is on the third line (the bytes 0..255 start it).
        assert version.error.startswith("MagicCompRules-20990101.txt:3: binary content"), (
            version.error
        )
        assert current_cr() == current

    @needs_history
    def test_binary_file_is_placed_under_the_document_the_uploader_names(
        self, api, django_capture_on_commit_callbacks
    ):
        response = post_upload(
            api["head_judge"],
            django_capture_on_commit_callbacks,
            upload_file(NEW_CR, name="scan.bin", content=b"\x00\x01" * 100),
            document="cr",
        )
        version = Version.objects.get(pk=response.json()["id"])
        assert (version.status, version.document.slug) == (Version.Status.FAILED, "cr")
        assert version.error.startswith("scan.bin:1: ")

    @needs_history
    def test_file_that_names_no_document_is_refused_and_nothing_is_stored(self, api):
        before = db_state()
        response = api["head_judge"].post(
            "/api/v1/admin/versions",
            {"file": upload_file(NEW_CR, name="scan.bin", content=b"\x00" * 50)},
            format="multipart",
        )
        assert response.status_code == 400
        assert response.json()["error"]["code"] == "invalid_upload"
        assert "document" in response.json()["error"]["message"]
        assert db_state() == before

    def test_the_same_bytes_twice_are_refused(self, api):
        before = db_state()
        response = api["head_judge"].post(
            "/api/v1/admin/versions", {"file": upload_file(CURRENT_CR)}, format="multipart"
        )
        assert response.status_code == 409
        error = response.json()["error"]
        assert error["code"] == "already_stored" and error["details"]["version"] == current_cr().pk
        assert db_state() == before


class PublishTests:
    def pending(self, api, capture) -> Version:
        response = post_upload(api["head_judge"], capture, upload_file(NEW_CR))
        return Version.objects.get(pk=response.json()["id"])

    @needs_history
    def test_publishing_records_who_and_from_which_version_to_which(
        self, api, people, django_capture_on_commit_callbacks
    ):
        before, version = current_cr(), self.pending(api, django_capture_on_commit_callbacks)
        response = api["head_judge"].post(f"/api/v1/admin/versions/{version.pk}/publish")
        assert response.status_code == 200, response.content
        event = VersionEvent.objects.filter(document__slug="cr").first()
        assert (event.action, event.actor, event.from_version, event.to_version) == (
            VersionEvent.Action.PUBLISH,
            people["head_judge"],
            before,
            version,
        )
        body = response.json()
        assert body["event"]["from"]["id"] == before.pk and body["event"]["to"]["id"] == version.pk
        assert body["event"]["actor"] == people["head_judge"].username
        assert current_cr() == version
        before.refresh_from_db()
        # The replaced version stays stored, published, with its rules.
        assert before.status == Version.Status.PUBLISHED and before.rules.exists()

    @needs_history
    def test_roll_back_restores_the_previous_version_and_is_recorded(
        self, api, people, django_capture_on_commit_callbacks
    ):
        before, version = current_cr(), self.pending(api, django_capture_on_commit_callbacks)
        api["head_judge"].post(f"/api/v1/admin/versions/{version.pk}/publish")
        response = api["head_judge"].post("/api/v1/admin/documents/cr/rollback")
        assert response.status_code == 200, response.content
        assert current_cr() == before
        event = VersionEvent.objects.filter(document__slug="cr").first()
        assert (event.action, event.actor, event.from_version, event.to_version) == (
            VersionEvent.Action.ROLLBACK,
            people["head_judge"],
            version,
            before,
        )
        # Publishing the rolled-back version again is allowed: it stayed stored.
        assert (
            api["head_judge"].post(f"/api/v1/admin/versions/{version.pk}/publish").status_code
            == 200
        )
        assert current_cr() == version

    @needs_history
    def test_roll_back_to_a_chosen_date(self, api):
        response = api["head_judge"].post(
            "/api/v1/admin/documents/cr/rollback", {"to": "2022-04-29"}, format="json"
        )
        assert response.status_code == 200, response.content
        assert current_cr().effective_date.isoformat() == "2022-04-29"
        assert response.json()["event"]["to"]["effective_date"] == "2022-04-29"
        # The version rolled back from is withdrawn: no later day finds it in effect, and a
        # version published after the roll-back does not bring it back for the days between.
        for day in ("2025-02-07", "2026-01-01"):
            found = api["head_judge"].get(f"/api/v1/rules/cr/100.1?as_of={day}").json()
            assert found["version"]["effective_date"] == "2022-04-29", (day, found["version"])
        from rulesref.lookup import withdrawn

        left = Version.objects.get(document__slug="cr", effective_date="2025-02-07")
        assert withdrawn("cr") == {left.pk}
        # published again (or any later publish naming it): in effect again from its date
        api["head_judge"].post(f"/api/v1/admin/versions/{left.pk}/publish")
        assert withdrawn("cr") == set()
        found = api["head_judge"].get("/api/v1/rules/cr/100.1?as_of=2026-01-01").json()
        assert found["version"]["effective_date"] == "2025-02-07"

    @needs_history
    def test_a_roll_back_over_several_versions_withdraws_every_one_it_skips(
        self, api, django_capture_on_commit_callbacks
    ):
        oldest = self.pending(api, django_capture_on_commit_callbacks)  # the CR of 2022-02-18
        middle = Version.objects.get(document__slug="cr", effective_date="2022-04-29")
        newest = current_cr()  # 2025-02-07
        for version in (oldest, middle, newest):
            assert (
                api["head_judge"].post(f"/api/v1/admin/versions/{version.pk}/publish").status_code
                == 200
            )
        api["head_judge"].post(
            "/api/v1/admin/documents/cr/rollback", {"to": "2022-02-18"}, format="json"
        )
        assert current_cr() == oldest
        found = api["head_judge"].get("/api/v1/rules/cr/100.1?as_of=2026-01-01").json()
        assert found["version"]["effective_date"] == "2022-02-18"

    @needs_history
    def test_two_roll_backs_leaving_the_same_version_do_not_undo_each_other(
        self, api, django_capture_on_commit_callbacks
    ):
        """Issue 29: each names the version it leaves; the second finds another current: 409."""
        before, version = current_cr(), self.pending(api, django_capture_on_commit_callbacks)
        api["head_judge"].post(f"/api/v1/admin/versions/{version.pk}/publish")
        leaving = {"from": version.effective_date.isoformat()}
        first = api["head_judge"].post(
            "/api/v1/admin/documents/cr/rollback", leaving, format="json"
        )
        assert first.status_code == 200, first.content
        assert current_cr() == before
        state = db_state()
        second = api["head_judge"].post(
            "/api/v1/admin/documents/cr/rollback", leaving, format="json"
        )
        assert second.status_code == 409, second.content
        error = second.json()["error"]
        assert error["code"] == "conflict"
        assert error["details"]["current"] == before.effective_date.isoformat()
        assert db_state() == state and current_cr() == before

    def test_roll_back_to_an_unknown_date_is_404_and_changes_nothing(self, api):
        before = db_state()
        response = api["head_judge"].post(
            "/api/v1/admin/documents/cr/rollback", {"to": "2001-01-01"}, format="json"
        )
        assert response.status_code == 404 and response.json()["error"]["code"] == "not_found"
        assert db_state() == before

    @needs_history
    def test_discard_is_recorded_and_the_same_file_may_be_uploaded_again(
        self, api, people, django_capture_on_commit_callbacks
    ):
        version = self.pending(api, django_capture_on_commit_callbacks)
        response = api["head_judge"].post(f"/api/v1/admin/versions/{version.pk}/discard")
        assert response.status_code == 200 and response.json()["version"]["status"] == "discarded"
        assert VersionEvent.objects.filter(
            action=VersionEvent.Action.DISCARD, to_version=version, actor=people["head_judge"]
        ).exists()
        again = post_upload(
            api["head_judge"], django_capture_on_commit_callbacks, upload_file(NEW_CR)
        )
        assert again.status_code == 202, again.content
        assert api["head_judge"].get(again.json()["url"]).json()["status"] == "pending"

    def test_the_current_version_cannot_be_discarded(self, api):
        before = db_state()
        response = api["head_judge"].post(f"/api/v1/admin/versions/{current_cr().pk}/discard")
        assert response.status_code == 409 and response.json()["error"]["code"] == "cannot_publish"
        assert db_state() == before

    @needs_history
    def test_a_failed_version_cannot_be_published(self, api, django_capture_on_commit_callbacks):
        response = post_upload(
            api["head_judge"],
            django_capture_on_commit_callbacks,
            upload_file(NEW_CR, content=NEW_CR.read_bytes()[:5000]),
        )
        before = db_state()
        publish = api["head_judge"].post(f"/api/v1/admin/versions/{response.json()['id']}/publish")
        assert publish.status_code == 409
        assert db_state() == before


class PermissionTests:
    @pytest.mark.parametrize(
        "who, status_code, code",
        [("floor_judge", 403, "permission_denied"), ("stranger", 403, "not_authenticated")],
    )
    @needs_history
    def test_only_staff_may_upload_publish_discard_or_roll_back(
        self, api, who, status_code, code, django_capture_on_commit_callbacks
    ):
        pending = post_upload(
            api["head_judge"], django_capture_on_commit_callbacks, upload_file(NEW_CR)
        ).json()["id"]
        before = db_state()
        client = api[who]
        requests = [
            client.post(
                "/api/v1/admin/versions",
                {"file": upload_file(NEW_CR, name="again.txt")},
                format="multipart",
            ),
            client.get(f"/api/v1/admin/versions/{pending}"),
            client.post(f"/api/v1/admin/versions/{pending}/publish"),
            client.post(f"/api/v1/admin/versions/{pending}/discard"),
            client.post("/api/v1/admin/documents/cr/rollback", {"to": "2022-04-29"}, format="json"),
        ]
        for response in requests:
            assert response.status_code == status_code, response.content
            assert response.json()["error"]["code"] == code
        assert db_state() == before

    def test_reading_the_rules_stays_public(self, api):
        assert api["stranger"].get("/api/v1/documents").status_code == 200

    def test_admin_pages_send_non_staff_to_the_login_page(self, people):
        client = Client()
        client.force_login(people["floor_judge"])
        version = current_cr()
        for url in (
            f"/admin/rulesref/version/{version.pk}/review/",
            "/admin/rulesref/version/upload/",
        ):
            response = client.get(url)
            assert response.status_code == 302 and "/admin/login/" in response["Location"]
        before = db_state()
        client.post(f"/admin/rulesref/version/{version.pk}/discard/")
        assert db_state() == before


class AdminPagesTests:
    @pytest.fixture
    def staff(self, people):
        client = Client()
        client.force_login(people["head_judge"])
        return client

    @needs_history
    def test_upload_form_parses_and_leads_to_the_review_page(
        self, staff, people, django_capture_on_commit_callbacks
    ):
        with NEW_CR.open("rb") as handle, django_capture_on_commit_callbacks(execute=True):
            response = staff.post(
                "/admin/rulesref/version/upload/", {"file": handle, "document": ""}
            )
        version = Version.objects.get(source_name=NEW_CR.name)
        assert (
            response.status_code == 302
            and response["Location"] == f"/admin/rulesref/version/{version.pk}/review/"
        )
        assert (
            version.status == Version.Status.PENDING and version.uploaded_by == people["head_judge"]
        )

    @needs_history
    def test_review_page_of_a_pending_version_shows_counts_and_the_publish_and_discard_buttons(
        self, staff, api, django_capture_on_commit_callbacks
    ):
        version = Version.objects.get(
            pk=post_upload(
                api["head_judge"], django_capture_on_commit_callbacks, upload_file(NEW_CR)
            ).json()["id"]
        )
        page = staff.get(f"/admin/rulesref/version/{version.pk}/review/")
        assert page.status_code == 200
        html = page.content.decode()
        assert f"{version.rule_count} rules" in html and "Pending review" in html
        assert 'value="Publish"' in html and 'value="Discard"' in html
        assert str(current_cr()) in html, "the review compares with the current version"
        review = page.context["review"]
        assert review.notes_unavailable == ""
        for item in review.release_notes[:20]:
            assert str(item["number"] or item["old_number"]) in html

    @needs_history
    def test_review_page_shows_changed_references_old_and_new_side_by_side(
        self, staff, api, monkeypatch, django_capture_on_commit_callbacks
    ):
        version = Version.objects.get(
            pk=post_upload(
                api["head_judge"], django_capture_on_commit_callbacks, upload_file(NEW_CR)
            ).json()["id"]
        )
        # The product's citations, stood in by one registered owner: the loop rules were 725.x in
        # 2022 and are 729.x in 2025 (shared/rules/README.md); 100.1 kept its number and text.
        from rulesref import citing

        monkeypatch.setattr(citing, "_references", {})
        citing.register_references(
            "test",
            [
                "cr@2025-02-07:729.3",
                "cr@2025-02-07:729.4",
                "cr@2025-02-07:100.1",
                "mtr@2019-06-06:4.4",
            ],
        )
        page = staff.get(f"/admin/rulesref/version/{version.pk}/review/")
        review = page.context["review"]
        assert review.references_unavailable == ""
        assert review.references_checked == 3, "only this document's references are checked"
        rows = {row["ref"]: row for row in review.changed_references}
        assert (
            rows["cr@2025-02-07:729.4"]["old_number"],
            rows["cr@2025-02-07:729.4"]["new_number"],
        ) == ("729.4", "725.4")
        assert "cr@2025-02-07:100.1" not in rows
        current, html = current_cr(), page.content.decode()
        for row in rows.values():
            # Each side shows the text of the rule in that version with its examples, escaped as
            # the page escapes it.
            for side, stored in (("old", current), ("new", version)):
                rule = stored.rules.get(number=row[f"{side}_number"])
                assert row[f"{side}_text"].startswith(rule.text)
                assert all(f"Example: {e}" in row[f"{side}_text"] for e in rule.examples)
            assert (
                row["ref"] in html
                and escape(row["old_text"]) in html
                and escape(row["new_text"]) in html
            )

    @needs_history
    def test_publish_and_discard_buttons_work(
        self, staff, api, people, django_capture_on_commit_callbacks
    ):
        first = Version.objects.get(
            pk=post_upload(
                api["head_judge"], django_capture_on_commit_callbacks, upload_file(NEW_CR)
            ).json()["id"]
        )
        staff.post(f"/admin/rulesref/version/{first.pk}/publish/")
        assert current_cr() == first
        assert VersionEvent.objects.filter(
            action="publish", to_version=first, actor=people["head_judge"]
        ).exists()
        page = staff.get(f"/admin/rulesref/version/{first.pk}/review/").content.decode()
        assert "is current" in page and 'value="Publish"' not in page
        other = RULES_DIR / "cr" / "MagicCompRules-20211119.txt"
        second = Version.objects.get(
            pk=post_upload(
                api["head_judge"], django_capture_on_commit_callbacks, upload_file(other)
            ).json()["id"]
        )
        response = staff.post(f"/admin/rulesref/version/{second.pk}/discard/")
        assert response.status_code == 302
        second.refresh_from_db()
        assert second.status == Version.Status.DISCARDED and current_cr() == first

    @needs_history
    def test_review_page_of_a_failed_version_shows_the_parser_message(
        self, staff, api, django_capture_on_commit_callbacks
    ):
        response = post_upload(
            api["head_judge"],
            django_capture_on_commit_callbacks,
            upload_file(NEW_CR, content=NEW_CR.read_bytes()[:5000]),
        )
        version = Version.objects.get(pk=response.json()["id"])
        html = staff.get(f"/admin/rulesref/version/{version.pk}/review/").content.decode()
        assert version.error and version.error.split(": ")[0] in html
        assert 'value="Publish"' not in html

    @needs_history
    def test_roll_back_page_offers_earlier_published_versions_and_rolls_back(self, staff, people):
        document = Document.objects.get(slug="cr")
        older = Version.objects.get(document=document, effective_date="2022-04-29")
        page = staff.get(f"/admin/rulesref/document/{document.pk}/rollback/")
        assert page.status_code == 200
        assert list(page.context["form"].fields["version"].queryset) == [older]
        staff.post(f"/admin/rulesref/document/{document.pk}/rollback/", {"version": older.pk})
        assert current_cr() == older
        event = VersionEvent.objects.first()
        # 2022-04-29 was published by import (never current here), so services records this as a
        # "publish" with the note "roll back"; who, from and to are what the audit needs.
        assert (event.from_version, event.to_version, event.actor, event.note) == (
            Version.objects.get(document=document, effective_date="2025-02-07"),
            older,
            people["head_judge"],
            "roll back",
        )

    def test_roll_back_action_on_the_document_list_leads_to_the_roll_back_page(self, staff):
        document = Document.objects.get(slug="cr")
        response = staff.post(
            "/admin/rulesref/document/", {"action": "roll_back", "_selected_action": [document.pk]}
        )
        assert (
            response.status_code == 302
            and response["Location"] == f"/admin/rulesref/document/{document.pk}/rollback/"
        )

    def test_change_lists_render_for_staff(self, staff):
        for url in (
            "/admin/rulesref/version/",
            "/admin/rulesref/versionevent/",
            "/admin/rulesref/document/",
            "/admin/jobs/job/",
        ):
            assert staff.get(url).status_code == 200, url
        html = staff.get("/admin/rulesref/version/").content.decode()
        assert "100%" in html  # progress of the stored versions


class KnownReferencesTests:
    """rulesref.citing: the features register what they cite; rulesref reads the registry, not
    their files."""

    @pytest.fixture
    def registry(self, monkeypatch):
        from rulesref import citing

        monkeypatch.setattr(citing, "_references", {})
        monkeypatch.setattr(citing, "_affected", {})
        return citing

    def test_registered_references_are_listed_sorted_once(self, registry):
        registry.register_references("a", ["cr@2025-02-07:729.4", "cr@2025-02-07:104.4b"])
        registry.register_references("b", lambda: ["ipg@2021-01-06:2.1", "cr@2025-02-07:729.4"])
        assert curation.known_references() == [
            "cr@2025-02-07:104.4b",
            "cr@2025-02-07:729.4",
            "ipg@2021-01-06:2.1",
        ]
        # an owner registering again replaces its entry
        registry.register_references("a", ["mtr@2019-06-06:4.4"])
        assert curation.known_references() == [
            "cr@2025-02-07:729.4",
            "ipg@2021-01-06:2.1",
            "mtr@2019-06-06:4.4",
        ]

    def test_a_malformed_reference_is_refused_naming_its_owner(self, registry):
        with pytest.raises(
            ValueError, match="engines cites malformed references: 'cr@2025-13:729.4'"
        ):
            registry.register_references("engines", ["cr@2025-02-07:729.4", "cr@2025-13:729.4"])
        registry.register_references("guides", lambda: ["cr@2025-02-07:"])
        with pytest.raises(ValueError, match="guides cites malformed"):
            registry.known_references()

    def test_the_real_engines_and_guides_are_registered_at_start_up(self):
        from engines import citations, shuffle_check, shuffles
        from guides import loader
        from guides import services as guide_services

        known = set(curation.known_references())
        for module in (citations, shuffles, shuffle_check):
            cited = {
                v
                for k, v in vars(module).items()
                if k.isupper() and isinstance(v, str) and "@" in v and not v.endswith(":")
            }
            assert cited and cited <= known, module.__name__
        # The JAR is cited by section title, spaces and all.
        assert (
            shuffle_check.CITE_JAR_UNWANTED == "jar@2019-01-21:General Unwanted Behaviors"
            and shuffle_check.CITE_JAR_UNWANTED in known
        )
        # built as CR + "104.3c": no text scan could find it
        assert citations.LOSE_EMPTY_LIBRARY in known
        for guide in guide_services.guides().values():
            assert set(loader.all_refs(guide)) <= known, guide.slug
