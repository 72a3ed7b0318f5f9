-- Positions per shard (docs/scale-out.md#positions-per-shard, events/shards.py).
--
-- Readers of every stream (service-wide webhooks) take a position per shard instead of one
-- global order.  An event carries its stream's shard and its place in that shard; each
-- shard's count is a row of shard_heads, moved by the statement that inserts the events,
-- whose lock orders the commits of that shard: a reader that saw place n of a shard has
-- seen every place below it.  Nothing depends on transaction ids any more, so the
-- two-phase-commit check of 0016 goes.
--
-- The shard is the one Citus puts the stream in at 32 shards: the place of
-- uuid_hash(stream_id) among 32 equal ranges of the 32-bit hash space.  Each count row is
-- keyed by an anchor, a uuid that hashes into the shard it counts, so that distributed by
-- the anchor and co-located with the streams it lives beside the encounters it counts.

-- One DO block: Citus cannot run DDL on distributed tables inside a query string of several
-- statements (it passes the string on), so on a cluster distributed before this migration
-- each statement must reach it alone, which PL/pgSQL does.
DO $migration$
DECLARE
    w record;
BEGIN
    CREATE FUNCTION aeon_shard(stream_id uuid) RETURNS smallint
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN (((uuid_hash(stream_id)::bigint + 2147483648) * 32) >> 32)::smallint;

    CREATE TABLE shard_heads (
        anchor  uuid PRIMARY KEY,
        shard   smallint NOT NULL CHECK (shard = aeon_shard(anchor)),
        head    bigint NOT NULL DEFAULT 0 CHECK (head >= 0)
    );

    -- events/shards.py's anchors(): the first of uuid5(namespace, 'shard-<n>') in each shard.
    INSERT INTO shard_heads (anchor, shard) VALUES
        ('78dcbf72-a5ff-5eb0-b9c7-afab7e7083d3', 0),
        ('e890249c-36ea-5107-9d9b-c9da4b7b4062', 1),
        ('89fc302c-34a7-5848-a7c5-a6a5faa59fef', 2),
        ('4544299f-28b4-59d4-b62f-9653b3742dc5', 3),
        ('d9091c82-91a5-5f60-9901-4cae2a17a7c1', 4),
        ('7d0c8e76-06ea-5dbd-b350-3e1f46147a26', 5),
        ('5e185110-5e94-50b4-80d0-67bac1370de7', 6),
        ('081636d4-38ba-5e09-a986-c1061ada2c1b', 7),
        ('0e876ebb-df82-5973-9ec2-4e4b4831e3e1', 8),
        ('9533da19-383e-5f24-a33c-4be56d9daced', 9),
        ('951521a5-34d1-500b-9e6c-bef09779ffdd', 10),
        ('bbe4e359-55e8-515c-aff1-ae74e3af46e1', 11),
        ('8f5e8df1-e7e7-5224-a7a4-4194909a6942', 12),
        ('6d02c2c0-7c7c-5c44-ab7a-34ce24c775f4', 13),
        ('993312ad-3502-5715-a854-1fa60418c5b1', 14),
        ('4d481c6a-7e74-5e9b-825c-1ff3e6b434cf', 15),
        ('d702231e-452c-5e6a-abf3-6b4188113b20', 16),
        ('5b628af4-d793-5ade-8dff-c189942a215a', 17),
        ('2a0de599-1e11-5330-b625-bbc6e280b542', 18),
        ('c881b5a3-a7e8-5f0d-b79b-7d1e697911b4', 19),
        ('8054c924-abf7-5284-9cf9-fc3ce380b5f2', 20),
        ('fb0f3c2a-1963-5769-8239-2a5b0c0d83f4', 21),
        ('291597cd-a6d5-5097-a2ec-5d30154ebb24', 22),
        ('c101fa53-bb41-5118-9e65-f6e8a2e56b8c', 23),
        ('0774fadf-9e89-5260-9aab-c03e3940c596', 24),
        ('fcc1ce4d-9774-55f6-9b88-86f6643ac6ef', 25),
        ('13fbb302-edd9-57c4-9bff-0f0fa46311b7', 26),
        ('6e5c65ac-fc86-5c76-8ed6-8c520a63a122', 27),
        ('648572a3-81c3-5d01-9cdf-f3a40752fa84', 28),
        ('465d73d0-dfe3-5b4b-a336-2c702c4cb17d', 29),
        ('e443159d-736b-5a1a-abbf-c9c1f9fe11ba', 30),
        ('24518e53-0278-5f5d-87b4-1db7e28b0c1f', 31);

    ALTER TABLE events ADD COLUMN shard smallint, ADD COLUMN shard_position bigint;

    -- Events written before: numbered in each shard in the order the former global reading
    -- read them.  (On a Citus cluster distributed before this migration, Citus refuses to
    -- touch the events' triggers unless told to; elsewhere nobody reads this setting.)
    PERFORM set_config('citus.enable_unsafe_triggers', 'on', true);
    ALTER TABLE events DISABLE TRIGGER events_no_update_delete;
    UPDATE events AS e SET shard = n.shard, shard_position = n.position
    FROM (SELECT stream_id, stream_version, aeon_shard(stream_id) AS shard,
                 row_number() OVER (PARTITION BY aeon_shard(stream_id)
                                    ORDER BY transaction_id, global_position) AS position
          FROM events) AS n
    WHERE e.stream_id = n.stream_id AND e.stream_version = n.stream_version;
    ALTER TABLE events ENABLE TRIGGER events_no_update_delete;

    UPDATE shard_heads AS h SET head = m.top
    FROM (SELECT shard, max(shard_position) AS top FROM events GROUP BY shard) AS m
    WHERE m.shard = h.shard;

    ALTER TABLE events ALTER COLUMN shard SET NOT NULL,
                       ALTER COLUMN shard_position SET NOT NULL;
    -- Not unique: Citus only enforces uniqueness that includes the distribution column; the
    -- count row makes each (shard, shard_position) unique by construction.
    CREATE INDEX events_shard_position ON events (shard, shard_position);
    DROP INDEX events_tx_position;

    -- A service-wide webhook's checkpoint: the last place it is past in each shard.  One it
    -- had in the old (transaction, position) order becomes, per shard, the highest place of
    -- an event at or before it.
    ALTER TABLE webhooks ADD COLUMN checkpoint_shards bigint[] NOT NULL DEFAULT '{}';
    -- One webhook at a time, with its checkpoint as constants: a join of the (local)
    -- webhooks with the events would be a join Citus refuses on a distributed cluster.
    FOR w IN SELECT webhook_id, checkpoint_tx, checkpoint_position FROM webhooks
             WHERE encounter_id IS NULL
    LOOP
        UPDATE webhooks SET checkpoint_shards = (
            SELECT array_agg(coalesce(p.top, 0) ORDER BY s.shard)
            FROM generate_series(0, 31) AS s(shard)
            LEFT JOIN (SELECT shard, max(shard_position) AS top FROM events
                       WHERE (transaction_id::text::bigint, global_position)
                             <= (w.checkpoint_tx, w.checkpoint_position)
                       GROUP BY shard) AS p ON p.shard = s.shard)
        WHERE webhook_id = w.webhook_id;
    END LOOP;
    ALTER TABLE webhooks DROP COLUMN checkpoint_tx, DROP COLUMN checkpoint_position;

    DROP FUNCTION aeon_commits_in_flight();

    -- A Citus cluster distributed before this migration: distribute the count rows beside
    -- the encounters they count (docs/scale-out.md#citus), as a fresh install's setup does.
    -- (Nested: PL/pgSQL plans a condition whole, and pg_dist_partition exists only with
    -- Citus.)
    IF to_regclass('pg_catalog.pg_dist_partition') IS NOT NULL THEN
        IF EXISTS (SELECT FROM pg_catalog.pg_dist_partition
                   WHERE logicalrelid = 'streams'::regclass) THEN
            PERFORM create_distributed_table('shard_heads', 'anchor', colocate_with => 'streams');
        END IF;
    END IF;
END
$migration$;
