"""A golden copy of the fixture site (tests/golden/site), compared with a fresh build.

After an intended change, regenerate it and review the diff:

    python -m tests.site_support --golden

The golden copy leaves out plotly.js and its stylesheets (tests/golden/SHA256SUMS still pins them).
It is only comparable with the library versions it was made with (tests/golden/VERSIONS).
"""

from __future__ import annotations

import difflib
import hashlib
import tempfile
from pathlib import Path

import pytest

from tests.site_support import GOLDEN, build, make_project, missing_node, versions


def digests(site: Path) -> dict[str, str]:
    return {p.relative_to(site).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(site.rglob("*")) if p.is_file()}


@pytest.mark.skipif(missing_node() is not None, reason=missing_node() or "")
def test_fresh_build_matches_the_golden_site():
    made_with = (GOLDEN.parent / "VERSIONS").read_text(encoding="utf-8")
    if made_with != versions():
        pytest.skip(f"the golden site was made with other library versions:\n{made_with}now:\n{versions()}"
                    "regenerate it with `python -m tests.site_support --golden`")
    with tempfile.TemporaryDirectory() as tmp:
        root = make_project(Path(tmp))
        build(root, root / "site")
        fresh = digests(root / "site")
        golden = dict(line.split("  ", 1)[::-1] for line in
                      (GOLDEN.parent / "SHA256SUMS").read_text(encoding="utf-8").splitlines())
        assert sorted(fresh) == sorted(golden), "files differ; regenerate: python -m tests.site_support --golden"
        changed = [p for p in fresh if fresh[p] != golden[p]]
        diffs = []
        for p in changed[:3]:
            if (GOLDEN / p).is_file():
                old = (GOLDEN / p).read_text(encoding="utf-8", errors="replace").splitlines()
                new = (root / "site" / p).read_text(encoding="utf-8", errors="replace").splitlines()
                diffs += list(difflib.unified_diff(old, new, f"golden/{p}", f"fresh/{p}", lineterm="", n=1))[:40]
        assert not changed, f"{len(changed)} file(s) differ from the golden site " \
                            "(regenerate: python -m tests.site_support --golden):\n" + "\n".join(diffs)
