"""Prices, read one way: a price Tally stores (a provider's list price per million tokens in
content/providers.toml and run.json, a price per check) is a decimal string such as "0.40": at most
nine integer digits, at most twelve decimals, no sign, no exponent. `tally run` takes from
providers.toml only what `tally rescore` accepts in run.json, and a report reads the same prices.
"""

from __future__ import annotations

import re
from decimal import Decimal

PRICE = re.compile(r"[0-9]{1,9}(\.[0-9]{1,12})?")


def read_price(value: object) -> Decimal | None:
    """The price a stored value states, or None when it is not a price string."""
    if isinstance(value, str) and PRICE.fullmatch(value):
        return Decimal(value)
    return None
