-- Webhooks stay local to a Citus coordinator (docs/scale-out.md), and Citus refuses a
-- foreign key from a local table to a distributed one: the encounter a webhook follows is
-- checked by the route that registers it (a GM token of that encounter), and streams are
-- never deleted, so the key guarded nothing a running service could break.
ALTER TABLE webhooks DROP CONSTRAINT IF EXISTS webhooks_encounter_id_fkey;
