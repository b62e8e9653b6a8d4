"""Cards: Oracle text and rulings from Scryfall's bulk data, linked to the rules they cite."""

from django.apps import AppConfig


class CardsConfig(AppConfig):
    name = "cards"
    verbose_name = "Cards"
    default_auto_field = "django.db.models.BigAutoField"
