-- A campaign's spectator: a token bound to no member that reads the campaign as its
-- players do, copied into the campaign's encounters with the encounter spectator role.
ALTER TABLE campaign_tokens DROP CONSTRAINT campaign_tokens_role_check;
ALTER TABLE campaign_tokens
    ADD CONSTRAINT campaign_tokens_role_check CHECK (role IN ('gm', 'player', 'spectator'));
