"""Rolling the way the text asks: a d20 plus every modifier, each with its label.

Task rolls are ``Attribute x Skill + d20`` (AEK-01); the product is one labelled modifier
("Agility 3 x Athletics 4"), situational modifiers follow, each labelled, and the cap and
the INIT-0 halving appear as modifiers of their own, so the log shows the raw d20 and
every step to the total (section 10, AEK-05).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from msgspec.structs import replace

from service.dice.model import Dice, Modifier, RollRecord
from service.rulesets.aeonisk_tactical.fields import MODIFIER_CAP, title
from service.rulesets.aeonisk_tactical.rules import is_init_zero
from service.rulesets.aeonisk_tactical.state import Character, State

RollKind = Literal["attack", "defence", "check", "damage", "plain"]


def pairing(c: Character, attribute: str, skill: str) -> Modifier:
    """``Attribute x Skill`` as one modifier.  The second may be an attribute too: the
    text's own defence roll is "Will x Agility" (section 8)."""
    a, s = c.attribute(attribute), c.skills.get(skill, c.attributes.get(skill, 0))
    return Modifier(f"{title(attribute)} {a} x {title(skill)} {s}", a * s)


def capped(state: State, situational: Sequence[Modifier], kind: RollKind) -> list[Modifier]:
    """The situational modifiers, plus a "±6 cap" correction when their net passes it
    (AEK-04, AEK-A9)."""
    mods = [m for m in situational if m.value != 0 or "ignored" in m.label]
    scope = state.options.modifier_cap_scope
    if scope == "off" or (scope == "defence_only" and kind != "defence") or kind == "plain":
        return mods
    net = sum(m.value for m in mods)
    bounded = max(-MODIFIER_CAP, min(MODIFIER_CAP, net))
    if bounded != net:
        mods.append(Modifier("±6 cap", bounded - net))
    return mods


def roll(
    state: State,
    dice: Dice,
    who: Character,
    *,
    purpose: str,
    base: Sequence[Modifier],
    situational: Sequence[Modifier] = (),
    kind: RollKind,
    target: int | None = None,
) -> RollRecord:
    """One d20 roll with its modifiers; a skill check of a character at INIT 0 is halved
    after all modifiers (AEK-08, AEK-A6)."""
    modifiers = (*base, *capped(state, situational, kind))
    record = dice.roll("1d20", purpose=purpose, roller=who.id, modifiers=modifiers, target=target)
    if kind in ("attack", "defence", "check") and is_init_zero(state, who):
        return halved(state, record)
    return record


def halved(state: State, record: RollRecord, label: str = "INIT 0: halved") -> RollRecord:
    """The roll's final total halved, rounded as ``halve_rounding`` says (AEK-A6)."""
    total = record.total
    half = total // 2 if state.options.halve_rounding == "floor" else -(-total // 2)
    return replace(record, modifiers=(*record.modifiers, Modifier(label, half - total)), total=half)


def judged(record: RollRecord, dc: int) -> tuple[Literal["success", "failure"], int, RollRecord]:
    """Success when the total reaches the difficulty; +1 tier per full +10 over it
    (AEK-03, AEK-A32)."""
    if record.total < dc:
        return "failure", 0, replace(record, target=dc, outcome="failure")
    tiers = (record.total - dc) // 10
    said = "success" if tiers == 0 else f"success +{tiers} tier{'s' if tiers > 1 else ''}"
    return "success", tiers, replace(record, target=dc, outcome=said)


def check(
    state: State,
    dice: Dice,
    who: Character,
    *,
    label: str,
    attribute: str,
    skill: str,
    dc: int,
    situational: Sequence[Modifier] = (),
) -> tuple[Literal["success", "failure"], int, RollRecord]:
    """A task roll against a difficulty (10 easy, 20 moderate, 30 challenging: AEK-02)."""
    record = roll(
        state,
        dice,
        who,
        purpose=label,
        base=(pairing(who, attribute, skill),),
        situational=situational,
        kind="check",
        target=dc,
    )
    return judged(record, dc)
