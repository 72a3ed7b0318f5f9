-- Undo and redo marks, and reveals of secret rolls, are read on every log and ledger page
-- (and for time travel); this partial index holds only those few rows of each stream.
CREATE INDEX events_marks ON events (stream_id, stream_version)
    WHERE type LIKE 'history.%' OR type = 'dice.rolls_revealed';
