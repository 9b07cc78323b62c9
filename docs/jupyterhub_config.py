"""A school's JupyterHub on one machine, with Dek Bovinoj's class mode (docs/hub.md, "A plain
hub on one machine"). Copy it to ``/etc/jupyterhub/jupyterhub_config.py``; the hub runs as root
from ``/opt/dekbovinoj`` (a virtual environment with the package's wheel) and starts each
user's server as that user. ``tests/test_wheel_install.py`` starts a hub from this very file.

It holds no secret: the class database's address is in ``/etc/jupyterhub/dekbovinoj-db``
(mode 600), which the class service reads; ``dekbovinoj hub config`` writes
``/etc/jupyterhub/dekbovinoj.py``, which the last line loads.
"""

from pathlib import Path

c = get_config()  # noqa: F821 (JupyterHub's configuration loader provides it)

# The hub's own state: its database (users, groups, tokens; back it up) and cookie secret.
c.JupyterHub.db_url = "sqlite:////srv/jupyterhub/jupyterhub.sqlite"
c.JupyterHub.cookie_secret_file = "/srv/jupyterhub/jupyterhub_cookie_secret"
c.ConfigurableHTTPProxy.pid_file = "/srv/jupyterhub/jupyterhub-proxy.pid"

# Only this machine reaches the hub: nginx in front of it serves HTTPS (docs/hub.md, "HTTPS").
c.JupyterHub.bind_url = "http://127.0.0.1:8000"

# Who signs in: the accounts of this machine (PAM), every one of them; the admins manage the
# teachers' groups on /hub/admin.
c.JupyterHub.authenticator_class = "pam"
c.Authenticator.allow_all = True
c.Authenticator.admin_users = {"admin"}

# Each user's server is a process of this machine, run as that user in their home folder.
c.JupyterHub.spawner_class = "localprocess"

# Dek Bovinoj: the class service, the users' servers with the app, the timeouts, the culler.
# The fragment beside this file (a bare name would be looked for in the working folder).
fragment = Path(__file__).with_name("dekbovinoj.py")
if not fragment.is_file():
    raise FileNotFoundError(f"{fragment}: write it with `dekbovinoj hub config` (docs/hub.md)")
load_subconfig(str(fragment))  # noqa: F821
