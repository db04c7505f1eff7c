"""Accessibility and HTML validity of one page of every type: axe-core (no serious or critical
violation, light and dark themes) and the Nu HTML Checker (vnu-jar: no error)."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from tests.site_browser import chromium, page_types
from tests.site_support import AXE, VNU, example_site, fixture_site, missing_browser, missing_node


def _axe_missing() -> str | None:
    if not AXE.is_file():
        return "axe-core is not installed (npm install, from the repository's package.json)"
    return missing_browser()


@pytest.mark.slow
@pytest.mark.skipif(_axe_missing() is not None, reason=_axe_missing() or "")
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_no_serious_violation(scheme):
    site = example_site()
    with chromium() as browser:
        # axe is injected as a script the page's own policy would refuse, so this context bypasses it
        context = browser.new_context(bypass_csp=True, color_scheme=scheme)
        found = {}
        for kind, path in page_types(site).items():
            page = context.new_page()
            page.goto((site / path).as_uri())
            page.wait_for_load_state("load")
            page.add_script_tag(path=str(AXE))
            result = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
            bad = [f"{v['id']} ({v['impact']}): {v['help']} e.g. {v['nodes'][0]['html'][:120]}"
                   for v in result["violations"] if v["impact"] in ("serious", "critical")]
            if bad:
                found[kind] = bad
            page.close()
        assert found == {}


def _vnu_missing() -> str | None:
    if not VNU.is_file():
        return "vnu-jar is not installed (npm install, from the repository's package.json)"
    if not shutil.which("java"):
        return "java is not installed (apt-get install default-jre-headless)"
    return missing_node()


@pytest.mark.slow
@pytest.mark.skipif(_vnu_missing() is not None, reason=_vnu_missing() or "")
def test_vnu_finds_no_error():
    files = []
    for site in (example_site(), fixture_site()):
        files += [str(site / p) for p in page_types(site).values()]
    run = subprocess.run(["java", "-jar", str(VNU), "--errors-only", "--format", "json", *files],
                         capture_output=True, text=True, timeout=300)
    messages = json.loads(run.stderr or run.stdout or '{"messages": []}')["messages"]
    errors = [f"{m.get('url', '').rsplit('/site/', 1)[-1]}:{m.get('lastLine')}: {m.get('message')}"
              for m in messages if m.get("type") == "error"]
    assert errors == []
