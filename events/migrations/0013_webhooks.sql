-- Durable webhook subscriptions (docs/webhooks.md): one row per webhook with its own
-- checkpoint, and one row per delivered event.
--
-- An encounter's webhook (encounter_id set) reads its stream in version order: versions
-- are dense and version n+1 commits only after version n, so "after checkpoint_version"
-- never skips a late commit.  A service-wide webhook (encounter_id NULL) reads every
-- stream through the store's gap-free global reading, from (checkpoint_tx,
-- checkpoint_position).
CREATE TABLE webhooks (
    webhook_id          uuid PRIMARY KEY,
    encounter_id        uuid REFERENCES streams (stream_id),
    url                 text NOT NULL,
    event_types         text[] NOT NULL DEFAULT '{}',
    format              text NOT NULL CHECK (format IN ('json', 'discord')),
    secret              text NOT NULL,
    gm_only             boolean NOT NULL DEFAULT false,
    checkpoint_version  integer NOT NULL DEFAULT 0,
    checkpoint_tx       bigint NOT NULL DEFAULT 0,
    checkpoint_position bigint NOT NULL DEFAULT 0,
    delivered           bigint NOT NULL DEFAULT 0,
    failures            integer NOT NULL DEFAULT 0,
    last_error          text,
    last_attempt_at     timestamptz,
    last_delivery_at    timestamptz,
    next_attempt_at     timestamptz NOT NULL DEFAULT now(),
    paused_at           timestamptz,
    created_at          timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX webhooks_by_encounter ON webhooks (encounter_id, created_at);
CREATE INDEX webhooks_due ON webhooks (next_attempt_at) WHERE paused_at IS NULL;

-- Written in the transaction that advances the webhook's checkpoint past the event.
CREATE TABLE webhook_deliveries (
    webhook_id      uuid NOT NULL REFERENCES webhooks (webhook_id) ON DELETE CASCADE,
    delivery_id     text NOT NULL,
    stream_id       uuid NOT NULL,
    stream_version  integer NOT NULL,
    status          integer NOT NULL,
    attempts        integer NOT NULL,
    delivered_at    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (webhook_id, delivery_id)
);
