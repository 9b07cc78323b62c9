# The users' image for Zero to JupyterHub: Jupyter's base-notebook with this package, its app and
# Voilà (`dekbovinoj hub config --z2jh` names it in singleuser.image). From the project's folder,
# after `python -m build --wheel` (docs/hub.md):
#
#   docker build -f docker/user.Dockerfile -t dekbovinoj-user:0.1.0 .
#
# then tag and push it to your registry (`--registry` of `hub config --z2jh`).
FROM quay.io/jupyter/base-notebook:python-3.12

# The single-user server's JupyterHub is the hub's: the chart 4.3.3 runs JupyterHub 5.4.4.
COPY --chown=${NB_UID}:${NB_GID} dist/dekbovinoj_edu-*.whl /tmp/wheels/
RUN pip install --no-cache-dir "$(ls /tmp/wheels/dekbovinoj_edu-*.whl)[serve]" "jupyterhub==5.4.4" \
    && rm -rf /tmp/wheels
