"""Template filters that name rules as their documents print them (rulesref.naming): `{{
number|printed:doc }}` is the number, or "" for the JAR, whose sections are named by
their headings."""

from __future__ import annotations

from django import template

from rulesref import naming

register = template.Library()


@register.filter
def printed(number: object, doc: object) -> str:
    return naming.shown_number(str(doc or ""), None if number is None else str(number))
