"""The client's address behind the reverse proxy (issue 29).

Behind nginx (docker/nginx/), every request comes from nginx: REMOTE_ADDR is nginx's address (or
empty on a unix socket), and the client's is in X-Forwarded-For, which nginx sets to one entry (it
drops whatever the client sent). With JUDGEAPP_PROXY_COUNT proxies in front, the entry that many
from the right is the client as the outermost proxy saw it; this middleware puts it in REMOTE_ADDR,
where the login lockout and any per-address limit read it. Without proxies (0, the default) the
header is ignored: a client could write it.
"""

from __future__ import annotations

import ipaddress

from django.conf import settings


def forwarded_hops(meta) -> list[str]:
    """The entries of X-Forwarded-For, leftmost first."""
    return [hop.strip() for hop in meta.get("HTTP_X_FORWARDED_FOR", "").split(",") if hop.strip()]


def forwarded_client(meta, count: int) -> str | None:
    """The entry `count` from the right of X-Forwarded-For (what the outermost of `count` proxies
    appended), when there are that many and it is an address; None otherwise."""
    hops = forwarded_hops(meta)
    if count <= 0 or len(hops) < count:
        return None
    try:
        return str(ipaddress.ip_address(hops[-count]))
    except ValueError:
        return None


class ForwardedForMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response
        self.count = getattr(settings, "JUDGEAPP_PROXY_COUNT", 0)

    def __call__(self, request):
        client = forwarded_client(request.META, self.count)
        if client is not None:
            request.META["REMOTE_ADDR"] = client
        return self.get_response(request)
