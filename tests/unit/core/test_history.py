"""Planning undo and redo on a stream's outline, with plain data (service/history.py)."""

from __future__ import annotations

import pytest

from service.core_events import CommandSpan, Redone, Undone
from service.history import (
    CannotUndo,
    Entry,
    NothingToRedo,
    Outline,
    plan_redo,
    plan_undo,
    reverted_versions,
)


def game(first: int, last: int | None = None, command: str = "generic.attack") -> Entry:
    return Entry(
        span=CommandSpan(first=first, last=last or first, command_type=command), kind="game"
    )


def core(first: int, last: int) -> Entry:
    return Entry(
        span=CommandSpan(first=first, last=last, command_type="encounter.created"), kind="core"
    )


def history(version: int, event: Undone | Redone) -> Entry:
    kind = "undo" if isinstance(event, Undone) else "redo"
    return Entry(
        span=CommandSpan(first=version, last=version, command_type=event.__struct_config__.tag),  # type: ignore[arg-type]
        kind=kind,
        history=event,
    )


START = core(1, 2)


def test_undo_takes_back_every_event_of_the_last_command() -> None:
    outline = Outline([START, game(3), game(4, 6)])
    assert plan_undo(outline, reason="oops") == Undone(commands=(game(4, 6).span,), reason="oops")


def test_undo_skips_dice_reveals_and_commands_already_undone() -> None:
    undo = Undone(commands=(game(5).span,))
    outline = Outline(
        [START, game(3), game(4), history(5, Undone(commands=(game(4).span,))), core(6, 7)]
    )
    assert plan_undo(outline) == Redone(undo_version=5, commands=(game(4).span,))
    reverted = Outline(
        [
            START,
            game(3),
            game(4),
            history(5, undo),
            game(6),
            history(7, Undone(commands=(game(6).span,))),
            game(8),
        ]
    )
    assert plan_undo(reverted) == Undone(commands=(game(8).span,))


def test_undo_of_an_undo_is_a_redo_and_undo_of_a_redo_undoes_again() -> None:
    undo = Undone(commands=(game(3).span,))
    outline = Outline([START, game(3), history(4, undo)])
    assert plan_undo(outline) == Redone(undo_version=4, commands=undo.commands)
    redo = Redone(undo_version=4, commands=undo.commands)
    assert plan_undo(Outline([*outline.entries, history(5, redo)])) == Undone(
        commands=undo.commands
    )


def test_steps_count_ruleset_commands_in_effect_only() -> None:
    outline = Outline(
        [START, game(3), game(4), history(5, Undone(commands=(game(4).span,))), game(6)]
    )
    assert plan_undo(outline, steps=2) == Undone(commands=(game(3).span, game(6).span))
    with pytest.raises(CannotUndo, match=r"only 2 in effect .* past the start is refused"):
        plan_undo(outline, steps=3)


def test_to_version_takes_back_whole_commands_after_it() -> None:
    outline = Outline([START, game(3), game(4, 6), game(7)])
    assert plan_undo(outline, to_version=3) == Undone(commands=(game(4, 6).span, game(7).span))
    with pytest.raises(CannotUndo, match=r"in the middle of generic.attack .*4-6.* 3 or 6"):
        plan_undo(outline, to_version=5)
    with pytest.raises(CannotUndo, match="starts at version 2"):
        plan_undo(outline, to_version=1)
    with pytest.raises(CannotUndo, match="nothing to undo after version 7"):
        plan_undo(outline, to_version=7)
    with pytest.raises(CannotUndo, match="either steps or to_version"):
        plan_undo(outline, steps=1, to_version=3)


def test_nothing_to_undo_in_a_fresh_encounter() -> None:
    with pytest.raises(CannotUndo, match="nothing to undo"):
        plan_undo(Outline([START, core(3, 4)]))


def test_redo_works_back_through_consecutive_undos_newest_first() -> None:
    first = Undone(commands=(game(4).span,))
    second = Undone(commands=(game(3).span,))
    outline = Outline([START, game(3), game(4), history(5, first), history(6, second)])
    assert plan_redo(outline) == Redone(undo_version=6, commands=second.commands)
    redone = Outline([*outline.entries, history(7, plan_redo(outline))])
    assert plan_redo(redone) == Redone(undo_version=5, commands=first.commands)


def test_redo_refused_after_a_new_command_or_without_an_undo() -> None:
    undo = Undone(commands=(game(3).span,))
    with pytest.raises(
        NothingToRedo, match=r"generic.next_turn \(version 5\) came in after the undo at version 4"
    ):
        plan_redo(Outline([START, game(3), history(4, undo), game(5, command="generic.next_turn")]))
    with pytest.raises(NothingToRedo, match="no command has been undone"):
        plan_redo(Outline([START, game(3)]))
    redone = Redone(undo_version=4, commands=undo.commands)
    with pytest.raises(NothingToRedo, match="every undo has been redone"):
        plan_redo(Outline([START, game(3), history(4, undo), history(5, redone)]))


def test_reverted_versions_follow_undos_and_redos_in_order() -> None:
    undo = Undone(commands=(game(3, 4).span, game(6).span))
    assert reverted_versions([undo]) == {3, 4, 6}
    assert reverted_versions([undo, Redone(undo_version=7, commands=undo.commands)]) == set()
