"""The write path, in the order a command walks it.

pipeline.py        what api/ calls: names the command (commands.py)
unit_of_work.py    routes it to its handler and loads, decides, appends, commits
  state_cache.py   the encounters, seeds and rulesets remembered between commands
  handlers.py      what each command appends (dice.py: its dice; opening.py: a new stream's)
  prepare.py       everything the write stores, worked out before it runs
  group_commit.py  writes ready together share a round trip and a commit
  strategy.py      how a write reaches PostgreSQL, chosen once at start-up
  refusals.py      what a refused write or an answered Idempotency-Key answers
events/append.py   the write's one statement (events/append_split.py: routed for Citus)
"""
