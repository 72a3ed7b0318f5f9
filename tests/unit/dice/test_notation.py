"""The notation parser: the examples tables use, every error message, the limits."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.dice.model import DiceError
from service.dice.notation import (
    MAX_CONSTANT,
    MAX_DICE,
    MAX_NOTATION_LENGTH,
    MAX_SIDES,
    MAX_TERMS,
    Constant,
    DiceTerm,
    KeepDrop,
    SuccessRule,
    parse,
)


def dice(**kw: object) -> DiceTerm:
    return DiceTerm(**kw)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("notation", "text", "terms"),
    [
        ("d20", "d20", (dice(count=1, sides=20),)),
        ("1d20+5", "1d20+5", (dice(count=1, sides=20), Constant(5))),
        ("2d8+3", "2d8+3", (dice(count=2, sides=8), Constant(3))),
        ("3d6", "3d6", (dice(count=3, sides=6),)),
        ("4d6kh3", "4d6kh3", (dice(count=4, sides=6, keep=KeepDrop("kh", 3)),)),
        ("2d20kl1", "2d20kl1", (dice(count=2, sides=20, keep=KeepDrop("kl", 1)),)),
        ("4d6k3", "4d6k3", (dice(count=4, sides=6, keep=KeepDrop("kh", 3)),)),
        ("4d6dl1", "4d6dl1", (dice(count=4, sides=6, keep=KeepDrop("dl", 1)),)),
        ("4d6dh1", "4d6dh1", (dice(count=4, sides=6, keep=KeepDrop("dh", 1)),)),
        ("d%", "d%", (dice(count=1, sides=100, percent=True),)),
        ("1d6!", "1d6!", (dice(count=1, sides=6, explode=True),)),
        ("6d6>=5", "6d6>=5", (dice(count=6, sides=6, success=SuccessRule(">=", 5)),)),
        ("8d6>4", "8d6>4", (dice(count=8, sides=6, success=SuccessRule(">", 4)),)),
        (
            "1d20-1d4+2",
            "1d20-1d4+2",
            (dice(count=1, sides=20), dice(sign=-1, count=1, sides=4), Constant(2)),
        ),
        ("2d6 + 1", "2d6+1", (dice(count=2, sides=6), Constant(1))),
        (
            "  4D6 KH3 - 2 ",
            "4d6kh3-2",
            (dice(count=4, sides=6, keep=KeepDrop("kh", 3)), Constant(-2)),
        ),
        ("-1d4+3", "-1d4+3", (dice(sign=-1, count=1, sides=4), Constant(3))),
        ("2+d6", "2+d6", (Constant(2), dice(count=1, sides=6))),
        (
            "6d6!>=5+1",
            "6d6!>=5+1",
            (dice(count=6, sides=6, explode=True, success=SuccessRule(">=", 5)), Constant(1)),
        ),
        (
            "4d6>=5kh2",
            "4d6>=5kh2",
            (dice(count=4, sides=6, keep=KeepDrop("kh", 2), success=SuccessRule(">=", 5)),),
        ),
        (
            "3d6>=5+2d10>=8",
            "3d6>=5+2d10>=8",
            (
                dice(count=3, sides=6, success=SuccessRule(">=", 5)),
                dice(count=2, sides=10, success=SuccessRule(">=", 8)),
            ),
        ),
    ],
)
def test_parses_the_notations_tables_use(
    notation: str, text: str, terms: tuple[object, ...]
) -> None:
    expression = parse(notation)
    assert expression.text == text
    assert expression.terms == terms


def test_expression_helpers() -> None:
    expression = parse("1d20-1d4+2-1")
    assert expression.constants == (2, -1)
    assert expression.dice_count == 2
    assert not expression.counts_successes
    assert not expression.explodes
    assert parse("6d6!>=5").counts_successes and parse("6d6!>=5").explodes


def test_keep_all_is_allowed_for_generated_notations() -> None:
    assert parse("1d20kh1").dice_terms[0].keep == KeepDrop("kh", 1)
    assert parse("4d6kl4").dice_terms[0].keep == KeepDrop("kl", 4)


def test_labels_read_like_a_gm_says_them() -> None:
    labels = [t.label for t in parse("1d20+4d6kh3-d%+2d6!").dice_terms]
    assert labels == ["d20", "4d6kh3", "d%", "2d6!"]
    assert parse("3D6!>=4").dice_terms[0].label == "3d6!>=4"


@pytest.mark.parametrize(
    ("notation", "message"),
    [
        ("3d", "'3d' is missing the number of sides after 'd' (position 2)"),
        ("1d20+3d", "'3d' is missing the number of sides after 'd' (position 7)"),
        ("", "notation is empty: write dice such as 'd20' or '2d6+3'"),
        ("   ", "notation is empty: write dice such as 'd20' or '2d6+3'"),
        (
            "1d6+",
            "expected a number or dice such as '2d6' at position 4, found the end of the notation",
        ),
        ("1d6++2", "expected a number or dice such as '2d6' at position 4, found '+'"),
        ("hello", "expected a number or dice such as '2d6' at position 0, found 'h'"),
        ("2d6 3", "expected '+' or '-' at position 4, found '3'"),
        ("2d6*2", "expected '+' or '-' at position 3, found '*'"),
        ("1d20<5", "expected '+' or '-' at position 4, found '<'"),
        ("0d6", "'0d6' at position 0 rolls no dice: the number of dice must be at least 1"),
        ("d1", "'d1' at position 0: a die needs between 2 and 10000 sides (MAX_SIDES)"),
        ("d0", "'d0' at position 0: a die needs between 2 and 10000 sides (MAX_SIDES)"),
        ("d10001", "'d10001' at position 0: a die needs between 2 and 10000 sides (MAX_SIDES)"),
        ("4d6kh", "'4d6kh' is missing the number of dice to keep after 'kh' (position 5)"),
        ("4d6dl", "'4d6dl' is missing the number of dice to drop after 'dl' (position 5)"),
        (
            "4d6d1",
            "'4d6d': 'd' after the dice must be 'dh' (drop highest) or 'dl' (drop lowest)"
            " (position 3)",
        ),
        ("4d6kh5", "'4d6kh5' at position 3: can keep between 1 and 4 of 4 dice, not 5"),
        ("4d6kh0", "'4d6kh0' at position 3: can keep between 1 and 4 of 4 dice, not 0"),
        ("4d6dl4", "'4d6dl4' at position 3: can drop between 1 and 3 of 4 dice, not 4"),
        ("1d6dl1", "'1d6dl1' at position 3: cannot drop dice from a single die"),
        ("4d6kh3kl1", "'4d6kh3kl1' has a second keep/drop at position 6"),
        ("1d6!!", "'1d6!!' has a second '!' at position 4"),
        ("6d6>=5>4", "'6d6>=5>4' has a second success threshold at position 6"),
        ("6d6>=", "'6d6>=' is missing the target number after '>=' (position 5)"),
        ("6d6>", "'6d6>' is missing the target number after '>' (position 4)"),
        ("1d6>=7", "'1d6>=7' at position 3: no face of a d6 is >=7, so it can never succeed"),
        ("1d6>6", "'1d6>6' at position 3: no face of a d6 is >6, so it can never succeed"),
        ("1d20-6d6>=5", "'6d6>=5' at position 4: a success-counting term cannot be subtracted"),
        (
            "6d6>=5+1d6",
            "'6d6>=5' counts successes and cannot be mixed with summed dice such as 'd6';"
            " roll them separately",
        ),
        ("5", "'5' has no dice: add a dice term such as 'd20'"),
        ("2+3", "'2+3' has no dice: add a dice term such as 'd20'"),
        ("d20+1000001", "constant '1000001' at position 4 is larger than 1000000 (MAX_CONSTANT)"),
    ],
)
def test_errors_say_what_is_wrong_and_where(notation: str, message: str) -> None:
    with pytest.raises(DiceError) as caught:
        parse(notation)
    assert str(caught.value) == message


def test_limits_are_inclusive_and_named() -> None:
    assert parse(f"d{MAX_SIDES}").terms[0] == dice(count=1, sides=MAX_SIDES)
    assert parse(f"d6+{MAX_CONSTANT}-{MAX_CONSTANT}").constants == (MAX_CONSTANT, -MAX_CONSTANT)
    assert parse(f"{MAX_DICE}d6").dice_count == MAX_DICE
    assert len(parse("+".join(["d6"] * MAX_TERMS)).terms) == MAX_TERMS
    assert parse("d6" + " " * (MAX_NOTATION_LENGTH - 2)).text == "d6"


def test_over_the_limits() -> None:
    with pytest.raises(DiceError, match=r"the limit is 200 characters \(MAX_NOTATION_LENGTH\)"):
        parse("d6" + " " * (MAX_NOTATION_LENGTH - 1))
    with pytest.raises(DiceError, match=r"more than 20 terms \(MAX_TERMS\)"):
        parse("+".join(["d6"] * (MAX_TERMS + 1)))
    with pytest.raises(DiceError, match=r"rolls 1001 dice; the limit is 1000 \(MAX_DICE\)"):
        parse("1000d6+1d6")
    with pytest.raises(DiceError, match=r"MAX_DICE"):
        parse("9" * 150 + "d6")


def test_rejects_non_text() -> None:
    with pytest.raises(DiceError, match="notation must be text"):
        parse(20)  # type: ignore[arg-type]


def test_non_ascii_digits_and_letters_are_errors_not_crashes() -> None:
    for notation in ("²d6", "d٣", "İd6", "1d6+\uff29"):
        with pytest.raises(DiceError):
            parse(notation)


NOTATION_ALPHABET = "0123456789dDkKhHlL%!<>=+- \t"


@settings(deadline=200, max_examples=500)
@given(st.one_of(st.text(), st.text(alphabet=NOTATION_ALPHABET, max_size=60)))
def test_any_text_parses_or_raises_dice_error(text: str) -> None:
    try:
        expression = parse(text)
    except DiceError as error:
        assert str(error)
    else:
        assert expression.dice_terms
        assert parse(expression.text) == expression


@st.composite
def dice_terms(draw: st.DrawFn) -> str:
    count = draw(st.integers(1, 12))
    sides = draw(st.integers(2, 100))
    text = f"{count}d{sides}"
    if count > 1 and draw(st.booleans()):
        text += draw(st.sampled_from(["kh", "kl", "dh", "dl"])) + str(
            draw(st.integers(1, count - 1))
        )
    if draw(st.booleans()):
        text += "!"
    return text


@settings(deadline=200)
@given(
    st.lists(st.one_of(dice_terms(), st.integers(0, 99).map(str)), min_size=1, max_size=6),
    st.lists(st.sampled_from(["+", "-", " + ", " - "]), min_size=6, max_size=6),
)
def test_generated_valid_notations_parse(terms: list[str], ops: list[str]) -> None:
    text = "d20" + "".join(op + term for op, term in zip(ops, terms, strict=False))
    expression = parse(text)
    assert len(expression.terms) == len(terms) + 1
    assert expression.text == "".join(text.split())
