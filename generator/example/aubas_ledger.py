"""A seeded generator of one quarter's GST-inclusive ledger with injected faults (au-bas suite).

The generator records which faults it meant to inject; the answer key is re-derived from the
finished ledger by the rules (generator/suites/aubas/ledger.py), and tests require the two to agree.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import random
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from ..suites.aubas.ledger import ABN_THRESHOLD, CENT, GST_FREE, INPUT_TAXED, TAXABLE, gst_of

QUARTER = ("2026-07-01", "2026-09-30")
CUSTOMERS = ("Banksia Dental", "Wattle & Co", "Harbour Freight Pty Ltd", "Koala Cafe", "Southern Cross Legal",
             "Blue Gum Studios", "Riverina Growers", "Coastal Physio")
SUPPLIERS = ("Officeworks Direct", "Telstra Business", "Qantas Link", "Bunnings Trade", "Metro Catering",
             "CloudSoft AU", "Sunrise Realty", "Westpac Merchant", "Green Grocer Wholesale", "City Medical Supplies")


class ConfigError(ValueError):
    """A misconfigured generator: the message says which setting and why."""


@dataclass(frozen=True)
class Config:
    num_transactions: int = 24
    fault_rate: float = 0.25

    def __post_init__(self) -> None:
        if type(self.num_transactions) is not int or self.num_transactions < 4:
            raise ConfigError(f"num_transactions must be an integer of at least 4, got {self.num_transactions!r}")
        if isinstance(self.fault_rate, bool) or not isinstance(self.fault_rate, (int, float)) \
                or not 0.0 <= self.fault_rate <= 1.0:
            raise ConfigError(f"fault_rate must be a number from 0.0 to 1.0, got {self.fault_rate!r}")


def _rng(seed: int, config: Config, index: int) -> random.Random:
    text = f"au-bas|{seed}|{config.num_transactions}|{config.fault_rate!r}|{index}"
    return random.Random(int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big"))


def _money(rng: random.Random, low: int, high: int) -> Decimal:
    return Decimal(rng.randint(low * 100, high * 100)) / 100


def _supplier_invoice(rng: random.Random) -> str:
    """A supplier's invoice number, drawn independently of every other: two can collide by chance (the
    seed's "rare occasion"; the later row is then a real duplicate_invoice, found by the rules)."""
    return f"INV-{rng.randint(1000, 9999)}"


def _clean_gst(row: dict) -> str:
    return f"{gst_of(Decimal(row['amount'])) if row['category'] in TAXABLE else Decimal('0.00'):.2f}"


def _clean_row(rng: random.Random, number: int, date: dt.date) -> dict:
    sale = rng.random() < 0.45
    roll = rng.random()
    category = rng.choice(TAXABLE if roll < 0.7 else GST_FREE if roll < 0.88 else INPUT_TAXED)
    amount = _money(rng, 5, 60) if rng.random() < 0.2 else _money(rng, 85, 6000)
    return {
        "id": f"T{number:02d}", "date": date.isoformat(), "kind": "sale" if sale else "purchase",
        "counterparty": rng.choice(CUSTOMERS if sale else SUPPLIERS),
        "invoice": f"INV-{4000 + number}" if sale else _supplier_invoice(rng),
        "category": category, "amount": f"{amount:.2f}",
        "gst": f"{gst_of(amount) if category in TAXABLE else Decimal('0.00'):.2f}",
        "abn": "".join(rng.choice("0123456789") for _ in range(11)),
    }


def _inject(rng: random.Random, rows: list[dict], index: int, code: str, start: dt.date, end: dt.date) -> None:
    row = rows[index]
    amount = Decimal(row["amount"])
    if code == "gst_on_gst_free":
        row["category"] = rng.choice(GST_FREE + INPUT_TAXED)
        row["gst"] = f"{gst_of(amount):.2f}"
    elif code == "gst_miscalculated":  # the classic: 10% of the GST-inclusive price
        row["category"] = rng.choice(TAXABLE)
        row["amount"] = f"{max(amount, Decimal('120.00')):.2f}"
        row["gst"] = f"{(Decimal(row['amount']) / 10).quantize(CENT, rounding=ROUND_HALF_UP):.2f}"
    elif code == "duplicate_invoice":  # the same document entered again; its own GST and ABN are in order
        earlier = rows[rng.randrange(index)]
        row.update({k: earlier[k] for k in ("kind", "counterparty", "invoice", "amount")})
        row["gst"] = _clean_gst(row)
        if not row["abn"]:
            row["abn"] = "".join(rng.choice("0123456789") for _ in range(11))
    elif code == "outside_period":
        shift = dt.timedelta(days=rng.randint(1, 40))
        row["date"] = (start - shift if rng.random() < 0.5 else end + shift).isoformat()
    elif code == "missing_abn_over_threshold":
        was_sale = row["kind"] == "sale"
        row["kind"], row["counterparty"] = "purchase", rng.choice(SUPPLIERS)
        if Decimal(row["amount"]) <= ABN_THRESHOLD:
            row["amount"] = f"{Decimal(row['amount']) + 100:.2f}"
            row["gst"] = _clean_gst(row)
        if was_sale:
            row["invoice"] = _supplier_invoice(rng)
        row["abn"] = ""


def generate_ledger(seed: int, config: Config, index: int = 0) -> tuple[dict, dict[str, list[str]]]:
    """(ledger, the faults the generator meant to inject: row id -> codes)."""
    rng = _rng(seed, config, index)
    start, end = (dt.date.fromisoformat(d) for d in QUARTER)
    days = (end - start).days
    dates = sorted(start + dt.timedelta(days=rng.randint(0, days)) for _ in range(config.num_transactions))
    rows = [_clean_row(rng, k + 1, d) for k, d in enumerate(dates)]
    chosen = [k for k in range(len(rows)) if config.fault_rate > 0 and rng.random() < config.fault_rate]
    if config.fault_rate > 0 and not chosen:
        chosen = [rng.randrange(len(rows))]
    codes = ("gst_on_gst_free", "gst_miscalculated", "duplicate_invoice", "outside_period",
             "missing_abn_over_threshold")
    injected: dict[str, list[str]] = {}
    for k in chosen:
        code = rng.choice(codes if k > 0 else codes[:2] + codes[3:])  # the first row has no earlier invoice
        _inject(rng, rows, k, code, start, end)
        injected[rows[k]["id"]] = [code]
    ledger = {"quarter_start": QUARTER[0], "quarter_end": QUARTER[1], "rows": rows}
    return ledger, injected


def ledger_text(ledger: dict) -> str:
    """The ledger as the model reads it: a fixed-width table, amounts GST-inclusive in AUD."""
    head = f"{'ID':<4} {'Date':<10} {'Type':<8} {'Counterparty':<24} {'Invoice':<12} {'Category':<17} " \
           f"{'Amount':>10} {'GST':>9} ABN"
    lines = [f"GST ledger, quarter {ledger['quarter_start']} to {ledger['quarter_end']} (amounts include GST, AUD)",
             "", head, "-" * len(head)]
    for r in ledger["rows"]:
        lines.append(f"{r['id']:<4} {r['date']:<10} {r['kind']:<8} {r['counterparty']:<24} {r['invoice']:<12} "
                     f"{r['category']:<17} {r['amount']:>10} {r['gst']:>9} {r['abn'] or '-'}")
    return "\n".join(lines) + "\n"
