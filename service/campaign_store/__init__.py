"""A campaign's stream in the event store: folding it, writing its commands, its tokens.

The campaign's rules are pure (service/campaigns/); this package is the I/O around them,
as service/write/ is around a ruleset: ``stream`` reads and folds a campaign, ``writer``
decides a command under the stream's lock and appends its events with the store's own
append (hash chain, expected version, signed head), ``tokens`` mints and checks the
campaign's tokens, kept apart from the encounters' so neither ever opens the other.
"""
