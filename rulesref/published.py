"""Who is told when a version becomes current: apps that keep something per current version register
a listener at start-up (search builds the new version's vectors: search/apps.py), so the rules
reference imports none of them, as the features that cite rules register with citing.py.

A listener is called inside publish_version's transaction with the version just made current; work
that must wait for the commit defers itself (transaction.on_commit). Re-registering an owner
replaces its listener."""

from __future__ import annotations

from collections.abc import Callable

Listener = Callable[[object], object]

_listeners: dict[str, Listener] = {}


def register_publish_listener(owner: str, listener: Listener) -> None:
    """Call listener(version) whenever a version of any document becomes the current one."""
    _listeners[owner] = listener


def announce_published(version) -> None:
    for listener in list(_listeners.values()):
        listener(version)
