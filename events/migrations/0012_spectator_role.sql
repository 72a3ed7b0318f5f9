-- Spectator tokens (docs/access.md): read-only, they see what players see and may follow
-- the live stream, but issue nothing.  A third role beside 'gm' and 'player'.
ALTER TABLE access_tokens DROP CONSTRAINT access_tokens_role_check;
ALTER TABLE access_tokens ADD CONSTRAINT access_tokens_role_check
    CHECK (role IN ('gm', 'player', 'spectator'));
