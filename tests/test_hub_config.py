"""``dekbovinoj hub config``: the fragment to paste into ``jupyterhub_config.py`` is Python
that JupyterHub's own loader reads (traitlets' ``PyFileConfigLoader``) and holds no
password; it adds to the hub's configuration instead of redefining it, so a real hub starts
with it next to ``Authenticator.manage_groups = True`` and next to a ``user`` role of its
own. ``--z2jh`` prints values that the Zero to JupyterHub chart accepts: merged into the
chart's own values the way Helm merges, they validate against the chart's schema (chart
4.3.3, vendored in tests/data/z2jh/), and they name the images the Dockerfiles in
``docker/`` build. The hub tests (tests/test_hub_service.py) run a real hub on the same
fragment.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import copy
import io
import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import requests
import yaml
from support.hub import RunningHub, running_hub
from support.hub import test_settings as hub_test_settings
from traitlets.config import Config, LazyConfigValue
from traitlets.config.loader import PyFileConfigLoader

from dekbovinoj_edu.classroom.assignment import codes_assignment
from dekbovinoj_edu.classroom.store import open_store
from dekbovinoj_edu.cli import main
from dekbovinoj_edu.hub.config import (
    DB_SECRET,
    DB_SECRET_KEY,
    HUB_IMAGE,
    IMAGE_TAG,
    SPAWN_TIMEOUT,
    USER_IMAGE,
    Z2JH_CHART,
    HubOptions,
    database_from_secret,
    jupyterhub_config,
)
from dekbovinoj_edu.lti.courses import CourseStore
from dekbovinoj_edu.lti.store import LtiStore

ROOT = Path(__file__).resolve().parents[1]
CHART = ROOT / "tests" / "data" / "z2jh" / Z2JH_CHART
DB_FILE = "/etc/jupyterhub/dekbovinoj-db"
SECRET = "s3cret-Pa55"
"""A password that must appear nowhere in what the commands print."""


def _printed(*args: str, db: tuple[str, ...] = ("--db-file", DB_FILE)) -> str:
    with contextlib.redirect_stdout(io.StringIO()) as out:
        assert main(["hub", "config", *db, *args]) == 0
    return out.getvalue()


def _loaded(text: str, folder: Path) -> Any:
    path = folder / "jupyterhub_config.py"
    path.write_text(text, "utf-8")
    return PyFileConfigLoader(path.name, path=str(folder)).load_config()


def _value(config: Any, default: Any) -> Any:
    """A setting as the hub sees it (a fragment's ``.extend``/``.update`` on nothing)."""
    return config.get_value(default) if isinstance(config, LazyConfigValue) else config


def test_the_fragment_is_what_jupyterhub_loads(tmp_path: Path) -> None:
    config = _loaded(_printed("--group", "staff"), tmp_path)
    hub = config.JupyterHub
    services = {s["name"]: s for s in _value(hub.services, [])}
    service = services["dekbovinoj"]
    assert service["url"] == "http://127.0.0.1:10101"
    assert service["command"][-4:] == ["--teachers-group", "staff", "--db-file", DB_FILE]
    assert "environment" not in service  # the address is in the file, read by the service
    assert "idle-culler" in services
    assert _value(hub.extra_user_scopes, set()) == {"access:services!service=dekbovinoj"}
    assert "user" not in {r["name"] for r in _value(hub.load_roles, [])}
    assert _value(hub.load_groups, {}) == {"staff": {"users": []}}
    assert hub.concurrent_spawn_limit == 30
    spawner = config.Spawner
    assert "access:services!service=dekbovinoj" in spawner.server_token_scopes
    assert spawner.cmd[1:] == ["-m", "dekbovinoj_edu.hub.user_server"]
    assert spawner.default_url == "/voila/render/dekbovinoj/dekbovinoj.ipynb"


def test_the_fragment_adds_to_services_already_configured(tmp_path: Path) -> None:
    before = "c.JupyterHub.services = [{'name': 'other', 'url': 'http://127.0.0.1:9'}]\n"
    config = _loaded(before + _printed("--no-culler"), tmp_path)
    names = [s["name"] for s in config.JupyterHub.services]
    assert names == ["other", "dekbovinoj"]


def test_a_teachers_scope_is_defined_granted_and_asked_for(tmp_path: Path) -> None:
    scope = "custom:dekbovinoj:teach"
    config = _loaded(_printed("--scope", scope), tmp_path)
    hub = config.JupyterHub
    assert scope in _value(hub.custom_scopes, {})
    roles = {r["name"]: r for r in _value(hub.load_roles, [])}
    assert roles["dekbovinoj-teacher"] == {
        "name": "dekbovinoj-teacher", "scopes": [scope], "groups": ["teachers"],
    }  # fmt: skip
    service = _value(hub.services, [])[0]
    assert service["oauth_client_allowed_scopes"] == [scope]
    assert service["command"][-4:-2] == ["--teachers-scope", scope]


def test_a_user_role_of_the_hubs_own_gets_the_services_scope(tmp_path: Path) -> None:
    for before in (
        f"c.JupyterHub.load_roles = [{USER_ROLE!r}]\n",
        f"c.JupyterHub.load_roles.extend([{USER_ROLE!r}])\n",
    ):
        config = _loaded(before + _printed(), tmp_path)
        roles = [r for r in _value(config.JupyterHub.load_roles, []) if r["name"] == "user"]
        assert [r["scopes"] for r in roles] == [
            ["self", "read:users:name", "access:services!service=dekbovinoj"]
        ]


def test_the_spawn_timeouts_are_set_for_the_rush(tmp_path: Path) -> None:
    config = _loaded(_printed(), tmp_path)
    assert config.Spawner.start_timeout == config.Spawner.http_timeout == SPAWN_TIMEOUT
    assert SPAWN_TIMEOUT >= 2 * 88.9  # the slowest spawn p95 measured (docs/hub.md)
    chosen = _loaded(_printed("--spawn-timeout", "240", "--cull-every", "60"), tmp_path)
    assert chosen.Spawner.start_timeout == chosen.Spawner.http_timeout == 240
    culler = _value(chosen.JupyterHub.services, [])[1]
    assert culler["command"][-2:] == ["--timeout=1800", "--cull-every=60"]


def test_the_tests_hub_uses_the_fragments_timeouts_only(tmp_path: Path) -> None:
    own = hub_test_settings(tmp_path, ("ana",), {"teachers": []}, 8000)
    assert "timeout" not in own and "spawn_limit" not in own and "idle" not in own


def test_the_fragment_holds_no_password() -> None:
    for text in (_printed(), _printed("--z2jh"), _printed(db=("--db", "postgresql://u@h/d"))):
        assert SECRET not in text and "password" not in text.lower()
    with contextlib.redirect_stderr(io.StringIO()) as err:
        assert main(["hub", "config", "--db", f"postgresql://dekbovinoj:{SECRET}@h/d"]) == 2
    assert SECRET not in err.getvalue() and "--db-file" in err.getvalue()
    assert err.getvalue().count("\n") == 1
    with contextlib.redirect_stderr(io.StringIO()) as err:
        assert main(["hub", "config"]) == 2  # where is the database?
    assert "--db-file" in err.getvalue()


def test_groups_are_left_to_an_authenticator_that_manages_them(tmp_path: Path) -> None:
    config = _loaded(_printed("--authenticator-groups"), tmp_path)
    assert not _value(config.JupyterHub.load_groups, {})
    values = yaml.safe_load(_printed("--z2jh", "--authenticator-groups", db=()))
    assert "load_groups" not in values["hub"]["config"].get("JupyterHub", {})


LTI_ARGS = (
    "--lti-issuer", "https://canvas.instructure.com",
    "--lti-client-id", "10000000000001",
    "--lti-authorize-url", "https://sso.canvaslms.com/api/lti/authorize_redirect",
    "--lti-jwks-url", "https://sso.canvaslms.com/api/lti/security/jwks",
)  # fmt: skip
"""The hub registered in Canvas (Canvas's documented endpoints)."""

INSTRUCTOR = "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor"
LEARNER = "http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"


def test_the_lms_signs_in_and_its_roles_and_courses_are_the_hubs_groups(tmp_path: Path) -> None:
    text = _printed(*LTI_ARGS, "--group", "staff")
    config = _loaded(text, tmp_path)
    assert config.JupyterHub.authenticator_class.endswith("lti13.auth.LTI13Authenticator")
    assert config.LTI13Authenticator.client_id == ["10000000000001"]
    assert config.LTI13Authenticator.username_key == "email"
    assert config.Authenticator.manage_groups and config.Authenticator.allow_all
    assert not _value(config.JupyterHub.load_groups, {})  # the LMS's groups, none loaded
    hook = config.Authenticator.post_auth_hook
    context = {"id": "c-17", "label": "Math 4a"}
    claims = {"iss": "https://canvas.instructure.com",
              "https://purl.imsglobal.org/spec/lti/claim/context": context}  # fmt: skip
    roles = "https://purl.imsglobal.org/spec/lti/claim/roles"
    teacher = hook(None, None, {"name": "t", "auth_state": {**claims, roles: [INSTRUCTOR]}})
    student = hook(None, None, {"name": "s", "auth_state": {**claims, roles: [LEARNER]}})
    assert teacher["groups"][0] == "staff" and teacher["groups"][1:] == student["groups"]
    assert student["groups"][0].startswith("course-math-4a-")
    assert hook(None, None, {"name": "x", "auth_state": None})["groups"] == []
    values = yaml.safe_load(_printed("--z2jh", *LTI_ARGS, db=()))
    assert values["hub"]["config"]["LTI13Authenticator"]["issuer"] == LTI_ARGS[1]
    assert "groups_hook('teachers')" in values["hub"]["extraConfig"]["dekbovinoj-lti.py"]
    with contextlib.redirect_stderr(io.StringIO()) as err:
        assert main(["hub", "config", "--db-file", DB_FILE, *LTI_ARGS[:4]]) == 2
    assert "--lti-jwks-url" in err.getvalue() and err.getvalue().count("\n") == 1


def _signed_in(hook: Any, user: dict[str, Any]) -> dict[str, Any]:
    """What the hub's ``post_auth_hook`` gives back for ``user``, awaited as the hub awaits
    it (in a thread of its own: a test before may have left its loop running here)."""
    with concurrent.futures.ThreadPoolExecutor(1) as thread:
        return dict(thread.submit(asyncio.run, hook(None, None, user)).result(timeout=60))


def test_with_the_lms_token_address_the_hook_keeps_each_launch_for_the_class_service(
    tmp_path: Path,
) -> None:
    database = f"sqlite:///{tmp_path / 'classes.sqlite3'}"
    address = tmp_path / "dekbovinoj-db"
    address.write_text(database + "\n")
    address.chmod(0o600)
    store = open_store(database)
    store.add_class(codes_assignment("m4", "4WTW-94T5-3AE0-600E-0"))
    token_url = "https://sso.canvaslms.com/login/oauth2/token"
    text = _printed(*LTI_ARGS, "--lti-token-url", token_url, db=("--db-file", str(address)))
    hook = _loaded(text, tmp_path).Authenticator.post_auth_hook
    lti = "https://purl.imsglobal.org/spec/lti/claim/"
    claims = {
        "iss": LTI_ARGS[1], "aud": "10000000000001", "sub": "u-17", "name": "Ana Lind",
        lti + "message_type": "LtiResourceLinkRequest", lti + "version": "1.3.0",
        lti + "deployment_id": "1:d", lti + "roles": [LEARNER],
        lti + "context": {"id": "c-17", "label": "Math 4a"}, lti + "resource_link": {"id": "l-1"},
        lti + "target_link_uri": "https://hub.example/hub/user-redirect/voila/render/"
        "dekbovinoj/classroom.ipynb?class=M4",
    }  # fmt: skip
    signed = _signed_in(hook, {"name": "ana@skolo.example", "auth_state": claims})
    assert signed["groups"][0].startswith("course-math-4a-")
    courses = CourseStore(store.database)
    assert [(p.subject, p.nickname, p.role) for p in courses.people("m4")] == [
        ("u-17", "ana@skolo.example", "student")
    ]
    assert [link.key.link_id for link in courses.links("m4")] == ["l-1"]
    (registered,) = LtiStore(store.database).registrations()
    assert registered.token_url == token_url and registered.deployment_ids == ("1:d",)
    # a launch of no class of the database, or one the checks refuse: signed in all the same
    elsewhere = {**claims, lti + "target_link_uri": "https://hub.example/hub/home"}
    assert _signed_in(hook, {"name": "bo", "auth_state": elsewhere})["groups"]
    broken = {**claims, lti + "version": "1.1"}
    assert _signed_in(hook, {"name": "cy", "auth_state": broken})["groups"]
    assert len(courses.people("m4")) == 1
    store.close()

    values = yaml.safe_load(_printed("--z2jh", *LTI_ARGS, "--lti-token-url", token_url, db=()))
    hook_text = values["hub"]["extraConfig"]["dekbovinoj-lti.py"]
    assert "LmsServices(LtiSignIn(" in hook_text and "db_file" not in hook_text  # $DEKBOVINOJ_DB
    with contextlib.redirect_stderr(io.StringIO()) as err:
        assert main(["hub", "config", "--db-file", DB_FILE, "--lti-token-url", token_url]) == 2
    assert "--lti-issuer" in err.getvalue()


def test_odd_text_in_the_options_stays_text() -> None:
    sneaky = "/etc/jupyterhub/db'\"); import os #"
    text = jupyterhub_config(HubOptions(db_file=sneaky, group="t'\"eachers"))
    namespace: dict[str, object] = {}
    exec(compile(text, "fragment", "exec"), {"c": _Recorder(namespace)})
    services = namespace["JupyterHub.services"]
    assert isinstance(services, list)
    assert services[0]["command"][-1] == sneaky
    assert namespace["JupyterHub.load_groups"] == {"t'\"eachers": {"users": []}}
    assert not any(key.startswith("os") for key in namespace)


class _Recorder:
    """A stand-in for traitlets' ``c``: records what the fragment sets, and nothing else."""

    def __init__(self, seen: dict[str, object], name: str = "") -> None:
        self.__dict__["_seen"] = seen
        self.__dict__["_name"] = name

    def __getattr__(self, key: str) -> _Recorder:
        return _Recorder(self._seen, f"{self._name}.{key}".lstrip("."))

    def __setattr__(self, key: str, value: object) -> None:
        self._seen[f"{self._name}.{key}"] = value

    def __iter__(self) -> Iterator[object]:
        return iter(())

    def extend(self, value: object) -> None:
        self._seen[self._name] = value

    def update(self, value: object) -> None:
        self._seen[self._name] = value

    def append(self, value: object) -> None:
        self._seen[self._name] = value


def test_hub_serve_outside_a_hub_says_so_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("JUPYTERHUB_SERVICE_URL", raising=False)
    monkeypatch.delenv("JUPYTERHUB_API_TOKEN", raising=False)
    with contextlib.redirect_stderr(io.StringIO()) as err:
        assert main(["hub", "serve", "--db", "postgresql://u@h/d"]) == 2
    assert err.getvalue().count("\n") == 1 and "the hub starts it" in err.getvalue()


def test_the_users_python_may_differ_from_the_hubs(tmp_path: Path) -> None:
    text = _printed(
        "--python", "/opt/tljh/hub/bin/python3", "--user-python", "/opt/tljh/user/bin/python3"
    )
    config = _loaded(text, tmp_path)
    assert config.Spawner.cmd[0] == "/opt/tljh/user/bin/python3"
    service = _value(config.JupyterHub.services, [])[0]
    assert service["command"][0] == "/opt/tljh/hub/bin/python3"


def test_hub_help_shows_no_examples() -> None:
    with contextlib.redirect_stdout(io.StringIO()) as out, pytest.raises(SystemExit):
        main(["hub", "--help"])
    assert "hub config" in out.getvalue() and ">>>" not in out.getvalue()


# ---- Zero to JupyterHub -------------------------------------------------------------------


def helm_merge(base: Any, override: Any) -> Any:
    """``override`` on ``base`` as Helm merges values files: maps merged key by key, a null
    deletes the key, anything else (lists too) replaces.

    >>> helm_merge({"a": {"b": [1], "c": 1}}, {"a": {"b": [2], "d": None}})
    {'a': {'b': [2], 'c': 1}}
    """
    if not (isinstance(base, dict) and isinstance(override, dict)):
        return copy.deepcopy(override)
    merged = copy.deepcopy(base)
    for key, value in override.items():
        if value is None:
            merged.pop(key, None)
        elif key in merged:
            merged[key] = helm_merge(merged[key], value)
        else:
            merged[key] = copy.deepcopy(value)
    return merged


def _chart() -> tuple[dict[str, Any], dict[str, Any]]:
    """The chart's default values and its schema."""
    values = yaml.safe_load((CHART / "values.yaml").read_text("utf-8"))
    schema = json.loads((CHART / "values.schema.json").read_text("utf-8"))
    return values, schema


def _refusals(values: dict[str, Any], schema: dict[str, Any]) -> list[str]:
    validator = jsonschema.Draft7Validator(schema)
    return [
        f"{'.'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(values)
    ]


def test_the_vendored_chart_accepts_its_own_values() -> None:
    values, schema = _chart()
    jsonschema.Draft7Validator.check_schema(schema)
    assert _refusals(values, schema) == []
    assert yaml.safe_load((CHART / "Chart.yaml").read_text("utf-8"))["version"] == Z2JH_CHART


@pytest.mark.parametrize(
    "args",
    [
        (),
        ("--scope", "custom:dekbovinoj:teach", "--group", "staff"),
        ("--authenticator-groups",),
        LTI_ARGS,
    ],
)
def test_the_z2jh_values_merged_into_the_chart_validate(args: tuple[str, ...]) -> None:
    defaults, schema = _chart()
    ours = yaml.safe_load(
        _printed("--z2jh", "--registry", "registry.school.example/it", *args, db=())
    )
    assert _refusals(helm_merge(defaults, ours), schema) == []
    assert _refusals(helm_merge(defaults, {"hub": {"loadGroups": {}}}), schema) != []  # the check


def test_the_z2jh_values_let_the_users_pods_and_the_proxy_reach_the_service() -> None:
    values = yaml.safe_load(_printed("--z2jh", db=()))
    hub, singleuser = values["hub"], values["singleuser"]
    port = 10101
    assert hub["service"]["extraPorts"] == [
        {"name": "dekbovinoj", "port": port, "targetPort": port}
    ]
    (ingress,) = hub["networkPolicy"]["ingress"]
    assert ingress["ports"] == [{"port": port, "protocol": "TCP"}]
    # the users' pods and the proxy carry this label (the chart's singleuser.extraLabels)
    assert ingress["from"] == [
        {"podSelector": {"matchLabels": {"hub.jupyter.org/network-access-hub": "true"}}}
    ]
    hub_pod = [{"podSelector": {"matchLabels": {"component": "hub"}}}]
    for egress in (
        singleuser["networkPolicy"]["egress"],
        values["proxy"]["chp"]["networkPolicy"]["egress"],
    ):
        assert egress == [{"ports": [{"port": port, "protocol": "TCP"}], "to": hub_pod}]
    assert singleuser["extraEnv"] == {
        "DEKBOVINOJ_CLASS_SERVER": f"http://hub:{port}/services/dekbovinoj"
    }
    service = hub["services"]["dekbovinoj"]
    assert service["url"] == f"http://hub:{port}" and service["command"][-2:] == [
        "--host",
        "0.0.0.0",
    ]
    assert "--db" not in service["command"] and "--db-file" not in service["command"]
    assert values["cull"] == {"enabled": True, "timeout": 1800, "every": 300}
    assert "idle-culler" not in hub["services"]  # the chart has its own
    assert singleuser["startTimeout"] >= SPAWN_TIMEOUT
    assert hub["config"]["KubeSpawner"]["http_timeout"] == SPAWN_TIMEOUT
    assert hub["loadRoles"]["user"]["scopes"] == ["self", "access:services!service=dekbovinoj"]


def test_the_z2jh_database_address_comes_from_a_secret(monkeypatch: pytest.MonkeyPatch) -> None:
    values = yaml.safe_load(_printed("--z2jh", db=()))
    assert values["hub"]["extraEnv"] == {
        "DEKBOVINOJ_DB": {"valueFrom": {"secretKeyRef": {"name": DB_SECRET, "key": DB_SECRET_KEY}}}
    }
    snippet = values["hub"]["extraConfig"]["dekbovinoj.py"]
    assert snippet == database_from_secret(HubOptions())
    address = f"postgresql://dekbovinoj:{SECRET}@db/dekbovinoj"
    monkeypatch.setenv("DEKBOVINOJ_DB", address)
    service = {"name": "dekbovinoj", "url": "http://hub:10101", "command": ["python3"]}
    # the chart sets c.JupyterHub.services to a list and appends hub.services to it; another
    # extraConfig may have extended it instead: both ways, the service gets the address
    as_list = Config()
    as_list.JupyterHub.services = [{"name": "other"}, dict(service)]
    as_lazy = Config()
    as_lazy.JupyterHub.services.extend([dict(service)])
    for config in (as_list, as_lazy):
        exec(compile(snippet, "extraConfig", "exec"), {"c": config})
        ours = [s for s in config.JupyterHub.services if s["name"] == "dekbovinoj"]
        assert ours[0]["environment"] == {"DEKBOVINOJ_DB": address}


def _dockerfile(name: str) -> tuple[str, str, str]:
    """The image name and tag a Dockerfile's build line gives, and its ``FROM``."""
    text = (ROOT / "docker" / f"{name}.Dockerfile").read_text("utf-8")
    built = re.search(rf"docker build -f docker/{name}\.Dockerfile -t ([^:\s]+):(\S+) \.", text)
    base = re.search(r"^FROM (\S+)$", text, re.MULTILINE)
    assert built and base, name
    return built[1], built[2], base[1]


def test_the_values_name_the_images_the_dockerfiles_build() -> None:
    values = yaml.safe_load(_printed("--z2jh", "--registry", "registry.school.example/it/", db=()))
    chart = yaml.safe_load((CHART / "Chart.yaml").read_text("utf-8"))
    for key, name, dockerfile in (("hub", HUB_IMAGE, "hub"), ("singleuser", USER_IMAGE, "user")):
        built, tag, _ = _dockerfile(dockerfile)
        assert (built, tag) == (name, IMAGE_TAG)
        assert values[key]["image"] == {"name": f"registry.school.example/it/{name}", "tag": tag}
    assert _dockerfile("hub")[2] == f"quay.io/jupyterhub/k8s-hub:{chart['version']}"
    assert _dockerfile("user")[2].startswith("quay.io/jupyter/base-notebook:")
    user = (ROOT / "docker" / "user.Dockerfile").read_text("utf-8")
    assert f'"jupyterhub=={chart["appVersion"]}"' in user  # the hub's JupyterHub


# ---- a real hub ---------------------------------------------------------------------------

USER_ROLE = {"name": "user", "scopes": ["self", "read:users:name"]}
"""A ``user`` role of the hub's own configuration."""


@pytest.fixture
def sqlite_db(tmp_path: Path) -> Iterator[str]:
    os.chmod(tmp_path, 0o755)
    yield f"sqlite:///{tmp_path / 'classes.sqlite3'}"


def _may_use_the_service(hub: RunningHub, user: str) -> bool:
    """Whether ``user`` holds the service's scope (the hub makes a token only with scopes
    the user has)."""
    answer = hub.api(
        "POST", f"users/{user}/tokens", json={"scopes": [hub.options.access_scope], "note": "t"}
    )
    return answer.status_code == 201


@pytest.mark.slow
def test_the_hub_starts_with_groups_from_the_authenticator(sqlite_db: str) -> None:
    before = "c.Authenticator.manage_groups = True\n"
    with running_hub(
        sqlite_db, ("tess", "ana"), {}, authenticator_groups=True, before=before
    ) as hub:
        assert requests.get(f"{hub.service_url}api/v1/openapi.json", timeout=60).status_code == 200
        assert _may_use_the_service(hub, "ana")
        assert "offloaded" not in hub.tail(400)


@pytest.mark.slow
def test_the_hub_starts_next_to_its_own_user_role(sqlite_db: str) -> None:
    before = f"c.JupyterHub.load_roles = [{USER_ROLE!r}]\n"
    with running_hub(sqlite_db, ("tess", "ana"), before=before) as hub:
        assert _may_use_the_service(hub, "ana")
        own = hub.api("POST", "users/ana/tokens", json={"scopes": ["read:users:name"]})
        assert own.status_code == 201  # the hub's own role is kept
        assert "multiply defined" not in hub.tail(400)
