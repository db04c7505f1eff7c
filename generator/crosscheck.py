"""`generator.crosscheck`: the stable import path of generator/pipeline/crosscheck.py (the agreement gate).

The fuzz harness (generator/fuzz/, whose bytes a fuzz run hashes) imports scorer B's process from
here; the module lives with the other stages in generator/pipeline/, and this one re-exports
everything public of it.
"""

from .pipeline.crosscheck import (
    Agreement,
    Gate,
    ScorerBFailed,
    ScorerBProcess,
    ScorerBUnavailable,
    node_version,
)

__all__ = [
    "Agreement", "Gate", "ScorerBFailed", "ScorerBProcess", "ScorerBUnavailable", "node_version",
]
