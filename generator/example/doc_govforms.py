"""US government notices (en-US): a tax balance-due notice, a benefits overpayment notice and a
vehicle registration renewal. All agencies' people, numbers and states are fictional."""

from __future__ import annotations

import datetime as dt
import random
from decimal import Decimal

from . import doc_common as C
from . import locales as L

LOC, CUR = "en-US", "USD"
MAKES = ["Corvana", "Halden", "Tesmer", "Brightline", "Ostrava", "Kemper"]
MODELS = ["Sedan 4D", "Wagon 5D", "Pickup", "Coupe 2D", "SUV 4D"]
STATES = ["New Columbia", "West Allegheny", "North Cascadia"]


def plan(rng: random.Random, locale: str) -> dict:
    return {
        "locale": LOC,
        "template": rng.choice(["tax", "benefits", "vehicle"]),
        "date_style": rng.choice(["long", "long", "numeric"]),
        "due": rng.choices(["printed", "noyear", "computed"], [4, 2, 3])[0],
        "total_printed": C.chance(rng, 0.7),
        "payments": C.chance(rng, 0.35),
        "count_printed": C.chance(rng, 0.3),
        "extra": [C.chance(rng, 0.5) for _ in range(4)],
        "sum_field": C.chance(rng, 0.6),
        "opt": [C.chance(rng, 0.6) for _ in range(2)],
    }


def _m(v: Decimal) -> str:
    return L.fmt_money(v, LOC, CUR)


def _d(day: dt.date, style: str) -> str:
    return L.fmt_date(day, LOC, style)


def _money(rng, lo, hi):
    return C.amount(rng, lo, hi, CUR)


def _tax(p: dict, rng: random.Random, name: str, addr: list[str]) -> tuple[list, list, int]:
    notice = rng.choice(["CP14", "CP501", "CP503", "CP71C"])
    issued = C.day_in_2026(rng, (3, 1), (10, 9))
    pay_by = issued + dt.timedelta(days=21)
    ssn = f"XXX-XX-{C.digits(rng, 4, rng.choice([0, 1]))}"
    caller = C.digits(rng, 7, 1)
    tel = f"1-800-555-{C.digits(rng, 4, 1)}"
    owed, pen, intr = _money(rng, 300, 9000), _money(rng, 5, 400), _money(rng, 2, 250)
    paid = _money(rng, 50, 250) if p["payments"] else Decimal(0)
    due = owed + pen + intr - paid
    year = rng.choice(["2024", "2025"])
    out = ["Department of the Treasury", "Internal Revenue Service", "Kansas City, MO 64999-0025",
           "", f"Notice                     {notice}", f"Tax year                   {year}",
           f"Notice date                {_d(issued, p['date_style'])}",
           f"Social Security number     {ssn}", f"To contact us              {tel}",
           f"Your Caller ID             {caller}", "", name, *addr, "",
           "Balance due notice", ""]
    if p["total_printed"]:
        out.append(f"Amount due: {_m(due)}")
    if p["due"] == "printed":
        out.append(f"Pay by {_d(pay_by, p['date_style'])} to avoid additional penalty and interest.")
    elif p["due"] == "noyear":
        out.append(f"Pay by {_d(pay_by, 'noyear')} to avoid additional penalty and interest.")
    else:
        out.append("Pay the amount due within 21 days from the notice date to avoid additional "
                   "penalty and interest.")
    out += ["", "Billing summary", C.pad("Amount you owed", _m(owed), 48),
            C.pad("Failure-to-pay penalty", _m(pen), 48), C.pad("Interest charges", _m(intr), 48)]
    if p["payments"]:
        out.append(C.pad("Payments and credits", "-" + _m(paid), 48))
    if p["total_printed"]:
        out.append(C.pad("Amount due", _m(due), 48))
    out += ["", "If you already paid your balance in full within the past 21 days, please "
            "disregard this notice."]
    kind = lambda b: "printed" if b else "computed"  # noqa: E731
    e = p["extra"]
    fields = [
        C.field("notice_number", "identifier", "printed", notice),
        C.date_field("notice_date", "printed", issued),
        C.field("tax_year", "identifier", "printed", year),
        C.field("ssn_masked", "identifier", "printed", ssn),
        C.money_field("tax_owed", "printed", owed, CUR),
        C.money_field("penalty", "printed", pen, CUR),
        C.money_field("interest", "printed", intr, CUR),
        C.money_field("amount_due", kind(p["total_printed"]), due, CUR),
        C.date_field("pay_by_date", "computed" if p["due"] == "computed" else "printed", pay_by),
    ]
    if p["opt"][0]:
        fields.insert(0, C.field("taxpayer_name", "text", "printed", name))
    if p["opt"][1]:
        fields.append(C.field("caller_id", "identifier", "printed", caller))
    if p["sum_field"]:
        fields.append(C.money_field("penalty_and_interest", "computed", pen + intr, CUR))
    if e[0]:
        fields.append(C.field("contact_phone", "identifier", "printed", tel))
    if e[1]:
        fields.append(C.money_field("refund_amount", "missing", None, CUR))
    if e[2]:
        fields.append(C.field("employer_id", "identifier", "missing"))
    if e[3] or not p["payments"]:
        fields.append(C.date_field("installment_start_date", "missing", None))
    return out, fields, int(not p["total_printed"])


def _benefits(p: dict, rng: random.Random, name: str, addr: list[str]) -> tuple[list, list, int]:
    issued = C.day_in_2026(rng, (6, 1), (10, 9))
    refund_by = issued + dt.timedelta(days=30)
    claim = f"XXX-XX-{C.digits(rng, 4, rng.choice([0, 1]))}{rng.choice('ABCD')}"
    start_month = rng.randint(1, 3)
    months = rng.randint(2, 5)
    paid, correct = _money(rng, 900, 2400), None
    correct = paid - _money(rng, 40, 400)
    over = (paid - correct) * months
    withhold = L.money(over / rng.choice([6, 10, 12]), CUR).to_integral_value()
    office = f"{C.digits(rng, 4, 2)}-{C.letters(rng, 2)}"
    tel = f"1-800-555-{C.digits(rng, 4, 1)}"
    m0 = L.MONTHS["en"][start_month - 1]
    m1 = L.MONTHS["en"][start_month + months - 2]
    out = ["Social Security Administration", "Retirement, Survivors and Disability Insurance",
           "Notice of Overpayment", "", f"Date: {_d(issued, p['date_style'])}",
           f"Claim Number: {claim}", f"Office code: {office}", "", name, *addr, "",
           f"We paid you {_m(paid)} each month from {m0} 2026 through {m1} 2026, but the "
           f"correct amount was {_m(correct)} a month."]
    if p["total_printed"]:
        out.append(f"This means we overpaid you {_m(over)}.")
    if p["count_printed"]:
        out.append(f"The overpayment covers {months} months.")
    out.append(f"If you do not refund the overpayment, we will withhold {_m(withhold)} each month "
               "from your benefits.")
    if p["due"] == "computed":
        out.append("Please refund the full amount within 30 days from the date of this notice.")
    else:
        style = "noyear" if p["due"] == "noyear" else p["date_style"]
        out.append(f"Please refund the full amount by {_d(refund_by, style)}.")
    out += ["", f"If you have questions, call us at {tel} or contact any Social Security office."]
    kind = lambda b: "printed" if b else "computed"  # noqa: E731
    e = p["extra"]
    fields = [
        C.date_field("notice_date", "printed", issued),
        C.field("claim_number", "identifier", "printed", claim),
        C.money_field("monthly_benefit_paid", "printed", paid, CUR),
        C.money_field("correct_monthly_benefit", "printed", correct, CUR),
        C.field("overpayment_months", "count", kind(p["count_printed"]), months),
        C.money_field("overpayment_amount", kind(p["total_printed"]), over, CUR),
        C.money_field("monthly_withholding", "printed", withhold, CUR),
        C.date_field("refund_due_date", "computed" if p["due"] == "computed" else "printed",
                     refund_by),
    ]
    if p["opt"][0]:
        fields.insert(0, C.field("beneficiary_name", "text", "printed", name))
    if p["opt"][1]:
        fields.insert(0, C.field("agency", "text", "printed", "Social Security Administration"))
    if p["sum_field"]:
        fields.append(C.money_field("monthly_difference", "computed", paid - correct, CUR))
    if e[0]:
        fields.append(C.field("office_code", "identifier", "printed", office))
    if e[1]:
        fields.append(C.field("representative_payee", "text", "missing"))
    if e[2]:
        fields.append(C.money_field("medicare_premium", "missing", None, CUR))
    if e[3]:
        fields.append(C.field("bank_routing_number", "identifier", "missing"))
    return out, fields, int(not p["total_printed"])


def _vehicle(p: dict, rng: random.Random, name: str, addr: list[str]) -> tuple[list, list, int]:
    state = rng.choice(STATES)
    issued = C.day_in_2026(rng, (2, 1), (8, 31))
    expires = issued + dt.timedelta(days=rng.choice([45, 60, 75]))
    renew_id = f"{C.letters(rng, 2)}-{C.digits(rng, 2, 1)}-{C.digits(rng, 4, 1)}"
    cust = C.digits(rng, 7, 3)
    plate = f"{rng.randint(1, 9)}{C.letters(rng, 3)}{C.digits(rng, 3, 1)}"
    vehicle = f"{rng.randint(2012, 2025)} {rng.choice(MAKES)} {rng.choice(MODELS)}"
    reg, county = _money(rng, 45, 120), _money(rng, 10, 40)
    vlf = _money(rng, 30, 400)
    late = Decimal(rng.choice([25, 30, 50]))
    total = reg + county + vlf
    out = [f"STATE OF {state.upper()}", "DEPARTMENT OF MOTOR VEHICLES",
           "VEHICLE REGISTRATION RENEWAL NOTICE", "",
           f"Notice date: {_d(issued, p['date_style'])}", f"Renewal ID: {renew_id}",
           f"Customer number: {cust}", "", name, *addr, "",
           f"License plate: {plate}", f"Vehicle: {vehicle}",
           f"Registration expires: {_d(expires, p['date_style'])}", "", "Fees",
           C.pad("Registration fee", _m(reg), 44), C.pad("County/district fee", _m(county), 44),
           C.pad("Vehicle license fee", _m(vlf), 44)]
    if p["total_printed"]:
        out.append(C.pad("TOTAL DUE", _m(total), 44))
    out.append(f"A late fee of {_m(late)} applies if payment is received after the expiration "
               "date.")
    if p["due"] == "noyear":
        out.append(f"Renew by {_d(expires, 'noyear')} online, by mail or at any DMV office.")
    else:
        out.append("Renew online, by mail or at any DMV office.")
    kind = lambda b: "printed" if b else "computed"  # noqa: E731
    e = p["extra"]
    fields = [
        C.date_field("notice_date", "printed", issued),
        C.field("renewal_id", "identifier", "printed", renew_id),
        C.field("customer_number", "identifier", "printed", cust),
        C.field("plate_number", "identifier", "printed", plate),
        C.date_field("expiration_date", "printed", expires),
        C.money_field("registration_fee", "printed", reg, CUR),
        C.money_field("county_fee", "printed", county, CUR),
        C.money_field("vehicle_license_fee", "printed", vlf, CUR),
        C.money_field("total_due", kind(p["total_printed"]), total, CUR),
        C.money_field("late_fee", "printed", late, CUR),
    ]
    if p["opt"][0]:
        fields.insert(0, C.field("owner_name", "text", "printed", name))
    if p["opt"][1]:
        fields.append(C.field("vehicle", "text", "printed", vehicle))
    if p["sum_field"]:
        fields.append(C.money_field("total_if_paid_late", "computed", total + late, CUR))
    if e[0]:
        fields.append(C.field("smog_certificate_number", "identifier", "missing"))
    if e[1]:
        fields.append(C.field("insurance_policy_number", "identifier", "missing"))
    if e[2]:
        fields.append(C.field("odometer_reading", "count", "missing"))
    if e[3]:
        fields.append(C.field("vin", "identifier", "missing"))
    return out, fields, int(not p["total_printed"]) * (1 + p["sum_field"])


def render(p: dict, rng: random.Random) -> dict:
    name = C.person(rng, LOC)
    addr = C.address(rng, LOC)
    build = {"tax": _tax, "benefits": _benefits, "vehicle": _vehicle}[p["template"]]
    out, fields, multi = build(p, rng, name, addr)
    return {"text": "\n".join(out) + "\n", "currency": CUR, "fields": fields, "multi_step": multi}
