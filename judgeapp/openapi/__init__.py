"""The OpenAPI 3 description of /api/v1/ (drf-spectacular): shapes, per-view descriptions,
hooks, views."""
