"""The admin's API tokens: a staff member creates one for a user's client and sees its key once;
deleting the row revokes it."""

from __future__ import annotations

from django.contrib import admin, messages

from judgeapp import api_tokens
from judgeapp.models import ApiToken


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    list_display = ("name", "user", "prefix", "created_at", "last_used_at")
    search_fields = ("name", "user__username", "prefix")
    list_select_related = ("user",)
    autocomplete_fields = ("user",)

    def get_fields(self, request, obj=None):
        return ("user", "name") if obj is None else ("user", "name", "prefix", "last_used_at")

    def get_readonly_fields(self, request, obj=None):
        return () if obj is None else ("user", "prefix", "last_used_at")

    def save_model(self, request, obj, form, change):
        key = None if change else api_tokens.fill_new_token(obj)
        super().save_model(request, obj, form, change)
        if key is not None:
            self.message_user(
                request,
                f"The key of {obj.name!r}: {key} (copy it now: it is not shown again). The "
                "client sends it as 'Authorization: Token <key>'.",
                messages.WARNING,
            )
