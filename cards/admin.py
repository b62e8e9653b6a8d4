"""Cards in the admin: read-only card table and the imports with their progress. Staff only."""

from __future__ import annotations

from django.contrib import admin

from cards.models import Card, CardSync
from rulesref.admin import StaffOnlyAdmin


@admin.register(Card)
class CardAdmin(StaffOnlyAdmin):
    list_display = ("name", "mana_cost", "type_line", "layout")
    search_fields = ("name", "oracle_text")


@admin.register(CardSync)
class CardSyncAdmin(StaffOnlyAdmin):
    list_display = (
        "id",
        "status",
        "progress",
        "bulk_updated_at",
        "started_at",
        "finished_at",
        "message",
    )
    list_filter = ("status",)

    @admin.display(description="progress")
    def progress(self, obj: CardSync) -> str:
        if obj.status == CardSync.Status.RUNNING:
            return (
                f"{obj.stage or 'starting'}: {obj.cards_read} cards, {obj.rulings_read} rulings "
                "read"
            )
        return f"{obj.cards_read} cards, {obj.rulings_read} rulings"
