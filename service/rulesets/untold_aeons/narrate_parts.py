"""What the replay log's lines are built from: names and capitals, condition words, rolls
announced (``service.dice.announce``, with the Shaken note of UAE-17), and the longer lines
of an attack resolved, a check above a limit and a karma point spent."""

from __future__ import annotations

import re

from service.dice.announce import announce
from service.dice.model import RollRecord
from service.dice.pool import plural
from service.health_text import health_part, health_words
from service.rulesets.untold_aeons import events as ev
from service.rulesets.untold_aeons.state import State

_RESPONSES = {
    "dodge": "dodges",
    "defend": "defends",
    "fight_back": "fights back",
    "dive": "dives for cover",
    "none": "does not react",
}
CONDITIONS = {
    "prone": "prone",
    "moving": "a moving target",
    "partial_cover": "in partial cover",
    "unaware": "unaware of the shooter",
    "medical_care": "under medical care",
}


class Names:
    def __init__(self, state: State) -> None:
        self.state = state

    def __call__(self, ident: str | None) -> str:
        if ident is None:
            return "The Narrator"
        who = self.state.characters.get(ident)
        return who.name if who else ident


def rolls_line(n: Names, rolls: tuple[RollRecord, ...]) -> str:
    line = "; ".join(announce(r, name=n(r.roller)) for r in rolls)
    shaken = [
        n(r.roller)
        for r in rolls
        if r.pool is not None
        and r.pool.net_drawbacks
        and r.roller in n.state.characters
        and n.state.characters[r.roller].shaken
    ]
    if shaken:  # UAE-17
        line += (
            f" ({', '.join(shaken)} is Shaken: the Narrator may let the Drawback trigger a "
            "phobia, mania or delusion)"
        )
    return line


def capital(line: str) -> str:
    """Sentences start with a capital, also when a name does ("the Cultist")."""
    line = line[:1].upper() + line[1:]
    return _SENTENCE.sub(lambda m: m[1] + m[2].upper(), line)


_SENTENCE = re.compile(r"(\. )([a-z])")


def resolved_line(n: Names, event: ev.AttackResolved) -> str:
    line = f"{n(event.target)} {_RESPONSES.get(event.response, event.response)}. "
    line += rolls_line(n, event.rolls) + ". "
    if event.result == "nothing":
        line += "Nothing happens"
    elif event.result == "miss":
        line += f"{n(event.attacker)} misses"
    elif event.result == "defended":
        line += f"{n(event.target)} takes no damage"
    else:
        striker = n(event.target) if event.result == "fought_back" else n(event.attacker)
        parts = []
        struck = event.struck or event.target
        for h in event.hits:
            crit = "critical: " if h.critical else ""
            # What Toughness took off tells the Toughness, and with it the wound limit.
            soaked = health_part(struck, f", -{h.reduction} Toughness: {h.taken}")
            parts.append(
                f"{crit}{h.base} base + {plural(h.successes, 'success')} = {h.dealt}{soaked}"
            )
        times = f" {len(event.hits)} times" if len(event.hits) > 1 else ""
        line += f"{striker} hits {n(event.struck)}{times} ({'; '.join(parts)})"
        if event.damage_after is not None:
            line += wounds_part(n.state, struck, event.damage_after, ": total damage {}")
    if event.prone:
        line += "; " + ", ".join(n(p) for p in event.prone) + " ends prone"
    return line


def limit_line(n: Names, event: ev.LimitChecked) -> str:
    who = n(event.character)
    over = f"{event.value} is {event.difficulty} over {event.threshold}"
    if event.track == "wounds":
        what = "the wound limit" if event.level == "limit" else "twice the wound limit: save or die"
        fail = "Severely Injured" if event.level == "limit" else "dead"
    else:
        what = "the Stress Limit" if event.level == "limit" else "twice the Stress Limit: the save"
        fail = "Shaken" if event.level == "limit" else "temporarily insane or unconscious"
    result = (
        f"{who} holds on (rolls again on more {'damage' if event.track == 'wounds' else 'stress'})"
        if event.passed
        else f"{who} is {fail}"
    )
    return f"{who} is above {what} ({over}): " + rolls_line(n, event.rolls) + f". {result}"


_KARMA = {
    "reroll": "to reroll",
    "bonus": "for +2 on {target}'s roll",
    "difficulty": "for +2 difficulty on {target}'s roll",
    "deus_ex_machina": "for a deus ex machina",
    "trigger": "to trigger something in {target}",
}


def karma_line(n: Names, event: ev.KarmaSpent) -> str:
    who = n(event.by) if event.by else "The Narrator"
    use = _KARMA[event.use].format(target=n(event.target))
    note = f": {event.note}" if event.note else ""
    return (
        f"{who} spends a karma point {use}{note} (players {event.karma_players}, "
        f"Narrator {event.karma_narrator})"
    )


def wounds_part(
    state: State, character: str, damage: int, template: str, word_template: str | None = None
) -> str:
    """A character's damage in ``template`` for readers who may see its numbers, else the
    word the players' state gives for it (against twice the wound limit, UAE-16), in
    ``word_template`` (default ``template``)."""
    return _track(state, character, damage, (template, word_template or template), "wounds")


def stress_part(
    state: State, character: str, stress: int, template: str, word_template: str | None = None
) -> str:
    """As ``wounds_part``, for stress against the Stress Limit (UAE-18)."""
    return _track(state, character, stress, (template, word_template or template), "stress")


def _track(state: State, character: str, value: int, templates: tuple[str, str], track: str) -> str:
    who = state.characters.get(character)
    template, word_template = templates
    exact = template.format(value)
    if who is None:
        return health_part(character, exact)
    # The word the players' state gives (view.py): the track against twice its limit.
    top = 2 * (who.wound_limit if track == "wounds" else who.stress_limit)
    return health_words(character, exact, top - value, top, word_template.format("{word}"))
