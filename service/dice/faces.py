"""Where faces come from: the fair server generator, or dice a GM rolled at the table.

The roller asks a face source for one face at a time, bracketed by ``begin_roll`` and
``end_roll``, so the two sources can enforce their own bookkeeping: the server counts die
indices across the epoch; manual faces are consumed one list per roll request and must
match it exactly, so a typo in a GM's entry fails loudly instead of shifting every later
roll.  Both are pure given their constructor arguments.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from service.dice.fair import die_face
from service.dice.model import DiceError, RollSource


class FaceSource(Protocol):
    """What ``RollingDice`` needs from a source of faces."""

    @property
    def source(self) -> RollSource: ...

    def begin_roll(self, notation: str) -> tuple[int | None, int | None]:
        """Start a roll; return its (epoch, first die index), both None for manual rolls."""
        ...

    def draw(self, sides: int, *, needed: int, exact: bool) -> int:
        """The next face of the current roll.

        ``needed`` is how many faces the whole roll needs at least, counting this one and
        every face drawn before it; ``exact`` is False when explosions may need more.
        """
        ...

    def end_roll(self) -> None:
        """Finish the current roll."""
        ...

    def ensure_all_used(self) -> None:
        """Called once the command is decided: raise DiceError if input was left over."""
        ...


class ServerFaces:
    """Faces from the provably fair generator, die ``next_index``, ``next_index + 1`` ...

    After the command, the service stores ``next_index`` so the epoch's next command
    continues where this one stopped.
    """

    source: RollSource = "server"

    def __init__(self, seed: bytes, client_seed: str, epoch: int, next_index: int) -> None:
        if next_index < 0:
            raise ValueError(f"next_index must not be negative, not {next_index}")
        self._seed = seed
        self._client_seed = client_seed
        self.epoch = epoch
        self.next_index = next_index

    def begin_roll(self, notation: str) -> tuple[int | None, int | None]:
        return self.epoch, self.next_index

    def draw(self, sides: int, *, needed: int, exact: bool) -> int:
        face = die_face(self._seed, self._client_seed, self.next_index, sides)
        self.next_index += 1
        return face

    def end_roll(self) -> None:
        return None

    def ensure_all_used(self) -> None:
        return None


class FacesShort(Exception):
    """Manual faces ran out: roll ``roll`` (counting from 1) had only ``given``.

    ``sides`` is the size of the die asked for and ``needed`` how many faces the roll
    needs counting every face before it (at least, unless ``exact``); both None when no
    list was given for the roll at all.  ``RollingDice`` turns it into ``DiceNeeded``,
    adding what it knows of the roll (who, why, the notation).
    """

    def __init__(
        self,
        roll: int,
        given: tuple[int, ...],
        *,
        sides: int | None,
        needed: int | None,
        exact: bool,
    ) -> None:
        super().__init__(f"manual roll {roll} is short of faces")
        self.roll = roll
        self.given = given
        self.sides = sides
        self.needed = needed
        self.exact = exact


class ManualFaces:
    """Physical dice entered by a GM or player: one list of faces per roll, in order.

    Faces are given in the order the roll uses them: each term left to right, an
    explosion die right after the die that caused it.  A roll short of faces stops the
    command with what it still needs (``FacesShort``); lists after the last roll the
    command made are dice it did not need (``unused``), recorded rather than refused.
    Extra faces inside one roll's list stay an error: that roll's dice were known.
    """

    source: RollSource = "manual"

    def __init__(self, rolls: Sequence[Sequence[int]]) -> None:
        self._rolls = tuple(tuple(faces) for faces in rolls)
        self._roll = -1
        """0-based index of the current roll in ``_rolls``."""
        self._used = 0
        """Faces of the current roll used so far."""
        self._notation = ""

    @property
    def sent_any(self) -> bool:
        """Whether a single face was entered (an empty list is no die)."""
        return any(self._rolls)

    @property
    def rolls_used(self) -> int:
        return self._roll + 1

    def _name(self) -> str:
        return f"manual roll {self._roll + 1} ({self._notation})"

    def begin_roll(self, notation: str) -> tuple[int | None, int | None]:
        self._roll += 1
        self._used = 0
        self._notation = notation
        if self._roll >= len(self._rolls):
            raise FacesShort(self._roll + 1, (), sides=None, needed=None, exact=True)
        return None, None

    def draw(self, sides: int, *, needed: int, exact: bool) -> int:
        faces = self._rolls[self._roll]
        if self._used >= len(faces):
            raise FacesShort(self._roll + 1, faces, sides=sides, needed=needed, exact=exact)
        face = faces[self._used]
        if not 1 <= face <= sides:
            raise DiceError(f"manual roll {self._roll + 1}: face {face} does not fit a d{sides}")
        self._used += 1
        return face

    def end_roll(self) -> None:
        given = len(self._rolls[self._roll])
        if self._used != given:
            raise DiceError(
                f"{self._name()} used {_count(self._used, 'face')} but {given} "
                f"{_was(given)} given; enter exactly the dice the roll needs"
            )

    def ensure_all_used(self) -> None:
        """For callers that want every list used (tests of a ruleset's exact rolls); the
        command pipeline records the lists left over instead (``unused``)."""
        given, used = len(self._rolls), self._roll + 1
        if used < given:
            raise DiceError(
                f"{_count(given, 'manual roll')} {_was(given)} given but the command rolled "
                f"{_count(used, 'time')}"
            )

    def unused(self) -> tuple[tuple[int, ...], ...]:
        """The lists of faces after the last roll the command made: dice thrown at the
        table (damage rolled with the attack) that the command turned out not to need."""
        return self._rolls[self._roll + 1 :]


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _was(n: int) -> str:
    return "was" if n == 1 else "were"


class ScriptedFaces:
    """Faces a ruleset's documentation examples ask for, numbered like the server's dice
    of ``epoch`` so the example records look exactly like stored ones.  Set ``pending``
    before a decision; a die drawn with nothing pending shows ``default`` (a face the
    story does not care about), or is an error when ``default`` is None."""

    source: RollSource = "server"

    def __init__(self, *, default: int | None, epoch: int = 1) -> None:
        self.default = default
        self.epoch = epoch
        self.next_index = 0
        self.pending: list[int] = []

    def begin_roll(self, notation: str) -> tuple[int | None, int | None]:
        return self.epoch, self.next_index

    def draw(self, sides: int, *, needed: int, exact: bool) -> int:
        if not self.pending and self.default is None:
            raise ValueError("the example rolled a die it gave no face for")
        face = self.pending.pop(0) if self.pending else self.default
        assert face is not None
        if not 1 <= face <= sides:
            raise ValueError(f"face {face} does not fit a d{sides}")
        self.next_index += 1
        return face

    def end_roll(self) -> None:
        return None

    def ensure_all_used(self) -> None:
        if self.pending:
            raise ValueError(f"faces {self.pending} were not used")
