-- The order readers of every stream take (docs/scale-out.md#the-order-of-every-stream),
-- kept in the database so that every writer and reader of it agrees.
--
-- By shard (Citus): each shard's count row orders its writers' commits (0017).  Every
-- writer of a shard updates that row and holds it to its commit, which on one PostgreSQL
-- costs a command about a tenth of PostgreSQL's work and makes writers of one shard wait
-- for each other's WAL flush.  By transaction (one PostgreSQL): no count; readers take
-- events in (transaction id, global position) order up to the oldest transaction still
-- running, which orders commits with no row that writers share.  Transaction ids are a
-- node's own, so on Citus only the order by shard holds.
--
-- An event written by transaction has no place in its shard (shard_position NULL); each
-- order's index holds only its own events, so a write pays for one.
DO $migration$
BEGIN
    CREATE TABLE event_order (
        only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
        by_shard boolean NOT NULL
    );
    INSERT INTO event_order (by_shard)
    VALUES (EXISTS (SELECT FROM pg_extension WHERE extname = 'citus'));

    ALTER TABLE events ALTER COLUMN shard_position DROP NOT NULL;
    DROP INDEX events_shard_position;
    CREATE INDEX events_shard_position ON events (shard, shard_position)
        WHERE shard_position IS NOT NULL;
    CREATE INDEX events_transaction_order ON events (transaction_id, global_position)
        WHERE shard_position IS NULL;

    -- A Citus cluster distributed before this migration: every node reads the order.
    IF to_regclass('pg_catalog.pg_dist_partition') IS NOT NULL THEN
        IF EXISTS (SELECT FROM pg_catalog.pg_dist_partition
                   WHERE logicalrelid = 'streams'::regclass) THEN
            PERFORM create_reference_table('event_order');
        END IF;
    END IF;
END
$migration$;

-- From shard to transaction order.  Nothing is renumbered: a reader whose checkpoint is
-- places per shard reads by shard until it has read every place, then goes on in
-- transaction order from its start (events/reading.py).  The table lock waits for every
-- writer still counting (each holds the order row's table from its statement to its
-- commit), so once this commits no count moves again.
CREATE FUNCTION aeon_order_events_by_transaction() RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    LOCK TABLE event_order IN ACCESS EXCLUSIVE MODE;
    UPDATE event_order SET by_shard = false;
END
$$;

-- From transaction to shard order (moving to Citus): the events written by transaction
-- are numbered after each shard's count, in the order they were read in, and every stored
-- checkpoint in transaction order becomes, per shard, the highest place it is past.  Run
-- with the service stopped: a running reader's checkpoint in memory would be stale.
CREATE FUNCTION aeon_order_events_by_shard() RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    before bigint[];
    w record;
BEGIN
    LOCK TABLE event_order IN ACCESS EXCLUSIVE MODE;
    IF (SELECT by_shard FROM event_order) THEN
        RETURN;
    END IF;
    SELECT array_agg(head ORDER BY shard) INTO before FROM shard_heads;

    PERFORM set_config('citus.enable_unsafe_triggers', 'on', true);
    ALTER TABLE events DISABLE TRIGGER events_no_update_delete;
    UPDATE events AS e SET shard_position = before[n.shard + 1] + n.place
    FROM (SELECT stream_id, stream_version, shard,
                 row_number() OVER (PARTITION BY shard
                                    ORDER BY transaction_id, global_position) AS place
          FROM events WHERE shard_position IS NULL) AS n
    WHERE e.stream_id = n.stream_id AND e.stream_version = n.stream_version;
    ALTER TABLE events ENABLE TRIGGER events_no_update_delete;
    UPDATE shard_heads AS h SET head = m.top
    FROM (SELECT shard, max(shard_position) AS top FROM events GROUP BY shard) AS m
    WHERE m.shard = h.shard;

    FOR w IN SELECT webhook_id AS id, checkpoint_shards AS at FROM webhooks
             WHERE cardinality(checkpoint_shards) = 2
    LOOP
        UPDATE webhooks SET checkpoint_shards = aeon_places_past(w.at, before)
        WHERE webhook_id = w.id;
    END LOOP;
    FOR w IN SELECT name AS id, shards AS at FROM carry_over_checkpoint
             WHERE cardinality(shards) = 2
    LOOP
        UPDATE carry_over_checkpoint SET shards = aeon_places_past(w.at, before)
        WHERE name = w.id;
    END LOOP;
    UPDATE event_order SET by_shard = true;
END
$$;

-- A checkpoint in transaction order, {transaction id, global position}, as places per
-- shard once the events written by transaction are numbered after the counts ``before``:
-- in each shard the highest place of such an event at or before it, or the count before
-- if none is (a reader in transaction order had read every place of the shard order).
CREATE FUNCTION aeon_places_past(at bigint[], before bigint[]) RETURNS bigint[]
LANGUAGE sql STABLE AS $$
    SELECT array_agg(greatest(before[s.shard + 1], coalesce(p.top, 0)) ORDER BY s.shard)
    FROM generate_series(0, 31) AS s(shard)
    LEFT JOIN (SELECT shard, max(shard_position) AS top FROM events
               WHERE (transaction_id::text::bigint, global_position) <= (at[1], at[2])
               GROUP BY shard) AS p ON p.shard = s.shard
$$;
