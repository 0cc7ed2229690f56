"""Money: exact decimal nets, largest-remainder rounding and the fewest payments.

Everything here is ``Decimal`` or ``int``; a float never touches money.

>>> plan = payment_plan({"Ann": Decimal("-5"), "Ben": Decimal("3"), "Cat": Decimal("2")})
>>> [(p.payer, p.payee, str(p.amount)) for p in plan]
[('Ann', 'Ben', '3'), ('Ann', 'Cat', '2')]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from decimal import ROUND_FLOOR, ROUND_HALF_EVEN, Decimal, InvalidOperation
from typing import NamedTuple

from ledger.core.errors import InputError
from ledger.core.i18n import _

# ISO 4217 minor units that differ from the usual 2.
_MINOR_UNITS = {
    "BIF": 0, "CLP": 0, "DJF": 0, "GNF": 0, "ISK": 0, "JPY": 0, "KMF": 0, "KRW": 0,
    "PYG": 0, "RWF": 0, "UGX": 0, "VND": 0, "VUV": 0, "XAF": 0, "XOF": 0, "XPF": 0,
    "BHD": 3, "IQD": 3, "JOD": 3, "KWD": 3, "LYD": 3, "OMR": 3, "TND": 3,
}
EXACT_PLAN_LIMIT = 16  # players; beyond this the plan is greedy (still at most n-1 payments)
MAX_STAKE = Decimal("1000000")


class Payment(NamedTuple):
    payer: str
    payee: str
    amount: Decimal

    def to_dict(self) -> dict[str, str]:
        return {"from": self.payer, "to": self.payee, "amount": format_amount(self.amount)}


def _exponent(amount: Decimal) -> int:
    """The power of ten of ``amount``'s last digit (``Decimal("2.50")``: -2); 0 for NaN or
    infinity, which stake and coin parsing never let through."""
    exponent = amount.as_tuple().exponent
    return exponent if isinstance(exponent, int) else 0


def plain_decimal(text: str, bad: str) -> Decimal:
    """``text`` as a Decimal written with digits and a point only (no sign, no exponent,
    no NaN); else an InputError of ``bad`` (a message with ``{text!r}``)."""
    cleaned = str(text).strip()
    if not cleaned or not all(ch.isdigit() or ch == "." for ch in cleaned):
        raise InputError(bad.format(text=text))
    try:
        return Decimal(cleaned)
    except InvalidOperation:
        raise InputError(bad.format(text=text)) from None


def parse_stake(text: str) -> Decimal:
    """A stake per point: a positive decimal like ``0.25`` (no exponent, no sign)."""
    stake = plain_decimal(text, _("bad stake {text!r}: a stake is a positive amount per point "
                                  "such as 1, 0.25 or 10"))
    if stake <= 0 or stake > MAX_STAKE:
        raise InputError(_("bad stake {text!r}: a stake is a positive amount per point such as "
                           "1, 0.25 or 10, at most {most}").format(text=text, most=MAX_STAKE))
    if -_exponent(stake) > 6:
        raise InputError(_("bad stake {text!r}: at most 6 decimal places").format(text=text))
    return stake


def parse_currency(text: str) -> str:
    code = text.strip().upper() if isinstance(text, str) else ""
    if not (code.isascii() and code.isalpha() and 1 <= len(code) <= 8):
        raise InputError(_(
            "bad currency {text!r}: use a code of letters such as USD, EUR, HKD, or PTS for points"
        ).format(text=text))
    return code


def quantum(currency: str | None) -> Decimal | None:
    """Smallest amount of ``currency`` (None: keep exact, e.g. plain points)."""
    if currency is None or currency == "PTS":
        return None
    return Decimal(1).scaleb(-_MINOR_UNITS.get(currency, 2))


def format_amount(amount: Decimal) -> str:
    """Plain decimal text, never scientific notation: ``-16.50``, ``530``."""
    text = format(amount, "f")
    return "0" if text in ("-0", "0") else text


def round_nets(nets: Mapping[str, Decimal], currency: str | None) -> dict[str, Decimal]:
    """Round to the currency's minor unit so the nets still sum to exactly zero.

    Largest remainder: everyone is rounded down, then the units left over go to
    the largest remainders (ties by name).

    >>> round_nets({"A": Decimal("0.335"), "B": Decimal("0.335"), "C": Decimal("-0.67")}, "USD")
    {'A': Decimal('0.34'), 'B': Decimal('0.33'), 'C': Decimal('-0.67')}
    """
    q = quantum(currency)
    if q is None or all(v == v.quantize(q) for v in nets.values()):
        return {k: v if q is None else v.quantize(q) for k, v in nets.items()}
    floors = {k: v.quantize(q, rounding=ROUND_FLOOR) for k, v in nets.items()}
    leftover = int((sum(nets.values(), Decimal(0)) - sum(floors.values(), Decimal(0))) / q)
    by_remainder = sorted(nets, key=lambda k: (-(nets[k] - floors[k]), k))
    for name in by_remainder[:leftover]:
        floors[name] += q
    return floors


def parse_coin(text: str) -> Decimal:
    """The coin to settle in for ``settle --round``: a positive amount such as 1, 5 or 0.05."""
    bad = _("bad --round {coin}: give the smallest coin you pay with, a positive amount such as "
            "1, 5, 0.5 or 0.05 (at most {most}, 6 decimal places)").format(coin=repr(text), most=MAX_STAKE)
    cleaned = text.strip()
    if not cleaned or not all(ch.isdigit() or ch == "." for ch in cleaned):
        raise InputError(bad)
    try:
        coin = Decimal(cleaned)
    except InvalidOperation:
        raise InputError(bad) from None
    if coin <= 0 or coin > MAX_STAKE or -_exponent(coin) > 6:
        raise InputError(bad)
    return coin


def round_to_coin(nets: Mapping[str, Decimal], coin: Decimal) -> dict[str, Decimal]:
    """Every net a whole number of coins, still summing to exactly zero (the nets must).

    Largest remainder, as in :func:`round_nets`: everyone is rounded down to a coin,
    then the coins left over go to the largest remainders (ties by name).

    >>> round_to_coin({"A": Decimal("7.40"), "B": Decimal("4.10"), "C": Decimal("-11.50")}, Decimal(5))
    {'A': Decimal('5'), 'B': Decimal('5'), 'C': Decimal('-10')}
    >>> round_to_coin({"A": Decimal("0.33"), "B": Decimal("-0.33")}, Decimal("0.05"))
    {'A': Decimal('0.35'), 'B': Decimal('-0.35')}
    """
    if sum(nets.values(), Decimal(0)) != 0:
        raise ValueError("nets do not sum to zero")
    floors = {k: (v / coin).to_integral_value(rounding=ROUND_FLOOR) for k, v in nets.items()}
    leftover = -int(sum(floors.values(), Decimal(0)))  # whole coins: the floors sum to <= 0
    by_remainder = sorted(nets, key=lambda k: (-(nets[k] - floors[k] * coin), k))
    for name in by_remainder[:leftover]:
        floors[name] += 1
    places = Decimal(1).scaleb(min(_exponent(coin), 0))
    return {k: (floors[k] * coin).quantize(places) for k in nets}


def round_amount(amount: Decimal, currency: str | None) -> Decimal:
    q = quantum(currency)
    return amount if q is None else amount.quantize(q, rounding=ROUND_HALF_EVEN)


def net_flows(flows: Iterable[tuple[str, str, Decimal]]) -> list[Payment]:
    """Add up payer->payee flows and net each pair: who owes whom, pair by pair."""
    pair: dict[tuple[str, str], Decimal] = {}
    for payer, payee, amount in flows:
        if payer == payee:
            continue
        a, b = sorted((payer, payee))
        signed = amount if payer == a else -amount
        pair[(a, b)] = pair.get((a, b), Decimal(0)) + signed
    out = []
    for (a, b), amount in sorted(pair.items()):
        if amount > 0:
            out.append(Payment(a, b, amount))
        elif amount < 0:
            out.append(Payment(b, a, -amount))
    return sorted(out, key=lambda p: (p.payer, p.payee))


def payment_plan(nets: Mapping[str, Decimal]) -> list[Payment]:
    """The fewest payments that settle every net exactly (nets must sum to zero).

    The minimum is ``n - g`` where ``g`` is the largest number of disjoint groups
    whose nets sum to zero; each group then settles with one payment fewer than
    its size.  Found exactly by a subset search for up to EXACT_PLAN_LIMIT players
    with a non-zero net.  Deterministic: players are taken in name order and every
    tie is broken by name.
    """
    if sum(nets.values(), Decimal(0)) != 0:
        raise ValueError("nets do not sum to zero")
    names = sorted(n for n, v in nets.items() if v != 0)
    if len(names) > EXACT_PLAN_LIMIT:
        return _settle_group(names, nets)
    groups = _zero_sum_groups(names, nets)
    plan: list[Payment] = []
    for group in groups:
        plan.extend(_settle_group(group, nets))
    return sorted(plan, key=lambda p: (p.payer, p.payee))


def _zero_sum_groups(names: list[str], nets: Mapping[str, Decimal]) -> list[list[str]]:
    n = len(names)
    full = (1 << n) - 1
    sums = [Decimal(0)] * (1 << n)
    for mask in range(1, full + 1):
        low = mask & -mask
        sums[mask] = sums[mask ^ low] + nets[names[low.bit_length() - 1]]
    # best[mask]: most zero-sum groups a chain of removals from mask passes through.
    best = [0] * (1 << n)
    for mask in range(1, full + 1):
        top = 0
        rest = mask
        while rest:
            low = rest & -rest
            rest ^= low
            top = max(top, best[mask ^ low])
        best[mask] = top + (1 if sums[mask] == 0 else 0)
    groups: list[list[str]] = []
    mask, start = full, full
    while mask:
        # Remove the first player (by name) that keeps the optimum.
        rest = mask
        while rest:
            low = rest & -rest
            rest ^= low
            if best[mask ^ low] + (1 if sums[mask] == 0 else 0) == best[mask]:
                break
        mask ^= low
        if sums[mask] == 0:
            groups.append([names[i] for i in range(n) if (start ^ mask) >> i & 1])
            start = mask
    return groups


def _settle_group(group: list[str], nets: Mapping[str, Decimal]) -> list[Payment]:
    """Largest debtor pays largest creditor until all are square (at most len-1 payments)."""
    balance = {n: nets[n] for n in group}
    plan = []
    while True:
        debtors = sorted((n for n in balance if balance[n] < 0), key=lambda n: (balance[n], n))
        creditors = sorted((n for n in balance if balance[n] > 0), key=lambda n: (-balance[n], n))
        if not debtors or not creditors:
            break
        payer, payee = debtors[0], creditors[0]
        amount = min(-balance[payer], balance[payee])
        plan.append(Payment(payer, payee, amount))
        balance[payer] += amount
        balance[payee] -= amount
    return plan
