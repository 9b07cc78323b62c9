"""The student API against its description, ``service/openapi.json``: the file and the routes
agree (paths, methods, each body's fields and bounds, the error codes), and schemathesis
fuzzes every operation from the file against a real service over a real store: no request
gets a 500, and no answer breaks the schema (its status documented, its body the shape the
file gives it)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.config import SchemathesisConfig
from schemathesis.core.parameters import ParameterLocation
from schemathesis.specs.openapi.checks import negative_data_rejection
from support.class_service import Api, running_service
from support.puzzles import PETER

from dekbovinoj_edu.class_service import errors as service_errors
from dekbovinoj_edu.class_service.app import api_routes
from dekbovinoj_edu.class_service.errors import STATUS
from dekbovinoj_edu.class_service.limits import Rate, RateLimits
from dekbovinoj_edu.class_service.run import ClassServer
from dekbovinoj_edu.class_service.validation import ALIVE, ATTEMPT, JOIN, Field
from dekbovinoj_edu.classroom import errors as classroom_errors
from dekbovinoj_edu.classroom.assignment import codes_assignment
from dekbovinoj_edu.classroom.errors import ClassroomError
from dekbovinoj_edu.classroom.store import open_store

DESCRIPTION = (
    Path(__file__).resolve().parents[1] / "dekbovinoj_edu" / "class_service" / "openapi.json"
)
OPENAPI: dict[str, Any] = json.loads(DESCRIPTION.read_text("utf-8"))
SCHEMAS: dict[str, Any] = OPENAPI["components"]["schemas"]

EXAMPLES = 40
"""Examples per operation and kind (valid and invalid data): bounded, so the run is too."""


# --- the file and the routes agree ------------------------------------------------------------


def test_every_route_is_described_and_every_description_is_a_route() -> None:
    described = {
        path: {method for method in item if method in ("get", "post")}
        for path, item in OPENAPI["paths"].items()
    }
    assert described == dict(api_routes())


@pytest.mark.parametrize(
    ("schema", "fields"),
    [("JoinRequest", JOIN), ("AttemptRequest", ATTEMPT), ("AliveRequest", ALIVE)],
)
def test_each_body_is_checked_as_the_file_describes_it(
    schema: str, fields: tuple[Field, ...]
) -> None:
    described = SCHEMAS[schema]
    assert described["additionalProperties"] is False
    assert set(described["properties"]) == {field.name for field in fields}
    assert set(described.get("required", ())) == {f.name for f in fields if f.required}
    kinds = {str: "string", int: "integer", float: "number", bool: "boolean"}
    for field in fields:
        item = described["properties"][field.name]
        assert item["type"] == kinds[field.kind], field.name
        low, high = ("minLength", "maxLength") if field.kind is str else ("minimum", "maximum")
        if field.low:
            assert item[low] == field.low, field.name
        if field.high is not None:
            assert item[high] == field.high, field.name
        if field.pattern is not None:
            assert item["pattern"].strip("^$") == field.pattern.pattern, field.name


def test_every_error_code_has_a_status_and_is_in_the_file() -> None:
    classes: list[type[ClassroomError]] = []
    for module in (classroom_errors, service_errors):
        classes += [
            value
            for value in vars(module).values()
            if isinstance(value, type) and issubclass(value, ClassroomError)
        ]
    codes = {error.code for error in classes} - {"classroom"}
    assert codes <= set(STATUS)
    assert SCHEMAS["Error"]["properties"]["error"]["properties"]["code"]["enum"] == list(STATUS)


def test_the_file_is_openapi_3_1_that_schemathesis_reads() -> None:
    assert OPENAPI["openapi"] == "3.1.0"
    schema = schemathesis.openapi.from_path(DESCRIPTION)
    names = {result.ok().label for result in schema.get_all_operations()}
    assert "POST /api/v1/classes/{class}/attempts" in names


# --- fuzzing ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def fuzzed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ClassServer, str]]:
    """A service for the fuzzing, with room for every example (limits far above them), and
    the token of a page that joined."""
    store = open_store(tmp_path_factory.mktemp("fuzz") / "classes.sqlite3")
    store.add_class(codes_assignment("4a", f"{PETER.code},{PETER.code}"))
    roomy = Rate(burst=100_000, per_second=10_000)
    limits = RateLimits(requests=roomy, join=roomy, attempt=roomy, alive=roomy, read=roomy)
    with running_service(store, "4a", limits=limits) as (server, api):
        token = api.join("Fuzz").document["token"]
        yield server, token
    store.close()


FUZZING = SchemathesisConfig.from_dict(
    {
        "parameters": {"path.class": "4a"},  # the class served: past the 404, to the checks
        "operations": [
            {
                # A nickname is also refused for what JSON Schema cannot say (invisible or
                # blank letters): a schema-valid join may be a 422 ``nickname``.
                "include-path": "/api/v1/classes/{class}/join",
                "checks": {
                    "positive_data_acceptance": {
                        "expected-statuses": ["2XX", "401", "403", "404", "409", "422", "429"]
                    }
                },
            }
        ],
    }
)
schema = schemathesis.openapi.from_path(DESCRIPTION, config=FUZZING)


@pytest.mark.slow
@schema.parametrize()
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=True,
)
def test_no_request_gets_a_500_or_an_answer_off_the_schema(
    case: schemathesis.Case, fuzzed: tuple[ClassServer, str]
) -> None:
    server, token = fuzzed
    components = case.meta.components if case.meta is not None else {}

    def negated(location: ParameterLocation) -> bool:
        return location in components and components[location].mode.is_negative

    # A valid session's token, unless the headers are what this case makes invalid (no or a
    # malformed Authorization: then the case's own go).
    auth = None if negated(ParameterLocation.HEADER) else {"Authorization": f"Bearer {token}"}
    response = case.call(base_url=server.url.rstrip("/"), headers=auth)
    assert response.status_code < 500, response.text
    # The class in the path is always the one served (FUZZING): a case whose invalid part was
    # to be the path is a valid request, and is not held to be refused.
    excluded = [negative_data_rejection] if negated(ParameterLocation.PATH) else []
    case.validate_response(response, excluded_checks=excluded)
    assert Api(server.url).call("GET", "/api/v1/classes/4a").status == 200
