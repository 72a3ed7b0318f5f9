-- A campaign's GM token opens every encounter started from the campaign as the
-- encounter's GM: each encounter keeps a copy of it (same id and secret) among its own
-- tokens, made when the encounter starts (service/campaign_store/tokens.py).  Encounters
-- started before this get their copy here, so the campaign's GM opens them too.
INSERT INTO access_tokens (encounter_id, token_id, role, secret_sha256, combatants, label)
SELECT e.stream_id, t.token_id, 'gm', t.secret_sha256, '{}', 'campaign GM'
FROM events AS e
JOIN campaign_tokens AS t
  ON t.campaign_id = (e.data->>'campaign')::uuid AND t.role = 'gm' AND t.revoked_at IS NULL
WHERE e.stream_version = 1 AND e.type = 'encounter.created'
  AND e.data->>'campaign' IS NOT NULL
ON CONFLICT (encounter_id, token_id) DO NOTHING;
