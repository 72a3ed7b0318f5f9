-- Event data and snapshots keep their JSON text exactly as written.  jsonb reorders object
-- keys (shorter keys first), so a ruleset state or event holding a map (units by id, hexes
-- by coordinate) came back from a snapshot or a rebuild in another order than the process
-- that decided it had: the same history could then narrate, or even decide, differently
-- depending on whether the state came from memory or from storage.  With json, every
-- path sees the order the decider produced.  (Hashes never depended on it: they are over
-- sorted-key JSON.)
ALTER TABLE events ALTER COLUMN data TYPE json USING data::json;
ALTER TABLE snapshots ALTER COLUMN state TYPE json USING state::json;
