-- Every per-encounter table leads its keys with the encounter id, so Citus can distribute
-- the tables by it as they are (docs/scale-out.md).  The events table was keyed by its
-- global position; its key becomes (stream_id, stream_version), which was already unique.
-- global_position stays an identity column (GENERATED ALWAYS, so only its sequence fills
-- it) and the global reading keeps its (transaction_id, global_position) index; nothing
-- looks an event up by its position alone.
ALTER TABLE events DROP CONSTRAINT events_pkey;
ALTER TABLE events
    DROP CONSTRAINT events_stream_id_stream_version_key,
    ADD CONSTRAINT events_pkey PRIMARY KEY (stream_id, stream_version);
