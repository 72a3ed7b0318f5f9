"""Looking for a value in what a reader was shown, as a value: a secret such as the
notation ``2d6`` must not be held anywhere, but ids and hashes are hex and spell it by
chance, so a test compares whole strings instead of searching the text."""

from __future__ import annotations


def strings_in(value: object) -> set[str]:
    """Every string held anywhere in ``value`` (keys and values), whole."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return {*value, *(s for v in value.values() for s in strings_in(v))}
    if isinstance(value, list | tuple):
        return {s for v in value for s in strings_in(v)}
    return set()
