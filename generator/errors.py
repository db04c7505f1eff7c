"""Input errors that name the file and line, collected so that every problem is reported at once."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class InputError:
    path: str
    line: int | None
    message: str

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line is not None else self.path
        return f"{where}: {self.message}"


class InputErrors(Exception):
    """Raised when loading found one or more errors; carries all of them."""

    def __init__(self, errors: list[InputError]):
        self.errors = errors
        super().__init__(f"{len(errors)} input error(s); first: {errors[0]}" if errors else "input errors")


@dataclass
class ErrorLog:
    """Collects errors while loading; `raise_if_any` stops the pipeline before anything is written."""

    root: Path | None = None
    errors: list[InputError] = field(default_factory=list)

    def add(self, path: Path | str, line: int | None, message: str) -> None:
        self.errors.append(InputError(self._show(path), line, message))

    def _show(self, path: Path | str) -> str:
        p = Path(path)
        if self.root is not None:
            try:
                return p.resolve().relative_to(self.root.resolve()).as_posix()
            except ValueError:
                pass
        return p.as_posix()

    def raise_if_any(self) -> None:
        if self.errors:
            raise InputErrors(list(self.errors))
