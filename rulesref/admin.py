"""Rules curation in the Django admin: upload, watch parsing, review against the current version,
publish or discard, roll back a document, and read the audit trail. Staff only.

Pages call rulesref.curation; nothing here stores rules itself.
"""

from __future__ import annotations

from typing import cast

from django import forms
from django.contrib import admin, messages
from django.http import HttpResponseNotAllowed, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html

from rulesref import curation, services
from rulesref.models import Document, Version, VersionEvent


class StaffOnlyAdmin(admin.ModelAdmin):
    """Any active staff user may read these pages (curation is a staff task, not a per-model
    permission); rows are changed only through the curation services, never edited by hand."""

    def has_module_permission(self, request):
        return request.user.is_active and request.user.is_staff

    def has_view_permission(self, request, obj=None):
        return request.user.is_active and request.user.is_staff

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class UploadForm(forms.Form):
    file = forms.FileField(
        help_text=(
            "The Comprehensive Rules .txt, or the MTR, IPG or JAR as the PDF Wizards "
            "publishes (or an .html rendering)."
        )
    )
    document = forms.ChoiceField(
        required=False,
        choices=[("", "Detect from the text")]
        + [(slug, f"{slug.upper()} — {title}") for slug, title in services.DOC_TITLES.items()],
    )


class RollbackForm(forms.Form):
    version = forms.ModelChoiceField(
        queryset=Version.objects.none(), empty_label=None, label="Make current again"
    )

    def __init__(self, *args, document: Document, **kwargs):
        super().__init__(*args, **kwargs)
        cast(forms.ModelChoiceField, self.fields["version"]).queryset = Version.objects.filter(
            pk__in=[v.pk for v in curation.rollback_choices(document)]
        )


@admin.register(Version)
class VersionAdmin(StaffOnlyAdmin):
    list_display = (
        "id",
        "document",
        "effective_date",
        "status",
        "is_current",
        "progress_shown",
        "rule_count",
        "example_count",
        "glossary_count",
        "source_name",
        "uploaded_by",
        "imported_at",
        "review_link",
    )
    list_display_links = ("id",)
    list_filter = ("document", "status", "is_current")
    search_fields = ("source_name", "title")
    list_select_related = ("document", "uploaded_by")
    readonly_fields = [f.name for f in Version._meta.fields]

    def has_add_permission(self, request):
        return request.user.is_active and request.user.is_staff

    @admin.display(description="progress")
    def progress_shown(self, version: Version) -> str:
        return f"{version.progress}%"

    @admin.display(description="review")
    def review_link(self, version: Version) -> str:
        label = "Review" if version.status == Version.Status.PENDING else "Open"
        return format_html(
            '<a href="{}">{}</a>',
            reverse("admin:rulesref_version_review", args=[version.pk]),
            label,
        )

    def get_urls(self):
        wrap = self.admin_site.admin_view
        return [
            path("upload/", wrap(self.upload_view), name="rulesref_version_upload"),
            path(
                "<int:version_id>/review/", wrap(self.review_view), name="rulesref_version_review"
            ),
            path(
                "<int:version_id>/publish/",
                wrap(self.publish_view),
                name="rulesref_version_publish",
            ),
            path(
                "<int:version_id>/discard/",
                wrap(self.discard_view),
                name="rulesref_version_discard",
            ),
        ] + super().get_urls()

    def add_view(self, request, form_url="", extra_context=None):
        return HttpResponseRedirect(reverse("admin:rulesref_version_upload"))

    def _context(self, request, title: str, **extra):
        return {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": title,
            **extra,
        }

    def upload_view(self, request):
        form = UploadForm(request.POST or None, request.FILES or None)
        if request.method == "POST" and form.is_valid():
            try:
                version = curation.start_upload(
                    form.cleaned_data["file"],
                    uploaded_by=request.user,
                    document=form.cleaned_data["document"] or None,
                )
            except curation.UploadRefused as exc:
                form.add_error("file", exc.message)
            else:
                messages.info(
                    request, f"{version.source_name} uploaded as version #{version.pk}; parsing it."
                )
                return HttpResponseRedirect(
                    reverse("admin:rulesref_version_review", args=[version.pk])
                )
        return TemplateResponse(
            request,
            "admin/rulesref/version_upload.html",
            self._context(request, "Upload a rules document", form=form),
        )

    def review_view(self, request, version_id: int):
        version = get_object_or_404(
            Version.objects.select_related("document", "uploaded_by"), pk=version_id
        )
        review = curation.review_version(version)
        counts: dict[str, int] = {}
        for item in review.release_notes:
            counts[item["kind"]] = counts.get(item["kind"], 0) + 1
        return TemplateResponse(
            request,
            "admin/rulesref/version_review.html",
            self._context(
                request,
                f"Review {version}",
                version=version,
                review=review,
                release_counts=sorted(counts.items()),
                can_publish=version.status == Version.Status.PENDING,
                can_discard=version.status in (Version.Status.PENDING, Version.Status.FAILED),
            ),
        )

    def publish_view(self, request, version_id: int):
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        version = get_object_or_404(Version, pk=version_id)
        try:
            event, review = curation.publish_upload(version, actor=request.user)
        except services.RulesError as exc:
            messages.error(request, exc.message)
        else:
            changed = len(review.changed_references)
            messages.success(
                request,
                f"{event.to_version} is current (was {event.from_version or 'none'}); {changed} "
                "cited references changed — listed below.",
            )
        return HttpResponseRedirect(reverse("admin:rulesref_version_review", args=[version_id]))

    def discard_view(self, request, version_id: int):
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        version = get_object_or_404(Version, pk=version_id)
        try:
            curation.discard_upload(version, actor=request.user)
        except services.RulesError as exc:
            messages.error(request, exc.message)
            return HttpResponseRedirect(reverse("admin:rulesref_version_review", args=[version_id]))
        messages.success(request, f"Version #{version_id} discarded.")
        return HttpResponseRedirect(reverse("admin:rulesref_version_changelist"))


@admin.register(Document)
class DocumentAdmin(StaffOnlyAdmin):
    list_display = ("slug", "title", "current", "rollback_link")
    actions = ["roll_back"]

    @admin.action(description="Roll back the selected document…")
    def roll_back(self, request, queryset):
        if queryset.count() != 1:
            self.message_user(request, "Choose one document to roll back.", messages.WARNING)
            return None
        return HttpResponseRedirect(
            reverse("admin:rulesref_document_rollback", args=[queryset.get().pk])
        )

    def get_actions(self, request):
        # The "delete selected" action is not offered (documents are never deleted here).
        return {
            name: action
            for name, action in super().get_actions(request).items()
            if name != "delete_selected"
        }

    @admin.display(description="current version")
    def current(self, document: Document) -> str:
        version = document.current_version
        return version.effective_date.isoformat() if version and version.effective_date else "—"

    @admin.display(description="roll back")
    def rollback_link(self, document: Document) -> str:
        return format_html(
            '<a href="{}">Roll back…</a>',
            reverse("admin:rulesref_document_rollback", args=[document.pk]),
        )

    def get_urls(self):
        return [
            path(
                "<int:document_id>/rollback/",
                self.admin_site.admin_view(self.rollback_view),
                name="rulesref_document_rollback",
            ),
        ] + super().get_urls()

    def rollback_view(self, request, document_id: int):
        document = get_object_or_404(Document, pk=document_id)
        form = RollbackForm(request.POST or None, document=document)
        if request.method == "POST" and form.is_valid():
            try:
                event = curation.roll_back(
                    document.slug, to_version=form.cleaned_data["version"], actor=request.user
                )
            except services.RulesError as exc:
                messages.error(request, exc.message)
            else:
                messages.success(
                    request, f"{document} rolled back: {event.from_version} → {event.to_version}."
                )
                return HttpResponseRedirect(reverse("admin:rulesref_versionevent_changelist"))
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": f"Roll back {document}",
            "document": document,
            "current": document.current_version,
            "form": form,
        }
        return TemplateResponse(request, "admin/rulesref/document_rollback.html", context)


@admin.register(VersionEvent)
class VersionEventAdmin(StaffOnlyAdmin):
    list_display = ("at", "document", "action", "from_version", "to_version", "actor", "note")
    list_filter = ("document", "action")
    list_select_related = ("document", "from_version__document", "to_version__document", "actor")
    readonly_fields = ("at", "document", "action", "from_version", "to_version", "actor", "note")
