"""Forged launches against the LTI tool's launch check, each refused with its stable code, and
the genuine launches it lets in (``dekbovinoj_edu/lti/launch.py``; issue 43).

A hostile platform (``tests/support/lti_hostile.py``) on 127.0.0.1 serves its JWKS; each test
begins a real login (state and nonce), builds the platform's launch with one defect, and posts
it to :func:`validate_launch` as the browser would.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import jwt
import pytest
from cryptography.hazmat.primitives.asymmetric import ec
from support.lti_hostile import (
    CLIENT_ID,
    DEPLOYMENT,
    INSTRUCTOR,
    OTHER_CLIENT_ID,
    HostilePlatform,
    hostile_platform,
    raw_jwt,
)

from dekbovinoj_edu.lti import (
    STATUS,
    LoginRequest,
    LtiError,
    MemoryLedger,
    PendingLogin,
    PlatformKeys,
    Registration,
    begin_login,
    validate_launch,
)
from dekbovinoj_edu.lti import claims as c
from dekbovinoj_edu.lti.launch import Launch

LAUNCH_URL = "https://class.example.org/lti/launch"


@pytest.fixture(scope="module")
def platform() -> Iterator[HostilePlatform]:
    with hostile_platform() as running:
        yield running


@dataclass
class Tool:
    """The tool's side: its registrations, its cache of the platform's keys, its ledgers."""

    platform: HostilePlatform
    registrations: list[Registration]
    keys: PlatformKeys = field(default_factory=PlatformKeys)
    ledger: MemoryLedger = field(default_factory=MemoryLedger)

    def login(self, client_id: str = CLIENT_ID) -> PendingLogin:
        request = LoginRequest.parse(
            {
                "iss": self.platform.issuer,
                "login_hint": "535fa085f22b4655f48cd5a36a9215f64c062838",
                "target_link_uri": LAUNCH_URL,
                "client_id": client_id,
            }
        )
        pending, _ = begin_login(request, self.registrations, LAUNCH_URL, now=time.time())
        self.ledger.put(pending)
        return pending

    def launch(self, form: dict[str, str], now: float | None = None) -> Launch:
        return validate_launch(
            form,
            registrations=self.registrations,
            platform_keys=self.keys,
            logins=self.ledger,
            nonces=self.ledger,
            now=time.time() if now is None else now,
        )


@pytest.fixture
def tool(platform: HostilePlatform) -> Tool:
    return Tool(
        platform, [platform.registration(), platform.registration(client_id=OTHER_CLIENT_ID)]
    )


@dataclass
class Attempt:
    """One launch being forged: its claims, how it is signed, the form's state, the clock."""

    platform: HostilePlatform
    tool: Tool
    pending: PendingLogin
    claims: dict[str, Any]
    token: str | None = None
    state: str | None = None
    now: float = field(default_factory=time.time)

    def form(self) -> dict[str, str]:
        token = self.platform.sign(self.claims) if self.token is None else self.token
        return {
            "id_token": token,
            "state": self.pending.state if self.state is None else self.state,
        }


Forgery = Callable[[Attempt], None]


def _claim(name: str, value: Any) -> Forgery:
    def forge(attempt: Attempt) -> None:
        attempt.claims[name] = value

    return forge


def _without(name: str) -> Forgery:
    def forge(attempt: Attempt) -> None:
        del attempt.claims[name]

    return forge


def _token(make: Callable[[Attempt], str]) -> Forgery:
    def forge(attempt: Attempt) -> None:
        attempt.token = make(attempt)

    return forge


def _state(make: Callable[[Attempt], str]) -> Forgery:
    def forge(attempt: Attempt) -> None:
        attempt.state = make(attempt)

    return forge


def _tampered(attempt: Attempt) -> str:
    head, _, signature = attempt.platform.sign(attempt.claims).split(".")
    body = raw_jwt({}, {**attempt.claims, "sub": "the-teacher"}).split(".")[1]
    return f"{head}.{body}.{signature}"


def _signed_es256(attempt: Attempt) -> str:
    key = ec.generate_private_key(ec.SECP256R1())
    return jwt.encode(attempt.claims, key, "ES256", headers={"kid": attempt.platform.key.kid})


def _replayed(attempt: Attempt) -> None:
    first = attempt.form()
    attempt.tool.launch(first)  # the genuine launch, once
    attempt.token = first["id_token"]
    attempt.pending = attempt.tool.login()  # the replay comes with a fresh login's state


def _state_used_twice(attempt: Attempt) -> None:
    attempt.tool.launch(attempt.form())
    attempt.claims["nonce"] = "a-nonce-never-seen"


def _expired_login(attempt: Attempt) -> None:
    attempt.now = attempt.pending.expires + 1
    attempt.claims["iat"] = int(attempt.now)
    attempt.claims["exp"] = int(attempt.now) + 300


def _other_clients_login(attempt: Attempt) -> None:
    other = attempt.tool.login(client_id=OTHER_CLIENT_ID)
    attempt.state = other.state
    attempt.claims["nonce"] = other.nonce


FORGERIES: dict[str, tuple[str, Forgery]] = {
    # the form and the token's shape
    "no id_token in the form": ("no-token", _token(lambda a: "")),
    "an id_token that is not a JWT": ("malformed-token", _token(lambda a: "not-a-jwt")),
    "an id_token of three garbage parts": ("malformed-token", _token(lambda a: "a.b.c")),
    "a header that is not JSON": (
        "malformed-token",
        _token(lambda a: "bm90IGpzb24." + a.platform.sign(a.claims).split(".", 1)[1]),
    ),
    # the algorithm
    "alg none with no signature": (
        "bad-algorithm",
        _token(lambda a: raw_jwt({"alg": "none", "kid": a.platform.key.kid}, a.claims)),
    ),
    "alg None spelt otherwise": (
        "bad-algorithm",
        _token(lambda a: raw_jwt({"alg": "NONE", "kid": a.platform.key.kid}, a.claims)),
    ),
    "HS256 keyed by the platform's public key": (
        "bad-algorithm",
        _token(lambda a: a.platform.hs256_with_public_key(a.claims)),
    ),
    "RS512 by the platform's own key": (
        "bad-algorithm",
        _token(lambda a: a.platform.sign(a.claims, algorithm="RS512")),
    ),
    "PS256 by the platform's own key": (
        "bad-algorithm",
        _token(lambda a: a.platform.sign(a.claims, algorithm="PS256")),
    ),
    "ES256 by a key of its own": ("bad-algorithm", _token(_signed_es256)),
    "no alg at all": (
        "bad-algorithm",
        _token(lambda a: raw_jwt({"kid": a.platform.key.kid}, a.claims, lambda d: b"x")),
    ),
    # the key
    "no kid": ("no-kid", _token(lambda a: a.platform.sign(a.claims, kid=None))),
    "an unknown kid": ("unknown-kid", _token(lambda a: a.platform.sign(a.claims, kid="k-99"))),
    "signed by a key the platform never published": (
        "unknown-kid",
        _token(lambda a: a.platform.sign(a.claims, key=a.platform.unpublished)),
    ),
    "another key under the published kid": (
        "bad-signature",
        _token(
            lambda a: a.platform.sign(a.claims, key=a.platform.unpublished, kid=a.platform.key.kid)
        ),
    ),
    "claims changed after signing": ("bad-signature", _token(_tampered)),
    "the signature cut off": (
        "bad-signature",
        _token(lambda a: a.platform.sign(a.claims).rsplit(".", 1)[0] + "."),
    ),
    # who sent it and to whom
    "an issuer never registered": ("unknown-issuer", _claim("iss", "https://evil.example")),
    "the issuer with a slash more": (
        "unknown-issuer",
        lambda a: a.claims.__setitem__("iss", a.platform.issuer + "/"),
    ),
    "no issuer": ("unknown-issuer", _without("iss")),
    "aud another tool's": ("wrong-audience", _claim("aud", "someone-else")),
    "no aud": ("wrong-audience", _without("aud")),
    "aud a list without this tool": ("wrong-audience", _claim("aud", ["a", "b"])),
    "aud a number": ("wrong-audience", _claim("aud", 10000000000042)),
    "aud of several and no azp": (
        "wrong-azp",
        lambda a: (a.claims.__setitem__("aud", [CLIENT_ID, "b"]), a.claims.pop("azp")),
    ),
    "aud of several and azp another's": (
        "wrong-azp",
        lambda a: a.claims.update(aud=[CLIENT_ID, "b"], azp="b"),
    ),
    "azp another's beside this tool's aud": ("wrong-azp", _claim("azp", "b")),
    # when
    "no exp": ("no-time", _without("exp")),
    "no iat": ("no-time", _without("iat")),
    "exp as text": ("no-time", lambda a: a.claims.__setitem__("exp", str(a.claims["exp"]))),
    "exp two minutes past": (
        "expired",
        lambda a: a.claims.update(iat=int(a.now) - 420, exp=int(a.now) - 120),
    ),
    "iat twenty minutes old": ("expired", lambda a: a.claims.update(iat=int(a.now) - 1200)),
    "iat five minutes ahead": (
        "issued-in-future",
        lambda a: a.claims.update(iat=int(a.now) + 300, exp=int(a.now) + 600),
    ),
    # once only, from a login this tool began
    "no nonce": ("no-nonce", _without("nonce")),
    "an empty nonce": ("no-nonce", _claim("nonce", "")),
    "a genuine launch replayed": ("nonce-replayed", _replayed),
    "no state in the form": ("state-mismatch", _state(lambda a: "")),
    "a state no login began": ("state-mismatch", _state(lambda a: "made-up-state")),
    "a state already used": ("state-mismatch", _state_used_twice),
    "a login that waited too long": ("state-mismatch", _expired_login),
    "the state of a login for another client": ("state-mismatch", _other_clients_login),
    "a nonce not the login's": ("nonce-mismatch", _claim("nonce", "fresh-but-not-ours")),
    # what it asks for
    "a deployment never registered": (
        "unknown-deployment",
        _claim(c.DEPLOYMENT_ID, "99:someone-elses"),
    ),
    "no deployment": ("unknown-deployment", _without(c.DEPLOYMENT_ID)),
    "a submission review request": (
        "wrong-message-type",
        _claim(c.MESSAGE_TYPE, "LtiSubmissionReviewRequest"),
    ),
    "no message type": ("wrong-message-type", _without(c.MESSAGE_TYPE)),
    "LTI 1.1's version": ("wrong-version", _claim(c.VERSION, "1.1")),
    "no version": ("wrong-version", _without(c.VERSION)),
    "no sub": ("no-subject", _without("sub")),
    "an empty sub": ("no-subject", _claim("sub", "")),
    "no roles": ("no-roles", _without(c.ROLES)),
    "roles as one text": ("no-roles", _claim(c.ROLES, INSTRUCTOR)),
    "no resource link": ("no-resource-link", _without(c.RESOURCE_LINK)),
    "a resource link without an id": ("no-resource-link", _claim(c.RESOURCE_LINK, {"id": ""})),
}


def test_at_least_forty_forgeries_cover_every_launch_code() -> None:
    assert len(FORGERIES) >= 40
    launch_codes = {
        code
        for code in STATUS
        if not code.startswith("login-")
        and code
        not in {
            "insecure-url",
            "incomplete-registration",
            "registration-refused",
            "platform-keys-unavailable",
            # the class a genuine launch opens (tests/test_lti_launch.py)
            "bad-puzzle-set",
            "no-deep-link-settings",
            # the LMS's services (tests/test_lti_scores.py)
            "wrong-scope",
            "lms-unavailable",
            "not-opened-yet",
            "ticket-used",
            "not-in-course",
        }
    }
    assert {code for code, _ in FORGERIES.values()} == launch_codes


@pytest.mark.parametrize("name", list(FORGERIES))
def test_a_forged_launch_is_refused_with_its_code(
    name: str, tool: Tool, platform: HostilePlatform
) -> None:
    code, forge = FORGERIES[name]
    pending = tool.login()
    attempt = Attempt(platform, tool, pending, platform.claims(pending.nonce, time.time()))
    forge(attempt)
    with pytest.raises(LtiError) as refused:
        tool.launch(attempt.form(), now=attempt.now)
    assert refused.value.code == code, str(refused.value)
    assert refused.value.status == STATUS[code]


def test_a_genuine_students_launch_passes(tool: Tool, platform: HostilePlatform) -> None:
    pending = tool.login()
    form = {"id_token": platform.sign(platform.claims(pending.nonce, time.time())),
            "state": pending.state}  # fmt: skip
    launch = tool.launch(form)
    assert (launch.subject, launch.name, launch.is_teacher) == (
        "535fa085f22b4655f48cd5a36a9215f64c062838",
        "Astrid Lindqvist",
        False,
    )
    assert launch.deployment_id == DEPLOYMENT
    assert launch.resource_link_title == "Ten cows"
    assert launch.context_title == "Class 3B mathematics"


def test_a_teachers_deep_linking_request_needs_no_resource_link(
    tool: Tool, platform: HostilePlatform
) -> None:
    pending = tool.login()
    claims = platform.claims(pending.nonce, time.time(), roles=(INSTRUCTOR,))
    del claims[c.RESOURCE_LINK], claims["name"]
    claims[c.MESSAGE_TYPE] = c.DEEP_LINKING_REQUEST
    launch = tool.launch({"id_token": platform.sign(claims), "state": pending.state})
    assert (launch.is_teacher, launch.resource_link_id, launch.name) == (
        True,
        None,
        "Astrid Lindqvist",
    )


def test_aud_of_several_passes_with_azp_this_tool(tool: Tool, platform: HostilePlatform) -> None:
    pending = tool.login()
    claims = {**platform.claims(pending.nonce, time.time()), "aud": ["x", CLIENT_ID]}
    assert tool.launch({"id_token": platform.sign(claims), "state": pending.state}).subject


def test_the_clocks_may_differ_by_a_minute(tool: Tool, platform: HostilePlatform) -> None:
    pending = tool.login()
    now = time.time()
    claims = {**platform.claims(pending.nonce, now), "iat": int(now) + 50}
    assert tool.launch({"id_token": platform.sign(claims), "state": pending.state}).subject


def test_a_rotated_platform_key_is_fetched_once(tool: Tool, platform: HostilePlatform) -> None:
    pending = tool.login()
    tool.launch({"id_token": platform.sign(platform.claims(pending.nonce, time.time())),
                 "state": pending.state})  # fmt: skip
    before = platform.fetches
    fresh = platform.rotate()
    try:
        pending = tool.login()
        token = platform.sign(platform.claims(pending.nonce, time.time()), key=fresh)
        tool.keys.clock = lambda: time.monotonic() + 3600  # past the refetch pause
        assert tool.launch({"id_token": token, "state": pending.state}).subject
        assert platform.fetches == before + 1
        pending = tool.login()
        token = platform.sign(platform.claims(pending.nonce, time.time()), kid="still-unknown")
        with pytest.raises(LtiError, match="still-unknown"):
            tool.launch({"id_token": token, "state": pending.state})
        assert platform.fetches == before + 1  # no second fetch within the pause
    finally:
        platform.published.remove(fresh)


def test_a_platform_whose_keys_do_not_answer(platform: HostilePlatform) -> None:
    silent = Registration(
        platform.issuer, CLIENT_ID, (DEPLOYMENT,), f"{platform.url}/auth",
        f"{platform.url}/token", "http://127.0.0.1:9/jwks",
    )  # fmt: skip
    tool = Tool(platform, [silent])
    pending = tool.login()
    token = platform.sign(platform.claims(pending.nonce, time.time()))
    with pytest.raises(LtiError) as refused:
        tool.launch({"id_token": token, "state": pending.state})
    assert refused.value.code == "platform-keys-unavailable"


@pytest.mark.parametrize(
    "url", ["http://lms.example/jwks", "ftp://lms.example/jwks", "https:///jwks", "file:///etc"]
)
def test_a_registration_refuses_an_insecure_address(url: str) -> None:
    with pytest.raises(LtiError) as refused:
        Registration("https://lms.example", "c", ("1",), "https://lms.example/a",
                     "https://lms.example/t", url)  # fmt: skip
    assert refused.value.code == "insecure-url"


def test_the_login_passes_the_message_hint_back_unaltered(platform: HostilePlatform) -> None:
    hint = '{"course": 3, "link": "a b&c=d+é"}'
    request = LoginRequest.parse(
        {"iss": platform.issuer, "login_hint": "u1", "target_link_uri": LAUNCH_URL,
         "lti_message_hint": hint, "lti_deployment_id": DEPLOYMENT}
    )  # fmt: skip
    pending, url = begin_login(request, [platform.registration()], LAUNCH_URL, now=0.0)
    from urllib.parse import parse_qs, urlsplit

    query = parse_qs(urlsplit(url).query)
    assert query["lti_message_hint"] == [hint]
    assert query["state"] == [pending.state] and query["nonce"] == [pending.nonce]
    assert (query["response_mode"], query["prompt"], query["scope"]) == (
        ["form_post"], ["none"], ["openid"],
    )  # fmt: skip


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"login_hint": "u", "target_link_uri": LAUNCH_URL}, "login-missing-field"),
        ({"iss": "x", "target_link_uri": LAUNCH_URL}, "login-missing-field"),
        ({"iss": "x", "login_hint": "u"}, "login-missing-field"),
        ({"iss": "https://evil.example", "login_hint": "u", "target_link_uri": LAUNCH_URL},
         "login-unknown-platform"),
    ],
)  # fmt: skip
def test_a_login_is_refused_with_its_code(
    fields: dict[str, str], code: str, platform: HostilePlatform
) -> None:
    with pytest.raises(LtiError) as refused:
        begin_login(LoginRequest.parse(fields), [platform.registration()], LAUNCH_URL, now=0.0)
    assert refused.value.code == code


def test_a_login_naming_an_unknown_deployment_is_refused(platform: HostilePlatform) -> None:
    request = LoginRequest.parse({"iss": platform.issuer, "login_hint": "u",
        "target_link_uri": LAUNCH_URL, "lti_deployment_id": "elsewhere"})  # fmt: skip
    with pytest.raises(LtiError, match="elsewhere"):
        begin_login(request, [platform.registration()], LAUNCH_URL, now=0.0)
