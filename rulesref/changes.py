"""Change services: diffs between stored versions, traces through renumbering, rule history.

Wraps the pure differ (rulesref.diffing) with the database. Versions never change once stored, so
the pairing of two versions (old number -> new number) is computed once and kept in VersionPairing;
traces and stable references then follow stored pairings without re-reading whole documents.
"""

from __future__ import annotations

from django.db.models import Q

from rulesref import citing, diffing
from rulesref.models import Rule, Version, VersionPairing
from rulesref.parsing.records import RuleKind

_records: dict[int, dict[str, diffing.DiffRule]] = {}
LIVE = ~Q(status__in=[Version.Status.FAILED, Version.Status.DISCARDED, Version.Status.PARSING])


def profile_for(version: Version) -> diffing.DiffProfile:
    return diffing.CR_PROFILE if version.document.slug == "cr" else diffing.MTR_PROFILE


def records_for(version: Version) -> dict[str, diffing.DiffRule]:
    """The differ's records of a stored version, in document order (chapters that are only a heading
    left out; a chapter with text of its own, as the IPG's General Philosophy and its categories'
    introductions, is compared like any rule)."""
    if version.pk in _records:
        return _records[version.pk]
    rows = list(
        Rule.objects.filter(version=version)
        .order_by("position")
        .values_list("number", "kind", "title", "text", "parent", "examples")
    )
    kinds = {number: (kind, title, parent) for number, kind, title, _, parent, _ in rows}
    structural = (RuleKind.SECTION.value, RuleKind.APPENDIX.value)
    records: dict[str, diffing.DiffRule] = {}
    for number, kind, title, text, parent, examples in rows:
        if kind == RuleKind.CHAPTER.value and not text.strip():
            continue
        section = parent or None
        while section is not None and section in kinds and kinds[section][0] not in structural:
            section = kinds[section][2] or None
        if kind in structural or section not in kinds:
            section = None
        parent_is_rule = parent in kinds and kinds[parent][0] != RuleKind.CHAPTER.value
        records[number] = diffing.DiffRule(
            number=number,
            text=text,
            title=title,
            section=section,
            section_title=kinds[section][1] if section else "",
            parent=parent if parent_is_rule else None,
            examples=tuple(examples),
        )
    if len(_records) > 64:
        _records.clear()
    _records[version.pk] = records
    return records


def pairing(old: Version, new: Version) -> VersionPairing:
    """The stored pairing of two versions, computed (with the full diff) the first time it is
    asked for."""
    found = VersionPairing.objects.filter(old=old, new=new).first()
    if found is not None:
        return found
    old_rules, new_rules = records_for(old), records_for(new)
    result = diffing.diff_rules(old_rules, new_rules, profile=profile_for(new))
    stored, _ = VersionPairing.objects.update_or_create(
        old=old, new=new, defaults={"mapping": result.mapping, "diff": result.to_dict()}
    )
    return stored


def _dates(old: Version, new: Version) -> dict:
    return {
        "doc": new.document.slug,
        "from": old.effective_date.isoformat(),
        "to": new.effective_date.isoformat(),
    }


def diff_versions(old: Version, new: Version) -> dict:
    """docs/API.md diff: {"added", "removed", "changed", "moved": [{"from", "to"}], "counts", "doc",
    "from", "to"}."""
    if old.document_id != new.document_id:
        raise ValueError("a diff compares two versions of one document")
    return {**_dates(old, new), **pairing(old, new).diff}


def follow(old: Version, new: Version, number: str, memo: dict | None = None) -> str | None:
    """Where rule `number` of `old` is in `new` (None when it was removed). `memo`, a dict kept by
    the caller for one run over many numbers, keeps the pairing's mapping read once."""
    if old.pk == new.pk:
        return number
    if memo is None:
        return _mapping(old, new).get(number)
    key = ("mapping", old.pk, new.pk)
    if key not in memo:
        memo[key] = _mapping(old, new)
    return memo[key].get(number)


def _mapping(old: Version, new: Version) -> dict[str, str]:
    """The pairing's mapping, computed when not stored."""
    found = _stored_direct(old, new)
    return found if found is not None else pairing(old, new).mapping


def _stored_direct(old: Version, new: Version) -> dict[str, str] | None:
    """The stored pairing's mapping alone (its diff can be a megabyte); None when not stored."""
    return VersionPairing.objects.filter(old=old, new=new).values_list("mapping", flat=True).first()


def follow_from_pinned(pinned, version: Version, memo: dict | None = None) -> str | None:
    """The number in `version` of the rule a PinnedRef names, or None when it is not there. `memo`
    as for follow: the version each pinned date names is looked up once too."""
    memo = {} if memo is None else memo
    key = ("pinned", version.document_id, pinned.pinned_date)
    if key not in memo:
        memo[key] = (
            Version.objects.filter(document=version.document, effective_date=pinned.pinned_date)
            .filter(LIVE)
            .first()
        )
    pinned_version = memo[key]
    if pinned_version is None:
        return pinned.number if version.rules.filter(number=pinned.number).exists() else None
    rule = pinned_version.rules.filter(number=pinned.number).first()
    if rule is None:
        rule = pinned_version.rules.filter(title__iexact=pinned.number).order_by("position").first()
    if rule is None:
        return None
    return follow(pinned_version, version, rule.number, memo)


def stored_mapping(old: Version, new: Version) -> dict[str, str] | None:
    """Rule numbers of `old` -> their numbers in `new`, from pairings already stored (never computed
    here, so it is safe on a request path): the direct pairing, else the consecutive pairings
    between them composed (inverted when `new` is the older). None when a pairing it needs is not
    stored yet."""
    if old.pk == new.pk:
        return {number: number for number in old.rules.values_list("number", flat=True)}
    direct = _stored_direct(old, new)
    if direct is not None:
        return dict(direct)
    versions = stored_versions(new)
    ids = [v.pk for v in versions]
    if old.pk not in ids:
        return None
    start, end = ids.index(old.pk), ids.index(new.pk)
    path = ids[start : end + 1] if start < end else ids[end : start + 1][::-1]
    steps = list(zip(path, path[1:]))
    stored = {
        (o, n): m
        for o, n, m in VersionPairing.objects.filter(old_id__in=ids, new_id__in=ids).values_list(
            "old_id", "new_id", "mapping"
        )
    }
    mapping: dict[str, str] | None = None
    for a, b in steps:
        forward = stored.get((a, b))
        if forward is None:
            backward = stored.get((b, a))
            if backward is None:
                return None
            forward = {n: o for o, n in backward.items()}
        mapping = (
            dict(forward)
            if mapping is None
            else {o: forward[m] for o, m in mapping.items() if m in forward}
        )
    return mapping


def stored_versions(version: Version, *, include_pending: bool = True) -> list[Version]:
    """Every readable version of the same document, oldest first (without pending ones when asked:
    what the public reads; the version asked about is always in)."""
    readable = (
        Version.objects.filter(document=version.document).filter(LIVE).exclude(effective_date=None)
    )
    if not include_pending:
        readable = readable.filter(Q(status=Version.Status.PUBLISHED) | Q(pk=version.pk))
    return list(readable.select_related("document").order_by("effective_date"))


def trace(version: Version, number: str, *, include_pending: bool = True) -> list[dict]:
    """The rule through every stored version, oldest first: [{"effective_date", "number", "text"}];
    number and text are null in versions where the rule does not exist."""
    versions = stored_versions(version, include_pending=include_pending)
    start = next(i for i, v in enumerate(versions) if v.pk == version.pk)
    numbers: list[str | None] = [None] * len(versions)
    numbers[start] = number
    for i in range(start + 1, len(versions)):
        if numbers[i - 1] is None:
            break
        numbers[i] = pairing(versions[i - 1], versions[i]).mapping.get(numbers[i - 1])
    for i in range(start - 1, -1, -1):
        if numbers[i + 1] is None:
            break
        backward = {n: o for o, n in pairing(versions[i], versions[i + 1]).mapping.items()}
        numbers[i] = backward.get(numbers[i + 1])
    wanted = Q(pk__in=[])
    for v, n in zip(versions, numbers):
        if n is not None:
            wanted |= Q(version=v, number=n)
    texts = {
        (r.version_id, r.number): r.text
        for r in Rule.objects.filter(wanted).only("version_id", "number", "text")
    }
    return [
        {
            "effective_date": v.effective_date.isoformat(),
            "number": n,
            "text": texts.get((v.pk, n)) if n else None,
            "current": v.is_current,
        }
        for v, n in zip(versions, numbers)
    ]


def rule_history(version: Version, number: str) -> dict:
    """For a rule page: the versions in which its text changed and the numbers it had before.

    {"changed_in": [dates], "was": [{"number", "effective_date"}], "added_in": date or None}
    """
    steps = trace(version, number)
    changed_in, was, added_in = [], [], None
    previous = None
    for step in steps:
        if step["number"] is None:
            previous = None
            continue
        if previous is None:
            added_in = step["effective_date"]
        else:
            if diffing.normalize_typography(previous["text"] or "") != diffing.normalize_typography(
                step["text"] or ""
            ):
                changed_in.append(step["effective_date"])
            if previous["number"] != step["number"]:
                was.append(
                    {
                        "number": previous["number"],
                        "effective_date": previous["effective_date"],
                        "until": step["effective_date"],
                    }
                )
        previous = step
    first = next((s for s in steps if s["number"] is not None), None)
    return {
        "changed_in": changed_in,
        "was": was,
        "added_in": added_in if first and added_in != first["effective_date"] else None,
    }


def previous_version(version: Version) -> Version | None:
    """The stored version just before this one (what a "what changed" page compares with)."""
    return (
        Version.objects.filter(document=version.document, effective_date__lt=version.effective_date)
        .filter(LIVE)
        .order_by("-effective_date")
        .first()
    )


def release_notes(old: Version, new: Version) -> list[dict]:
    """Readable items for admins and the "what changed" page, in new-document order:
    [{"kind", "number", "old_number", "title", "summary", "html"}]."""
    data = diff_versions(old, new)
    new_rules = {
        r.number: r
        for r in new.rules.exclude(kind=RuleKind.CHAPTER.value, text="").only(
            "version", "number", "title", "text"
        )
    }
    old_rules = {
        r.number: r
        for r in old.rules.exclude(kind=RuleKind.CHAPTER.value, text="").only(
            "version", "number", "title", "text"
        )
    }
    notes: list[dict] = []

    def ops_html(item: dict) -> str:
        ops = tuple(diffing.WordOp(op["op"], op["words"]) for op in item.get("diff", []))
        return diffing.render_word_diff_html(ops) if ops else ""

    for number in data["added"]:
        rule = new_rules.get(number)
        notes.append(
            {
                "kind": "added",
                "number": number,
                "old_number": None,
                "title": rule.title if rule else "",
                "summary": f"New rule {number}.",
                "text": rule.text if rule else "",
                "html": "",
            }
        )
    for item in data["changed"]:
        rule = new_rules.get(item["to"])
        notes.append(
            {
                "kind": "changed",
                "number": item["to"],
                "old_number": item["from"],
                "title": rule.title if rule else "",
                "summary": f"{item['to']} was reworded.",
                "text": rule.text if rule else "",
                "html": ops_html(item),
            }
        )
    for item in data["moved"]:
        rule = new_rules.get(item["to"])
        summary = f"{item['from']} is now {item['to']}" + (
            " and was reworded." if item.get("changed") else "."
        )
        notes.append(
            {
                "kind": "moved",
                "number": item["to"],
                "old_number": item["from"],
                "title": rule.title if rule else "",
                "summary": summary,
                "text": rule.text if rule else "",
                "html": ops_html(item),
            }
        )
    for number in data["removed"]:
        rule = old_rules.get(number)
        notes.append(
            {
                "kind": "removed",
                "number": None,
                "old_number": number,
                "title": rule.title if rule else "",
                "summary": f"{number} was removed.",
                "text": rule.text if rule else "",
                "html": "",
            }
        )
    # New-document order; a removed rule stands after the new place of the old rule before it.
    position: dict[str, float] = {n: float(i) for i, n in enumerate(new_rules)}
    mapping = pairing(old, new).mapping
    removed_at: dict[str, float] = {}
    last = -1.0
    for number in old_rules:
        if number in mapping and mapping[number] in position:
            last = position[mapping[number]]
        else:
            removed_at[number] = last + 0.5
    notes.sort(
        key=lambda n: (
            position[n["number"]]
            if n["number"] in position
            else removed_at.get(n["old_number"], -1.0)
        )
    )
    return notes


def pair_document(document_id: int) -> int:
    """Compute and store every pairing that pages and references need for one document: each pair of
    consecutive stored versions, and each version that a pinned reference names with the current
    one. Returns how many pairings were computed (stored ones are skipped)."""
    versions = list(
        Version.objects.filter(document_id=document_id)
        .filter(LIVE)
        .exclude(effective_date=None)
        .select_related("document")
        .order_by("effective_date")
    )
    if not versions:
        return 0
    wanted = list(zip(versions, versions[1:]))
    current = next((v for v in versions if v.is_current), None)
    if current is not None:
        slug = current.document.slug
        pinned_dates = citing.pinned_dates(slug)
        wanted += [
            (v, current)
            for v in versions
            if v.effective_date in pinned_dates and v.pk != current.pk
        ]
    stored = set(
        VersionPairing.objects.filter(old__document_id=document_id).values_list("old_id", "new_id")
    )
    computed = 0
    for old, new in wanted:
        if (old.pk, new.pk) not in stored:
            pairing(old, new)
            stored.add((old.pk, new.pk))
            computed += 1
    return computed


PAIR_VERSIONS = "rulesref.pair_versions"  # rulesref.tasks.pair_versions


def schedule_pairings(document_id: int) -> None:
    """After an import or a publish: pair in the background (on a worker; in-process when eager)."""
    from celery import current_app
    from django.db import transaction

    # Sent by its registered name, as jobs.dispatch sends its jobs: rulesref.tasks imports this
    # module, not the reverse (rulesref/apps.py registers the tasks at start-up).
    transaction.on_commit(lambda: current_app.tasks[PAIR_VERSIONS].delay(document_id))
