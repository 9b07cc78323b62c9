"""The class service: one tornado web process for a class, on SQLite or PostgreSQL.

- :mod:`.api`: the student API, ``/api/v1/…`` (described by ``openapi.json``).
- :mod:`.teacher`: the teacher's routes behind a secret (the dashboard of
  :mod:`dekbovinoj_edu.classroom.views.teacher`, the CSV, the seat actions).
- :mod:`.static`: the static site from the same origin, and the page at ``/``.
- :mod:`.base`: what every handler shares: JSON refusals, security headers, CORS, the
  reader's language, the store's calls off the event loop.
- :mod:`.errors`: each stable error code's status, and the service's own refusals.
- :mod:`.validation`: the request bodies, checked field by field.
- :mod:`.limits`: rate limits per address and per session (token buckets).
- :mod:`.problems`: storage failures, told once in the terminal and on the dashboard.
- :mod:`.shapes`: the JSON of an assignment, a seat, an attempt.
- :mod:`.state`: :class:`~.state.Service`, what the handlers share.
- :mod:`.app`: the routes and :func:`~.app.make_app`.
- :mod:`.run`: :class:`~.run.ClassServer`, the service bound, announced and stopped.
- :mod:`.workers`: several worker processes on one address (``--workers``).
- :mod:`.hub_identity`: under a JupyterHub, who a student and a teacher are (the hub says).
- :mod:`.hub_pages`: the service as a JupyterHub service, under ``/services/dekbovinoj/``
  (``dekbovinoj hub serve``).
- :mod:`.lti_routes`: the LTI 1.3 tool's routes (``/lti/jwks``, ``/lti/login``) over
  :mod:`dekbovinoj_edu.lti`.

``dekbovinoj class serve NAME`` (:mod:`dekbovinoj_edu.cli.class_service`) wires them together.
"""
