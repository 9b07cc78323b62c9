"""Serving the app with Voilà: for one student, or a class from one computer.

- :mod:`.options`: :class:`~.options.ServeOptions` and every option Voilà is given.
- :mod:`.notebooks`: the app's and the class's notebooks, and the one notebook writer.
- :mod:`.kernels`: :class:`~.kernels.ClassKernelManager`, the class's pool of preheated
  kernels and its culling (a Voilà plugin, loaded by its dotted path).
- :mod:`.busy_page`: the Voilà template whose page says "the app is starting" in the
  student's language instead of sending a page without the app.
- :mod:`.server`: Voilà started as a process, its addresses and its end.
- :mod:`.launch`: Voilà as ``serve`` runs it: the app's page behind :mod:`.guard` (the caps on
  kernels, the class key), its websockets behind :mod:`.messages` (what a page may send);
  :mod:`.kernel_limits`: every student kernel under a memory limit.
- :mod:`.class_service`: the class service started beside Voilà for ``serve --class``
  (``dekbovinoj class serve`` as a process), waited for, stopped with it.

``dekbovinoj serve`` (:mod:`dekbovinoj_edu.cli.serve`) wires them together; Binder's
``postBuild`` writes the template with :func:`~.busy_page.write_template`.
"""
