"""Floor tools a judge carries: the round clock of an event and the deck-check counter."""

from django.apps import AppConfig


class FloorConfig(AppConfig):
    name = "floor"
    verbose_name = "Floor tools"
    default_auto_field = "django.db.models.BigAutoField"
