"""Request bodies described by the pydantic models that read them (the engines' requests, the
shuffle check, the guide walk, the round clock, the call log's call, events, judges, notes and
players): drf-spectacular takes a model class where it takes a serializer, and gets the model's own
JSON schema, written in OpenAPI 3.0 terms (``nullable`` in place of a null type)."""

from __future__ import annotations

from typing import Any, Literal

from drf_spectacular.contrib.pydantic import PydanticExtension
from drf_spectacular.plumbing import ResolvedComponent
from pydantic import BaseModel, ConfigDict, Field
from pydantic.json_schema import model_json_schema

from calllog.editing import EDITABLE
from calllog.recording import MAX_EXTENSION
from calllog.services import MAX_PLAYERS, CallRequestModel, PlayerName

REF = "#/components/schemas/{model}"


def openapi_30(schema: Any) -> Any:
    """A JSON schema (2020-12, as pydantic writes it) in OpenAPI 3.0 terms: ``anyOf [X, null]`` ->
    X, nullable."""
    if isinstance(schema, list):
        return [openapi_30(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out = {key: openapi_30(value) for key, value in schema.items()}
    members = out.get("anyOf")
    if isinstance(members, list) and {"type": "null"} in members:
        rest = [m for m in members if m != {"type": "null"}]
        del out["anyOf"]
        if len(rest) == 1 and "$ref" not in rest[0]:
            out = {**rest[0], **out}
        else:
            out["anyOf" if len(rest) > 1 else "allOf"] = rest
        out["nullable"] = True
    if "const" in out:
        out["enum"] = [out.pop("const")]
    return out


class RequestModelExtension(PydanticExtension):
    """A pydantic model as a request body: the schema of what it accepts (its validation mode)."""

    priority = 1

    def get_name(self, auto_schema, direction):
        # drf-spectacular names a request's component NameRequest (COMPONENT_SPLIT_REQUEST):
        # LoopOutcomeRequest.
        name: str = self.target.model_config.get("title") or self.target.__name__
        return name.removesuffix("Request") if direction == "request" else name

    def map_serializer(self, auto_schema, direction):
        schema = model_json_schema(self.target, ref_template=REF, mode="validation")
        for name, sub_schema in schema.pop("$defs", {}).items():
            component = ResolvedComponent(
                name=name, type=ResolvedComponent.SCHEMA, object=name, schema=openapi_30(sub_schema)
            )
            auto_schema.registry.register_on_missing(component)
        return openapi_30(schema)


class CallRequestBody(CallRequestModel):
    """POST /api/v1/events/{id}/calls: a call from a guide walk (guide, answers), or straight from
    the IPG (infraction in place of guide). The fields after created_at are read by
    calllog.recording."""

    model_config = CallRequestModel.model_config | {
        "title": "CallRequest",
        # a call names its guide (with the answers that reach the conclusion) or an infraction
        # or an infraction, with the players (the offender among them; default the first)
        "json_schema_extra": {
            "anyOf": [
                {"required": ["guide"]},
                {"required": ["infraction", "players"], "properties": {"players": {"minItems": 1}}},
            ]
        },
    }
    infraction: str | None = Field(
        default=None,
        description='an IPG number ("3.3") or name, for a call recorded straight from the IPG',
    )
    time_extension: int | None = Field(
        default=None, ge=0, le=MAX_EXTENSION, description="minutes given"
    )
    rel: Literal["regular", "competitive", "professional"] | None = Field(
        default=None, description="the REL the call was made at: must be the event's"
    )
    announced_penalty: str | None = Field(
        default=None,
        max_length=500,
        description="the penalty the tablet showed and the judge gave: stored as the call's "
        "penalty; flagged for the head judge (needs_review) when the player's earlier penalties "
        "give another",
    )


class CallChangeBody(BaseModel):
    """PATCH /api/v1/events/{id}/calls/{call_id}: any of the fields a judge may correct
    (calllog.editing.EDITABLE) and a reason; any other field is refused, as is an offender who is
    not one of the call's players (those given, else those stored): new players without an
    offender keep the stored offender, who must be one of them."""

    model_config = ConfigDict(title="CallChangeRequest", extra="forbid")
    table: str | int | None = Field(
        default=None,
        json_schema_extra={"maxLength": 20, "maximum": 10**19, "minimum": -(10**18)},
        description="a table number or name (at most 20 characters)",
    )
    round: int | None = Field(default=None, ge=0, le=1000)
    day: int = Field(default=1, ge=1, le=30)
    players: list[PlayerName] = Field(default_factory=list, max_length=MAX_PLAYERS)
    offender: str | None = Field(
        default=None,
        max_length=200,
        pattern=r"^[^/]*$",
        description="who receives the penalty: one of the players",
    )
    penalty: str = Field(
        default="",
        min_length=1,
        max_length=500,
        json_schema_extra={"pattern": r"\S"},
        description="the penalty given",
    )
    time_extension: int = Field(default=0, ge=0, le=MAX_EXTENSION, description="minutes given")
    needs_review: bool = Field(
        default=False, description="false settles a flagged call (head judges only)"
    )
    reason: str = Field(default="", max_length=2000, description="why the call was corrected")


assert set(CallChangeBody.model_fields) == {*EDITABLE, "reason"}
