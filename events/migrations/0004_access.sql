-- Access tokens (design section 6): only a SHA-256 of each secret is stored; the token
-- itself is shown once, when it is minted.  Tokens never appear in events: events record
-- the actor's role and token_id.
CREATE TABLE access_tokens (
    encounter_id  uuid NOT NULL REFERENCES streams (stream_id),
    token_id      text NOT NULL,
    role          text NOT NULL CHECK (role IN ('gm', 'player')),
    secret_sha256 bytea NOT NULL,
    combatants    text[] NOT NULL DEFAULT '{}',
    label         text,
    created_at    timestamptz NOT NULL DEFAULT now(),
    revoked_at    timestamptz,
    PRIMARY KEY (encounter_id, token_id)
);

-- The replay log keeps two texts when an entry has secret GM rolls: `text` is what
-- players see ("GM rolls secretly ..."), `gm_text` the full line, shown to players too
-- once every roll in `hidden_rolls` has been revealed.
ALTER TABLE log_entries ADD COLUMN gm_text text;
ALTER TABLE log_entries ADD COLUMN hidden_rolls text[] NOT NULL DEFAULT '{}';
-- A GM-only note: players always see `text` ("The GM makes a private note.").
ALTER TABLE log_entries ADD COLUMN gm_only boolean NOT NULL DEFAULT false;
