"""The app and the lessons as a static site: Voici (Voilà for JupyterLite) with Pyodide.

Built on the teacher's or the school's computer (``dekbovinoj build-site``):

- :mod:`.build`: :func:`~.build.build_site`, the whole build.
- :mod:`.steps`: what the build says as it goes, and what it made (the tools' output
  only when a step fails, or with ``--verbose``).
- :mod:`.wheels`: the packages the browser's Python loads, in the site's own lock file.
- :mod:`.bytecode`: the site's Python compiled ahead, by the site's own Pyodide under Node.
- :mod:`.pages`: the notebooks the site renders (with ``--class``, the class page, whose
  app talks to the class service that serves the site) and the changes to Voici's pages.
- :mod:`.startup`: the changes to files the site ships, for a faster start.
- :mod:`.pupils`: the pupils' version of every lesson, the one the site renders.
- :mod:`.assets`: the built site's files made light to send: stored archives, brotli and
  gzip copies, Pyodide's folder named by its content's hash.
- :mod:`.loading_bar`: the bar the app and class pages show while they start.

Run in the student's browser:

- :mod:`.late_wheels`: sympy fetched the first time a value needs it; installed by the
  first cell of every page the site renders (:func:`~.pages.site_notebook`,
  :func:`~.pages.site_lesson`).
- :mod:`.rest_archives`: the modules no page imports as it starts, fetched the first time
  they are imported; installed by the standard library's ``sitecustomize``
  (:data:`~.startup.SITECUSTOMIZE`).

Nothing here loads when the package is imported, and the core never imports it.
"""
