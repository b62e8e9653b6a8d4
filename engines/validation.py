"""The engines' request models: pydantic models read the API's JSON, check it in the project's own
words and describe it for the schema; the first error found becomes one RequestError naming
the field.

Each model reads its object like ``dict.get``: a missing required key is read as null, and each
field's check says what it needs. Fields are checked in the order they are declared, so the error
reported is the one the request's own order reaches first. A check raises ``Invalid(message)``,
named by where the model found the value (``iteration[1].player``), or ``RequestError(field,
message)`` when it names a field itself. Checks that need an earlier field (the players, the deck
size) read it from the validation context, where that field's check left it; when that field was
refused they pass, as its error is reported first.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar, TypeVar

from pydantic import BaseModel, ConfigDict, TypeAdapter, ValidationError, model_validator
from pydantic_core import ErrorDetails

from engines.errors import RequestError

# A union member's tag in an error's location: never a name the API lets through (NUL is
# refused there).
TAG = "\x00"
NUMBER_TAG = TAG + "number"
OBJECT_TAG = TAG + "object"
WORD_TAG = TAG + "word"

# Errors pydantic finds itself (the models' own checks come first, so these are not expected).
_OWN_WORDS = {
    "missing": "is required",
    "int_type": "must be a whole number",
    "bool_type": "must be true or false",
    "string_type": "must be text",
    "list_type": "must be a list",
    "dict_type": "must be an object",
}


class Invalid(ValueError):
    """What is wrong with the value being checked; ``at`` continues the error's location into it
    (keys, indexes). ``of_key``: the value is a key, and the error names the object that
    holds it."""

    def __init__(self, message: str, *at: str | int, of_key: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.at = at
        self.of_key = of_key


class Shape(BaseModel):
    """A request object: unknown keys are ignored, a missing required key reads as null."""

    model_config = ConfigDict(frozen=True, extra="ignore")
    not_object: ClassVar[str] = "must be an object"

    @model_validator(mode="before")
    @classmethod
    def _read_object(cls, data: Any) -> Any:
        if not isinstance(data, Mapping):
            raise Invalid(cls.not_object)
        cls.check_keys(data)
        missing = {
            f.alias or name: None
            for name, f in cls.model_fields.items()
            if f.is_required() and (f.alias or name) not in data
        }
        return {**data, **missing} if missing else data

    @classmethod
    def check_keys(cls, data: Mapping[str, Any]) -> None:
        """Refuse the object from its keys alone, before any field is read (none by default)."""


def path_of(loc: tuple[str | int, ...], prefix: str = "") -> str:
    """An error location as the field the API names: ("iteration", 1, "player") ->
    "iteration[1].player"."""
    out = prefix
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif part == "[key]" or part.startswith(TAG):
            continue  # a dict key's own check, a union member's tag: the field is the one before
        else:
            out = f"{out}.{part}" if out else part
    return out


def request_error(error: ErrorDetails, prefix: str = "") -> RequestError:
    """The project's RequestError for one pydantic error."""
    cause = (error.get("ctx") or {}).get("error")
    if isinstance(cause, RequestError):
        return cause
    if isinstance(cause, Invalid):
        loc = tuple(error["loc"])
        if cause.of_key and loc[-1:] == ("[key]",):
            loc = loc[:-2]
        return RequestError(path_of((*loc, *cause.at), prefix) or "body", cause.message)
    return RequestError(
        path_of(error["loc"], prefix) or "body", _OWN_WORDS.get(error["type"], "is not valid")
    )


M = TypeVar("M", bound=BaseModel)
T = TypeVar("T")


def read(model: type[M], data: Any, *, context: dict[str, Any] | None = None) -> M:
    """``model`` read from ``data``; raises RequestError naming the field of the first error."""
    try:
        return model.model_validate(data, context={} if context is None else context)
    except ValidationError as exc:
        raise request_error(exc.errors()[0]) from None


def read_as(
    adapter: TypeAdapter[T], data: Any, *, prefix: str, context: dict[str, Any] | None = None
) -> T:
    """Like ``read``, for a type that is not a model (a list of steps); fields are named
    from ``prefix``."""
    try:
        return adapter.validate_python(data, context={} if context is None else context)
    except ValidationError as exc:
        raise request_error(exc.errors()[0], prefix) from None


def drop_default(schema: dict[str, Any]) -> None:
    """For a field whose absence means something (a default that depends on other fields): no
    default shown."""
    schema.pop("default", None)


def absent_only(schema: dict[str, Any]) -> None:
    """For a field typed ``X | None`` only because it may be absent (null is refused): the schema of
    X, no default."""
    schema.pop("default", None)
    members = schema.get("anyOf")
    if isinstance(members, list) and {"type": "null"} in members:
        rest = [m for m in members if m != {"type": "null"}]
        if len(rest) == 1:
            del schema["anyOf"]
            schema.update({k: v for k, v in rest[0].items() if k not in schema})


def not_null(message: str) -> Check:
    """A check that refuses null for a field that may be absent (``X | None`` with default None)."""

    def check(value: Any) -> Any:
        if value is None:
            raise Invalid(message)
        return value

    return check


def by_kind(value: Any) -> str:
    """The member of a number-or-object union a value is read as."""
    return OBJECT_TAG if isinstance(value, Mapping) else NUMBER_TAG


Check = Callable[[Any], Any]


def schema_is(*values: str) -> dict[str, Any]:
    """For a rule across fields in a request model's JSON schema: a property that holds one of
    `values`. Wrapped in allOf so that drf-spectacular does not take it for the property's own
    enum (it would make a component of it, shared with the field's real enum by name)."""
    return {"allOf": [{"enum": list(values)}]}
