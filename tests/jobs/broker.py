"""Point the Celery app at another broker for one test: a closed port (the broker is down)
or Redis."""

from __future__ import annotations

import contextlib
import os
import socket

import pytest
from django.conf import settings

# The Redis the tests that need one send to: JUDGEAPP_TEST_REDIS_URL, else database 9 on the local
# server. Whatever else uses that database, a test's keys are its own: every key this process's
# Celery app writes there starts with KEY_PREFIX (kombu's global_keyprefix), one per test process
# (xdist worker) and run, so the queue a test counts is its own queue.
REDIS_URL = os.environ.get("JUDGEAPP_TEST_REDIS_URL", "redis://127.0.0.1:6379/9")
KEY_PREFIX = f"judgeapp-test-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}-{os.getpid()}:"
# The queue's list, as the prefixed transport names it (JUDGEAPP_QUEUE: make test-stack names one).
QUEUE_KEY = KEY_PREFIX + settings.CELERY_TASK_DEFAULT_QUEUE


def forget_keys(client) -> None:
    """Remove every key this process's tests wrote to Redis (the queue and kombu's bindings)."""
    keys = list(client.scan_iter(match=KEY_PREFIX + "*"))
    if keys:
        client.delete(*keys)


def closed_port_url() -> str:
    """A Redis URL on a local port nothing listens on: connecting is refused, as with a
    stopped broker."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"redis://127.0.0.1:{port}/9"


def redis_or_skip() -> None:
    try:
        socket.create_connection(("127.0.0.1", 6379), timeout=0.5).close()
    except OSError:
        pytest.skip("no Redis on 127.0.0.1:6379")


def _reset_pools(app) -> None:
    # Forgotten, not closed: kombu keeps producer pools per connection URL and may hand them
    # out again.
    app._pool = None
    app.amqp._producer_pool = None


@contextlib.contextmanager
def broker_at(url: str, settings):
    """Send (not run) tasks through the broker at `url`, as the web process of the real
    stack does."""
    from judgeapp.celery import app

    # broker_write_url: what the app publishes to (broker_url set from Django settings wins over a
    # plain assignment to it).
    before = (
        app.conf.broker_write_url,
        app.conf.task_always_eager,
        settings.CELERY_BROKER_URL,
        app.conf.broker_transport_options,
    )
    app.conf.broker_write_url = url
    app.conf.task_always_eager = False
    app.conf.broker_transport_options = {**(before[3] or {}), "global_keyprefix": KEY_PREFIX}
    settings.CELERY_BROKER_URL = url
    _reset_pools(app)
    try:
        yield app
    finally:
        _reset_pools(app)
        (
            app.conf.broker_write_url,
            app.conf.task_always_eager,
            settings.CELERY_BROKER_URL,
            app.conf.broker_transport_options,
        ) = before
