-- The global reading (events/reading.py) takes its horizon on the coordinator.  On Citus a
-- transaction that wrote through more than one connection commits in two phases: the
-- coordinator commits, and only then sends COMMIT PREPARED to the workers.  In between,
-- its events are below the horizon but not yet visible on their worker, and a reader
-- would skip them.  This function tells the reader such a commit is in flight, so it
-- waits instead (docs/scale-out.md#the-global-reading-on-citus).
--
-- In flight: a two-phase record (pg_dist_transaction, written in the coordinator's own
-- transaction, so visible once it committed) whose backend still runs that distributed
-- transaction (Citus clears it only after COMMIT PREPARED) but holds no transaction id any
-- more (PostgreSQL clears it at the local commit).  Records of finished commits stay until
-- Citus's recovery removes them; their backend has moved on, so they do not count.
--
-- On PostgreSQL without Citus it is false: PL/pgSQL plans the query only when it runs it.
CREATE FUNCTION aeon_commits_in_flight() RETURNS boolean
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    IF to_regclass('pg_catalog.pg_dist_transaction') IS NULL THEN
        RETURN false;
    END IF;
    RETURN EXISTS (
        SELECT FROM pg_catalog.pg_dist_transaction AS d
        JOIN pg_catalog.get_all_active_transactions() AS a
          ON a.process_id = split_part(d.gid, '_', 3)::int
         AND a.transaction_number = split_part(d.gid, '_', 4)::bigint
        JOIN pg_catalog.pg_stat_activity AS s ON s.pid = a.process_id
        WHERE d.gid LIKE 'citus\_%' AND s.backend_xid IS NULL
          AND split_part(d.gid, '_', 2)::int = (SELECT groupid FROM pg_catalog.pg_dist_local_group)
    );
END
$$;
