"""``dekbovinoj class lti …`` (``dekbovinoj_edu/cli/lti.py``): a platform registered by hand,
the database from ``DEKBOVINOJ_DB``, a refused registration in one line, the keys rotated and
never printed."""

from __future__ import annotations

from contextlib import closing
from datetime import datetime, timezone
from pathlib import Path

import pytest

from dekbovinoj_edu.classroom.store import open_store
from dekbovinoj_edu.cli import main
from dekbovinoj_edu.lti.store import LtiStore

LMS = "https://canvas.school.example"
PLATFORM = [
    "class", "lti", "add-platform", "--issuer", "https://canvas.instructure.com",
    "--client-id", "10000000000042", "--deployment", "42:abc", "--deployment", "43:def",
    "--auth-url", f"{LMS}/api/lti/authorize_redirect", "--token-url", f"{LMS}/login/oauth2/token",
    "--jwks-url", f"{LMS}/api/lti/security/jwks", "--tool-url", "https://class.school.example",
]  # fmt: skip


def test_a_platform_registered_from_the_environments_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "classes.sqlite3"
    monkeypatch.setenv("DEKBOVINOJ_DB", str(db))
    assert main(PLATFORM) == 0
    said = capsys.readouterr().out
    assert "https://class.school.example/lti/login" in said
    assert "https://class.school.example/lti/jwks" in said
    assert main(["class", "lti", "platforms"]) == 0
    assert capsys.readouterr().out == (
        "https://canvas.instructure.com  client id 10000000000042  deployments 42:abc, 43:def\n"
    )
    with closing(open_store(str(db))) as store:
        (registration,) = LtiStore(store.database).registrations()
    assert registration.deployment_ids == ("42:abc", "43:def")


def test_an_insecure_address_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    words = [w.replace("https://canvas.school", "http://canvas.school") for w in PLATFORM]
    assert main([*words, "--db", str(tmp_path / "c.sqlite3")]) == 2
    captured = capsys.readouterr()
    assert captured.err.startswith("dekbovinoj: auth_url must be https")
    assert "Traceback" not in captured.err and captured.out == ""


def test_rotating_keeps_the_old_key_published_and_prints_no_private_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "c.sqlite3")
    assert main([*PLATFORM, "--db", db]) == 0
    assert main(["class", "lti", "rotate-key", "--db", db]) == 0
    said = capsys.readouterr().out
    assert "PRIVATE" not in said and "2 keys are published" in said
    with closing(open_store(db)) as store:
        ring = LtiStore(store.database).key_ring(datetime.now(timezone.utc))
    assert ring.current.kid in said and ring.keys[0].retired is not None
