"""`manage.py check --deploy`: a secret no deployment may use (issue 29).

Settings refuse the example secret of docker/.env.example at start, and any missing secret when
debug is off; this check names the development secret too, so that `check --deploy` fails on a
settings module that debug let through with it.
"""

from __future__ import annotations

from django.conf import settings
from django.core.checks import Error, Tags, register

KNOWN_SECRETS = ("DEV_SECRET", "EXAMPLE_SECRET")


@register(Tags.security, deploy=True)
def check_secret_key(app_configs, **kwargs) -> list[Error]:
    from judgeapp import settings as project_settings

    known = {getattr(project_settings, name) for name in KNOWN_SECRETS}
    if settings.SECRET_KEY in known:
        return [
            Error(
                "DJANGO_SECRET_KEY is a value published with judgeapp (the development default "
                "or docker/.env.example's).",
                hint="Set DJANGO_SECRET_KEY to a long random secret of your own, e.g. "
                "python -c 'import secrets; print(secrets.token_urlsafe(50))'.",
                id="judgeapp.E001",
            )
        ]
    return []
