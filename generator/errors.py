"""Errors of every stage, one hierarchy, each with the exit status the CLI gives it (cli.py maps them
in one place), and input errors that name the file and line, collected so all are reported at once.

Exit statuses: 1 any other error a user can act on; 2 input errors (each with its file and line;
nothing written); 3 the two scorers disagree; 4 Node.js is missing or too old (scorer B cannot run);
5 scorer B ran and failed (each record it could not score named by run, file and line)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

EXIT_FAILED = 1
EXIT_INPUT = 2
EXIT_DISAGREE = 3
EXIT_NO_SCORER_B = 4
EXIT_SCORER_B_FAILED = 5


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
    """Node.js is missing or too old (or scorer B's script is missing): scorer B cannot run."""

    exit_code = EXIT_NO_SCORER_B


class ScorerBFailed(TallyError):
    """Scorer B ran and failed: the message names the run, file and line of each record it could not
    score (a reply its suite scorer cannot handle is not a failure: it is that reply's unparseable)."""

    exit_code = EXIT_SCORER_B_FAILED


@dataclass(frozen=True)
class InputError:
    path: str
    line: int | None
    message: str

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line is not None else self.path
        return visible(f"{where}: {self.message}")


_CONTROL = {c: f"\\x{c:02x}" for c in [*range(0x20), 0x7F]} | {0x9B: "\\x9b"}


def visible(text: str) -> str:
    """Text with terminal control characters (escape sequences, carriage returns, ...) shown escaped,
    so that a hostile file name can't drive the terminal a message is printed on."""
    return text.translate({k: v for k, v in _CONTROL.items() if k != 0x0A})


@dataclass
class ErrorLog:
    """Collects errors while loading; `check` stops the pipeline before anything is written."""

    root: Path | None = None
    errors: list[InputError] = field(default_factory=list)
    warnings: list[InputError] = field(default_factory=list)  # worth a loud word, not a stop

    def add(self, path: Path | str, line: int | None, message: str) -> None:
        self.errors.append(InputError(self.show(path), line, message))

    def warn(self, path: Path | str, line: int | None, message: str) -> None:
        self.warnings.append(InputError(self.show(path), line, message))

    def show(self, path: Path | str) -> str:
        """The path relative to the project when it is inside (symbolic links not followed)."""
        p = Path(os.path.abspath(path))
        if self.root is not None:
            try:
                return p.relative_to(os.path.abspath(self.root)).as_posix()
            except ValueError:
                pass
        return Path(path).as_posix()

    def check(self, what: str = "input error(s)") -> None:
        """Raise InputProblem listing every error, if there is any."""
        if self.errors:
            lines = "\n".join(f"error: {e}" for e in self.errors)
            raise InputProblem(f"{lines}\n{len(self.errors)} {what}; nothing was written.")
