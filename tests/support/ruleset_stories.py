"""The example stories of a ruleset, as the contract suites read them.

A ruleset package's ``examples`` module may define ``example_stories()``: the stories its
event examples were played in, as ``(state before, events folded from it)`` pairs;
without it the event examples are folded in order from the initial state of the example
options (the package's ``EXAMPLE_OPTIONS``, else the options' defaults).
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from types import ModuleType
from typing import Any

import msgspec

from service.ruleset import Ruleset

AnyRuleset = Ruleset[Any, Any, Any, Any]
Story = tuple[Any, Sequence[msgspec.Struct]]


def package_of(ruleset: AnyRuleset) -> ModuleType:
    """The package holding the ruleset's event types; it exports ``RULESET``."""
    module = ruleset.event_types[0].__module__
    package = importlib.import_module(module.rpartition(".")[0])
    assert getattr(package, "RULESET", None) is ruleset, f"{package.__name__} must export RULESET"
    return package


def example_options(ruleset: AnyRuleset) -> Any:
    """The package's ``EXAMPLE_OPTIONS`` when it has them, else the default options."""
    options = getattr(package_of(ruleset), "EXAMPLE_OPTIONS", None)
    if options is None:
        return ruleset.options_type()
    assert isinstance(options, ruleset.options_type)
    return options


def example_stories(ruleset: AnyRuleset) -> tuple[Story, ...]:
    package = package_of(ruleset)
    try:
        examples = importlib.import_module(f"{package.__name__}.examples")
    except ModuleNotFoundError:
        examples = None
    stories = getattr(examples, "example_stories", None)
    if stories is not None:
        return tuple(stories())
    events = tuple(e for e in ruleset.examples if isinstance(e, ruleset.event_types))
    return ((ruleset.initial_state(example_options(ruleset)), events),)
