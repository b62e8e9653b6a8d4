"""The search app: the rules search (pure index, ranking, embeddings), its service, stored vectors,
tasks, API, pages and the offline pack. It reads the rules through rulesref's public functions;
rulesref imports nothing of it: at start-up this app asks to hear of every publish."""

from django.apps import AppConfig


class SearchConfig(AppConfig):
    name = "search"
    label = "search"
    verbose_name = "Rules search"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from rulesref import published
        from search import tasks  # registers build_search_vectors with the worker

        # A version made current gets its search vectors built (hybrid search once they all exist).
        published.register_publish_listener("search", tasks.schedule_search_vectors)
