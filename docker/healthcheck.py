"""Health probe of compose's web service (and scripts/stack): GET /api/v1/health, exit 0 on 200.

It asks gunicorn directly with the Host header of the first name in DJANGO_ALLOWED_HOSTS (any
other Host is refused with 400 when debug is off), so the probe passes with whatever hosts the
site is configured for.

    python docker/healthcheck.py [URL]     (default http://127.0.0.1:8000/api/v1/health)
"""

import os
import ssl
import sys
import urllib.request


def allowed_host() -> str:
    first = os.environ.get("DJANGO_ALLOWED_HOSTS", "").split(",")[0].strip().lstrip(".")
    return "localhost" if first in ("", "*") else first


def main() -> int:
    url = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8000/api/v1/health"
    request = urllib.request.Request(url, headers={"Host": allowed_host()})
    context = ssl._create_unverified_context()  # the probe checks the service, not the certificate
    try:
        with urllib.request.urlopen(request, timeout=3, context=context) as answer:
            return 0 if answer.status == 200 else 1
    except OSError as exc:
        print(f"health: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
