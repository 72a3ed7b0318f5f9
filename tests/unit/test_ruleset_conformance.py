"""The ruleset contract (service/ruleset.py), checked for every registered ruleset.

Parametrised over ``service.registry.RULESETS``, so a ruleset added to the registry is
covered without touching this file.  Nothing here names a particular ruleset; what only
one rule system promises stays in its own ``tests/unit/<ruleset>/`` tests.

Conventions a ruleset package follows (all three existing ones do):

- the package (the one holding the module of its event types) exports ``RULESET``,
  ``Command`` and ``Event`` (the unions);
- its ``examples`` module may define ``example_stories()``: the stories the event
  examples were played in, as ``(state before, events folded from it)`` pairs.  Without
  it the event examples are folded in order from the initial state of the example
  options;
- a ruleset whose options cannot be built without arguments (an option with no default
  the table must choose) exports ``EXAMPLE_OPTIONS`` from its package: the options the
  suite builds states from.  Without it the suite uses ``options_type()``.  The option
  notes are checked against the defaults declared on the options Struct's fields, so
  they need no instance.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any, get_args

import msgspec
import pytest

from projections.redaction import KEY
from service.combat_facts import Attack, CombatFact, TurnBegun, TurnEnded
from service.dice import DiceError, ManualFaces, RollingDice
from service.dice.model import RollRecord
from service.health_text import render_health
from service.registry import RULESETS
from service.ruleset import (
    HEALTH_NAMES,
    HealthField,
    Ruleset,
    RuleViolation,
    refuse_dice_not_rolled,
    tag_of,
)
from service.secrecy import Audience
from tests.support.ruleset_stories import example_options as _options
from tests.support.ruleset_stories import example_stories as _stories
from tests.support.ruleset_stories import package_of as _package

AnyRuleset = Ruleset[Any, Any, Any, Any]

ALL = list(RULESETS.values())
IDS = [r.name for r in ALL]


def each_ruleset(function: Any) -> Any:
    """Run ``function`` once per registered ruleset, named by the ruleset."""
    return pytest.mark.parametrize("ruleset", ALL, ids=IDS)(function)


def _initial(ruleset: AnyRuleset) -> Any:
    return ruleset.initial_state(_options(ruleset))


def _command_examples(ruleset: AnyRuleset) -> list[msgspec.Struct]:
    return [e for e in ruleset.examples if isinstance(e, ruleset.command_types)]


def _event_examples(ruleset: AnyRuleset) -> list[msgspec.Struct]:
    return [e for e in ruleset.examples if isinstance(e, ruleset.event_types)]


def _replay(ruleset: AnyRuleset) -> list[tuple[Any, msgspec.Struct | None]]:
    """Every event of the stories with the state before it, folded with ``evolve``, and
    each story's final state paired with None."""
    played: list[tuple[Any, msgspec.Struct | None]] = []
    for state, events in _stories(ruleset):
        for event in events:
            played.append((state, event))
            state = ruleset.evolve(state, event)
        played.append((state, None))
    return played


def _rolls_type_mentions(annotation: Any, seen: frozenset[Any] = frozenset()) -> bool:
    """Whether ``annotation`` holds RollRecords anywhere: in a union, a container, or a
    field of a nested Struct."""
    if annotation is RollRecord:
        return True
    if annotation in seen:
        return False
    seen = seen | {annotation}
    if isinstance(annotation, type) and issubclass(annotation, msgspec.Struct):
        return any(_rolls_type_mentions(f.type, seen) for f in msgspec.structs.fields(annotation))
    return any(_rolls_type_mentions(arg, seen) for arg in get_args(annotation))


# Tags and Struct configuration.


@each_ruleset
def test_tags_are_prefixed_with_the_ruleset_name_and_unique(ruleset: AnyRuleset) -> None:
    tags = [tag_of(t) for t in (*ruleset.command_types, *ruleset.event_types)]
    assert all(tag.startswith(f"{ruleset.name}.") for tag in tags), tags
    assert len(tags) == len(set(tags))


@each_ruleset
def test_commands_are_strict_frozen_structs_tagged_on_type(ruleset: AnyRuleset) -> None:
    for command in ruleset.command_types:
        config = command.__struct_config__
        assert config.tag_field == "type", command
        assert config.forbid_unknown_fields and config.frozen, command


@each_ruleset
def test_events_are_frozen_structs_tagged_on_type(ruleset: AnyRuleset) -> None:
    for event in ruleset.event_types:
        config = event.__struct_config__
        assert config.tag_field == "type" and config.frozen, event


@each_ruleset
def test_dice_are_kept_under_rolls_as_a_tuple_of_roll_records(ruleset: AnyRuleset) -> None:
    """The roll ledger (and the engine's redaction of secret rolls) looks in ``rolls``."""
    for event in ruleset.event_types:
        for field in msgspec.structs.fields(event):
            if field.name == "rolls":
                assert field.type == tuple[RollRecord, ...], event
            else:
                assert not _rolls_type_mentions(field.type), f"{event.__name__}.{field.name}"
                assert "RollRecord" not in str(field.type), f"{event.__name__}.{field.name}"


@each_ruleset
def test_the_unions_are_exactly_the_listed_types(ruleset: AnyRuleset) -> None:
    package = _package(ruleset)
    assert set(get_args(package.Command)) == set(ruleset.command_types)
    assert set(get_args(package.Event)) == set(ruleset.event_types)


@each_ruleset
def test_json_schema_covers_commands_events_and_state(ruleset: AnyRuleset) -> None:
    package = _package(ruleset)
    _, components = msgspec.json.schema_components(
        [package.Command, package.Event, ruleset.state_type]
    )
    names = {t.__name__ for t in (*ruleset.command_types, *ruleset.event_types)}
    assert names <= set(components)
    assert all(components[name].get("description") for name in names), "docstrings missing"


# Options.


@each_ruleset
def test_option_notes_document_every_option_with_its_default(ruleset: AnyRuleset) -> None:
    """A note's default is the field's declared default (None for a required option)."""
    defaults: dict[str, Any] = {}
    for field in msgspec.structs.fields(ruleset.options_type):
        if field.default is not msgspec.NODEFAULT:
            defaults[field.name] = field.default
        elif field.default_factory is not msgspec.NODEFAULT:
            defaults[field.name] = field.default_factory()
        else:
            defaults[field.name] = None
    notes = {note.key: note for note in ruleset.option_notes}
    assert len(notes) == len(ruleset.option_notes), "an option is documented twice"
    assert set(notes) == set(defaults)
    for key, note in notes.items():
        assert note.default == defaults[key], key
        assert note.description.strip(), key


@each_ruleset
def test_options_reject_unknown_keys(ruleset: AnyRuleset) -> None:
    assert ruleset.options_type.__struct_config__.forbid_unknown_fields
    with pytest.raises(msgspec.ValidationError, match="no_such_option"):
        msgspec.json.decode(b'{"no_such_option": 1}', type=ruleset.options_type)


# Examples.


@each_ruleset
def test_examples_are_the_command_examples_then_the_event_examples(ruleset: AnyRuleset) -> None:
    commands, events = _command_examples(ruleset), _event_examples(ruleset)
    assert ruleset.examples == (*commands, *events)


@each_ruleset
def test_every_command_and_event_type_has_exactly_one_example(ruleset: AnyRuleset) -> None:
    commands = Counter(type(e) for e in _command_examples(ruleset))
    events = Counter(type(e) for e in _event_examples(ruleset))
    assert dict(commands) == dict.fromkeys(ruleset.command_types, 1)
    assert dict(events) == dict.fromkeys(ruleset.event_types, 1)


@each_ruleset
def test_examples_round_trip_through_their_union(ruleset: AnyRuleset) -> None:
    package = _package(ruleset)
    for example in _command_examples(ruleset):
        data = msgspec.json.encode(example)
        assert msgspec.json.decode(data, type=package.Command) == example
        # A valid request: decoding alone checks the Meta constraints.
        assert msgspec.json.decode(data, type=type(example)) == example
    for example in _event_examples(ruleset):
        data = msgspec.json.encode(example)
        assert msgspec.json.decode(data, type=package.Event) == example


@each_ruleset
def test_the_event_examples_replay_and_narrate(ruleset: AnyRuleset) -> None:
    played = _replay(ruleset)
    events = [event for _, event in played if event is not None]
    for example in _event_examples(ruleset):
        assert example in events, f"{tag_of(type(example))} is not in the example stories"
    for state, event in played:
        if event is not None:
            line = ruleset.narrate(state, event)
            assert isinstance(line, str) and line.strip(), tag_of(type(event))


@each_ruleset
def test_every_state_of_the_stories_round_trips_through_state_type(ruleset: AnyRuleset) -> None:
    for state, _ in _replay(ruleset):
        assert isinstance(state, ruleset.state_type)
        data = msgspec.json.encode(state)
        assert msgspec.json.decode(data, type=ruleset.state_type) == state


@each_ruleset
def test_the_initial_state_round_trips_and_has_no_round(ruleset: AnyRuleset) -> None:
    state = _initial(ruleset)
    assert isinstance(state, ruleset.state_type)
    assert msgspec.json.decode(msgspec.json.encode(state), type=ruleset.state_type) == state
    assert ruleset.round_of(state) is None


@each_ruleset
def test_acts_for_names_combatants_or_the_gm_for_every_command(ruleset: AnyRuleset) -> None:
    states = [_initial(ruleset)]
    states += [state for state, event in _replay(ruleset) if event is None]
    for state in states:
        for command in _command_examples(ruleset):
            who = ruleset.acts_for(state, command)
            assert who is None or (
                isinstance(who, frozenset) and all(isinstance(x, str) for x in who)
            ), tag_of(type(command))


@each_ruleset
def test_player_commands_are_exactly_those_acts_for_gives_a_player(ruleset: AnyRuleset) -> None:
    """The published list of a player's commands holds every command acts_for gives to a
    combatant, in any state of the example stories (the engine refuses players the rest
    before asking acts_for, so a type missing here would lock players out of it)."""
    listed = set(ruleset.player_commands)
    assert listed <= set(ruleset.command_types)
    states = [_initial(ruleset)]
    states += [state for state, event in _replay(ruleset) if event is None]
    given = {
        type(command)
        for state in states
        for command in _command_examples(ruleset)
        if ruleset.acts_for(state, command) is not None
    }
    assert given <= listed, sorted(tag_of(t) for t in given - listed)
    assert len(listed) == len(ruleset.player_commands), "listed twice"


# Secrecy (service/secrecy.py).


@each_ruleset
def test_shown_when_secret_lists_real_fields_of_every_event(ruleset: AnyRuleset) -> None:
    tags = {tag_of(t): t for t in ruleset.event_types}
    assert set(ruleset.shown_when_secret) == set(tags)
    for tag, shown in ruleset.shown_when_secret.items():
        assert isinstance(shown, frozenset), tag
        assert "rolls" not in shown, tag
        assert shown <= set(tags[tag].__struct_fields__), (tag, shown)


@each_ruleset
def test_narrate_secret_tells_every_event_example(ruleset: AnyRuleset) -> None:
    assert ruleset.narrate_secret is not None
    for state, event in _replay(ruleset):
        if event is not None:
            line = ruleset.narrate_secret(state, event)
            assert isinstance(line, str) and line.strip(), tag_of(type(event))


@each_ruleset
def test_narrate_secret_reads_only_the_shown_fields(ruleset: AnyRuleset) -> None:
    """Changing a hidden field (every int, bool, str it holds) never changes the line."""
    assert ruleset.narrate_secret is not None
    for state, event in _replay(ruleset):
        if event is None:
            continue
        shown = ruleset.shown_when_secret[tag_of(type(event))]
        changes: dict[str, Any] = {}
        for field in msgspec.structs.fields(event):
            value = getattr(event, field.name)
            if field.name in shown or field.name == "rolls":
                continue
            if isinstance(value, bool):
                changes[field.name] = not value
            elif isinstance(value, int):
                changes[field.name] = value + 7
            elif isinstance(value, str):
                changes[field.name] = value + " (changed)"
        changed = msgspec.structs.replace(event, **changes)
        line = ruleset.narrate_secret(state, event)
        assert ruleset.narrate_secret(state, changed) == line, tag_of(type(event))


@each_ruleset
def test_player_state_is_set_and_encodes_to_json(ruleset: AnyRuleset) -> None:
    assert ruleset.player_state is not None
    initial = _initial(ruleset)
    msgspec.json.encode(ruleset.player_state(initial, Audience()))
    for state, event in _replay(ruleset):
        if event is None:
            for npc_health in ("exact", "descriptor", "hidden"):
                audience = Audience(npc_health=npc_health)
                msgspec.json.encode(ruleset.player_state(state, audience))


@each_ruleset
def test_combat_facts_name_the_stories_attacks_and_turns(ruleset: AnyRuleset) -> None:
    """Every ruleset tells the statistics (docs/statistics.md) what its events mean: each
    event of the stories gives facts without failing, and the stories (a fight) give at
    least one attack and one turn, so a ruleset's damage meter is never silently empty."""
    facts = [
        fact
        for state, event in _replay(ruleset)
        if event is not None
        for fact in ruleset.combat_facts(state, event)
    ]
    assert all(isinstance(f, CombatFact) for f in facts)
    kinds = {type(f) for f in facts}
    assert Attack in kinds, "no event of the stories is an attack"
    assert kinds & {TurnBegun, TurnEnded}, "no event of the stories begins or ends a turn"


# The dice rule (docs/dice-and-fairness.md): a command that rolls nothing refuses dice.


def _decided_with_a_manual_die(ruleset: AnyRuleset, state: Any, command: Any) -> Any:
    """``command`` decided in ``state`` with one manual face sent: the RuleViolation it
    meets, or the RollingDice when it is taken, or None when the face does not fit a roll
    (the command rolls, and the face was wrong for it)."""
    dice = RollingDice(ManualFaces([[1]]), next_roll_number=1)
    try:
        ruleset.decide(state, command, dice)
        refuse_dice_not_rolled(dice, command)
    except RuleViolation as violation:
        return violation
    except DiceError:
        return None
    return dice


@each_ruleset
def test_every_example_command_that_rolls_nothing_refuses_a_manual_die(
    ruleset: AnyRuleset,
) -> None:
    """Every example command, in every state of the stories, either rolls (and takes the
    face) or is refused; where its type rolls in some other state, the inputs settled
    that nothing is rolled, and the ruleset says why in its own words, naming the rule."""
    states = [_initial(ruleset)] + [state for state, _ in _replay(ruleset)]
    rolling: set[type[Any]] = set()
    refused: list[tuple[type[Any], RuleViolation]] = []
    for state in states:
        for command in _command_examples(ruleset):
            try:
                ruleset.decide(state, command, RollingDice(ManualFaces([]), next_roll_number=1))
            except DiceError:
                rolling.add(type(command))  # it needs a die in this state
                continue
            except RuleViolation:
                continue  # not legal here
            outcome = _decided_with_a_manual_die(ruleset, state, command)
            assert not isinstance(outcome, RollingDice) or outcome.records, (
                f"{tag_of(type(command))} rolled nothing and took a manual die"
            )
            if isinstance(outcome, RuleViolation) and outcome.reason.startswith("No die is"):
                refused.append((type(command), outcome))
    assert refused, "no example command rolls nothing in any state of the stories"
    for kind, violation in refused:
        if kind in rolling:
            assert violation.rule, (tag_of(kind), violation.reason)


# Health: which fields tell a combatant's health, declared for every event that has one.


def _health_paths(struct: type[msgspec.Struct], prefix: str = "") -> list[str]:
    """The paths (``Ruleset.health_fields`` syntax) of every field of a health name in
    ``struct``, through nested Structs, lists and tuples of them."""
    found = []
    for f in msgspec.structs.fields(struct):
        path = f"{prefix}{f.name}"
        if f.name in HEALTH_NAMES:
            found.append(path)
        for inner, many in _nested_structs(f.type):
            found.extend(_health_paths(inner, f"{path}{many}."))
    return found


def _nested_structs(annotation: Any, many: str = "") -> list[tuple[type[msgspec.Struct], str]]:
    """The Structs ``annotation`` holds, each with how a path steps into it: ``""`` (one
    object), ``"[]"`` (each of a list) or ``"{}"`` (each value of a map)."""
    if isinstance(annotation, type) and issubclass(annotation, msgspec.Struct):
        return [(annotation, many)]
    origin = getattr(annotation, "__origin__", None)
    args = get_args(annotation)
    if origin in (tuple, list):
        return [s for a in args if a is not Ellipsis for s in _nested_structs(a, "[]")]
    if origin is dict:
        return [s for s in _nested_structs(args[1], "{}")] if args else []
    return [s for a in args for s in _nested_structs(a, many)]


@each_ruleset
def test_every_field_that_tells_health_is_declared_with_its_owner(ruleset: AnyRuleset) -> None:
    """docs/secrecy.md, "NPC health": players read an event's health fields only for
    combatants whose numbers the table shows them, so each must be declared."""
    missing = []
    for event_type in ruleset.event_types:
        tag = tag_of(event_type)
        declared = {h.path for h in ruleset.health_fields.get(tag, ())}
        for path in _health_paths(event_type):
            if path not in declared and f"{tag}.{path}" not in ruleset.not_health:
                missing.append(f"{tag}.{path}")
    assert not missing, f"health fields without an owner in health_fields: {missing}"


@each_ruleset
def test_declared_health_fields_and_owners_exist(ruleset: AnyRuleset) -> None:
    tags = {tag_of(t): t for t in ruleset.event_types}
    for tag, fields in ruleset.health_fields.items():
        assert tag in tags, f"health_fields names {tag}, not an event of {ruleset.name}"
        example = next((e for e in _event_examples(ruleset) if tag_of(type(e)) == tag), None)
        for spec in fields:
            assert spec.owners, f"{tag}.{spec.path} has no owner"
            assert spec.path in _all_paths(tags[tag]), f"{tag} has no field {spec.path}"
            if example is not None:
                _assert_owners_found(msgspec.to_builtins(example), spec.path.split("."), spec)


def _all_paths(struct: type[msgspec.Struct], prefix: str = "") -> set[str]:
    found = set()
    for f in msgspec.structs.fields(struct):
        path = f"{prefix}{f.name}"
        found.add(path)
        for inner, many in _nested_structs(f.type):
            found |= _all_paths(inner, f"{path}{many}.")
    return found


def _assert_owners_found(
    node: Any, path: list[str], spec: HealthField, scopes: tuple[Any, ...] = ()
) -> None:
    """Every owner of ``spec`` names a combatant id in the example (its own object or an
    enclosing one), wherever the field is present."""
    if not isinstance(node, dict):
        return
    scopes = (node, *scopes)
    if path[0].endswith("{}") and isinstance(node.get(path[0][:-2]), dict):
        for key, value in node[path[0][:-2]].items():
            _assert_owners_found(value, path[1:], spec, ({KEY: key}, *scopes))
        return
    name, rest = path[0], path[1:]
    if not rest:
        if name in node:
            ids = [next((s[o] for s in scopes if o in s), None) for o in spec.owners]
            assert any(isinstance(i, str) for i in ids), f"{spec} finds no owner id"
        return
    inner = node.get(name.removesuffix("[]"))
    for item in inner if isinstance(inner, list) else [inner]:
        _assert_owners_found(item, rest, spec, scopes)


def _shifted(event: msgspec.Struct, ruleset: AnyRuleset) -> msgspec.Struct | None:
    """``event`` with every declared integer health field moved by 1000, or None when it
    declares none (or the shifted event does not decode)."""
    specs = ruleset.health_fields.get(tag_of(type(event)), ())
    data = msgspec.to_builtins(event)
    changed = False
    for spec in specs:
        if not spec.field_in or data.get("field") in spec.field_in:
            changed |= _shift(data, spec.path.split("."))
    if not changed:
        return None
    try:
        return msgspec.convert(data, type(event))
    except msgspec.ValidationError:
        return None


def _shift(node: Any, path: list[str]) -> bool:
    if not isinstance(node, dict):
        return False
    name, rest = path[0], path[1:]
    key = name.removesuffix("[]").removesuffix("{}")
    value = node.get(key)
    if not rest:
        if isinstance(value, int) and not isinstance(value, bool):
            node[key] = value + 1000
            return True
        return False
    items = value if name.endswith("[]") else value.values() if name.endswith("{}") else [value]
    return any([_shift(item, rest) for item in items or ()])


@each_ruleset
def test_players_line_tells_no_npc_health(ruleset: AnyRuleset) -> None:
    """docs/secrecy.md, "NPC health": an NPC's health numbers reach no player's log line
    under ``hidden`` or ``descriptor``.  Every example event whose health fields are moved
    by 1000 reads the same to them, and none of the moved numbers appears; the GM (and
    ``exact``) reads the moved numbers."""
    checked = shown = 0
    for state, event in _replay(ruleset):
        if event is None or (moved := _shifted(event, ruleset)) is None:
            continue
        try:
            gm = render_health(ruleset.narrate(state, moved), None)
        except (KeyError, ValueError):
            continue  # a moved number the story cannot tell (beyond a limit): not a line
        checked += 1
        numbers = set(re.findall(r"\d+", gm)) - set(
            re.findall(r"\d+", render_health(ruleset.narrate(state, event), None))
        )
        shown += bool(numbers)
        for npc_health in ("hidden", "descriptor"):
            audience = Audience(npc_health=npc_health)
            line = render_health(ruleset.narrate(state, moved), audience)
            before = render_health(ruleset.narrate(state, event), audience)
            assert not numbers & set(re.findall(r"\d+", line)), (npc_health, line)
            if npc_health == "hidden":
                assert line == before, (line, before)
        exact = render_health(ruleset.narrate(state, moved), Audience(npc_health="exact"))
        assert exact == gm
    assert checked and shown, f"no example line of {ruleset.name} tells health to the GM"
