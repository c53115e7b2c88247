"""What the test Sheets server refuses before it performs anything, checked against Google's
discovery document (tests/servers/sheets_discovery.py), with Google's words:

- query parameters: unknown names ("Cannot bind query parameter"), enum values (valueInputOption,
  valueRenderOption, dateTimeRenderOption, majorDimension, insertDataOption...), booleans;
- request bodies, as Google's proto3 JSON parser reads them: unknown fields ("Unknown name ... Cannot
  find field."), wrong types and enum values ("Invalid value at ..."), a list where one value goes,
  two members of a oneof (two kinds in one batchUpdate Request, two values in one ExtendedValue);
- a batchUpdate with no requests, or a Request with no kind.

Field paths in messages are the proto's snake_case names (``requests[0].add_sheet.properties``),
as Google writes them."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from typing import Any

from tests.servers.sheets_discovery import PROTO, Method, global_parameters, schema
from tests.servers.sheets_errors import ApiError, bad_request

__all__ = ["check_body", "check_query"]

INVALID_JSON = "Invalid JSON payload received."
# The message types with a oneof, its name, and its members (None: every field).
ONEOFS: dict[str, tuple[str, frozenset[str] | None]] = {
    "Request": ("kind", None),
    "ExtendedValue": ("value", None),
    "UpdateCellsRequest": ("area", frozenset({"start", "range"})),
    "DataFilter": ("filter", None),
}
# The proto enum type of a field, where its name does not say it.
ENUM_TYPES = {
    "majorDimension": "Dimension",
    "dimension": "Dimension",
    "responseValueRenderOption": "ValueRenderOption",
    "responseDateTimeRenderOption": "DateTimeRenderOption",
}
_SCALARS = {
    ("integer", "int32"): "TYPE_INT32",
    ("integer", "uint32"): "TYPE_UINT32",
    ("string", "int64"): "TYPE_INT64",
    ("number", "double"): "TYPE_DOUBLE",
    ("number", "float"): "TYPE_FLOAT",
    ("boolean", ""): "TYPE_BOOL",
}


def snake(name: str) -> str:
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name).lower()


# --- query parameters -------------------------------------------------------------------------------


def check_query(method: Method, query: Mapping[str, list[str]]) -> None:
    """Every query parameter is the method's or a global one, with a value of its type."""
    known = {name: spec for name, spec in method.parameters.items() if spec.get("location") == "query"}
    known.update(global_parameters())
    for name, values in query.items():
        spec = known.get(name)
        if spec is None:
            raise bad_request(
                f'{INVALID_JSON} Unknown name "{name}": Cannot bind query parameter. '
                f"Field '{name}' could not be found in request message.",
                "",
            )
        for value in values:
            _check_parameter(name, spec, value)


def _check_parameter(name: str, spec: Mapping[str, Any], value: str) -> None:
    field = snake(name)
    if "enum" in spec and value not in spec["enum"]:
        if name in global_parameters():  # a system parameter (alt, $.xgafv), not the request's
            raise bad_request(f"Invalid value for parameter {name}: {value}")
        raise _invalid(field, _enum_type(name), json.dumps(value))
    if spec.get("type") == "boolean" and value not in ("true", "false", "1", "0"):
        raise _invalid(field, "TYPE_BOOL", json.dumps(value))
    if spec.get("type") == "integer" and not re.fullmatch(r"-?\d+", value):
        raise _invalid(field, "TYPE_INT32", json.dumps(value))


def _invalid(path: str, type_name: str, shown: str) -> ApiError:
    return bad_request(f"Invalid value at '{path}' ({type_name}), {shown}", path)


def _enum_type(name: str) -> str:
    return PROTO + ENUM_TYPES.get(name, name[:1].upper() + name[1:])


# --- request bodies -------------------------------------------------------------------------------


def check_body(method: Method, body: Any) -> None:
    """The body fits the method's request schema; a batchUpdate holds requests, each of one kind."""
    if method.request is None:
        return
    if not isinstance(body, dict):
        raise bad_request(f"{INVALID_JSON} Expected an object, got {json.dumps(body)[:40]}.", "")
    _check_message(body, method.request, "")
    if method.request == "BatchUpdateSpreadsheetRequest":
        if not body.get("requests"):
            raise bad_request("Must specify at least one request.")
        for index, request in enumerate(body["requests"]):
            if not any(value is not None for value in request.values()):
                raise bad_request(f"Invalid requests[{index}]: No request set.")


def _check_message(value: Mapping[str, Any], name: str, path: str) -> None:
    properties: Mapping[str, Any] = schema(name).get("properties", {})
    oneof, members = ONEOFS.get(name, ("", frozenset()))
    chosen = ""
    for field, inner in value.items():
        spec = properties.get(field)
        if spec is None:
            at = f" at '{path}'" if path else ""
            raise bad_request(f'{INVALID_JSON} Unknown name "{field}"{at}: Cannot find field.', path)
        if inner is None:
            continue  # JSON null: the field is unset
        if oneof and (members is None or field in members):
            if chosen:
                raise bad_request(
                    f"Invalid value at '{path}' (oneof), oneof field '{oneof}' is already set. "
                    f"Cannot set '{field}'",
                    path,
                )
            chosen = field
        _check_value(inner, spec, _join(path, snake(field)), field)


def _check_value(value: Any, spec: Mapping[str, Any], path: str, field: str) -> None:
    if spec.get("type") == "array":
        if not isinstance(value, list):
            raise _invalid(path, _type_name(spec["items"], field), json.dumps(value))
        for index, item in enumerate(value):
            if item is not None:
                _check_item(item, spec["items"], f"{path}[{index}]", field)
        return
    _check_item(value, spec, path, field)


def _check_item(value: Any, spec: Mapping[str, Any], path: str, field: str) -> None:
    """One value of a field (an element, for a repeated one)."""
    kind, ref = spec.get("type", ""), spec.get("$ref")
    if kind == "any":
        return
    if isinstance(value, list) and kind != "array":
        raise bad_request(f"{INVALID_JSON} Proto field is not repeating, cannot start list.", path)
    if ref is not None:
        if not isinstance(value, dict):
            raise _invalid(path, PROTO + ref, json.dumps(value))
        _check_message(value, ref, path)
    elif kind == "array":  # a list of lists (ValueRange.values)
        _check_value(value, spec, path, field)
    elif kind == "object":
        if not isinstance(value, dict):
            raise _invalid(path, "TYPE_MESSAGE", json.dumps(value))
    elif "enum" in spec:
        if not (value in spec["enum"] or (_is_int(value) and 0 <= value < len(spec["enum"]))):
            raise _invalid(path, _enum_type(field), json.dumps(value))
    elif not _scalar_fits(value, kind, spec.get("format", "")):
        raise _invalid(path, _type_name(spec, field), json.dumps(value))


def _scalar_fits(value: Any, kind: str, form: str) -> bool:
    if kind == "string" and form == "int64":
        return _is_int(value) or (isinstance(value, str) and re.fullmatch(r"-?\d+", value) is not None)
    if kind == "string":
        return isinstance(value, str)
    if kind == "boolean":
        return isinstance(value, bool)
    if kind == "integer":
        number = _number(value)
        limit = 2**32 if form == "uint32" else 2**31
        low = 0 if form == "uint32" else -limit
        return number is not None and number.is_integer() and low <= number < limit
    if kind == "number":
        return _number(value) is not None or value in ("NaN", "Infinity", "-Infinity")
    return True


def _number(value: Any) -> float | None:
    """A JSON number, or a string holding one (proto3 JSON takes both)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, str):
        try:
            number = float(value)
        except ValueError:
            return None
        return number if math.isfinite(number) else None
    return None


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _type_name(spec: Mapping[str, Any], field: str) -> str:
    if "$ref" in spec:
        return PROTO + str(spec["$ref"])
    if "enum" in spec:
        return _enum_type(field)
    return _SCALARS.get((spec.get("type", ""), spec.get("format", "")), "TYPE_STRING")


def _join(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name
