# The hub's image for Zero to JupyterHub: the chart's own hub image with this package, which the
# class service runs from (`dekbovinoj hub config --z2jh` names it in hub.image). From the
# project's folder, after `python -m build --wheel` (docs/hub.md):
#
#   docker build -f docker/hub.Dockerfile -t dekbovinoj-hub:0.1.0 .
#
# then tag and push it to your registry (`--registry` of `hub config --z2jh`).
FROM quay.io/jupyterhub/k8s-hub:4.3.3

USER root
COPY dist/dekbovinoj_edu-*.whl /tmp/wheels/
# `hub` and `postgresql`: the service's JupyterHub client (the image's JupyterHub stays) and the
# PostgreSQL driver.
RUN pip install --no-cache-dir "$(ls /tmp/wheels/dekbovinoj_edu-*.whl)[hub,postgresql]" \
    && rm -rf /tmp/wheels
# The chart runs the hub as this user (hub.containerSecurityContext.runAsUser).
USER 1000
