"""`generator.jsonl`: the stable import path of generator/inputs/jsonl.py for suite plugins.

The built-in suites and third-party plugins import from here; the module lives with the other readers
of the project's inputs in generator/inputs/, and this one re-exports everything public of it.
"""

from .inputs.jsonl import (
    JsonLine,
    jsonl_lines,
    jsonl_values,
)

__all__ = [
    "JsonLine", "jsonl_lines", "jsonl_values",
]
