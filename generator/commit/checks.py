"""A verification result: what was checked, whether it holds, and what was found."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Check:
    subject: str  # a round name, or "keys"
    name: str
    ok: bool
    message: str

    def __str__(self) -> str:
        return f"{'ok  ' if self.ok else 'FAIL'}  {self.subject}: {self.name}: {self.message}"


class Checks(list):
    """A list of Check with helpers to add one."""

    def add(self, subject: str, name: str, ok: bool, message: str) -> bool:
        self.append(Check(subject, name, bool(ok), message))
        return bool(ok)

    def failed(self) -> list[Check]:
        return [c for c in self if not c.ok]
