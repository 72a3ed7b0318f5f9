-- What a stream holds: an encounter (every stream written before campaigns) or a
-- campaign (service/campaigns/).  Readers of every stream that decode by ruleset
-- (rebuild, service-wide webhooks, exports) keep to encounters; the campaign's own
-- reads keep to campaigns, so an id of one kind is never read as the other.
ALTER TABLE streams
    ADD COLUMN kind text NOT NULL DEFAULT 'encounter'
        CHECK (kind IN ('encounter', 'campaign'));
