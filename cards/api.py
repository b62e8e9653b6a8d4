"""GET /api/v1/cards/{name} (docs/API.md "Cards") and GET /api/v1/cards?q= (search)."""

from __future__ import annotations

from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cards import services
from cards.models import Card
from judgeapp.api_errors import ApiError

MAX_NAME = 200


def card_body(card: Card) -> dict:
    return {
        "name": card.name,
        "mana_cost": card.mana_cost,
        "type_line": card.type_line,
        "oracle_text": card.oracle_text,
        "colour_identity": card.colour_identity,
        "keywords": card.keywords,
        "legalities": card.legalities,
        "faces": card.faces,
        "layout": card.layout,
        "oracle_id": str(card.oracle_id),
        "rulings": [
            {"date": r.published_at.isoformat(), "text": r.comment, "source": r.source}
            for r in card.rulings.all()
        ],
        "rules": services.card_rules(card),
    }


def _checked(text: str, field: str) -> str:
    if "\x00" in text or any(0xD800 <= ord(c) <= 0xDFFF for c in text):
        raise ApiError(
            "invalid",
            f"{field}: holds a NUL or an unpaired surrogate character",
            details={field: ["invalid characters"]},
        )
    if len(text) > MAX_NAME:
        raise ApiError(
            "invalid", f"{field}: at most {MAX_NAME} characters", details={field: ["too long"]}
        )
    return text


class CardDetailView(APIView):
    def get(self, request: Request, name: str) -> Response:
        try:
            card = services.find_card(_checked(name, "name"))
        except services.CardNotFound as exc:
            raise ApiError(
                "not_found", str(exc), status_code=404, details={"close": exc.close}
            ) from None
        return Response(card_body(card))


class CardSearchView(APIView):
    def get(self, request: Request) -> Response:
        query = _checked(request.query_params.get("q", "").strip(), "q")
        if not query:
            raise ApiError(
                "invalid",
                "q: say what to look for (a card name or words of its text)",
                details={"q": ["required"]},
            )
        cards = services.search_cards(query)
        return Response(
            {
                "results": [
                    {"name": c.name, "mana_cost": c.mana_cost, "type_line": c.type_line}
                    for c in cards
                ],
                "count": len(cards),
            }
        )
