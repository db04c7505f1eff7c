"""`generator.ids`: the stable import path of generator/inputs/ids.py for suite plugins.

The built-in suites and third-party plugins import from here; the module lives with the other readers
of the project's inputs in generator/inputs/, and this one re-exports everything public of it.
"""

from .inputs.ids import (
    id_problem,
    is_safe_id,
)

__all__ = [
    "id_problem", "is_safe_id",
]
