-- Roll ids are ASCII ("r1", "r2", ...), and nothing needs them compared by a locale's
-- rules: with the "C" collation the roll ledger's primary key compares bytes instead of
-- calling the database's collation (C.UTF-8 or a locale still goes through strcoll).
-- Every roll row a command or a rebuild writes pays that comparison at each level of the
-- key's index: COPY of a rebuild's roll rows measured 5.6 -> 4.7 us of PostgreSQL's CPU
-- per row (README, Benchmarks).  The order the reads give (length, then the id) is the
-- same under both collations for ids made of ASCII letters and digits.
ALTER TABLE roll_ledger ALTER COLUMN roll_id TYPE text COLLATE "C";
