"""Curation under concurrency and oversized documents (issue 14).

The races run on PostgreSQL (`make test-stack`): two threads with their own connections publish or
import at the same moment. SQLite serialises writers, so they skip there (STYLE 5)."""

from __future__ import annotations

import threading

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection, connections
from rest_framework.test import APIClient

from rulesref import curation, services
from rulesref.models import Document, Version
from tests.conftest import RULES_DIR, needs_history

# not among the base documents conftest publishes
NEW_CR = RULES_DIR / "cr" / "MagicCompRules-20220218.txt"


def postgres_or_skip() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("the race needs concurrent transactions: PostgreSQL (`make test-stack`)")


def at_once(work, count: int = 2) -> list:
    """Run `work` in `count` threads released together; their answers (or exceptions), in order."""
    barrier = threading.Barrier(count)
    answers: list = [None] * count

    def run(i: int) -> None:
        try:
            barrier.wait()
            answers[i] = work()
        except Exception as exc:  # the test reads it
            answers[i] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return answers


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("rules_loaded")
class PublishRaceTests:
    @needs_history
    def test_two_publishes_of_one_version_give_one_success_and_one_409(self, django_user_model):
        postgres_or_skip()
        staff = django_user_model.objects.create_user(
            "curator", password="pw-curator", is_staff=True
        )
        parsed, digest = services.parse_file(NEW_CR)
        version, _ = services.store_parsed(parsed, digest=digest, source=NEW_CR.name)

        def publish():
            client = APIClient()
            client.force_authenticate(staff)
            return client.post(f"/api/v1/admin/versions/{version.pk}/publish", format="json")

        for _ in range(3):
            answers = at_once(publish)
            codes = sorted(a.status_code for a in answers)
            if codes == [200, 409]:
                break
            Version.objects.filter(pk=version.pk).update(is_current=False)
        assert codes == [200, 409], [a.content for a in answers]
        refused = next(a for a in answers if a.status_code == 409)
        assert refused["Content-Type"] == "application/json" and refused.json()["error"]["code"]
        assert Version.objects.filter(document__slug="cr", is_current=True).count() == 1


@pytest.mark.django_db(transaction=True)
class ImportRaceTests:
    @needs_history
    def test_two_identical_imports_at_once_both_succeed_one_already_stored(self):
        postgres_or_skip()
        outcomes = at_once(lambda: services.import_paths([NEW_CR]))
        assert not any(isinstance(o, Exception) for o in outcomes), outcomes
        created = sorted(o[0].created for o in outcomes)
        assert created == [False, True]
        assert "already stored" in next(o[0] for o in outcomes if not o[0].created).summary()
        assert Version.objects.filter(document__slug="cr", source_name=NEW_CR.name).count() == 1


@pytest.mark.django_db
class SizeCapTests:
    @needs_history
    def test_the_command_refuses_a_padded_document_before_parsing_it(self, tmp_path, settings):
        settings.JUDGEAPP_MAX_DOCUMENT_BYTES = 1_000_000
        padded = tmp_path / "MagicCompRules-20300101.txt"
        padded.write_bytes(NEW_CR.read_bytes() + b"Example: padding.\n" * 60_000)
        before = Version.objects.count()
        with pytest.raises(CommandError, match="more than the 1.0 MB"):
            call_command("import_rules", str(padded))
        assert Version.objects.count() == before

    @needs_history
    def test_the_api_upload_refuses_it_before_any_task(
        self, people, settings, tmp_path, monkeypatch
    ):
        settings.JUDGEAPP_MAX_DOCUMENT_BYTES = 1_000_000
        settings.MEDIA_ROOT = tmp_path
        from rulesref import tasks

        monkeypatch.setattr(
            tasks.parse_upload, "delay_on_commit", lambda *a: pytest.fail("a task was enqueued")
        )
        client = APIClient()
        client.force_authenticate(people["head_judge"])
        upload = SimpleUploadedFile(
            "MagicCompRules-20300101.txt", NEW_CR.read_bytes() + b"x" * 1_000_000
        )
        before = Version.objects.count()
        response = client.post("/api/v1/admin/versions", {"file": upload}, format="multipart")
        assert response.status_code == 413, response.content
        assert (
            response.json()["error"]["code"] == "too_large"
            and "MB" in response.json()["error"]["message"]
        )
        assert Version.objects.count() == before

    def test_the_default_cap_is_about_five_times_the_largest_real_document(self, settings):
        largest = max(p.stat().st_size for p in RULES_DIR.glob("*/*.*"))
        assert 4 * largest <= settings.JUDGEAPP_MAX_DOCUMENT_BYTES <= 8 * largest
        assert curation.document_limit() == settings.JUDGEAPP_MAX_DOCUMENT_BYTES


@pytest.mark.django_db
@needs_history
class PendingVersionTests:
    @pytest.fixture
    def pending(self):
        parsed, digest = services.parse_file(NEW_CR)
        version, _ = services.store_parsed(parsed, digest=digest, source=NEW_CR.name)
        assert version.status == Version.Status.PENDING
        return version

    def test_anonymous_and_judges_do_not_read_a_pending_version(self, pending, people):
        date = pending.effective_date.isoformat()
        judge = APIClient()
        judge.force_authenticate(people["floor_judge"])
        for client in (APIClient(), judge):
            assert client.get(f"/api/v1/rules/cr/100.1?version={date}").status_code == 404
            assert client.get(f"/api/v1/diff/cr?from={date}&to=2025-02-07").status_code == 404
            assert client.get(f"/api/v1/search?q=shortcut&doc=cr&version={date}").status_code == 404
            listed = {
                v["effective_date"]
                for d in client.get("/api/v1/documents").json()
                for v in d["versions"]
            }
            assert date not in listed

    def test_staff_read_it(self, pending, people):
        date = pending.effective_date.isoformat()
        staff = APIClient()
        staff.force_authenticate(people["head_judge"])
        assert staff.get(f"/api/v1/rules/cr/100.1?version={date}").status_code == 200
        assert staff.get(f"/api/v1/search?q=shortcut&doc=cr&version={date}").status_code == 200
        listed = {
            v["effective_date"]
            for d in staff.get("/api/v1/documents").json()
            for v in d["versions"]
        }
        assert date in listed
        assert Document.objects.filter(slug="cr").exists()
