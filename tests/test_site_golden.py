"""A golden copy of the fixture site (tests/golden/site), compared with a fresh build.

After an intended change, regenerate it and review the diff:

    python -m tests.site_support --golden

The golden copy leaves out plotly.js and its stylesheets: they are the library's own bytes, so only
their presence is compared, and the plotly version in file names and links is normalised. Every
other byte is compared, whatever the installed library versions: the test never skips for a new
release; when a new release changes the site it fails, naming the versions the golden site was
made with (tests/golden/VERSIONS) and those installed now.
"""

from __future__ import annotations

import difflib
import hashlib
import tempfile
from pathlib import Path

import pytest

from tests.site_support import GOLDEN, build, make_project, missing_node, versions


def _plotly_version() -> str:
    from plotly.offline import get_plotlyjs_version

    return get_plotlyjs_version()


def _normal(text: str, version: str) -> str:
    return text.replace(f"plotly-{version}", "plotly-VERSION")


def digests(site: Path) -> dict[str, str]:
    """{normalised path: SHA-256} of every file of a built site (plotly's own files: presence only)."""
    version = _plotly_version()
    out = {}
    for p in sorted(site.rglob("*")):
        if not p.is_file():
            continue
        rel = _normal(p.relative_to(site).as_posix(), version)
        data = b"the plotly library's own file" if p.name.startswith("plotly-") else p.read_bytes()
        if p.suffix in (".html", ".json", ".csv") and version.encode() in data:
            data = _normal(data.decode("utf-8", errors="surrogateescape"), version).encode(
                "utf-8", errors="surrogateescape")
        out[rel] = hashlib.sha256(data).hexdigest()
    return out


@pytest.mark.skipif(missing_node() is not None, reason=missing_node() or "")
def test_fresh_build_matches_the_golden_site():
    made_with = (GOLDEN.parent / "VERSIONS").read_text(encoding="utf-8")
    why = "" if made_with == versions() else \
        f"\nthe golden site was made with\n{made_with}and these are installed:\n{versions()}"
    with tempfile.TemporaryDirectory() as tmp:
        root = make_project(Path(tmp))
        build(root, root / "site")
        fresh = digests(root / "site")
        golden = dict(line.split("  ", 1)[::-1] for line in
                      (GOLDEN.parent / "SHA256SUMS").read_text(encoding="utf-8").splitlines())
        assert sorted(fresh) == sorted(golden), "files differ; regenerate: python -m tests.site_support --golden" + why
        changed = [p for p in fresh if fresh[p] != golden[p]]
        diffs = []
        for p in changed[:3]:
            if (GOLDEN / p).is_file() and (root / "site" / p).is_file():
                old = (GOLDEN / p).read_text(encoding="utf-8", errors="replace").splitlines()
                new = (root / "site" / p).read_text(encoding="utf-8", errors="replace").splitlines()
                diffs += list(difflib.unified_diff(old, new, f"golden/{p}", f"fresh/{p}", lineterm="", n=1))[:40]
        assert not changed, f"{len(changed)} file(s) differ from the golden site " \
                            "(regenerate: python -m tests.site_support --golden):\n" + "\n".join(diffs) + why
