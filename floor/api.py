"""GET/POST /api/v1/events/{id}/clock: the event's round clock (any of its judges reads; head
judges act)."""

from __future__ import annotations

from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from calllog import services as calllog
from floor import services
from judgeapp.api_errors import ApiError


class ClockView(APIView):
    permission_classes = [IsAuthenticated]

    def get(self, request: Request, event_id: int) -> Response:
        event = calllog.event_for(request.user, event_id)
        return Response(services.state_of(services.current(event)))

    def post(self, request: Request, event_id: int) -> Response:
        event = calllog.event_for(request.user, event_id)
        try:
            state = services.act(request.user, event, request.data)
        except services.ClockError as exc:
            code, status = ("conflict", 409) if exc.conflict else ("invalid", 400)
            raise ApiError(
                code, str(exc), status_code=status, details={exc.field: [exc.message]}
            ) from None
        return Response(state)
