"""`generator.iso_date`: the stable import path of generator/inputs/iso_date.py for suite plugins.

The built-in suites and third-party plugins import from here; the module lives with the other readers
of the project's inputs in generator/inputs/, and this one re-exports everything public of it.
"""

from .inputs.iso_date import (
    is_iso_date,
)

__all__ = [
    "is_iso_date",
]
