"""System checks: every guide file loads and every rule it cites resolves in the current rules.

A malformed guide is an error (the service must not start with a guide a judge could get stuck in);
a reference that cannot be resolved is an error when rules are imported, and only a warning while no
version of that document is current (so `migrate` and a first import on an empty database work).
A reference to a rule that a published version removed is a warning: the guide runs and cites it as
removed, and an error would stop every management command, the roll-back undoing the publish too.
"""

from __future__ import annotations

from django.core.checks import Error, Warning, register
from django.db import DatabaseError


@register()
def check_guides(app_configs=None, **kwargs):
    from guides import loader
    from guides import services as guide_services

    try:
        guide_services.guides.cache_clear()
        guides = guide_services.guides()
    except loader.GuideError as exc:
        return [
            Error(
                str(exc),
                hint="Fix the guide file; see judgeapp/guides/loader.py for the format.",
                id="judgeapp.E001",
            )
        ]
    try:
        from rulesref.models import Version

        current = set(
            Version.objects.filter(is_current=True).values_list("document__slug", flat=True)
        )
    except DatabaseError as exc:
        # no tables yet (before the first migrate), or no database reachable
        return [
            Warning(
                "guide references not checked: the rules tables cannot be read "
                f"({exc.__class__.__name__})",
                id="judgeapp.W001",
            )
        ]
    messages = []
    unchecked = sorted(
        {ref.split("@", 1)[0] for g in guides.values() for ref in loader.all_refs(g)} - current
    )
    if unchecked:
        messages.append(
            Warning(
                f"guide references to {', '.join(d.upper() for d in unchecked)} not checked: no "
                "current version is imported",
                hint="Import and publish the rules documents.",
                id="judgeapp.W002",
            )
        )
    from rulesref import references

    def resolve(ref: str):
        if ref.split("@", 1)[0] in unchecked:
            return None  # reported once above
        return references.resolve(ref)

    for guide in guides.values():
        for problem, gone in loader.reference_problems(guide, resolve):
            if gone:
                # A published version removed the rule: the guide still runs (its citation says the
                # rule was removed), and an error here would stop migrate, import_rules and the roll
                # back that could undo the publish, and so every restart of a deployment.
                messages.append(
                    Warning(
                        problem,
                        hint="Update the guide file's reference (the publish review lists the "
                        "guides a version affects), or roll the publish back.",
                        id="judgeapp.W003",
                    )
                )
            else:
                messages.append(Error(problem, id="judgeapp.E002"))
    return messages
