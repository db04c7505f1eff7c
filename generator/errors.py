"""Errors of every stage, one hierarchy, each with the exit status the CLI gives it (cli.py maps them
in one place), and input errors that name the file and line, collected so all are reported at once."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

EXIT_FAILED = 1
EXIT_INPUT = 2
EXIT_DISAGREE = 3
EXIT_NO_SCORER_B = 4


class TallyError(Exception):
    """An error a user can act on: the message says what and where; `exit_code` is the CLI's status."""

    exit_code = EXIT_FAILED


class InputProblem(TallyError):
    """Bad or missing input (content/, results/, options): nothing was written."""

    exit_code = EXIT_INPUT


class Disagreement(TallyError):
    """The two scorers disagree: nothing is published."""

    exit_code = EXIT_DISAGREE


class ScorerBUnavailable(TallyError):
    """Node.js is missing or too old, or scorer B failed to run."""

    exit_code = EXIT_NO_SCORER_B


@dataclass(frozen=True)
class InputError:
    path: str
    line: int | None
    message: str

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line is not None else self.path
        return f"{where}: {self.message}"


@dataclass
class ErrorLog:
    """Collects errors while loading; `check` stops the pipeline before anything is written."""

    root: Path | None = None
    errors: list[InputError] = field(default_factory=list)

    def add(self, path: Path | str, line: int | None, message: str) -> None:
        self.errors.append(InputError(self.show(path), line, message))

    def show(self, path: Path | str) -> str:
        p = Path(path)
        if self.root is not None:
            try:
                return p.resolve().relative_to(self.root.resolve()).as_posix()
            except ValueError:
                pass
        return p.as_posix()

    def check(self, what: str = "input error(s)") -> None:
        """Raise InputProblem listing every error, if there is any."""
        if self.errors:
            lines = "\n".join(f"error: {e}" for e in self.errors)
            raise InputProblem(f"{lines}\n{len(self.errors)} {what}; nothing was written.")
