"""Error profiles of the simulated models of the example results.

None of these models exist. A simulated model starts from the checked answers of an item and
injects errors, each kind at a fixed rate (see `ERROR_KINDS` for what each kind does and which
fields or calls it can hit). The two baselines are not simulated: they are described in
`BASELINES` and run real code (`generator.example.runs`).

Field-level rates are per eligible field; at most one field-level error hits a field (the kinds
are drawn from one uniform number, so each keeps its own rate). Response-level rates are per call.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

# name -> (level, label, what it does). The order is the order of the cumulative draw.
ERROR_KINDS: dict[str, tuple[str, str, str]] = {
    "false_null": ("field", "false nulls",
                   "null for a field the document shows (printed or computed)"),
    "misread_digit": ("field", "misread digits",
                      "one digit of a printed money, count, number or identifier changed, or "
                      "a leading zero of an identifier dropped"),
    "locale_string": ("field", "amounts as strings in the wrong locale",
                      "printed money of a de-DE, fr-FR or es-MX document returned as a string "
                      "with another locale's separators"),
    "locale_factor": ("field", "amounts off by a locale factor",
                      "printed money of a de-DE, fr-FR or es-MX document off by a factor of "
                      "1000 or 100 (a group separator read as a decimal point or the reverse)"),
    "day_month_swap": ("field", "day/month swaps",
                       "day and month of a printed date swapped (day 12 or less)"),
    "computed_slip": ("field", "slips on computed fields",
                      "computed money, number or count off by a small amount, or a computed "
                      "date off by a few days"),
    "list_drop": ("field", "dropped line items", "one line item left out"),
    "list_duplicate": ("field", "duplicated line items", "one line item returned twice"),
    "list_reorder": ("field", "reordered line items",
                     "line items returned in another order (still correct)"),
    "invent_missing": ("field", "invented values",
                       "a plausible value instead of null for a missing field"),
    "failed_call": ("call", "failed calls", "HTTP 500 or 503 on every attempt; no response"),
    "timeout": ("call", "timeouts", "every attempt times out; no response"),
    "refusal": ("call", "refusals", "a refusal: content null or a sentence with no JSON"),
    "truncated": ("call", "truncated JSON",
                  "JSON cut off mid-object (finish_reason length); unparseable"),
    "prose_wrap": ("call", "answers wrapped in prose",
                   "the JSON wrapped in a sentence before and after (still parseable)"),
    "code_fence": ("call", "answers in code fences",
                   "the JSON inside a Markdown code fence (still parseable)"),
    "retry_429": ("call", "429 then a retry",
                  "a first attempt answered 429, then success on retry"),
    "retry_503": ("call", "503 then a retry",
                  "a first attempt answered 503, then success on retry"),
    "inconsistency": ("call", "repeats answered afresh",
                      "a repeat draws its answer afresh instead of matching repeat 0"),
}


@dataclass(frozen=True)
class Profile:
    run_id: str
    model: str
    provider: str
    summary: str
    started: str
    hosting: str = "hosted"
    prices: tuple[str, str] | None = None  # (input, output) USD per million tokens
    price_date: str = "2026-10-15"
    latency_median_ms: float = 900.0
    latency_sigma: float = 0.35
    ms_per_output_token: float = 8.0
    indent: int | None = None  # answer JSON layout: None = one line
    # field level
    false_null: float = 0.0
    misread_digit: float = 0.0
    locale_string: float = 0.0
    locale_factor: float = 0.0
    day_month_swap: float = 0.0
    computed_slip: float = 0.0
    list_drop: float = 0.0
    list_duplicate: float = 0.0
    list_reorder: float = 0.0
    invent_missing: float = 0.0
    # call level
    failed_call: float = 0.0
    timeout: float = 0.0
    refusal: float = 0.0
    truncated: float = 0.0
    prose_wrap: float = 0.0
    code_fence: float = 0.0
    retry_429: float = 0.0
    retry_503: float = 0.0
    inconsistency: float = 0.0

    def rates(self) -> dict[str, float]:
        return {f.name: getattr(self, f.name) for f in fields(self) if f.name in ERROR_KINDS}

    @property
    def description(self) -> str:
        listed = ", ".join(
            f"{ERROR_KINDS[kind][1]} {_percent(rate)}"
            for kind, rate in self.rates().items() if rate > 0
        )
        return (
            f"Simulated model, not a real one: {self.summary} The simulation starts from the "
            f"checked answers and injects errors at fixed rates (field errors per eligible "
            f"field, call errors per call): {listed or 'none'}. Latency is drawn from a "
            f"lognormal with median {self.latency_median_ms:g} ms plus "
            f"{self.ms_per_output_token:g} ms per output token."
        )


def _percent(rate: float) -> str:
    return f"{rate * 100:.3g}%"


PROFILES: list[Profile] = [
    Profile(
        run_id="acme-lynx-1-cloudco", model="acme-lynx-1", provider="cloudco",
        summary="a strong model on a fast, reliable provider.",
        started="2026-11-02T08:00:00Z", prices=("2.50", "10.00"),
        latency_median_ms=850, latency_sigma=0.30, ms_per_output_token=6,
        false_null=0.02, misread_digit=0.015, locale_string=0.02, locale_factor=0.01,
        day_month_swap=0.03, computed_slip=0.10, list_drop=0.03, list_duplicate=0.01,
        list_reorder=0.05, invent_missing=0.08, failed_call=0.002, refusal=0.001,
        code_fence=0.02, retry_429=0.02, retry_503=0.005, inconsistency=0.03,
    ),
    Profile(
        run_id="acme-lynx-1-budgetapi", model="acme-lynx-1", provider="budgetapi",
        summary="the same strong model on a cheaper provider that serves it less accurately "
                "(more misreads and slips), more slowly and less reliably.",
        started="2026-11-02T10:00:00Z", prices=("1.10", "4.40"),
        latency_median_ms=1900, latency_sigma=0.55, ms_per_output_token=14,
        false_null=0.035, misread_digit=0.04, locale_string=0.03, locale_factor=0.02,
        day_month_swap=0.04, computed_slip=0.16, list_drop=0.05, list_duplicate=0.02,
        list_reorder=0.05, invent_missing=0.10, failed_call=0.015, timeout=0.01,
        refusal=0.002, truncated=0.005, code_fence=0.03, retry_429=0.08, retry_503=0.04,
        inconsistency=0.08,
    ),
    Profile(
        run_id="orbit-medium-3-orbitai", model="orbit-medium-3", provider="orbitai",
        summary="a mid-range model.",
        started="2026-11-02T12:00:00Z", prices=("0.60", "2.40"),
        latency_median_ms=1100, latency_sigma=0.40, ms_per_output_token=9, indent=2,
        false_null=0.05, misread_digit=0.05, locale_string=0.10, locale_factor=0.06,
        day_month_swap=0.10, computed_slip=0.25, list_drop=0.07, list_duplicate=0.03,
        list_reorder=0.10, invent_missing=0.18, failed_call=0.004, timeout=0.003,
        refusal=0.003, truncated=0.01, prose_wrap=0.05, code_fence=0.15, retry_429=0.03,
        retry_503=0.01, inconsistency=0.06,
    ),
    Profile(
        run_id="pebble-mini-budgetapi", model="pebble-mini", provider="budgetapi",
        summary="a weak small model that often wraps its answer in prose or code fences and "
                "often stops mid-answer.",
        started="2026-11-02T14:00:00Z", prices=("0.05", "0.20"),
        latency_median_ms=600, latency_sigma=0.50, ms_per_output_token=4, indent=2,
        false_null=0.10, misread_digit=0.10, locale_string=0.25, locale_factor=0.12,
        day_month_swap=0.20, computed_slip=0.45, list_drop=0.15, list_duplicate=0.08,
        list_reorder=0.15, invent_missing=0.30, failed_call=0.01, timeout=0.005,
        refusal=0.02, truncated=0.08, prose_wrap=0.25, code_fence=0.35, retry_429=0.06,
        retry_503=0.02, inconsistency=0.20,
    ),
    Profile(
        run_id="magpie-2-cloudco", model="magpie-2", provider="cloudco",
        summary="an over-eager model that reads well but fills in missing fields with "
                "plausible values instead of null.",
        started="2026-11-03T08:00:00Z", prices=("1.00", "3.00"),
        latency_median_ms=950, latency_sigma=0.35, ms_per_output_token=7,
        false_null=0.005, misread_digit=0.03, locale_string=0.04, locale_factor=0.02,
        day_month_swap=0.05, computed_slip=0.12, list_drop=0.03, list_duplicate=0.03,
        list_reorder=0.05, invent_missing=0.60, failed_call=0.003, code_fence=0.05,
        retry_429=0.03, retry_503=0.005, inconsistency=0.05,
    ),
    Profile(
        run_id="owl-careful-1-owlworks", model="owl-careful-1", provider="owlworks",
        summary="a cautious model that returns null whenever it is unsure, often for fields "
                "the document does show, and almost never invents a value.",
        started="2026-11-03T10:00:00Z", prices=("0.80", "3.20"),
        latency_median_ms=1300, latency_sigma=0.35, ms_per_output_token=10,
        false_null=0.15, misread_digit=0.02, locale_string=0.02, locale_factor=0.01,
        day_month_swap=0.02, computed_slip=0.10, list_drop=0.02, list_duplicate=0.01,
        list_reorder=0.03, invent_missing=0.01, failed_call=0.002, refusal=0.01,
        prose_wrap=0.02, code_fence=0.02, retry_429=0.02, retry_503=0.005,
        inconsistency=0.03,
    ),
    Profile(
        run_id="heron-open-8b-on-prem", model="heron-open-8b", provider="on-prem",
        hosting="self-hosted",
        summary="an open-weights model served on the operator's own hardware (no prices).",
        started="2026-11-03T12:00:00Z",
        latency_median_ms=1500, latency_sigma=0.25, ms_per_output_token=18, indent=2,
        false_null=0.06, misread_digit=0.06, locale_string=0.12, locale_factor=0.08,
        day_month_swap=0.12, computed_slip=0.30, list_drop=0.08, list_duplicate=0.05,
        list_reorder=0.08, invent_missing=0.20, failed_call=0.003, timeout=0.01,
        refusal=0.005, truncated=0.03, prose_wrap=0.10, code_fence=0.20, retry_503=0.01,
        inconsistency=0.0,
    ),
]

# The two real (not simulated) baselines. They make no API call.
BASELINES: list[dict] = [
    {
        "run_id": "baseline-rules", "model": "tally-rule-extractor", "provider": "local",
        "hosting": "self-hosted", "started": "2026-11-01T08:00:00Z",
        "description": (
            "Real, not simulated: a deterministic rule-based extractor "
            "(generator.example.extractor) that reads the document text with regular "
            "expressions and returns what it finds, null otherwise. It makes no API call; the "
            "response bodies, token counts and timings are nominal values written in the "
            "shape of a chat-completions response."
        ),
    },
    {
        "run_id": "baseline-null", "model": "tally-null-baseline", "provider": "local",
        "hosting": "self-hosted", "started": "2026-11-01T09:00:00Z",
        "description": (
            "Real, not simulated: returns null for every requested field of every item, the "
            "floor for accuracy and the ceiling for null honesty. It makes no API call; the "
            "response bodies, token counts and timings are nominal values."
        ),
    },
]
