"""The pure parts of strict input, option checks and the Prefer header."""

from __future__ import annotations

from typing import Any

import pytest
from litestar.exceptions import ValidationException

from api.http.representation import wants_representation
from api.http.strict_input import _refuse_duplicate_keys
from service.options import InvalidOption, check_options
from service.registry import RULESETS, get_ruleset
from service.rulesets.generic.options import GenericOptions


@pytest.mark.parametrize(
    "body",
    [
        b'{"a": 1, "a": 2}',
        b'{"x": [{"k": 1}, {"k": 1, "k": 1}]}',
        b'{"note": "at 10:30", "b": {"c": 1, "c": 2}}',  # a colon in a string: the slow scan
    ],
)
def test_a_repeated_key_is_refused_wherever_it_is(body: bytes) -> None:
    with pytest.raises(ValidationException, match="appears twice in one JSON object"):
        _refuse_duplicate_keys(body)


@pytest.mark.parametrize(
    "body",
    [
        b'{"a": 1, "b": {"a": 2}}',
        b'{"note": "at 10:30: \\"quoted\\": yes", "k": [{"k": 1}]}',
        b"[]",
        b'"just: a string"',
    ],
)
def test_the_same_key_in_different_objects_and_colons_in_strings_pass(body: bytes) -> None:
    _refuse_duplicate_keys(body)


def test_nesting_the_scan_cannot_follow_is_a_400_not_a_crash() -> None:
    """msgspec's own limit raises a RecursionError that api/http/problems.py answers with a 400
    ("deserializing" in its message); the slow scan's is turned into one here."""
    deep = b'{"t": "a:b", "v": ' + b"[" * 5000 + b"]" * 5000 + b"}"
    with pytest.raises(RecursionError, match="deserializing"):
        _refuse_duplicate_keys(deep)


@pytest.mark.parametrize(
    ("header", "wanted"),
    [
        ("return=representation", True),
        ("RETURN=Representation", True),
        ('return="representation"', True),
        ("respond-async, return=representation; foo=bar", True),
        ("return=minimal", False),
        ("handling=lenient", False),
        ("", False),
        (None, False),
    ],
)
def test_prefer_is_read_as_rfc_7240_writes_it(header: str | None, wanted: bool) -> None:
    assert wants_representation(header) is wanted


def test_every_ruleset_refuses_a_wrongly_typed_option_naming_it() -> None:
    for name, ruleset in RULESETS.items():
        with pytest.raises(InvalidOption) as caught:
            check_options(ruleset, {"no_such_option": 1})
        assert caught.value.key == "no_such_option", name
        assert f"ruleset {name!r}" in str(caught.value)


@pytest.mark.parametrize(
    ("options", "key", "words"),
    [
        ({"initiative_notation": "banana"}, "initiative_notation", "is not dice notation"),
        ({"initiative_notation": "1d20+1d"}, "initiative_notation", "missing the number"),
        ({"initiative_notation": 20}, "initiative_notation", "Expected `str`, got `int`"),
        ({"skip_down_turns": 1}, "skip_down_turns", "Expected `bool`, got `int`"),
    ],
)
def test_generic_options_name_the_option_and_why(
    options: dict[str, Any], key: str, words: str
) -> None:
    with pytest.raises(InvalidOption) as caught:
        check_options(get_ruleset("generic"), options)
    assert caught.value.key == key
    assert words in caught.value.reason


def test_good_options_come_back_typed() -> None:
    typed = check_options(get_ruleset("generic"), {"initiative_notation": "2d6kh1"})
    assert typed == GenericOptions(initiative_notation="2d6kh1")
