"""gunicorn for judgeapp's web service (docker/Dockerfile; bench/wait_bench.py measures this file).

Threaded workers: a request that waits for a job (?wait=N) holds one thread, not a whole process, and
jobs.services caps waiting requests at JUDGEAPP_MAX_WAITS per process (default 4 of 8 threads), so the
health check and every other request always find a free thread.
"""

import os

bind = os.environ.get("GUNICORN_BIND", "0.0.0.0:8000")
workers = int(os.environ.get("GUNICORN_WORKERS", "3"))
worker_class = "gthread"
threads = int(os.environ.get("GUNICORN_THREADS", "8"))
timeout = 60            # above the longest ?wait (30 s)
graceful_timeout = 30
accesslog = "-"
