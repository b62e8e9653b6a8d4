"""Jobs API: POST a computation, GET its status and result (docs/API.md "Computations")."""

from __future__ import annotations

from typing import cast

from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import APIView

from jobs import serializers, services
from jobs.models import Job
from judgeapp import api_limits, numbers
from judgeapp.api_errors import ApiError

MAX_WAIT_SECONDS = 30


def _wait_seconds(request) -> float:
    raw = request.query_params.get("wait")
    if raw is None:
        return 0.0
    seconds = numbers.decimal(raw)
    if seconds is None or not 0 <= seconds <= MAX_WAIT_SECONDS:
        raise ApiError(
            "invalid", "wait must be a number of seconds from 0 to 30", details={"wait": raw}
        )
    return seconds


class JobCreateView(APIView):
    kind: str = ""

    def post(self, request):
        wait = _wait_seconds(request)
        api_limits.check_computation(request)
        try:
            job = services.start_job(self.kind, request.data, owner=request.user)
        except services.SignInRequired as exc:
            raise ApiError(
                "sign_in_required",
                f"{exc.field}: {exc.message}",
                status_code=403,
                details={exc.field: exc.message},
            ) from None
        except services.InvalidRequest as exc:
            raise ApiError(
                "invalid", f"{exc.field}: {exc.message}", details={exc.field: exc.message}
            ) from None
        if wait:
            job = services.wait_for(job, wait)
        else:
            job.refresh_from_db()
        finished = job.status in (Job.Status.SUCCEEDED, Job.Status.FAILED)
        code = status.HTTP_200_OK if (wait and finished) else status.HTTP_202_ACCEPTED
        return Response(serializers.job_detail(job, request), status=code)


class JobDetailView(APIView):
    def get(self, request, job_id):
        job = Job.objects.filter(public_id=job_id).first()
        if job is None:
            raise ApiError("not_found", f"no job {job_id}", status_code=404)
        return Response(serializers.job_detail(job, request))


def create_view(kind: str):
    view = cast(
        type[JobCreateView],
        type(f"{kind.title().replace('-', '')}CreateView", (JobCreateView,), {"kind": kind}),
    )
    return view.as_view()


class ShuffleCheckView(APIView):
    """POST /api/v1/shuffle-check: the judge's shuffle check, answered at once (it is cheap and pure)."""  # noqa: E501

    def post(self, request):
        try:
            ruling = services.check_shuffle(request.data)
        except services.InvalidRequest as exc:
            raise ApiError(
                "invalid", f"{exc.field}: {exc.message}", details={exc.field: exc.message}
            ) from None
        return Response(ruling)
