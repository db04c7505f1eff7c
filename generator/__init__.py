"""Tally: a static leaderboard site generator for document extraction and financial audit benchmarks."""

__version__ = "0.1.0"
