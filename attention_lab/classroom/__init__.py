"""A class on a JupyterHub: each student's checked exercises collected on the instructor's side, and a report.

    store       the verdicts, one row per (student, exercise), in SQLite or PostgreSQL (store.Store)
    report      `python -m attention_lab.classroom report`: per exercise and per student, as a table, CSV or a page
"""
