"""Setting the table: characters, pair-wise bands, zones and Tactical Tokens (GM)."""

from __future__ import annotations

from service.ruleset import RuleViolation
from service.rulesets.aeonisk_tactical import events as ev
from service.rulesets.aeonisk_tactical.commands import (
    AddCharacter,
    PlaceInZone,
    PlaceToken,
    RemoveCharacter,
    SetBand,
)
from service.rulesets.aeonisk_tactical.rules import character, zone_band, zones_of
from service.rulesets.aeonisk_tactical.state import Pairing, State

REQUIRED = ("agility", "strength", "health")
"""Initiative (Agility x 4), damage (Strength) and the Health check need these."""


def add_character(state: State, command: AddCharacter) -> tuple[ev.Event, ...]:
    if command.id in state.characters:
        raise RuleViolation(f"there is already a character with id '{command.id}'")
    missing = [a for a in REQUIRED if a not in command.attributes]
    if missing:
        raise RuleViolation(
            f"{command.name} needs the YAGS attributes {', '.join(missing)}: Initiative, "
            "damage and the Health check use them"
        )
    if command.defence is not None:
        _sheet_pairing(command, command.defence, "defence")
    if command.parry is not None:
        _sheet_pairing(command, command.parry, "parry")
    if command.zone is not None:
        _zone(state, command.zone)
    if command.id in command.bonds:
        raise RuleViolation(f"{command.name} cannot be Bonded to themself")
    return (
        ev.CharacterAdded(
            character=command.id,
            name=command.name.strip(),
            side=command.side,
            pc=command.pc,
            attributes=dict(command.attributes),
            skills=dict(command.skills),
            soak=command.soak,
            void=command.void,
            bonds=command.bonds,
            weapons=dict(command.weapons),
            defence=command.defence,
            static_defence=command.static_defence,
            zone=command.zone,
            parry=command.parry,
        ),
    )


def _sheet_pairing(command: AddCharacter, pair: Pairing, what: str) -> None:
    if pair.attribute not in command.attributes:
        raise RuleViolation(f"the {what} attribute '{pair.attribute}' is not on the sheet")
    if pair.skill not in command.skills and pair.skill not in command.attributes:
        raise RuleViolation(f"the {what} skill '{pair.skill}' is not on the sheet")


def remove_character(state: State, command: RemoveCharacter) -> tuple[ev.Event, ...]:
    return (ev.CharacterRemoved(character=character(state, command.id).id),)


def set_band(state: State, command: SetBand) -> tuple[ev.Event, ...]:
    a, b = character(state, command.a), character(state, command.b)
    if a.id == b.id:
        raise RuleViolation("a band is measured between two different characters")
    if state.options.zone_map and a.zone and b.zone:
        mapped = zone_band(state.options, a.zone, b.zone)
        if mapped is not None:
            raise RuleViolation(
                f"{a.name} and {b.name} are on the zone map: their band follows from their "
                f"zones ({a.zone} and {b.zone} are {mapped})"
            )
    return (ev.BandSet(a=a.id, b=b.id, band=command.band),)


def place_in_zone(state: State, command: PlaceInZone) -> tuple[ev.Event, ...]:
    who = character(state, command.character)
    _zone(state, command.zone)
    if who.zone == command.zone:
        raise RuleViolation(f"{who.name} is already in {command.zone}")
    return (ev.ZoneEntered(character=who.id, zone=command.zone),)


def place_token(state: State, command: PlaceToken) -> tuple[ev.Event, ...]:
    if command.id in state.tokens:
        raise RuleViolation(f"there is already a token with id '{command.id}' on the table")
    return (ev.TokenPlaced(token=command.id, kind=command.kind, label=command.label.strip()),)


def _zone(state: State, zone: str) -> None:
    if not state.options.zone_map:
        raise RuleViolation("this encounter has no zone map (option zone_map)")
    if zone not in zones_of(state.options):
        raise RuleViolation(f"there is no zone '{zone}' on this encounter's zone map")
