"""Class mode on a JupyterHub: what the hub is told, and each user's server.

- :mod:`.config`: the ``jupyterhub_config.py`` and Zero to JupyterHub ``values.yaml``
  fragments (``dekbovinoj hub config``), from one :class:`~.config.HubOptions`.
- :mod:`.user_server`: a user's server with the app through Voilà (``dekbovinoj hub
  user-server``, the hub's ``Spawner.cmd``).

The class service under the hub is :mod:`dekbovinoj_edu.class_service` (its
:mod:`~dekbovinoj_edu.class_service.hub_identity` and
:mod:`~dekbovinoj_edu.class_service.hub_pages`).
"""
