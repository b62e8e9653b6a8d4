"""From a policy hit to the call: the penalty of an IPG infraction at each REL and the link that
opens the infraction finder at it, shown beside the hit (docs/API.md `call`; the results page).

The guides own the infraction finder and search sits below them, so the guides app registers a
provider here at start-up (guides/apps.py), as the cards app registers its card source
(search/card_source.py). A provider maps an IPG version (its id and content hash: a rolled-back
test gives an id out again) to {section number: call},
where a call is {"infraction", "penalty": {"regular", "competitive", "professional"}, "finder"},
and "upgrade" when the section has one; another provider may add keys to those calls (the call
log's "repeat"), merged per section, and a section no provider gives a "penalty" has no call.
Standard library only: importing this starts no Django.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping

log = logging.getLogger(__name__)

CallProvider = Callable[[int, str], Mapping[str, dict]]
_providers: dict[str, CallProvider] = {}
_read: dict[tuple[int, str], dict[str, dict]] = {}  # the last IPG version's calls


def register_calls(name: str, provider: CallProvider) -> None:
    """Register (or replace) the provider called `name`."""
    _providers[name] = provider
    _read.clear()


def calls_for(version_id: int, content_hash: str) -> dict[str, dict]:
    """{IPG section number: call} of the IPG version `version_id`, from every provider; {} with
    none registered. A provider that fails is logged and left out: a search never fails
    for it."""
    key = (version_id, content_hash)
    known = _read.get(key)
    if known is not None:
        return known
    found: dict[str, dict] = {}
    for name, provider in _providers.items():
        try:
            for number, call in provider(version_id, content_hash).items():
                found.setdefault(number, {}).update(call)
        except Exception:
            log.warning("the %s calls provider failed; results show no call", name, exc_info=True)
    found = {number: call for number, call in found.items() if "penalty" in call}
    # kept, a failure's empty answer too: a search asks no more of the database than before
    _read.clear()
    _read[key] = found
    return found


def forget_calls() -> None:
    """Read the calls again at the next search (a provider registered anew)."""
    _read.clear()
