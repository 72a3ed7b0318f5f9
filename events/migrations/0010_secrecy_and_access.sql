-- Players' reads look up which versions are still secret (their command made a hidden
-- roll not yet revealed) on every page; this partial index holds only those few rows.
CREATE INDEX log_entries_secret ON log_entries (encounter_id, version)
    WHERE hidden_rolls <> '{}';

-- The rate limiter counts a request under its verified token id: a bearer a process has
-- not seen yet is looked up by its id once.
CREATE INDEX access_tokens_by_id ON access_tokens (token_id);
