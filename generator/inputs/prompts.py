"""A suite's prompt template: `content/suites/<suite>/prompt.toml`, a system and a user message.

`Template.sha256()` hashes the template text (not any item's content, not the file's comments), so
every run that used the same wording records the same hash in its run.json.
"""

from __future__ import annotations

import hashlib
import tomllib
from dataclasses import dataclass
from pathlib import Path

TEMPLATE_FILE = "prompt.toml"


@dataclass(frozen=True)
class Template:
    """The two message templates of a suite's prompt, as read from its prompt.toml."""

    system: str
    user: str

    def sha256(self) -> str:
        """Sha256 hex digest of the template text (both templates, in order)."""
        text = self.system + "\n\x1e\n" + self.user
        return hashlib.sha256(text.encode("utf-8")).hexdigest()


def load_template(suite_dir: Path) -> Template:
    """The prompt template of the suite in `suite_dir` (its prompt.toml)."""
    path = Path(suite_dir) / TEMPLATE_FILE
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"{path}: not valid TOML: {exc}") from None
    if not isinstance(data.get("system"), str) or not isinstance(data.get("user"), str):
        raise ValueError(f"{path}: needs string keys system and user")
    return Template(data["system"], data["user"])
