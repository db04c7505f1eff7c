"""Strata in the suite's natural order on the site ([strata_order], then numbers as numbers), and the
suite.toml checks of [strata_order]."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from generator.errors import ErrorLog
from generator.inputs.content import load_suite
from generator.render.pages.common import strata_in_order

TOML = """name = "demo"
title = "Demo"
version = "1"
reference_date = "2026-01-01"
strata = ["dataset", "half", "band", "difficulty"]
{extra}
[[datasets]]
id = "b-second"
title = "B"

[[datasets]]
id = "a-first"
title = "A"
"""


def _suite(tmp_path: Path, extra: str = ""):
    folder = tmp_path / "demo"
    folder.mkdir(exist_ok=True)
    (folder / "suite.toml").write_text(TOML.replace("{extra}", extra), encoding="utf-8")
    log = ErrorLog()
    return load_suite(folder, log), log


def test_natural_order(tmp_path):
    suite, log = _suite(tmp_path, '[strata_order]\ndifficulty = ["easy", "medium", "hard"]\n')
    assert not log.errors and suite.strata_order == (("difficulty", ("easy", "medium", "hard")),)
    keys = ["difficulty=hard", "band=13+", "half=private", "dataset=a-first", "band=5-8", "difficulty=easy",
            "half=public", "all", "dataset=b-second", "band=1-4", "difficulty=medium", "difficulty=unplanned"]
    strata = {k: {"dimension": None if k == "all" else k.split("=")[0],
                  "value": None if k == "all" else k.split("=")[1]} for k in keys}
    sd = SimpleNamespace(suite=suite, stats={"strata": strata})
    assert strata_in_order(sd) == [
        "all", "dataset=b-second", "dataset=a-first", "half=public", "half=private",
        "band=1-4", "band=5-8", "band=13+",
        "difficulty=easy", "difficulty=medium", "difficulty=hard", "difficulty=unplanned"]


@pytest.mark.parametrize("extra, message", [
    ('[strata_order]\ncolour = ["red"]\n', "strata_order names 'colour', which is not one of strata"),
    ('[strata_order]\ndifficulty = ["easy", "easy"]\n', "strata_order must be a table of lists of distinct"),
    ('[strata_order]\ndifficulty = "easy"\n', "strata_order must be a table of lists of distinct"),
])
def test_bad_strata_order(tmp_path, extra, message):
    suite, log = _suite(tmp_path, extra)
    assert suite is None
    assert any(message in e.message for e in log.errors), log.errors
