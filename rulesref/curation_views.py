"""Staff API for rules curation (mounted under /api/v1/admin/): upload, follow, publish, discard,
roll back.

Every view needs an authenticated staff user; reading the rules stays public in rulesref.views.
"""

from __future__ import annotations

from typing import cast

from django.shortcuts import get_object_or_404
from django.urls import reverse
from rest_framework import permissions, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from judgeapp.api_errors import ApiError
from rulesref import curation, services
from rulesref.models import Version, VersionEvent


class UploadRequestSerializer(serializers.Serializer):
    file = serializers.FileField(
        allow_empty_file=True, help_text="the document: CR as TXT; MTR, IPG, JAR as PDF or HTML"
    )
    document = serializers.ChoiceField(
        choices=list(services.DOC_TITLES),
        required=False,
        help_text="which document it is (default: read from the file)",
    )


class RollbackRequestSerializer(serializers.Serializer):
    to = serializers.DateField(
        required=False, help_text="effective date of the version to make current again"
    )
    # `from` is a Python keyword: the field is named in the declared fields below
    vars()["from"] = serializers.DateField(
        required=False,
        help_text=(
            "effective date of the version this roll-back leaves (the one current when the "
            "client looked); when another is current, 409 conflict and nothing changes"
        ),
    )


def version_body(version: Version, request) -> dict:
    return {
        "id": version.pk,
        "url": request.build_absolute_uri(reverse("api-admin-version", args=[version.pk])),
        "doc": version.document.slug,
        "effective_date": version.effective_date.isoformat() if version.effective_date else None,
        "title": version.title,
        "status": version.status,
        "current": version.is_current,
        "progress": version.progress,
        "error": version.error,
        "source": version.source_name,
        "counts": {
            "rules": version.rule_count,
            "examples": version.example_count,
            "glossary": version.glossary_count,
        },
        "uploaded_by": version.uploaded_by.get_username() if version.uploaded_by else None,
        "imported_at": version.imported_at.isoformat(),
        "published_at": version.published_at.isoformat() if version.published_at else None,
    }


def event_body(event: VersionEvent) -> dict:
    def side(version: Version | None) -> dict | None:
        if version is None:
            return None
        return {
            "id": version.pk,
            "effective_date": version.effective_date.isoformat()
            if version.effective_date
            else None,
        }

    return {
        "action": event.action,
        "doc": event.document.slug,
        "from": side(event.from_version),
        "to": side(event.to_version),
        "actor": event.actor.get_username() if event.actor else None,
        "at": event.at.isoformat(),
        "note": event.note,
    }


class StaffView(APIView):
    """Base: staff only (anonymous -> 403 not_authenticated, others -> 403 permission_denied);
    a RulesError becomes the API's error shape."""

    permission_classes = [permissions.IsAuthenticated, permissions.IsAdminUser]

    def handle_exception(self, exc):
        if isinstance(exc, services.RulesError):
            status_code = (
                404
                if isinstance(exc, services.NotFound)
                else 409
                if isinstance(exc, (curation.DuplicateUpload, services.PublishError))
                else 413
                if isinstance(exc, curation.DocumentTooLarge)
                else 400
            )
            exc = ApiError(exc.code, exc.message, status_code=status_code, details=exc.details)
        return super().handle_exception(exc)


class VersionUploadView(StaffView):
    def post(self, request):
        form = UploadRequestSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        version = curation.start_upload(
            form.validated_data["file"],
            uploaded_by=request.user,
            document=form.validated_data.get("document"),
        )
        version.refresh_from_db()  # an eager task may already have parsed it
        body = version_body(version, request)
        return Response(body, status=status.HTTP_202_ACCEPTED, headers={"Location": body["url"]})


class VersionStatusView(StaffView):
    def get(self, request, version_id: int):
        version = get_object_or_404(
            Version.objects.select_related("document", "uploaded_by"), pk=version_id
        )
        return Response(version_body(version, request))


class VersionPublishView(StaffView):
    def post(self, request, version_id: int):
        version = get_object_or_404(Version, pk=version_id)
        event, review = curation.publish_upload(version, actor=request.user)
        return Response(
            {
                "version": version_body(review.version, request),
                "event": event_body(event),
                "changed_references": review.changed_references,
                "references_unavailable": review.references_unavailable,
            }
        )


class VersionDiscardView(StaffView):
    def post(self, request, version_id: int):
        version = get_object_or_404(Version, pk=version_id)
        return Response(
            {"version": version_body(curation.discard_upload(version, actor=request.user), request)}
        )


class DocumentRollbackView(StaffView):
    def post(self, request, doc: str):
        form = RollbackRequestSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        to = form.validated_data.get("to")
        leaving = form.validated_data.get("from")
        event = curation.roll_back(
            doc,
            to_date=to.isoformat() if to else None,
            from_date=leaving.isoformat() if leaving else None,
            actor=request.user,
        )
        # a rollback has a version
        return Response(
            {
                "event": event_body(event),
                "version": version_body(cast(Version, event.to_version), request),
            }
        )
