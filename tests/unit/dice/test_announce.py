"""The spoken form of a roll, as the replay log shows it."""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from service.dice import (
    MAX_EXPLOSION_DICE,
    ManualFaces,
    Modifier,
    RollingDice,
    RollRecord,
    ServerFaces,
    announce,
    announce_hidden,
)


def roll(notation: str, faces: Sequence[int], **kw: object) -> RollRecord:
    return RollingDice(ManualFaces([faces]), next_roll_number=1).roll(notation, **kw)  # type: ignore[arg-type]


def server_roll(notation: str, **kw: object) -> RollRecord:
    record = RollingDice(ServerFaces(bytes(32), "c", 1, 0), next_roll_number=1).roll(
        notation,
        **kw,  # type: ignore[arg-type]
    )
    return record


def test_attack_as_a_gm_says_it() -> None:
    record = server_roll(
        "1d20+5",
        purpose="attack on Goblin",
        roller="alice",
        modifiers=(Modifier("Bless", 2),),
        target=15,
    )
    face = record.dice[0].face
    record = msgspec.structs.replace(record, outcome="hit")
    assert announce(record, name="Alice") == (
        f"Alice rolls 1d20+5 for attack on Goblin: d20 [{face}] +5 notation +2 Bless"
        f" = {face + 7} vs 15: hit"
    )


def test_roller_id_or_gm_when_no_name() -> None:
    assert announce(roll("d6", [4], purpose="morale", roller="orc-1")) == (
        "orc-1 rolls d6 for morale: d6 [4] = 4 (manual)"
    )
    assert announce(roll("d6", [4], purpose="")) == "GM rolls d6: d6 [4] = 4 (manual)"


def test_dropped_dice_in_parentheses() -> None:
    record = roll("4d6kh3", [3, 6, 1, 4], purpose="Strength")
    assert announce(record) == "GM rolls 4d6kh3 for Strength: 4d6kh3 [3, 6, (1), 4] = 13 (manual)"


def test_subtraction_and_several_terms() -> None:
    record = roll("1d20-1d4+2", [12, 3], purpose="check", modifiers=(Modifier("cover", -2),))
    assert announce(record) == (
        "GM rolls 1d20-1d4+2 for check: d20 [12] -d4 [3] +2 notation -2 cover = 9 (manual)"
    )
    record = roll("2d6+1d8", [1, 2, 8], purpose="damage")
    assert announce(record) == "GM rolls 2d6+1d8 for damage: 2d6 [1, 2] +d8 [8] = 11 (manual)"


def test_exploded_and_success_dice_are_marked() -> None:
    assert announce(roll("1d6!", [6, 6, 2], purpose="damage")) == (
        "GM rolls 1d6! for damage: d6! [6!, 6!, 2] = 14 (manual)"
    )
    assert announce(roll("6d6>=5+1", [5, 2, 6, 1, 3, 5], purpose="pool")) == (
        "GM rolls 6d6>=5+1 for pool: 6d6>=5 [5*, 2, 6*, 1, 3, 5*] +1 notation"
        " = 4 successes (manual)"
    )
    assert announce(roll("2d6>=5", [5, 2], purpose="pool")).endswith("= 1 success (manual)")
    assert announce(roll("2d6!kl1>=5", [6, 5, 2], purpose="p")) == (
        "GM rolls 2d6!kl1>=5 for p: 2d6kl1!>=5 [(6!*), (5*), 2] = 0 successes (manual)"
    )


def test_percentile_and_opposed() -> None:
    record = msgspec.structs.replace(
        roll("d%", [42], purpose="grapple"), opposed_by="r3", outcome="wins"
    )
    assert announce(record) == "GM rolls d% for grapple: d% [42] = 42 vs roll r3: wins (manual)"


def test_an_opposed_roll_names_the_opposing_total_unless_it_is_secret() -> None:
    defence = msgspec.structs.replace(
        roll("1d20", [5], purpose="defence"), roll_id="r5", opposed_by="r4", outcome="held"
    )
    attack = msgspec.structs.replace(roll("1d20+2", [15], purpose="attack"), roll_id="r4")
    said = announce(defence, opposing=attack)
    assert said == "GM rolls 1d20 for defence: d20 [5] = 5 vs 17: held (manual)"
    secret = msgspec.structs.replace(attack, hidden=True)
    assert " = 5 vs roll r4: held" in announce(defence, opposing=secret)
    other = msgspec.structs.replace(attack, roll_id="r9")
    assert " = 5 vs roll r4: held" in announce(defence, opposing=other)


def test_explosion_limit_is_said() -> None:
    record = roll("1d6!", [6] * (MAX_EXPLOSION_DICE + 1), purpose="chaos")
    assert "(explosions stopped at 100 extra dice) = 606 (manual)" in announce(record)


def test_hidden_rolls() -> None:
    record = RollingDice(ManualFaces([[17]]), next_roll_number=1, hidden=True).roll(
        "d20", purpose="Perception of the lurker"
    )
    assert announce_hidden(record) == "GM rolls secretly for Perception of the lurker"
    assert (
        announce(record)
        == "GM rolls d20 for Perception of the lurker: d20 [17] = 17 (manual) (secret)"
    )
    assert announce_hidden(msgspec.structs.replace(record, purpose="")) == "GM rolls secretly"


def test_announce_is_deterministic_and_survives_odd_notation() -> None:
    record = server_roll("3d6", purpose="p")
    assert announce(record) == announce(record)
    odd = msgspec.structs.replace(record, notation="3d6 of old")
    faces = ", ".join(str(d.face) for d in record.dice)
    assert announce(odd) == f"GM rolls 3d6 of old for p: 3d6 [{faces}] = {record.total}"
