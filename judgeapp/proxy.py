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


class ForwardedForMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response
        self.count = getattr(settings, "JUDGEAPP_PROXY_COUNT", 0)

    def __call__(self, request):
        if self.count > 0:
            forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
            hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
            if len(hops) >= self.count:
                candidate = hops[-self.count]
                try:
                    ipaddress.ip_address(candidate)
                except ValueError:
                    pass
                else:
                    request.META["REMOTE_ADDR"] = candidate
        return self.get_response(request)
