"""`generator.content`: the stable import path of generator/inputs/content.py for suite plugins.

The built-in suites and third-party plugins import from here; the module lives with the other readers
of the project's inputs in generator/inputs/, and this one re-exports everything public of it.
"""

from .inputs.content import (
    COMPARISONS,
    DATASET_KEYS,
    FREEZE,
    HALVES,
    KNOWN_KEYS,
    RESERVED_IDS,
    Dataset,
    Item,
    SuiteConfig,
    freeze_of,
    headline_problem,
    line_of,
    load_items,
    load_suite,
)

__all__ = [
    "COMPARISONS", "DATASET_KEYS", "FREEZE", "HALVES", "KNOWN_KEYS", "RESERVED_IDS", "Dataset", "Item",
    "SuiteConfig", "freeze_of", "headline_problem", "line_of", "load_items", "load_suite",
]
