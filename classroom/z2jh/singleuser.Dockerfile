# The students' image for Zero to JupyterHub: the environment Binder builds from environment.yml (Python 3.11,
# attention-lab with JupyterLab, every package at its pin in constraints.txt), the notebooks, and the jupyterhub
# of the chart's hub (chart 4.4.0: JupyterHub 5.5.0), whose `jupyterhub-singleuser` the chart starts.
#
#   docker build -f classroom/z2jh/singleuser.Dockerfile -t registry.example.org/attention-lab-singleuser:0.1.0 .
#
# Built from the repository's root. Only jupyterhub leaves the pins: constraints.txt pins the newer one the
# one-machine class runs (`python -m attention_lab.classroom up`), and a server must match its hub.
FROM python:3.11-slim-bookworm

ARG JUPYTERHUB_VERSION=5.5.0
ARG NB_UID=1000
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1

RUN useradd --create-home --uid ${NB_UID} --shell /bin/bash jovyan
COPY pyproject.toml constraints.txt README.md /srv/attention-lab/
COPY attention_lab /srv/attention-lab/attention_lab
COPY notebooks /srv/attention-lab/notebooks
RUN grep -v '^jupyterhub==' /srv/attention-lab/constraints.txt > /tmp/constraints.txt \
 && pip install -c /tmp/constraints.txt "/srv/attention-lab[lab]" "jupyterhub==${JUPYTERHUB_VERSION}" \
 && rm /tmp/constraints.txt

USER jovyan
WORKDIR /home/jovyan
EXPOSE 8888
CMD ["jupyterhub-singleuser"]
