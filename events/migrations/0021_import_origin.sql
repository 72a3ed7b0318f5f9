-- The id a stream had in the archive it was imported from, when the import gave it a new
-- one (a campaign and its encounters take new ids, so that the links between them are
-- rewritten rather than colliding with the exporting service's).  NULL for a stream
-- written here, and for an encounter imported under its own id.
ALTER TABLE streams ADD COLUMN imported_from uuid;
