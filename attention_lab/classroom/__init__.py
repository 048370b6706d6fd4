"""A class on a JupyterHub: each student's checked exercises collected on the instructor's side, and a report.

    hub         `python -m attention_lab.classroom up | down | status`: the hub and the students' servers
    client      in a student's kernel: each checked exercise's verdict sent to the collector
    collector   the hub's service that keeps the verdicts in the store, under the student's own name
    store       the verdicts, one row per (student, exercise), in SQLite or PostgreSQL (store.Store)
    report      `python -m attention_lab.classroom report`: per exercise and per student, as text, CSV or a page

Beyond one machine (Zero to JupyterHub, the store on PostgreSQL): classroom/z2jh/README.md.
"""
