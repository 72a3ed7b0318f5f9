-- The event store: one stream per encounter, append-only, hash-chained.

CREATE TABLE streams (
    stream_id   uuid PRIMARY KEY,
    version     integer NOT NULL CHECK (version >= 0),
    last_hash   text NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE events (
    global_position  bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    -- Readers order by (transaction_id, global_position) and only read below the oldest
    -- transaction still running, so an event whose sequence value was taken early but
    -- committed late is never skipped (see events/store.py, read_all).
    transaction_id   xid8 NOT NULL DEFAULT pg_current_xact_id(),
    stream_id        uuid NOT NULL REFERENCES streams (stream_id),
    stream_version   integer NOT NULL CHECK (stream_version >= 1),
    type             text NOT NULL,
    type_version     integer NOT NULL DEFAULT 1,
    data             jsonb NOT NULL,
    metadata         jsonb NOT NULL,
    recorded_at      timestamptz NOT NULL,
    prev_hash        text NOT NULL,
    hash             text NOT NULL,
    UNIQUE (stream_id, stream_version)
);

CREATE INDEX events_tx_position ON events (transaction_id, global_position);

CREATE FUNCTION events_are_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'events are immutable: % is not allowed on %', TG_OP, TG_TABLE_NAME
        USING ERRCODE = 'insufficient_privilege';
END;
$$;

CREATE TRIGGER events_no_update_delete
    BEFORE UPDATE OR DELETE ON events
    FOR EACH ROW EXECUTE FUNCTION events_are_immutable();

CREATE TRIGGER events_no_truncate
    BEFORE TRUNCATE ON events
    FOR EACH STATEMENT EXECUTE FUNCTION events_are_immutable();

-- The same Idempotency-Key on the same stream appends once; later requests get the
-- response stored here.
CREATE TABLE idempotency_keys (
    stream_id     uuid NOT NULL,
    key           text NOT NULL,
    request_hash  text NOT NULL,
    response      bytea NOT NULL,  -- the exact bytes first sent, replayed byte for byte
    created_at    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (stream_id, key)
);

-- Folded state every N events, so loading a long stream folds only its tail.
CREATE TABLE snapshots (
    stream_id       uuid NOT NULL REFERENCES streams (stream_id),
    version         integer NOT NULL,
    schema_version  integer NOT NULL,
    state           jsonb NOT NULL,
    created_at      timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (stream_id, version)
);

-- Secret dice seeds, one per fairness epoch. Only sha256(seed) is published (in an
-- event) until the GM reveals the seed; the seed itself never enters an event before.
CREATE TABLE dice_seeds (
    stream_id    uuid NOT NULL REFERENCES streams (stream_id),
    epoch        integer NOT NULL,
    seed         bytea NOT NULL,
    client_seed  text NOT NULL,
    commitment   text NOT NULL,
    PRIMARY KEY (stream_id, epoch)
);
