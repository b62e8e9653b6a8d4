"""Judge-facing pages: the shuffle check (what happened at the table -> infraction,
penalty, fix)."""

from __future__ import annotations

from django.shortcuts import render

from jobs import services

RELS = [("regular", "Regular"), ("competitive", "Competitive"), ("professional", "Professional")]
YES_NO_FACTS = [
    (
        "presented_to_opponent",
        "Was the deck presented to the opponent for a final shuffle or cut?",
        True,
    ),
    (
        "searched_without_shuffle",
        "Did the player search the library and not shuffle afterwards?",
        False,
    ),
    (
        "found_cards_shuffled_in",
        "Were the cards found by a search shuffled into the library?",
        False,
    ),
    (
        "card_seen_while_shuffling",
        "Was a card seen while shuffling, and the deck not shuffled again?",
        False,
    ),
    (
        "shuffling_opponents_deck",
        "Was the card seen while the player was shuffling the opponent's deck?",
        False,
    ),
    (
        "cards_could_be_known",
        "Do you believe a player could know the position or distribution of any card?",
        False,
    ),
    (
        "prior_insufficient_shuffling_warning",
        "Competitive/Professional: has the player already received a Warning for Insufficient "
        "Shuffling today?",
        False,
    ),
    (
        "arranged_before_shuffle",
        "Did the player arrange (weave, stack) the deck before shuffling?",
        False,
    ),
    ("pattern_seen", "Did a land/spell pattern look suspicious?", False),
    ("repeated_after_education", "Regular REL: was the player already told how to shuffle?", False),
]


def _count(raw: str | None) -> int:
    try:
        return max(0, int(raw or 0))
    except ValueError:
        return -1  # refused by the engine's validation, which names the field


def _facts_from_form(data) -> dict:
    procedure = []
    if data.get("piles"):
        procedure.append({"method": "pile", "times": 1, "piles": _count(data.get("piles")) or 7})
    for method in ("overhand", "mash", "riffle"):
        times = _count(data.get(method))
        if times:
            procedure.append({"method": method, "times": times})
    facts = {
        "rel": data.get("rel", ""),
        "deck_size": _count(data.get("deck_size")),
        "procedure": procedure,
    }
    for name, _, default in YES_NO_FACTS:
        facts[name] = data.get(name, "yes" if default else "no") == "yes"
    return facts


def shuffle_check(request):
    """GET: the questions. POST: the ruling with its citations, or the field that is wrong."""
    form = request.POST or {"rel": "competitive", "deck_size": "60"}
    questions = [
        (name, text, form.get(name, "yes" if default else "no") == "yes")
        for name, text, default in YES_NO_FACTS
    ]
    context = {"rels": RELS, "questions": questions, "form": form}
    if request.method == "POST":
        facts = _facts_from_form(request.POST)
        pattern = request.POST.get("pattern", "").strip().upper()
        try:
            if pattern:
                facts["analysis"] = services.pattern_finding(
                    facts["deck_size"], pattern, _count(request.POST.get("lands"))
                )
                facts["pattern_seen"] = True
            context["ruling"] = services.check_shuffle(facts)
        except services.InvalidRequest as exc:
            context["error"] = exc
    status = 400 if "error" in context else 200
    return render(request, "judgeapp/shuffle_check.html", context, status=status)
