"""The class service's wire contract is written once (``classroom/contract.py``), and the
OpenAPI file the service ships and serves says the same: its routes under the contract's root,
the request bodies' bounds and formats, every error code and each error response's status.

The client, the desk and the service import the contract; these tests also hold the code to
it: the service's routes, the request fields' bounds, the refusals' statuses.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from dekbovinoj_edu.class_service.api import openapi_text
from dekbovinoj_edu.class_service.app import api_routes
from dekbovinoj_edu.class_service.validation import ALIVE, ATTEMPT, JOIN, Field
from dekbovinoj_edu.classroom import contract, errors
from dekbovinoj_edu.classroom.errors import ClassroomError

OPENAPI: dict[str, Any] = json.loads(openapi_text())
SCHEMAS: dict[str, Any] = OPENAPI["components"]["schemas"]


def test_every_route_of_the_file_is_under_the_contracts_root() -> None:
    assert OPENAPI["paths"]
    assert all(path.startswith(f"{contract.API_ROOT}/") for path in OPENAPI["paths"])


def test_the_service_serves_exactly_the_files_class_routes() -> None:
    served = {path: methods for path, methods in api_routes()}
    described = {path: set(methods) for path, methods in OPENAPI["paths"].items()}
    assert served == described


def test_every_error_code_of_the_file_has_the_contracts_status_and_no_other() -> None:
    codes = SCHEMAS["Error"]["properties"]["error"]["properties"]["code"]["enum"]
    assert sorted(codes) == sorted(contract.STATUS)


def test_every_error_of_class_mode_has_a_status_in_the_contract() -> None:
    found = {
        value.code
        for name in errors.__all__
        if isinstance(value := getattr(errors, name), type) and issubclass(value, ClassroomError)
    }
    found.discard(ClassroomError.code)
    assert found <= set(contract.STATUS)


def _bounds(schema: dict[str, Any]) -> tuple[float | None, float | None, str | None]:
    low = schema.get("minimum", schema.get("minLength"))
    high = schema.get("maximum", schema.get("maxLength"))
    return low, high, schema.get("pattern")


@pytest.mark.parametrize(
    ("schema", "fields"),
    [("JoinRequest", JOIN), ("AttemptRequest", ATTEMPT), ("AliveRequest", ALIVE)],
)
def test_each_request_body_of_the_file_has_the_services_fields_and_bounds(
    schema: str, fields: tuple[Field, ...]
) -> None:
    described = SCHEMAS[schema]
    assert set(described["properties"]) == {field.name for field in fields}
    assert set(described.get("required", ())) == {f.name for f in fields if f.required}
    for field in fields:
        low, high, pattern = _bounds(described["properties"][field.name])
        if field.kind is str and field.low == 0:
            low = 0 if low is None else low
        assert (low, high) == (field.low, field.high), field.name
        if field.pattern is not None:
            assert pattern == f"^{field.pattern.pattern}$", field.name


def test_the_request_bounds_are_the_contracts() -> None:
    by_name = {field.name: field for field in ATTEMPT}
    assert by_name["id"].pattern is contract.ATTEMPT_ID
    assert by_name["hints"].high == contract.MAX_HINTS
    assert by_name["seconds"].high == contract.MAX_SECONDS
    assert by_name["answer"].high == contract.MAX_ANSWER
    assert by_name["puzzle"].high == contract.MAX_PUZZLES
    join = {field.name: field for field in JOIN}
    assert join["nickname"].high == contract.MAX_NICKNAME
    assert join["rejoin_code"].high == contract.MAX_REJOIN_CODE
    too_large = OPENAPI["components"]["responses"]["TooLarge"]["description"]
    assert str(contract.MAX_BODY) in too_large


def test_each_error_response_of_the_file_answers_with_the_contracts_status() -> None:
    for path, methods in OPENAPI["paths"].items():
        for method, operation in methods.items():
            for status, response in operation.get("responses", {}).items():
                reference = response.get("$ref", "")
                if not reference.startswith("#/components/responses/"):
                    continue
                described = OPENAPI["components"]["responses"][reference.rsplit("/", 1)[1]]
                codes = [
                    code
                    for found in re.findall(r"\(([a-z, -]+)\)", described["description"])
                    for code in found.split(", ")
                    if code in contract.STATUS
                ]
                assert codes, (path, method, status)
                statuses = {contract.STATUS[code] for code in codes}
                assert statuses == {int(status)}, (path, method, status, codes)


def test_one_copy_of_each_bound_in_the_code() -> None:
    """No module but the contract writes the API's root or a request bound as a literal."""
    from support.layers import ROOT

    package = ROOT / "dekbovinoj_edu"
    literals = ['"/api/v1"', "86_400.0", "16 * 1024", r"[A-Za-z0-9_-]{8,64}", r"[A-Za-z0-9_-]{16"]
    offenders = [
        f"{path.relative_to(package)}: {literal}"
        for path in sorted(package.rglob("*.py"))
        if path.name != "contract.py"
        for literal in literals
        if literal in path.read_text("utf-8")
    ]
    assert offenders == []
