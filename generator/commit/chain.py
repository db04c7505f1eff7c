"""The chain of signed files: every round's `SHA256SUMS` and every reveal statement, each naming the
SHA-256 of the signed file before it. The newest one's SHA-256 is the head that the project publishes
outside the repository; a reader who checks the chain back from it notices a removed round, a removed
reveal statement and a round that is not on the chain.

Files are read here without being trusted: verify.py checks each one's signature and hashes.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from . import RESPONSES, REVEAL, SUMS, CommitError
from .layout import manifest_of, round_dir, round_names

_HEX64 = re.compile(r"[0-9a-f]{64}")


@dataclass(frozen=True)
class Link:
    path: str  # relative to content/commitments/: "<round>/SHA256SUMS" or "<round>/reveal.json"
    round: str  # the folder it is in
    kind: str  # "commit", "responses" (responses.json) or "reveal"
    sha256: str  # of the signed file's bytes
    previous: dict | None  # {"path", "sha256"} as the file names it; None for the first entry
    time: object  # committed_at or revealed_at, as claimed
    problem: str | None = None  # a malformed `previous`


@dataclass
class Chain:
    links: list[Link] = field(default_factory=list)
    order: list[Link] = field(default_factory=list)  # from the first entry along the chain
    problems: list[tuple[str, str]] = field(default_factory=list)  # (round or "chain", message)

    @property
    def head(self) -> Link | None:
        return self.order[-1] if self.order else None

    def rounds_in_order(self, names: list[str]) -> list[str]:
        seen = [link.round for link in self.order if link.kind == "commit"]
        return seen + sorted(n for n in names if n not in seen)


def previous_problem(previous: object) -> str | None:
    if previous is None:
        return None
    if not isinstance(previous, dict) or set(previous) != {"path", "sha256"} or \
            not isinstance(previous.get("path"), str) or not _HEX64.fullmatch(str(previous.get("sha256"))):
        return "previous must be null or {\"path\": ..., \"sha256\": <64 hex>}"
    return None


def _link(path: Path, name: str, kind: str, data: dict | None) -> Link:
    unreadable = not isinstance(data, dict)
    fields: dict = data if isinstance(data, dict) else {}
    previous = fields.get("previous")
    what = "manifest.json" if kind == "commit" else "the statement"
    problem = f"{what} is missing or not JSON, so it names no entry before it" if unreadable \
        else previous_problem(previous)
    time = fields.get("revealed_at" if kind == "reveal" else "committed_at")
    return Link(f"{name}/{path.name}", name, kind, hashlib.sha256(path.read_bytes()).hexdigest(),
                None if problem else previous, time, problem)


def read_links(root: Path) -> list[Link]:
    links = []
    for name in round_names(root):
        folder = round_dir(root, name)
        if (folder / SUMS).is_file():
            links.append(_link(folder / SUMS, name, "commit", manifest_of(folder)))
        for fname, kind in ((RESPONSES, "responses"), (REVEAL, "reveal")):
            if (folder / fname).is_file():
                try:
                    statement = json.loads((folder / fname).read_bytes().decode("utf-8"))
                except (UnicodeDecodeError, ValueError):
                    statement = None
                links.append(_link(folder / fname, name, kind, statement))
    return links


def walk(root: Path) -> Chain:
    chain = Chain(read_links(root))
    by_hash: dict[str, list[Link]] = {}
    successors: dict[str, list[Link]] = {}
    for link in chain.links:
        by_hash.setdefault(link.sha256, []).append(link)
        if link.problem:
            chain.problems.append((link.round, f"{link.path}: {link.problem}"))
        elif link.previous is not None:
            successors.setdefault(link.previous["sha256"], []).append(link)
    for same in by_hash.values():
        if len(same) > 1:
            paths = ", ".join(link.path for link in same)
            chain.problems.append(("chain", f"{paths} are the same file: a copied round"))
    for link in chain.links:
        prev = link.previous
        if prev is None:
            continue
        found = by_hash.get(prev["sha256"])
        if not found:
            chain.problems.append((link.round, (f"{link.path} names {prev['path']} (SHA-256 {prev['sha256'][:16]}...) "
                                                "as the entry before it, but no signed file here has that hash: it was "
                                                "removed or changed")))
        elif found[0].path != prev["path"]:
            chain.problems.append((link.round, (f"{link.path} names {prev['path']} as the entry before it, but "
                                                f"that file is at {found[0].path} (a renamed round folder?)")))
    for after in successors.values():
        if len(after) > 1:
            paths = ", ".join(link.path for link in after)
            chain.problems.append(("chain", f"{paths} all follow the same entry: the chain forks"))
    firsts = [link for link in chain.links if link.previous is None and link.problem is None]
    if chain.links and len(firsts) != 1:
        paths = ", ".join(link.path for link in firsts) or "none"
        message = f"{len(firsts)} entries claim to be the first ({paths}); a chain has exactly one"
        chain.problems.append(("chain", message))
    if len(firsts) == 1:
        cur: Link | None = firsts[0]
        while cur is not None and cur not in chain.order:
            chain.order.append(cur)
            nxt = successors.get(cur.sha256, [])
            cur = nxt[0] if len(nxt) == 1 else None
    for link in chain.links:
        if link not in chain.order and not link.problem:
            chain.problems.append((link.round, f"{link.path} is not on the chain from the first entry"))
    return chain


def head_link(root: Path) -> dict | None:
    """`previous` for the next signed file: the newest entry of an intact chain, or None for the first."""
    chain = walk(root)
    if chain.problems:
        raise CommitError("the chain of rounds is not intact (" + "; ".join(m for _, m in chain.problems[:3])
                          + "); run `tally verify` and fix it first")
    head = chain.head
    return None if head is None else {"path": head.path, "sha256": head.sha256}
