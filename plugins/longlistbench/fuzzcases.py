"""Fuzz cases of LongListBench (generator/fuzz): the boundaries of content/pages/scoring-longlistbench.md.

Numbers with a fraction are rounded half-even to 6 places (amounts of incidents to 2); integer literals
are exact; decimal-like strings are read exactly with `$`, `,`, parentheses and a leading `-`; the five
date forms; region names and codes; field-specific changes (`unit `, `quarter return`, `(DI)`, lines
of business, policy periods, clause scopes); incident keys lose `incident #`, `#`, `inc`; a pair held
by more than 250 free predictions counts for no candidate.
"""

from __future__ import annotations

DELTAS = ("0.000001", "0.0000005", "0.0000015", "0.01", "0.005", "0.015")
NUMBERS = ("1.0000005", "1.0000015", "0.125", "0.135", "2.675", "-0", "-0.0", "0.0000004", "1e-7", "2.5e3",
           "12345678901234567890123456789012", "1e99", "1e100", "0e1000001")
WORDS = ("$1,200.50", "(5.00)", "-$5", "$-5", "1,2,3", "00.5", "007", "-0.00", "12.5 %", "1/2/24", "2024-7-4",
         "2/30/2024", "13/1/2024", "1/1/69", "1/1/68", "Texas", "New Mexico (NM)", "Diesel (DI)", "diesel",
         "Unit 9215", "Quarter Return", "quarter returns", "Businessowners", "BPP", "4/1/26 to 2027-04-01",
         "Applies within all locations; see form", "#12345", "INC12345", "Incident #INC-7", "incident  #5",
         "Straße", "ΟΔΟΣ", "true", "   ")
LIST_LIMIT = 251
