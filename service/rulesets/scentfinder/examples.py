"""One realistic instance of every command and event, for the docs and OpenAPI."""

from __future__ import annotations

import msgspec

from service.dice.model import DieResult, RollRecord
from service.rulesets.scentfinder import commands as cmd
from service.rulesets.scentfinder import events as ev
from service.rulesets.scentfinder.state import Condition, Hazard, Obstacle, Spell, Weapon

SWORD = Weapon(damage="1d8", skill="Might")
ROLL = RollRecord(
    roll_id="r1",
    roller="alice",
    purpose="Strike on Goblin with sword",
    notation="1d8",
    dice=(DieResult(term=0, sides=8, face=5),),
    total=5,
    outcome="rolled",
    source="manual",
)
STAGGERED = Condition(id="c1", kind="staggered", remaining=2, source="alice")

EXAMPLES: tuple[msgspec.Struct, ...] = (
    cmd.DefineArea(
        id="bridge",
        name="the Bridge",
        adjacent=("rear",),
        hazard=Hazard(save="REF", die="1d6"),
        cover=True,
    ),
    cmd.AddCombatant(
        id="alice",
        name="Alice",
        hp=14,
        fp=3,
        saves={"REF": 3, "VIG": 2, "WIL": 2},
        skills=("Might", "Stealth", "Perception"),
        weapons={"sword": SWORD},
        held=("sword",),
        spells={"Firebolt": Spell(actions=2, fp=1, damage="1d6", range=1)},
        magic_skill="Arcana",
        refocus_skill="Focus",
        area="rear",
    ),
    cmd.RemoveCombatant(id="goblin"),
    cmd.Initiative(
        entries=(
            cmd.InitiativeEntry(combatant="alice", degree="triumph", value=3, start_area="bridge"),
            cmd.InitiativeEntry(combatant="goblin", phase=3),
        )
    ),
    cmd.Begin(),
    cmd.ReorderPhase(phase=2, order=("bob", "alice")),
    cmd.Delay(combatant="alice", phase=3),
    cmd.Act(actor="alice", action="strike", target="goblin", weapon="sword"),
    cmd.Resolve(degree="success"),
    cmd.Save(combatant="alice", degree="success"),
    cmd.EndTurn(combatant="alice"),
    cmd.Adjudicate(reason="the goblin falls at 0 HP", combatant="goblin", deaths_door=True),
    cmd.GmRoll(label="the trap's damage", notation="2d6"),
    cmd.EndCombat(),
    ev.AreaDefined(
        area="bridge", name="the Bridge", adjacent=("rear",), obstacle=Obstacle(skill="Agility")
    ),
    ev.CombatantAdded(
        combatant="goblin",
        name="Goblin",
        pc=False,
        side="goblins",
        hp=8,
        max_hp=8,
        weapons={"spear": Weapon(damage="1d6", reach=True)},
        area="bridge",
        phase=3,
    ),
    ev.CombatantRemoved(combatant="goblin"),
    ev.InitiativeSet(
        combatant="alice",
        phase=1,
        degree="triumph",
        value=3,
        skill="Perception",
        start_area="bridge",
    ),
    ev.CombatBegan(order=("alice", "goblin")),
    ev.RoundStarted(round=1),
    ev.TurnStarted(combatant="alice", round=1, phase=1, actions=3, reaction=1),
    ev.Delayed(combatant="alice", from_phase=1, to_phase=3, rank=1, reaction=1),
    ev.PhaseReordered(phase=2, order=("bob", "alice")),
    ev.ActionTaken(
        actor="alice",
        action="strike",
        cost=1,
        target="goblin",
        skill="Might",
        weapon="sword",
        pending=True,
    ),
    ev.ActionResolved(
        actor="alice",
        action="strike",
        degree="success",
        target="goblin",
        effect="rolled damage",
        damage=5,
        hp_after=3,
        rolls=(ROLL,),
    ),
    ev.ConditionAdded(bearer="goblin", condition=STAGGERED),
    ev.ConditionRemoved(bearer="goblin", condition="c1", reason="dissipated"),
    ev.ConditionChanged(bearer="alice", condition="c2", remaining=1, reason="steeled"),
    ev.Moved(combatant="alice", from_area="rear", to_area="bridge", reason="Shift"),
    ev.HazardTriggered(combatant="alice", area="bridge", save="REF", die="1d6"),
    ev.SaveMade(
        combatant="alice",
        save="REF",
        degree="success",
        label="hazardous terrain",
        hazard_area="bridge",
        damage=2,
        hp_after=12,
        rolls=(msgspec.structs.replace(ROLL, notation="1d6", purpose="hazard"),),
    ),
    ev.TurnEnded(
        combatant="alice",
        persistent_damage=2,
        hp_after=10,
        persistent_after=(1,),
        ticked=(ev.Tick(condition="c2", remaining=1),),
        dissipated=("c3",),
    ),
    ev.WeaponDropped(combatant="goblin", weapon="spear", area="rear"),
    ev.FpChanged(combatant="alice", fp_after=2, reason="Sustain Spell"),
    ev.PersistentChanged(combatant="bob", persistent_after=(1,), reason="First Help"),
    ev.DeathsDoorChanged(combatant="bob", deaths_door=False, hp_after=1, reason="First Help"),
    ev.ActionsGranted(minion="wolf", by="bob", actions=2),
    ev.Ruling(reason="the goblin falls at 0 HP", combatant="goblin", deaths_door=True),
    ev.GmRolled(
        label="the trap's damage",
        rolls=(msgspec.structs.replace(ROLL, roller=None, purpose="the trap's damage"),),
    ),
    ev.CombatEnded(round=4),
)
