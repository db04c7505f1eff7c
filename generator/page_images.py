"""`generator.page_images`: the stable import path of generator/inputs/page_images.py for suite plugins.

The built-in suites and third-party plugins import from here; the module lives with the other readers
of the project's inputs in generator/inputs/, and this one re-exports everything public of it.
"""

from .inputs.page_images import (
    INPUT_KINDS,
    MAX_ALT_CHARS,
    MAX_PAGE_BYTES,
    MAX_PAGE_PIXELS,
    MAX_PAGE_SIDE,
    MAX_PAGES,
    SIGNATURES,
    STORED_INPUT_KINDS,
    SUFFIXES,
    PageError,
    PageRecord,
    check_page,
    decode_problem,
    document_problems,
    input_problem,
    known_shown_size,
    media_type,
    page_entry_problems,
    path_problem,
    read_page,
    shown_size,
)

__all__ = [
    "INPUT_KINDS", "MAX_ALT_CHARS", "MAX_PAGES", "MAX_PAGE_BYTES", "MAX_PAGE_PIXELS", "MAX_PAGE_SIDE",
    "SIGNATURES", "STORED_INPUT_KINDS", "SUFFIXES", "PageError", "PageRecord", "check_page", "decode_problem",
    "document_problems", "input_problem", "known_shown_size", "media_type", "page_entry_problems", "path_problem",
    "read_page", "shown_size",
]
