"""How the simulated models read page images: a worse error profile than on text.

None of these models exist, and neither does their image reading: an image-input call of a
simulated model is drawn like a text call (`simulate.simulate_call`) from the model's profile with
its reading errors raised (`image_profile`), more so for the photographed receipts than for the
clean scans. The run id gets "-image" so its draws are its own. Text and image together
(``text+image``) are answered from the text profile: the text is there to read.
"""

from __future__ import annotations

from dataclasses import replace

from .profiles import Profile

# field-level reading errors: rate on images = rate on text x factor + floor (scans; photos: x PHOTO)
READING = {"false_null": (2.0, 0.02), "misread_digit": (3.0, 0.03), "day_month_swap": (1.5, 0.005),
           "list_drop": (2.0, 0.02), "locale_factor": (1.5, 0.005)}
PHOTO = 1.8
SUFFIX = "-image"
SUMMARY = (" On page images (simulated, not measured): the same model with its reading errors raised "
           "(false nulls, misread digits, swapped dates, dropped line items), more on photographed receipts.")


def image_profile(profile: Profile, photo: bool) -> Profile:
    """`profile` reading a page image (`photo`: a photographed receipt rather than a clean scan)."""
    scale = PHOTO if photo else 1.0
    raised = {k: min(0.9, (getattr(profile, k) * f + floor) * scale) for k, (f, floor) in READING.items()}
    return replace(profile, run_id=profile.run_id + SUFFIX, summary=profile.summary + SUMMARY, **raised)
