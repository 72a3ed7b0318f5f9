-- Read models kept inline (in the same transaction as the append); all of them can be
-- dropped and re-derived from events by `aeon-ledger projections rebuild`.

CREATE TABLE encounter_state (
    encounter_id    uuid PRIMARY KEY REFERENCES streams (stream_id),
    ruleset         text NOT NULL,
    name            text NOT NULL,
    version         integer NOT NULL,
    schema_version  integer NOT NULL,
    state           jsonb NOT NULL,
    created_at      timestamptz NOT NULL,
    updated_at      timestamptz NOT NULL
);

CREATE INDEX encounter_state_created ON encounter_state (created_at DESC, encounter_id);

CREATE TABLE log_entries (
    encounter_id  uuid NOT NULL,
    version       integer NOT NULL,
    round         integer,
    type          text NOT NULL,
    text          text NOT NULL,
    recorded_at   timestamptz NOT NULL,
    PRIMARY KEY (encounter_id, version)
);

CREATE TABLE roll_ledger (
    encounter_id  uuid NOT NULL,
    roll_id       text NOT NULL,
    version       integer NOT NULL,
    round         integer,
    record        jsonb NOT NULL,
    PRIMARY KEY (encounter_id, roll_id)
);

CREATE INDEX roll_ledger_version ON roll_ledger (encounter_id, version);
