-- Where an imported stream's history comes from (events/provenance.py): the archive head
-- it arrived with, who attested that head (this service, a trusted one, or nobody), and
-- this service's signature over that record.  NULL for a stream written here from its
-- first event.
ALTER TABLE streams
    ADD COLUMN imported_version bigint,
    ADD COLUMN imported_hash text,
    ADD COLUMN imported_attestation text,
    ADD COLUMN imported_signature text;
