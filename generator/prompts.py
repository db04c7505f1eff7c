"""`generator.prompts`: the stable import path of generator/inputs/prompts.py for suite plugins.

The built-in suites and third-party plugins import from here; the module lives with the other readers
of the project's inputs in generator/inputs/, and this one re-exports everything public of it.
"""

from .inputs.prompts import (
    TEMPLATE_FILE,
    Template,
    load_template,
)

__all__ = [
    "TEMPLATE_FILE", "Template", "load_template",
]
