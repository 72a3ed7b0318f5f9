-- Undo and redo marks are read on every log and roll-ledger page (and for time travel);
-- this partial index holds only those few rows of each stream.
CREATE INDEX events_history ON events (stream_id, stream_version) WHERE type LIKE 'history.%';
