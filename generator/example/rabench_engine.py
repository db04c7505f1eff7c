"""The example's engine target ("self"): real code, not a simulation. It reads the printed text and
the file facts of a receipt, runs deterministic checks, keeps a duplicate index (image hashes and
near-duplicate text) across one repetition's cases in order, and returns verifiable findings with a
risk score, in RA-Bench's answer format. It has no model: what it can't read it leaves null. Its
arithmetic check lets a total be a cent off subtotal plus tax (tax rounding), so a total misprinted by
a cent passes it: the check's `missed` verdict.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

AI_TOOLS = ("midjourney", "dall-e", "stable diffusion", "firefly", "gpt-image")
GENERATORS = ("receiptmaker", "invoicehome", "receipt generator", "invoice generator")
EDITORS = ("photoshop", "gimp", "lightroom", "word", "excel")
TAX_RATES = {"USD": (Decimal("0"), Decimal("0.12")), "EUR": (Decimal("0.05"), Decimal("0.27")),
             "GBP": (Decimal("0"), Decimal("0.20"))}
WEIGHTS = {"ai_generator_tag": 0.97, "ai_source_type": 0.95, "generator_tag": 0.9, "pdf_modified": 0.85,
           "thumbnail_mismatch": 0.85, "capture_before_purchase": 0.9, "totals_add_up": 0.6, "duplicate_match": 0.3,
           "editor_tag": 0.35, "no_camera_data": 0.1, "tax_rate": 0.25}
_AMOUNT_LINE = re.compile(r"^(?P<desc>.+?)\s+(?P<sym>[$€£])\s*(?P<amount>[0-9OIl]+\.[0-9OIl]{2})\s*$")
_NEAR = 0.8
ROUNDING = Decimal("0.01")  # a total within a cent of subtotal + tax passes: tax rounding is not flagged


def _amount(text: str) -> Decimal | None:
    try:
        return Decimal(text.translate(str.maketrans("OIl", "011")))
    except InvalidOperation:
        return None


def parse_receipt(text: str) -> dict:
    """The printed fields and line items, as far as the text shows them."""
    lines = text.split("\n")
    fields: dict = {k: None for k in ("merchant", "date", "subtotal", "tax_total", "total", "currency",
                                      "receipt_number")}
    items = []
    rule_count = 0
    for k, line in enumerate(lines):
        if k == 0 and not line.startswith(("Receipt", "Date", "-")) and not re.search(r"\d", line):
            fields["merchant"] = line.strip()
        if line.startswith("-" * 10):
            rule_count += 1
            continue
        if m := re.match(r"Receipt #:\s*(\S+)", line):
            fields["receipt_number"] = m.group(1)
        elif m := re.match(r"Date:\s*(\d{4}-\d{2}-\d{2})", line):
            fields["date"] = m.group(1)
        elif m := re.match(r"Currency:\s*([A-Z]{3})", line):
            fields["currency"] = m.group(1)
        elif m := _AMOUNT_LINE.match(line):
            desc, value = m.group("desc").strip(), _amount(m.group("amount"))
            key = {"subtotal": "subtotal", "tax": "tax_total", "total": "total"}.get(desc.lower())
            if rule_count == 1 and key is None:
                items.append({"description": desc, "total": f"{value}"})
            elif key is not None:
                fields[key] = f"{value}"
    return {"fields": fields, "line_items": items}


def _tokens(text: str) -> frozenset[str]:
    return frozenset(re.findall(r"[a-z0-9]+(?:\.[0-9]+)?", text.lower()))


class Engine:
    """One repetition's engine: the duplicate index starts empty (an in-memory backend)."""

    def __init__(self) -> None:
        self.hashes: dict[str, str] = {}
        self.texts: list[tuple[str, frozenset[str]]] = []

    def check(self, case_id: str, document: dict) -> dict:
        parsed = parse_receipt(document["text"])
        f, items = parsed["fields"], parsed["line_items"]
        file = document.get("file") or {}
        findings: list[dict] = []

        def find(kind: str, detail: str, text: str) -> None:
            findings.append({"kind": kind, "detail": detail, "text": text})

        software = (file.get("software") or "").lower()
        if any(t in software for t in AI_TOOLS):
            find("ai_generator_tag", f"Software: {file['software']}", "the file names an AI image generator")
        if file.get("source_type") == "trainedAlgorithmicMedia":
            find("ai_source_type", "DigitalSourceType: trainedAlgorithmicMedia", "IPTC source type says AI-made")
        if any(t in software for t in GENERATORS):
            find("generator_tag", f"Software: {file['software']}", "made with a receipt generator")
        if any(t in software for t in EDITORS):
            find("editor_tag", f"Software: {file['software']}", "saved by an editor or office tool")
        if file.get("pdf_modified"):
            find("pdf_modified", "ModDate after CreationDate; incremental update", "the PDF was changed after creation")
        thumb = file.get("thumbnail")
        if isinstance(thumb, dict):
            changed = [k for k, v in thumb.items() if f.get(k) is not None and str(v) != str(f[k])]
            if changed:
                find("thumbnail_mismatch", f"thumbnail shows {changed[0]} {thumb[changed[0]]}",
                     f"the embedded thumbnail differs at @{changed[0]}")
        if file.get("capture_date") and f["date"] and file["capture_date"] < f["date"]:
            find("capture_before_purchase", f"captured {file['capture_date']}, printed {f['date']}",
                 "photo taken before the printed @date")
        if file.get("format") == "jpeg" and not file.get("camera"):
            find("no_camera_data", "no EXIF camera make or model", "no camera data")
        checks = {"totals_add_up": "not_run"}
        sub, tax, total = (_dec(f[k]) for k in ("subtotal", "tax_total", "total"))
        if sub is not None and total is not None and items:
            lines_sum = sum((Decimal(x["total"]) for x in items), Decimal("0"))
            ok = lines_sum == sub and abs(sub + (tax or Decimal("0")) - total) <= ROUNDING
            checks["totals_add_up"] = "passed" if ok else "failed"
            if not ok:
                find("totals_add_up", f"lines {lines_sum} vs subtotal {sub}; {sub} + {tax or 0} vs total {total}",
                     "printed amounts don't add up: @total @subtotal")
            rates = TAX_RATES.get(f["currency"] or "")
            if tax is not None and sub and rates and not rates[0] <= tax / sub <= rates[1]:
                find("tax_rate", f"tax {tax} is {tax / sub:.1%} of {sub}", "implausible tax rate")
        duplicate = self._remember(case_id, file.get("image_hash"), document["text"])
        if duplicate["seen_before"]:
            find("duplicate_match", f"matches {duplicate['case']} ({duplicate['match']})", "seen before")
        risk = 1.0
        for x in findings:
            risk *= 1 - WEIGHTS[x["kind"]]
        ordered = sorted(findings, key=lambda x: -WEIGHTS[x["kind"]])
        return {"fields": f, "line_items": items, "risk": round(1 - 0.98 * risk, 3), "checks": checks,
                "duplicate": {"seen_before": duplicate["seen_before"], "match": duplicate["match"]},
                "reasons": ordered}

    def _remember(self, case_id: str, image_hash: str | None, text: str) -> dict:
        tokens = _tokens(text)
        out: dict[str, bool | str | None] = {"seen_before": False, "match": None, "case": None}
        if image_hash and image_hash in self.hashes:
            out = {"seen_before": True, "match": "exact", "case": self.hashes[image_hash]}
        else:
            for other, seen in self.texts:
                shared = len(tokens & seen)  # the union is len(tokens) + len(seen) - shared
                if shared / max(1, len(tokens) + len(seen) - shared) >= _NEAR:
                    out = {"seen_before": True, "match": "near", "case": other}
                    break
        if image_hash:
            self.hashes.setdefault(image_hash, case_id)
        self.texts.append((case_id, tokens))
        return out


def _dec(text: str | None) -> Decimal | None:
    try:
        return None if text is None else Decimal(text)
    except InvalidOperation:
        return None
