"""The LTI tool's routes in a real class service on 127.0.0.1 (``class_service/lti_routes.py``):
the tool's JWKS, the platform's login by GET and POST answered by a redirect whose state and
nonce the class database keeps, a refused login as one sentence in the reader's language with
its code; then a launch signed by the platform for that login passes the launch check
against the same database."""

from __future__ import annotations

import time
import urllib.parse
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path

import pytest
from support.class_service import Api, running_service
from support.lti_hostile import DEPLOYMENT, HostilePlatform, hostile_platform
from support.puzzles import PETER

from dekbovinoj_edu.classroom.assignment import codes_assignment
from dekbovinoj_edu.classroom.store import SQLStore, open_store
from dekbovinoj_edu.i18n import gettext
from dekbovinoj_edu.lti import STATUS, PlatformKeys, validate_launch
from dekbovinoj_edu.lti.pages import CODE_SENTENCES, DOMAIN, SENTENCES
from dekbovinoj_edu.lti.store import LtiStore


@pytest.fixture
def platform() -> Iterator[HostilePlatform]:
    with hostile_platform() as running:
        yield running


@pytest.fixture
def served(tmp_path: Path, platform: HostilePlatform) -> Iterator[tuple[SQLStore, Api]]:
    store = open_store(tmp_path / "classes.sqlite3")
    store.add_class(codes_assignment("4a", PETER.code))
    LtiStore(store.database).register(platform.registration(), datetime.now(timezone.utc))
    with running_service(store, "4a") as (_, api):
        yield store, api
    store.close()


def _login_fields(platform: HostilePlatform, hint: str = "a b+c&d") -> dict[str, str]:
    return {
        "iss": platform.issuer,
        "login_hint": "535fa085f22b4655f48cd5a36a9215f64c062838",
        "target_link_uri": "http://127.0.0.1/lti/launch",
        "lti_message_hint": hint,
        "lti_deployment_id": DEPLOYMENT,
        "client_id": platform.registration().client_id,
    }


def _redirect_query(location: str) -> dict[str, str]:
    return dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(location).query))


def test_the_tools_keys_are_published_and_kept(served: tuple[SQLStore, Api]) -> None:
    store, api = served
    first = api.call("GET", "/lti/jwks")
    assert first.status == 200 and first.headers["cache-control"] == "public, max-age=300"
    (key,) = first.document["keys"]
    assert (key["kty"], key["alg"], key["use"]) == ("RSA", "RS256", "sig")
    assert "d" not in key and "p" not in key  # the public half only
    assert api.call("GET", "/lti/jwks").document == first.document
    LtiStore(store.database).rotate_key(datetime.now(timezone.utc))
    kids = [k["kid"] for k in api.call("GET", "/lti/jwks").document["keys"]]
    assert kids[0] == key["kid"] and len(kids) == 2


@pytest.mark.parametrize("method", ["GET", "POST"])
def test_a_login_redirects_to_the_platform_with_its_hint_unaltered(
    method: str, served: tuple[SQLStore, Api], platform: HostilePlatform
) -> None:
    store, api = served
    fields = urllib.parse.urlencode(_login_fields(platform))
    if method == "GET":
        answer = api.call("GET", f"/lti/login?{fields}")
    else:
        form = {"Content-Type": "application/x-www-form-urlencoded"}
        answer = api.call("POST", "/lti/login", raw=fields.encode(), headers=form)
    assert answer.status == 302, answer.text
    location = answer.headers["location"]
    assert location.startswith(platform.registration().auth_url + "?")
    query = _redirect_query(location)
    assert query["lti_message_hint"] == "a b+c&d"
    assert query["redirect_uri"].endswith("/lti/launch")
    assert (query["response_mode"], query["prompt"], query["scope"]) == (
        "form_post",
        "none",
        "openid",
    )
    pending = LtiStore(store.database).take(query["state"], now=time.time())
    assert pending is not None and pending.nonce == query["nonce"]


@pytest.mark.parametrize(
    ("change", "status", "code"),
    [
        ({"iss": "https://evil.example"}, 403, "login-unknown-platform"),
        ({"login_hint": ""}, 400, "login-missing-field"),
        ({"lti_deployment_id": "elsewhere"}, 403, "login-unknown-platform"),
    ],
)
def test_a_refused_login_is_one_sentence_in_the_readers_language(
    change: dict[str, str], status: int, code: str,
    served: tuple[SQLStore, Api], platform: HostilePlatform,
) -> None:  # fmt: skip
    _, api = served
    fields = urllib.parse.urlencode({**_login_fields(platform), **change})
    answer = api.call("GET", f"/lti/login?{fields}", headers={"Accept-Language": "sv"})
    assert answer.status == status
    assert answer.headers["content-type"].startswith("text/html")
    assert gettext("sv", DOMAIN, SENTENCES[status]) in answer.text
    assert f"Kod: {code}" in answer.text and "Traceback" not in answer.text


def test_a_launch_for_a_login_the_service_began_passes(
    served: tuple[SQLStore, Api], platform: HostilePlatform
) -> None:
    store, api = served
    fields = urllib.parse.urlencode(_login_fields(platform))
    query = _redirect_query(api.call("GET", f"/lti/login?{fields}").headers["location"])
    token = platform.sign(platform.claims(query["nonce"], time.time()))
    lti = LtiStore(store.database)
    form = {"id_token": token, "state": query["state"]}
    check = {"registrations": lti.registrations(), "platform_keys": PlatformKeys()}
    launch = validate_launch(form, **check, logins=lti, nonces=lti, now=time.time())
    assert launch.name == "Astrid Lindqvist" and not launch.is_teacher
    with pytest.raises(ValueError, match="already used"):
        validate_launch(form, **check, logins=lti, nonces=lti, now=time.time())


def test_every_refusal_has_a_sentence_in_every_language() -> None:
    assert set(STATUS.values()) == set(SENTENCES)
    for lang in ("eo", "sv", "ja"):
        for sentence in [*SENTENCES.values(), *CODE_SENTENCES.values(), "This did not open",
                         "Code: {code}"]:  # fmt: skip
            assert gettext(lang, DOMAIN, sentence, code="x") != sentence.replace("{code}", "x")
