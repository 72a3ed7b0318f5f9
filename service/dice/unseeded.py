"""Server dice of an epoch whose seed this service does not hold.

An archive a GM exports carries only the seeds the events have published (the open
epoch's seed stays secret even from the GM, or the rolls would not be fair), so an
encounter imported from it can be read, verified and played on, but not with server dice
from that epoch: any roll asks for the faces to be entered by hand instead.
"""

from __future__ import annotations

from service.dice.model import DiceError, RollSource


class UnseededFaces:
    source: RollSource = "server"

    def __init__(self, epoch: int) -> None:
        self.epoch = epoch

    def begin_roll(self, notation: str) -> tuple[int | None, int | None]:
        raise DiceError(
            f"server dice are unavailable here: the seed of dice epoch {self.epoch} did not"
            f" come with this encounter's import, so roll {notation} at the table and send"
            " the faces as manual_dice"
        )

    def draw(self, sides: int, *, needed: int, exact: bool) -> int:
        raise AssertionError("begin_roll refuses first")

    def end_roll(self) -> None:
        return None

    def ensure_all_used(self) -> None:
        return None
