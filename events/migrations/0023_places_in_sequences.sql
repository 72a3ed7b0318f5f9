-- A shard's places counted by a sequence under a lock of the shard (events/shards.py,
-- docs/scale-out.md#positions-per-shard).
--
-- Until now every write moved its shard's count row in shard_heads: a new version of a
-- row that every writer of the shard updates, about a fifth of what a command costs
-- PostgreSQL.  On one PostgreSQL a write now takes its shard's transaction-scoped advisory
-- lock instead, held to its commit as the row's lock was (so a shard's writers still
-- commit in the order of their places), and draws its places from the shard's sequence,
-- which writes WAL once per 32 values and no row version at all.  A sequence does not roll
-- back, so a write that fails after drawing leaves a gap: no reader relies on places being
-- dense.
--
-- Citus keeps the count rows: a sequence lives on the coordinator, while a command's
-- statement runs on the worker of its encounter.  Before distributing, run
-- SELECT aeon_count_places_in_rows(); (docs/scale-out.md): it moves the rows up to the
-- sequences and marks the database, after which the sequences refuse to count.  The mark
-- is what every process reads at start-up (aeon_counts_in_rows()), so the processes of one
-- database never count in two ways.
--
-- Upgrading: stop every process of the older release before the first of this release
-- starts (it applies this migration): an older process would go on moving the rows.

DO $migration$
DECLARE
    h record;
BEGIN
    CREATE FUNCTION aeon_counts_in_rows() RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN false;

    FOR h IN SELECT shard, head FROM shard_heads LOOP
        EXECUTE format('CREATE SEQUENCE aeon_places_%s AS bigint MINVALUE 0 START 0', h.shard);
        PERFORM setval(format('aeon_places_%s', h.shard)::regclass, h.head, true);
    END LOOP;
END
$migration$;

-- The places of ``n`` new events of ``shard``: the last one's, the others below it.  The
-- lock comes first and is held to the commit, so no other writer of the shard draws from
-- its sequence meanwhile and the n places are consecutive.
CREATE FUNCTION aeon_take_places(shard smallint, n integer) RETURNS bigint
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    place bigint;
BEGIN
    IF aeon_counts_in_rows() THEN
        RAISE EXCEPTION 'this database counts its places in shard_heads rows (Citus); '
            'restart every process so that it writes that way';
    END IF;
    PERFORM pg_advisory_xact_lock(1634037615, shard);  -- "aeoo": the places' lock space
    FOR i IN 1..n LOOP
        place := nextval(format('aeon_places_%s', shard)::regclass);
    END LOOP;
    RETURN place;
END
$$;

-- Each shard's head: the last place drawn (committed or not; readers use heads only to
-- choose which shards to read).
CREATE FUNCTION aeon_shard_heads() RETURNS TABLE (shard smallint, head bigint)
LANGUAGE plpgsql STABLE AS $$
BEGIN
    IF aeon_counts_in_rows() THEN
        RETURN QUERY SELECT h.shard, h.head FROM shard_heads AS h;
    ELSE
        RETURN QUERY SELECT h.shard, greatest(h.head, pg_sequence_last_value(
            format('aeon_places_%s', h.shard)::regclass)) FROM shard_heads AS h;
    END IF;
END
$$;

-- Each shard's committed head: every place at or below it has committed (or rolled back),
-- every place still to commit is above it.  A writer holds its shard's lock from drawing
-- its places to its commit, so once this holds each shard's lock in share mode, in
-- ascending order as writers take them, no place below the head is in flight.
CREATE FUNCTION aeon_committed_heads() RETURNS TABLE (shard smallint, head bigint)
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    IF NOT aeon_counts_in_rows() THEN
        PERFORM pg_advisory_xact_lock_shared(1634037615, s.shard)
        FROM (SELECT h.shard FROM shard_heads AS h ORDER BY h.shard) AS s;
    END IF;
    RETURN QUERY SELECT * FROM aeon_shard_heads();
END
$$;

-- ``n`` places at once for a whole stream written outside a command (an import, a bench's
-- clone): the first of them.  Both counts move, whichever way the database counts.
CREATE FUNCTION aeon_reserve_places(anchor uuid, n bigint) RETURNS bigint
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    counted smallint;
    row_head bigint;
    last bigint;
BEGIN
    IF aeon_counts_in_rows() THEN
        UPDATE shard_heads AS h SET head = h.head + n WHERE h.anchor = $1
        RETURNING h.head INTO last;
        RETURN last - n + 1;
    END IF;
    SELECT h.shard, h.head INTO STRICT counted, row_head FROM shard_heads AS h
    WHERE h.anchor = $1;
    PERFORM pg_advisory_xact_lock(1634037615, counted);
    last := setval(format('aeon_places_%s', counted)::regclass,
                   greatest(row_head, pg_sequence_last_value(
                       format('aeon_places_%s', counted)::regclass)) + n, true);
    RETURN last - n + 1;
END
$$;

-- Before distributing the tables on Citus: the rows take up the sequences' counts, and the
-- database is marked as counting in rows.  Every process must be stopped while it runs.
CREATE FUNCTION aeon_count_places_in_rows() RETURNS void
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    UPDATE shard_heads AS h SET head = greatest(h.head, pg_sequence_last_value(
        format('aeon_places_%s', h.shard)::regclass));
    CREATE OR REPLACE FUNCTION aeon_counts_in_rows() RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN true;
END
$$;
