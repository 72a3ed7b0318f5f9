-- What a stream holds: an encounter (every stream written before campaigns) or a
-- campaign (service/campaigns/).  Readers of every stream that decode by ruleset
-- (rebuild, service-wide webhooks, exports) keep to encounters; the campaign's own
-- reads keep to campaigns, so an id of one kind is never read as the other.
ALTER TABLE streams
    ADD COLUMN kind text NOT NULL DEFAULT 'encounter'
        CHECK (kind IN ('encounter', 'campaign'));

-- Who may open a campaign: its GM, or a player bound to one member of the party.  Apart
-- from access_tokens so that a campaign's token never opens an encounter's routes on the
-- campaign's id, nor an encounter's token the campaign's.
CREATE TABLE campaign_tokens (
    campaign_id   uuid NOT NULL REFERENCES streams (stream_id),
    token_id      text NOT NULL,
    role          text NOT NULL CHECK (role IN ('gm', 'player')),
    secret_sha256 bytea NOT NULL,
    member        text,
    label         text,
    created_at    timestamptz NOT NULL DEFAULT now(),
    revoked_at    timestamptz,
    PRIMARY KEY (campaign_id, token_id),
    CHECK ((role = 'player') = (member IS NOT NULL))
);

-- Where the carry-over process manager stands in the reading of every stream
-- (events/reading.py's Checkpoint: a place per shard).  One row; its lock makes one
-- process at a time carry over, and the row moves in the transaction that appends the
-- carry-over, so an encounter is carried once even across a crash.
CREATE TABLE carry_over_checkpoint (
    name   text PRIMARY KEY,
    shards bigint[] NOT NULL
);
