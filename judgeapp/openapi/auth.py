"""How API clients sign in, for the schema: basic auth and the API token (judgeapp.api_auth).
The session cookie is the site's own; drf-spectacular describes it itself. Importing this module
registers the two schemes."""

from __future__ import annotations

from drf_spectacular.extensions import OpenApiAuthenticationExtension


class BasicAuthScheme(OpenApiAuthenticationExtension):
    target_class = "judgeapp.api_auth.LockableBasicAuthentication"
    name = "basicAuth"

    def get_security_definition(self, auto_schema):
        return {
            "type": "http",
            "scheme": "basic",
            "description": "a judge's username and password (the password is checked once, then "
            "remembered for a minute)",
        }


class TokenAuthScheme(OpenApiAuthenticationExtension):
    target_class = "judgeapp.api_auth.ApiTokenAuthentication"
    name = "tokenAuth"

    def get_security_definition(self, auto_schema):
        return {
            "type": "http",
            "scheme": "bearer",
            "description": "an API token of the client (`manage.py create_api_token`, or the "
            "admin): `Authorization: Bearer <key>`, or `Authorization: Token <key>`",
        }
