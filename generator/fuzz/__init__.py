"""Fuzzing both scorers of any suite: seeded cases derived from the suite's own answer shape (its
shared cases), near-misses at the boundaries its rule page names (a `fuzzcases` module next to the
suite), and hostile JSON; every verdict row of scorer A compared with scorer B's.

    from generator.fuzz import fuzz_suite
    report = fuzz_suite(SUITE, 10_000, seed=1)   # report.differences, report.crash_a, report.crash_b
"""

from .engine import Case, Generator, Hints, hints_of
from .run import Finding, FuzzReport, fuzz_suite
from .tree import Dup, Num, Raw, dump, find_answer

__all__ = ["Case", "Dup", "Finding", "FuzzReport", "Generator", "Hints", "Num", "Raw", "dump", "find_answer",
           "fuzz_suite", "hints_of"]
