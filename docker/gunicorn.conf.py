"""gunicorn for judgeapp's web service (docker/Dockerfile; bench/wait_bench.py measures this file).

Threaded workers: a request that waits for a job (?wait=N) holds one thread, not a whole process,
and jobs.services caps waiting requests at JUDGEAPP_MAX_WAITS per process (default 4 of 8 threads),
so the health check and every other request always find a free thread.
"""

import os

# Behind nginx only (docker/nginx/): loopback by default, a unix socket for scripts/stack
# (unix:PATH), every interface of the container in the image (its Dockerfile; compose publishes
# nginx, never gunicorn).
bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("GUNICORN_WORKERS", "3"))
worker_class = "gthread"
threads = int(os.environ.get("GUNICORN_THREADS", "8"))
timeout = 60  # above the longest ?wait (30 s)
graceful_timeout = 30
accesslog = "-"
# The app is loaded once, in the master, before the workers fork (when_ready below loads the search
# index and vectors there too): the workers share those pages instead of each reading its own copy.
# Each worker builds what does not survive a fork itself (post_worker_init): its ONNX Runtime
# session, its database connections. A changed code needs a restart, not a HUP.
preload_app = True


def when_ready(server):
    """In the master, after the app is loaded and before the first fork: the current versions'
    search index and vectors, read-only, shared by every worker (search.service.preload),
    and the URLs and the views behind them."""
    from django.urls import get_resolver

    from search import service

    routes = len(get_resolver().url_patterns)
    server.log.info(
        "preloaded: %d routes, search %s",
        routes,
        service.preload() or "not loaded (nothing to load yet)",
    )


def post_worker_init(worker):
    """Each worker gets ready before it takes a request: it imports the URLs and the views behind
    them (a quarter of a second, else paid by its first request), builds its encoder's ONNX Runtime
    session (one thread, made after the fork) and answers one question (search.service.warm;
    about a second). A worker that cannot (no documents yet) loads on its first search, as without
    this."""
    from django.db import connections
    from django.urls import get_resolver

    from search import service

    routes = len(get_resolver().url_patterns)
    ranking = service.warm()
    connections.close_all()  # opened outside any request: the request threads open their own
    worker.log.info(
        "ready: %d routes, search %s", routes, ranking or "not loaded (nothing to load yet)"
    )
