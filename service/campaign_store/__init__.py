"""A campaign's stream in the event store, read: folding it, its log; and its tokens.

The campaign's rules are pure (service/campaigns/); this package is the reading around
them: ``stream`` reads and folds a campaign, ``tokens`` mints and checks the campaign's
tokens, kept apart from the encounters': a campaign's token opens an encounter only
through the copy made of it there when the encounter starts.  Writing a
campaign is the write path's (service/write/campaigns.py, campaign_encounters.py); the
carry-over process manager runs in the service (api/campaigns/carrier.py).
"""
