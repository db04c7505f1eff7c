"""The state LedgerShield's environment carries from one episode to the next (rule page section 12):
its authority gate (read before an episode's update) and its institutional-loss ledger (read after
it). An episode's incoming state is the `run_state` Tally stored in it; the state it leaves is
written in its `run_state:out` row, so a run's episodes can be checked as a chain."""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from decimal import Decimal
from fractions import Fraction

from ...parse.jsonfind import JsonInt, OutOfRange, read_number
from .text import _NUMBER as _NUMERAL
from .text import WHITESPACE, amount

LEVELS = ("full_authority", "restricted_authority", "review_only")
LIMIT = 10**15  # the largest whole number a stored state may hold
GATE_CAPS = {"restricted_authority": 350000, "review_only": 250000}
PAY_LIMIT = 25000  # restricted authority's largest payment (the gold's invoice total)
CRITICAL = ("SOX-AP-001", "SOX-AP-003", "SOX-AP-007")  # LedgerShield's critical controls
CONTAINING = frozenset(("route_to_security", "freeze_vendor_profile"))
HANDOFF = "create_human_handoff"
EDGE = Fraction(1, 10**40)  # a clamped confidence nearer than this to 0 or 1 is read at this distance (_near_ends)
# the loss ledger's ratios: (key, scale of the stored integer, bound, weight in hundredths)
RATIOS = (("fp_cost", 100, 5000, 12), ("delay", 100, 80, 11), ("minutes", 100, 480, 10), ("friction", 100, 8, 8),
          ("debt", 10000, 8, 10), ("breaches", 1, 6, 5), ("restrictions", 1, 8, 5))


@dataclass(frozen=True)
class RunState:
    """The carried state (section 12's table; every key an integer but `level`)."""

    n: int = 0
    level: str = "full_authority"
    error: int = 0  # ten-thousandths
    window: int = 0
    delay: int = 0  # hundredths of an hour
    minutes: int = 0  # hundredths of a minute
    friction: int = 0  # hundredths
    fp_cost: int = 0  # hundredths
    debt: int = 0  # ten-thousandths
    breaches: int = 0
    restrictions: int = 0

    def order(self) -> str:
        """The row order: every key in the table's order, `key=value` joined by `;`."""
        return ";".join(f"{f.name}={getattr(self, f.name)}" for f in fields(self))

    def as_json(self) -> dict:
        """The object stored as an episode's `run_state`."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


INITIAL = RunState()
KEYS = tuple(f.name for f in fields(RunState))


def _whole(value: object) -> int | None:
    """A JSON number whose value is a whole number from 0 to LIMIT, as an int; else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        number = int(value)
    elif isinstance(value, Decimal) and value.is_finite() and value == value.to_integral_value():
        if value.copy_abs() > LIMIT:
            return None
        number = int(value)
    else:
        return None
    return number if 0 <= number <= LIMIT else None


def read_state(value: object) -> RunState | None:
    """The incoming state an episode's `run_state` holds, or None when it is malformed."""
    if not isinstance(value, dict) or set(value) != set(KEYS) or value["level"] not in LEVELS:
        return None
    numbers: dict[str, int] = {}
    for key in KEYS[2:] + ("n",):
        number = _whole(value[key])
        if number is None:
            return None
        numbers[key] = number
    if numbers["error"] > 10000:
        return None
    return RunState(level=value["level"], **numbers)


def incoming(episode: dict) -> RunState | None:
    """S_in: the initial state when the episode holds no `run_state`, None when it is malformed."""
    return read_state(episode["run_state"]) if "run_state" in episode else INITIAL


def _gate_confidence(value: object) -> bool:
    """LedgerShield's gate reads a confidence as present when it is a number, a boolean included."""
    return isinstance(value, (int, Decimal, bool, OutOfRange))


def gate_cap(state: RunState, decision: str | None, payload: dict, gold: dict, risky: bool,
             pending: bool) -> int | None:
    """The authority gate's cap (millionths) when it blocks the decision as submitted, else None."""
    if state.level == "restricted_authority" and decision == "PAY":
        fields_ = gold.get("extracted_fields")
        total = amount(fields_.get("total")) if isinstance(fields_, dict) else Fraction(0)
        if risky or pending or total > PAY_LIMIT or not _gate_confidence(payload.get("confidence")):
            return GATE_CAPS["restricted_authority"]
    if state.level == "review_only" and decision != "NEEDS_REVIEW":
        return GATE_CAPS["review_only"]
    return None


def confidence_reading(value: object) -> tuple[bool, Fraction]:
    """(present, c): present when a JSON number with a value; c its value, 1 for true, 0 for false,
    a decimal numeral's value for a string, else 1/2 (before clamping)."""
    if isinstance(value, bool):
        return False, Fraction(int(value))
    if isinstance(value, (int, JsonInt)):
        return True, Fraction(int(value))
    if isinstance(value, Decimal) and value.is_finite():
        return True, _exact(value)
    if isinstance(value, str):
        text = value.strip(WHITESPACE)
        if _NUMERAL.fullmatch(text):
            read = read_number(text)
            if isinstance(read, Decimal):
                return False, _exact(read)
    return False, Fraction(1, 2)


def _exact(value: Decimal) -> Fraction:
    """The value of a decimal, except that one whose size is 10^41 or more reads as +-10^41 and a non-zero
    one below 10^-40 as +-10^-40: its sign and its side of 0 and 1 are kept, and after clamping to [0, 1]
    `_near_ends` reads it the same, so no figure changes (converting 1e-1000000 exactly, then squaring it,
    cost about a second)."""
    if value == 0:
        return Fraction(0)
    sign = -1 if value < 0 else 1
    if value.adjusted() > 40:  # |value| >= 10^41
        return Fraction(sign * 10**41)
    if value.adjusted() < -40:  # 0 < |value| < 10^-40
        return sign * EDGE
    return Fraction(value)


def _near_ends(c: Fraction) -> Fraction:
    """A clamped confidence c in (0, EDGE) read as EDGE, and one in (1 - EDGE, 1) as 1 - EDGE, which
    changes no figure of `update` and keeps its exact arithmetic on short numbers. Proof: with k = 1 for
    a correct decision (0 otherwise), 10000 * (c - k)^2 is then 10000 - d or 0 + d with 0 < d < 2 * 10^-36,
    on the side the exact value is. `debt` adds its rounding: 10000 or 0 for any such d. The new error
    rounds (A -+ d) / n, A = error * (n - 1) + 10000 or + 0 a whole number: the ties of that rounding are
    the odd multiples of 1/2, so one other than A / n itself is at least 1 / (2n) from A / n, which d / n
    never reaches; every such d rounds alike (past A / n if it is a tie, else to its rounding). The
    gate's level reads the unclamped value, which stays strictly between 0 and 1."""
    if 0 < c < EDGE:
        return EDGE
    if 1 - EDGE < c < 1:
        return 1 - EDGE
    return c


def _round_even(v: Fraction) -> int:
    """v rounded to the nearest integer, a tie to even."""
    return round(v)  # Fraction.__round__ rounds half to even


def _outcome(effective: str, risky: bool, tools_ok: set[str], campaign: bool) -> tuple[int, int, int, bool]:
    """(delay, review minutes, friction) in hundredths of LedgerShield's outcome of the effective
    decision, and whether it is a false positive."""
    handoff = HANDOFF in tools_ok
    contained = bool(tools_ok & CONTAINING)
    if effective in ("HOLD", "NEEDS_REVIEW"):
        if risky:
            return (600 if campaign else 300), (1800 if handoff else 2800), 18, False
        return (800 if contained else 400), 1600, (35 if contained else 18), True
    if effective == "ESCALATE_FRAUD":
        if risky:
            return 200, (1000 if handoff else 1400), 8, False
        return (1000 if contained else 600), 2400, (50 if contained else 28), True
    return 0, 0, 0, False  # PAY on a benign case (never effective on a risky one)


def _level(old: RunState, error: int, present: bool, value: Fraction) -> tuple[str, int]:
    """The calibration gate's new (level, window) after an episode (section 12, step 5)."""
    if not present or value <= 0 or value >= 1:
        return ("review_only" if old.level == "review_only" else "restricted_authority"), 0
    if error >= 3400:
        return "review_only", 0
    if error >= 2200:
        return "restricted_authority", 0
    if error <= 1200 and old.level in ("restricted_authority", "review_only"):
        window = old.window + 1
        return ("full_authority" if window >= 3 else "restricted_authority"), window
    return old.level, old.window


def update(state: RunState, *, effective: str, correct: bool, risky: bool, tools_ok: set[str], campaign: bool,
           confidence: object, breaches: int, gate_blocked: bool) -> RunState:
    """S_out of an episode graded with a decision (section 12, steps 1 to 6)."""
    n = state.n + 1
    delay, minutes, friction, false_positive = _outcome(effective, risky, tools_ok, campaign)
    fp_cost = 150 * delay + 2 * minutes + 1000 * friction if false_positive else 0  # hundredths
    present, value = confidence_reading(confidence)
    c = _near_ends(min(max(value, Fraction(0)), Fraction(1)))
    x = (c - (1 if correct else 0)) ** 2
    error = _round_even((state.error * (n - 1) + 10000 * x) / n)
    level, window = _level(state, error, present, value)
    rank = LEVELS.index
    raised = not gate_blocked and rank(level) > rank(state.level)
    return replace(state, n=n, level=level, error=error, window=window, delay=state.delay + delay,
                   minutes=state.minutes + minutes, friction=state.friction + friction,
                   fp_cost=state.fp_cost + fp_cost, debt=state.debt + _round_even(10000 * x),
                   breaches=state.breaches + breaches,
                   restrictions=state.restrictions + int(gate_blocked) + int(raised))


def loss_score(state: RunState) -> int:
    """The institutional loss score in ten-thousandths (a zero counts as 5000: read as absent)."""
    raw = Fraction(0)
    for key, scale, bound, weight in RATIOS:
        ratio = min(Fraction(getattr(state, key), scale * bound), Fraction(1))
        raw += weight * Fraction(_round_even(10000 * ratio), 10000)
    score = _round_even(10000 * min(max(1 - raw / 100, Fraction(0)), Fraction(1)))
    return score or 5000


def institutional(state: RunState) -> int:
    """The institutional adjustment in millionths: 20000 x (loss score - 1/2)."""
    return 2 * (loss_score(state) - 5000)
