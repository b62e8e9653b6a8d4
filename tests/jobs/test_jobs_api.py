"""Jobs through the API on the embedded default (eager Celery): create, wait, read, refuse, fail."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from jobs import services
from jobs.models import Job

pytestmark = pytest.mark.django_db
SHUFFLE = {"deck_size": 52, "procedure": [{"method": "riffle", "times": 7}]}


@pytest.fixture
def api():
    return APIClient()


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("rules_loaded")
class ShuffleJobTests:
    """Transactional: the job is enqueued when the request's transaction commits, as
    in production."""

    def test_wait_returns_the_finished_job(self, api):
        response = api.post("/api/v1/jobs/shuffle-analysis?wait=5", SHUFFLE, format="json")
        assert response.status_code == 200, response.content
        body = response.json()
        assert body["status"] == "succeeded" and body["kind"] == "shuffle-analysis"
        # Bayer and Diaconis: seven riffles of 52 cards leave a distance of 0.334.
        assert round(body["result"]["distance_from_random"], 3) == 0.334
        assert body["error"] is None

    def test_citations_are_in_the_current_numbering(self, api):
        body = api.post("/api/v1/jobs/shuffle-analysis?wait=5", SHUFFLE, format="json").json()
        cr = [c for c in body["result"]["citations"] if c["doc"] == "cr"]
        assert cr, body["result"]["citations"]
        texts = []
        for citation in cr:
            rule = api.get(f"/api/v1/rules/cr/{citation['number']}").json()
            assert rule["version"]["current"] is True
            # the citation carries the current text of that number
            assert rule["text"] == citation["text"]
            texts.append(rule["text"].lower())
        assert any("shuffle" in text for text in texts)

    def test_without_wait_answers_202_and_the_job_url(self, api):
        response = api.post("/api/v1/jobs/shuffle-analysis", SHUFFLE, format="json")
        assert response.status_code == 202
        body = response.json()
        assert body["url"].endswith(f"/api/v1/jobs/{body['id']}")
        fetched = api.get(f"/api/v1/jobs/{body['id']}").json()
        assert fetched["status"] == "succeeded"  # eager: done by the time the POST answered

    @pytest.mark.parametrize(
        ("payload", "field"),
        [
            ({**SHUFFLE, "deck_size": 0}, "deck_size"),
            ({**SHUFFLE, "deck_size": 251}, "deck_size"),
            ({**SHUFFLE, "procedure": [{"method": "juggle", "times": 1}]}, "procedure[0].method"),
            ({**SHUFFLE, "observed": {"pattern": "LSX", "lands": 24}}, "observed.pattern"),
        ],
    )
    def test_bad_input_is_400_naming_the_field_and_nothing_is_queued(self, api, payload, field):
        response = api.post("/api/v1/jobs/shuffle-analysis", payload, format="json")
        assert response.status_code == 400, response.content
        error = response.json()["error"]
        assert field in error["details"], error
        assert Job.objects.count() == 0

    @pytest.mark.parametrize("wait", ["31", "1_0", "nan", "1e2", "-1", "\u0663", "inf"])
    def test_bad_wait_is_400(self, api, wait):
        response = api.post(f"/api/v1/jobs/shuffle-analysis?wait={wait}", SHUFFLE, format="json")
        assert response.status_code == 400 and "wait" in response.json()["error"]["details"]
        assert Job.objects.count() == 0

    def test_non_object_body_is_400(self, api):
        response = api.post("/api/v1/jobs/shuffle-analysis", [1, 2], format="json")
        assert response.status_code == 400
        assert Job.objects.count() == 0


class JobLifecycleTests:
    def test_unknown_job_is_404(self, api):
        assert api.get("/api/v1/jobs/999999").status_code == 404

    def test_a_failing_computation_is_stored_with_its_error(self):
        job = Job.objects.create(kind=Job.Kind.SHUFFLE_ANALYSIS, input={"deck_size": "many"})
        claimed = services.claim_job(job.pk)
        services.run_claimed_job(claimed)
        job.refresh_from_db()
        assert job.status == Job.Status.FAILED
        assert "deck_size" in job.error
        assert job.finished_at is not None

    def test_a_finished_job_is_not_claimed_again(self, django_capture_on_commit_callbacks):
        with django_capture_on_commit_callbacks(execute=True):
            job = services.start_job(Job.Kind.SHUFFLE_ANALYSIS, SHUFFLE)
        job.refresh_from_db()
        assert job.status == Job.Status.SUCCEEDED
        assert services.claim_job(job.pk) is None
        assert Job.objects.get(pk=job.pk).attempts == 1

    def test_a_job_whose_worker_died_is_run_again(self):
        job = Job.objects.create(kind=Job.Kind.SHUFFLE_ANALYSIS, input=SHUFFLE)
        # a worker took it, then died before finishing
        assert services.claim_job(job.pk) is not None
        again = services.claim_job(job.pk)  # the message is redelivered to another worker
        assert again is not None and again.attempts == 2
        services.run_claimed_job(again)
        assert Job.objects.get(pk=job.pk).status == Job.Status.SUCCEEDED

    def test_a_job_is_given_up_after_repeated_worker_deaths(self):
        job = Job.objects.create(kind=Job.Kind.SHUFFLE_ANALYSIS, input=SHUFFLE)
        for _ in range(services.MAX_CLAIMS):
            assert services.claim_job(job.pk) is not None
        assert services.claim_job(job.pk) is None
        job.refresh_from_db()
        assert job.status == Job.Status.FAILED and "attempts" in job.error
