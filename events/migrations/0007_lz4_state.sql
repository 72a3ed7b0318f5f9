-- A command rewrites its encounter's whole state (a few KB of JSON) in encounter_state,
-- and every Nth command writes a snapshot of it.  Values over about 2 KB are compressed,
-- and PostgreSQL's default compressor (pglz) was 5% of the database's CPU per command;
-- lz4 does the same job with about a tenth of the instructions (README, Benchmarks).
-- Servers built without lz4 (the embedded pgserver build is one) keep pglz: lz4 is an
-- optimisation, never a requirement.  Only values written from now on use it; reads of
-- older values are unaffected, since every value records how it was compressed.
DO $$
BEGIN
    ALTER TABLE encounter_state ALTER COLUMN state SET COMPRESSION lz4;
    ALTER TABLE snapshots ALTER COLUMN state SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
    RAISE NOTICE 'this PostgreSQL is built without lz4: state and snapshots stay on pglz';
END
$$;
