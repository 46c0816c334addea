"""`leverguard bot migrate` on PostgreSQL: procrastinate's schema (and its migrations) plus the bot's inbox table."""

from __future__ import annotations

import os
import re
from typing import Any

QUEUE = "leverguard"  # the procrastinate queue and task of the bot's jobs
TASK = "leverguard.check"
COLUMNS = ("seq, id, event, action, repo, pr, head_sha, state, attempts, not_before, lease_until, worker, received,"
           " updated, note")


def pr_key(repo: str, pr: int) -> str:
    """How a PR is named in the queue's locks and in log lines."""
    return f"{repo}#{pr}"


INBOX_SCHEMA = """
CREATE TABLE IF NOT EXISTS leverguard_deliveries (
    seq BIGSERIAL PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    event TEXT NOT NULL,
    action TEXT NOT NULL,
    repo TEXT,
    pr BIGINT,
    head_sha TEXT,
    payload BYTEA NOT NULL,
    state TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    not_before DOUBLE PRECISION NOT NULL DEFAULT 0,
    lease_until DOUBLE PRECISION NOT NULL DEFAULT 0,
    worker TEXT NOT NULL DEFAULT '',
    received DOUBLE PRECISION NOT NULL,
    updated DOUBLE PRECISION NOT NULL,
    note TEXT NOT NULL DEFAULT '',
    job_id BIGINT
);
CREATE INDEX IF NOT EXISTS leverguard_deliveries_pr ON leverguard_deliveries (repo, pr, state);
CREATE INDEX IF NOT EXISTS leverguard_deliveries_state ON leverguard_deliveries (state);
CREATE TABLE IF NOT EXISTS leverguard_schema (component TEXT PRIMARY KEY, version TEXT NOT NULL);
"""

# Queue a PR's job through procrastinate's own defer function, coalesced by its queueing lock: a PR with a
# waiting job keeps that one (locked, so that no worker fetches it before this transaction commits, and
# made runnable at once for a new delivery). Server-side, so that acknowledging a delivery (the row and
# the job) is one statement and one round trip.
FUNCTIONS = """
CREATE OR REPLACE FUNCTION leverguard_queue_pr_v1(p_repo text, p_pr bigint, p_at timestamptz, p_queue text,
                                                  p_task text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    _key text := p_repo || '#' || p_pr;
    _job bigint;
    _at timestamptz;
BEGIN
    LOOP
        SELECT id, scheduled_at INTO _job, _at FROM procrastinate_jobs
         WHERE queueing_lock = _key AND status = 'todo' FOR UPDATE;
        IF FOUND THEN
            IF p_at IS NULL AND _at IS NOT NULL THEN
                UPDATE procrastinate_jobs SET scheduled_at = NULL WHERE id = _job;
            END IF;
            RETURN;
        END IF;
        BEGIN
            PERFORM procrastinate_defer_jobs_v1(ARRAY[ROW(p_queue, p_task, 0, _key, _key,
                jsonb_build_object('repo', p_repo, 'pr', p_pr), p_at)::procrastinate_job_to_defer_v1]);
            RETURN;
        EXCEPTION WHEN unique_violation THEN
            -- a concurrent delivery queued the PR first: take that job on the next pass
        END;
    END LOOP;
END;
$$;

CREATE OR REPLACE FUNCTION leverguard_accept_v1(p_id text, p_event text, p_action text, p_repo text, p_pr bigint,
    p_head text, p_payload bytea, p_now double precision, p_note text, p_queue text, p_task text)
    RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
    _seq bigint;
BEGIN
    INSERT INTO leverguard_deliveries (id, event, action, repo, pr, head_sha, payload, state, received, updated, note)
    VALUES (p_id, p_event, p_action, p_repo, p_pr, p_head, p_payload,
            CASE WHEN p_pr IS NULL THEN 'done' ELSE 'queued' END, p_now, p_now, p_note)
    ON CONFLICT (id) DO NOTHING RETURNING seq INTO _seq;
    IF _seq IS NULL THEN
        RETURN false;
    END IF;
    IF p_pr IS NOT NULL THEN
        PERFORM leverguard_queue_pr_v1(p_repo, p_pr, NULL, p_queue, p_task);
    END IF;
    RETURN true;
END;
$$;
"""

_MIGRATION = re.compile(r"^(\d+)\.(\d+)\.(\d+)_\d+_.*\.sql$")


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", text)[:3])


def migrations_between(directory: str, recorded: str, installed: str) -> list[str]:
    """procrastinate's migration files newer than RECORDED, up to INSTALLED, in order."""
    chosen = []
    for name in sorted(os.listdir(directory)):
        match = _MIGRATION.match(name)
        if match and _version(recorded) < tuple(map(int, match.groups())) <= _version(installed):
            chosen.append(os.path.join(directory, name))
    return chosen


def migrate(conn: Any) -> list[str]:
    """Bring the schema up to the installed procrastinate and the bot's table; one line per step.
    Runs in the caller's transaction under an advisory lock, so two hosts can migrate at once."""
    import procrastinate
    from procrastinate.schema import SchemaManager

    installed = procrastinate.__version__
    conn.execute("SELECT pg_advisory_xact_lock(hashtext('leverguard bot migrate'))")
    conn.execute(INBOX_SCHEMA)
    steps = []
    row = conn.execute("SELECT version FROM leverguard_schema WHERE component = 'procrastinate'").fetchone()
    if conn.execute("SELECT to_regclass('procrastinate_jobs')").fetchone()[0] is None:
        conn.execute(SchemaManager.get_schema())
        steps.append(f"created the procrastinate {installed} schema")
    elif row is None:
        steps.append("kept the existing procrastinate schema (no version recorded: assumed current)")
    else:
        files = migrations_between(SchemaManager.get_migrations_path(), row[0], installed)
        for path in files:
            with open(path, encoding="utf-8") as fh:
                conn.execute(fh.read())
            steps.append(f"applied procrastinate migration {os.path.basename(path)}")
        if not files:
            steps.append(f"the procrastinate schema is current ({installed})")
    conn.execute(FUNCTIONS)  # after procrastinate's schema: they call its defer function
    conn.execute("INSERT INTO leverguard_schema (component, version) VALUES ('procrastinate', %s)"
                 " ON CONFLICT (component) DO UPDATE SET version = excluded.version", (installed,))
    steps.append("the leverguard_deliveries inbox table is current")
    return steps
