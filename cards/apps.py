"""Cards: Oracle text and rulings from Scryfall's bulk data, linked to the rules they cite."""

from django.apps import AppConfig


class CardsConfig(AppConfig):
    name = "cards"
    verbose_name = "Cards"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Search reads card descriptions from the card table once it holds cards (rulesref imports
        # no app).
        from cards import services
        from search import card_source

        card_source.register_card_provider(
            "cards",
            stamp=services.card_stamp,
            descriptions=services.search_card_descriptions,
            details=services.search_card_details,
        )
