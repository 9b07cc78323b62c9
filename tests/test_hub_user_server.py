"""A user's server on the hub, without a hub: what it defers and what it configures.

The IRI grammar that ``jsonschema`` compiles when it is imported is compiled only when a check
needs it, and the checks still answer as before; Voilà, loaded after this package's
extension is linked, gets the hook that sets the ``_xsrf`` cookie, before a hook configured
already. The real hub is tests/test_hub_service.py and tests/browser/test_hub_in_browser.py.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from dekbovinoj_edu.hub.user_server import DEFERRED, server_options
from dekbovinoj_edu.serving import xsrf_cookie
from dekbovinoj_edu.serving.xsrf_cookie import NAME, SWITCH


def _python(code: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@pytest.mark.slow  # the quick loop leaves it to the whole suite
def test_the_iri_grammar_is_compiled_only_when_a_check_needs_it() -> None:
    printed = _python(
        f"""
        import sys
        from dekbovinoj_edu.hub.user_server import defer_import
        for name, attributes in {DEFERRED!r}.items():
            assert defer_import(name, attributes)
        import jsonschema
        from jupyter_events.logger import EventLogger  # what Jupyter Server imports
        print("rfc3987_syntax.syntax_helpers" in sys.modules)
        checker = jsonschema.Draft7Validator.FORMAT_CHECKER
        print(checker.conforms("https://例え.jp/ä?q=1", "iri"), checker.conforms("a b", "iri"))
        print("rfc3987_syntax.syntax_helpers" in sys.modules)
        """
    )
    assert printed.splitlines() == ["False", "True False", "True"]


def test_the_user_server_turns_the_extension_on() -> None:
    assert SWITCH in server_options()
    assert xsrf_cookie.__name__ == NAME and SWITCH.endswith(f"={NAME}=True")


@pytest.mark.slow  # the quick loop leaves it to the whole suite
def test_voila_gets_the_cookies_hook_before_one_configured() -> None:
    printed = _python(
        """
        from jupyter_server.serverapp import ServerApp
        from traitlets.config import Config
        from voila.configuration import VoilaConfiguration
        from dekbovinoj_edu.serving import xsrf_cookie

        config = Config()
        config.VoilaConfiguration.prelaunch_hook = lambda req, notebook, cwd: "theirs"
        app = ServerApp(config=config)
        xsrf_cookie._link_jupyter_server_extension(app)
        hook = VoilaConfiguration(parent=app).prelaunch_hook

        class Handler:
            read = 0
            @property
            def xsrf_token(self):
                Handler.read += 1
                return b"t"

        print(hook(Handler(), notebook=None, cwd="."), Handler.read)
        """
    )
    assert printed == "theirs 1"
