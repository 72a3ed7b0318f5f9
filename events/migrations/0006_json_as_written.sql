-- Event metadata, the current state and the roll ledger keep their JSON text exactly as
-- written, like event data and snapshots (0005).  A command's answer is built from the
-- dicts it encoded (events/store.py, PreparedAppend.recorded), so with json every later
-- read returns the same keys in the same order; and json is only checked on the way in,
-- not parsed into jsonb's tree, which a command's one write statement does for every
-- row (README, Benchmarks: PostgreSQL's share of a command).  Nothing queries these columns
-- by containment; ->> works on json as it does on jsonb.
ALTER TABLE events ALTER COLUMN metadata TYPE json USING metadata::json;
ALTER TABLE encounter_state ALTER COLUMN state TYPE json USING state::json;
ALTER TABLE roll_ledger ALTER COLUMN record TYPE json USING record::json;
