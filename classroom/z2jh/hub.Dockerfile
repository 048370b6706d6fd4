# The hub's image for Zero to JupyterHub: the chart's own hub image, and attention-lab in a venv of its own for
# the collector (a service the hub starts: values.yaml, hub.services). The hub's packages are left as the chart
# pins them; the venv holds attention-lab with psycopg, at the pins of constraints.txt.
#
#   docker build -f classroom/z2jh/hub.Dockerfile -t registry.example.org/attention-lab-hub:0.1.0 .
#
# Built from the repository's root.
ARG CHART_VERSION=4.4.0
FROM quay.io/jupyterhub/k8s-hub:${CHART_VERSION}

USER root
COPY pyproject.toml constraints.txt README.md /srv/attention-lab-src/
COPY attention_lab /srv/attention-lab-src/attention_lab
RUN python3 -m venv /opt/attention-lab \
 && /opt/attention-lab/bin/pip install --no-cache-dir -c /srv/attention-lab-src/constraints.txt \
        "/srv/attention-lab-src[classroom-postgres]" \
 && rm -rf /srv/attention-lab-src
USER ${NB_USER}
