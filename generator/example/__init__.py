"""Deterministic generator of the example corpus of the extracting suite."""
