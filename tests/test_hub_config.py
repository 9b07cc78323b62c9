"""``dekbovinoj hub config``: the fragment to paste into ``jupyterhub_config.py`` is Python
that JupyterHub's own loader reads (traitlets' ``PyFileConfigLoader``), and ``--z2jh`` prints
YAML; both name the database and the teachers' group. The hub test
(tests/test_hub_service.py) runs a real hub on the same fragment.
"""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest
import yaml
from traitlets.config.loader import PyFileConfigLoader

from dekbovinoj_edu.cli import main
from dekbovinoj_edu.hub.config import HubOptions, jupyterhub_config

DB = "postgresql://dekbovinoj:secret@db.school.example/dekbovinoj"


def _printed(*args: str) -> str:
    with contextlib.redirect_stdout(io.StringIO()) as out:
        assert main(["hub", "config", "--db", DB, *args]) == 0
    return out.getvalue()


def _loaded(text: str, folder: Path) -> object:
    path = folder / "jupyterhub_config.py"
    path.write_text(text, "utf-8")
    return PyFileConfigLoader(path.name, path=str(folder)).load_config()


def test_the_fragment_is_what_jupyterhub_loads(tmp_path: Path) -> None:
    config = _loaded(_printed("--group", "staff"), tmp_path)
    hub = config.JupyterHub  # type: ignore[attr-defined]
    services = {s["name"]: s for s in hub.services.get_value([])}
    service = services["dekbovinoj"]
    assert service["url"] == "http://127.0.0.1:10101"
    assert service["environment"] == {"DEKBOVINOJ_DB": DB}
    assert service["command"][-2:] == ["--teachers-group", "staff"]
    assert "idle-culler" in services
    roles = {r["name"]: r for r in hub.load_roles.get_value([])}
    assert roles["user"]["scopes"] == ["self", "access:services!service=dekbovinoj"]
    assert hub.load_groups.get_value({}) == {"staff": {"users": []}}
    assert hub.concurrent_spawn_limit == 30
    spawner = config.Spawner  # type: ignore[attr-defined]
    assert "access:services!service=dekbovinoj" in spawner.server_token_scopes
    assert spawner.cmd[1:] == ["-m", "dekbovinoj_edu.hub.user_server"]
    assert spawner.default_url == "/voila/render/dekbovinoj/dekbovinoj.ipynb"


def test_the_fragment_adds_to_services_already_configured(tmp_path: Path) -> None:
    before = "c.JupyterHub.services = [{'name': 'other', 'url': 'http://127.0.0.1:9'}]\n"
    config = _loaded(before + _printed("--no-culler"), tmp_path)
    names = [s["name"] for s in config.JupyterHub.services]  # type: ignore[attr-defined]
    assert names == ["other", "dekbovinoj"]


def test_a_teachers_scope_is_defined_granted_and_asked_for(tmp_path: Path) -> None:
    scope = "custom:dekbovinoj:teach"
    config = _loaded(_printed("--scope", scope), tmp_path)
    hub = config.JupyterHub  # type: ignore[attr-defined]
    assert scope in hub.custom_scopes.get_value({})
    roles = {r["name"]: r for r in hub.load_roles.get_value([])}
    assert roles["dekbovinoj-teacher"] == {
        "name": "dekbovinoj-teacher", "scopes": [scope], "groups": ["teachers"],
    }  # fmt: skip
    service = hub.services.get_value([])[0]
    assert service["oauth_client_allowed_scopes"] == [scope]
    assert service["command"][-2:] == ["--teachers-scope", scope]


def test_the_z2jh_values_are_yaml_naming_the_database_and_the_group() -> None:
    values = yaml.safe_load(_printed("--z2jh", "--group", "staff"))
    service = values["hub"]["services"]["dekbovinoj"]
    assert service["environment"] == {"DEKBOVINOJ_DB": DB}
    assert service["command"][-4:] == ["--teachers-group", "staff", "--host", "0.0.0.0"]
    assert values["hub"]["loadRoles"]["user"]["scopes"][-1] == "access:services!service=dekbovinoj"
    assert values["hub"]["loadGroups"] == {"staff": {"users": []}}
    assert values["hub"]["service"]["extraPorts"][0]["port"] == 10101
    assert values["singleuser"]["defaultUrl"] == "/voila/render/dekbovinoj/dekbovinoj.ipynb"
    assert values["singleuser"]["extraEnv"] == {
        "DEKBOVINOJ_CLASS_SERVER": "http://hub:10101/services/dekbovinoj"
    }
    assert values["cull"] == {"enabled": True, "timeout": 1800, "every": 300}
    assert "idle-culler" not in values["hub"]["services"]  # the chart has its own


def test_odd_text_in_the_options_stays_text() -> None:
    sneaky = "postgresql://u:p'\"); import os #@h/d"
    text = jupyterhub_config(HubOptions(sneaky, group="t'\"eachers"))
    namespace: dict[str, object] = {}
    exec(compile(text, "fragment", "exec"), {"c": _Recorder(namespace)})
    services = namespace["JupyterHub.services"]
    assert isinstance(services, list)
    assert services[0]["environment"] == {"DEKBOVINOJ_DB": sneaky}
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

    def extend(self, value: object) -> None:
        self._seen[self._name] = value

    def update(self, value: object) -> None:
        self._seen[self._name] = value


def test_hub_serve_outside_a_hub_says_so_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("JUPYTERHUB_SERVICE_URL", raising=False)
    monkeypatch.delenv("JUPYTERHUB_API_TOKEN", raising=False)
    with contextlib.redirect_stderr(io.StringIO()) as err:
        assert main(["hub", "serve", "--db", DB]) == 2
    assert err.getvalue().count("\n") == 1 and "the hub starts it" in err.getvalue()


def test_the_users_python_may_differ_from_the_hubs(tmp_path: Path) -> None:
    text = _printed(
        "--python", "/opt/tljh/hub/bin/python3", "--user-python", "/opt/tljh/user/bin/python3"
    )
    config = _loaded(text, tmp_path)
    assert config.Spawner.cmd[0] == "/opt/tljh/user/bin/python3"  # type: ignore[attr-defined]
    service = config.JupyterHub.services.get_value([])[0]  # type: ignore[attr-defined]
    assert service["command"][0] == "/opt/tljh/hub/bin/python3"
