"""`generator.money`: the stable import path of generator/inputs/money.py for suite plugins.

The built-in suites and third-party plugins import from here; the module lives with the other readers
of the project's inputs in generator/inputs/, and this one re-exports everything public of it.
"""

from .inputs.money import (
    PRICE,
    read_price,
)

__all__ = [
    "PRICE", "read_price",
]
