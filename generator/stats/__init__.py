"""The statistics engine: bootstrap intervals, corrected pairwise calls, ranks and operations figures.

Methods and every rule are written down for readers in content/pages/statistics.md. The engine reads
the rescore outputs (build/rescore/<suite>/) and writes build/stats/<suite>/stats.json.
"""
