-- Tamper evidence beyond the database (docs/tamper-evidence.md): the stream head's
-- HMAC-SHA256 under a key only the service holds (AEON_CHAIN_KEY), written by the same
-- statement that moves the head.  NULL when the service runs without a key.
ALTER TABLE streams ADD COLUMN head_signature text;
