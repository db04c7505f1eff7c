"""`tally prereg SUITE`: a signed statement fixing a suite version's rules before any run of it exists.

The statement (`content/prereg/<suite>/<version>/prereg.json`, canonical JSON, signed as
`prereg.json.sig` in the namespace `tally-prereg-v1@<site>` with the same signing functions as a
round) names the suite, its version, the claimed date, the statistics settings and the SHA-256 of every
file that fixes the rules: the rule page, suite.toml, the prompt, scorer A (the suite plugin's Python
files), scorer B (its scripts and the shared core). `tally verify` recomputes the hashes and lists what
changed, and checks that every stored run of that version is dated after the statement.

Preregistrations are not links of the commitments chain: each stands alone, signed by a trusted key
that was active at its claimed date.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path

import orjson

from ..errors import ErrorLog
from ..inputs.content import SuiteConfig, load_suite
from ..inputs.ids import is_safe_id
from . import CommitError
from .canonical import canonical, parse_canonical, sha256_hex
from .checks import Checks
from .keyfiles import fingerprint, load_private_key
from .keys import find_key, load_registry, now_utc
from .rounds import is_utc_time
from .sshsig import sign
from .trust import Trust, parse_time

PREREG_FORMAT_V1 = "tally-prereg-v1"  # still verified: it did not hash the shared scoring code
PREREG_FORMAT = "tally-prereg-v2"
PREREG_FORMATS = (PREREG_FORMAT_V1, PREREG_FORMAT)
PREREG_NAMESPACE = "tally-prereg-v1@{site}"  # the namespace of every format version
PREREG_DIR = ("content", "prereg")
STATEMENT = "prereg.json"
STATEMENT_SIG = "prereg.json.sig"
TALLY = Path(__file__).resolve().parents[2]
CORE = TALLY / "scorer-js" / "core.js"
# The code every suite's verdicts go through besides its own scorers (format v2 hashes it too).
SHARED = (("generator", "score"), ("generator", "parse"))
DATE_CLAIM = "the signer's own claim; only an external timestamp could prove it"


def prereg_dir(root: Path, suite: str, version: str) -> Path:
    return root.joinpath(*PREREG_DIR, suite, version)


def _suite(root: Path, name: str) -> SuiteConfig:
    log = ErrorLog(root)
    folder = root / "content" / "suites" / name
    if not is_safe_id(name) or not (folder / "suite.toml").is_file():
        raise CommitError(f"no suite {name!r} in content/suites/")
    suite = load_suite(folder, log)
    if suite is None:
        raise CommitError("; ".join(str(e) for e in log.errors) or f"cannot read {folder / 'suite.toml'}")
    return suite


def _python_files(plugin: object) -> dict[str, Path]:
    """The plugin's Python source: every .py file of its package, or its one module file."""
    module = sys.modules.get(type(plugin).__module__)
    path = Path(getattr(module, "__file__", "") or "")
    if not path.is_file():
        return {}
    if path.name == "__init__.py":
        base = path.parent
        return {f"scorer-a/{p.relative_to(base).as_posix()}": p for p in sorted(base.rglob("*.py"))
                if "__pycache__" not in p.parts}
    return {f"scorer-a/{path.name}": path}


def _plugin_folder_files(root: Path) -> dict[str, Path]:
    """Every file of the project's plugin folders (tally.toml), by its path in the project, read as
    bytes and never imported: verification runs no code of the project it checks."""
    from ..inputs.config import load_config

    out: dict[str, Path] = {}
    base = root.resolve()
    for entry in load_config(root).get("suites", {}).get("paths", []):
        folder = (root / str(entry)).resolve()
        if not folder.is_dir() or not folder.is_relative_to(base):
            continue
        for p in sorted(folder.rglob("*")):
            if p.is_file() and not p.is_symlink() and "__pycache__" not in p.parts and p.resolve().is_relative_to(base):
                out[f"project/{p.relative_to(base).as_posix()}"] = p
    return out


def shared_files() -> dict[str, Path]:
    """The shared scoring code: scorer A's verdict and parsing modules, scorer B's core and runner."""
    out: dict[str, Path] = {}
    for parts in SHARED:
        base = TALLY.joinpath(*parts)
        out |= {f"tally/{p.relative_to(TALLY).as_posix()}": p for p in sorted(base.rglob("*.py"))
                if "__pycache__" not in p.parts}
    out["tally/scorer-js/cli.js"] = TALLY / "scorer-js" / "cli.js"
    return out


def hashed_files(root: Path, suite: SuiteConfig, form: str = PREREG_FORMAT) -> dict[str, Path]:
    """What a preregistration fixes, by the name the statement gives each file. A suite whose scorer
    is installed with Tally (an entry point) is read from its installed package; any other scorer can
    only come from the project's plugin folders, whose files are all hashed as bytes (never imported)."""
    from ..suite.plugins import load_registry as load_installed

    installed = load_installed(None).suites.get(suite.scorer)
    files = {
        f"content/pages/scoring-{suite.name}.md": root / "content" / "pages" / f"scoring-{suite.name}.md",
        f"content/suites/{suite.name}/suite.toml": suite.root / "suite.toml",
        f"content/suites/{suite.name}/prompt.toml": suite.root / "prompt.toml",
    }
    if installed is not None:
        files |= _python_files(installed)
        files |= {f"scorer-b/{p.name}": p for p in installed.scorer_b.scripts}
    else:
        files |= _plugin_folder_files(root)
    files["scorer-b/core.js"] = CORE
    if form != PREREG_FORMAT_V1:
        files |= shared_files()
    return files


def statistics_settings(suite: SuiteConfig) -> dict:
    return {"interval": "95%", "resamples": suite.resamples, "comparison": suite.comparison,
            "headline_half": suite.headline_half, "min_stratum_items": suite.min_stratum_items,
            "strata": list(suite.strata)}


def _digests(files: dict[str, Path]) -> dict[str, str | None]:
    return {name: sha256_hex(p.read_bytes()) if p.is_file() else None for name, p in sorted(files.items())}


def runs_of(root: Path, suite: str, version: str) -> list[dict]:
    """run.json of every stored run of `suite` at `version` (read leniently: the pipeline validates)."""
    return [m for m in runs_of_any(root, suite) if str(m.get("suite_version")) == version]


def runs_of_any(root: Path, suite: str) -> list[dict]:
    """run.json of every stored run of `suite`, any version."""
    base = root / "results" / suite
    out = []
    for d in sorted(base.iterdir()) if base.is_dir() else []:
        try:
            meta = orjson.loads((d / "run.json").read_bytes())
        except (OSError, orjson.JSONDecodeError):
            continue
        if isinstance(meta, dict):
            out.append(meta | {"run_id": meta.get("run_id", d.name)})
    return out


def preregister(root: Path, suite_name: str, key_path: Path, registered_at: str | None = None,
                resign: bool = False, version: str | None = None) -> Path:
    """Sign the statement for the suite's current version; refused when a run of it exists. `resign`:
    sign the existing statement again over today's files, keeping its claimed date and adding
    `resigned_at` (now), which `tally verify` and the suite page report. `version`: an older version's
    existing statement, signed again over its own file hashes (today's files are another version's)."""
    suite = _suite(root, suite_name)
    if version is not None and version != suite.version:
        return _sign_older(root, suite.name, version, key_path, registered_at)
    if not is_safe_id(suite.version):
        raise CommitError(f"suite version {suite.version!r} cannot name a folder")
    out = prereg_dir(root, suite.name, suite.version)
    extra: dict = {}
    if resign:
        if not (out / STATEMENT).is_file():
            raise CommitError(f"--resign: {out / STATEMENT} does not exist")
        old, _, problems = _read(out)
        if problems or parse_time(old.get("registered_at")) is None:
            raise CommitError(f"--resign: {out / STATEMENT} cannot be read: {'; '.join(problems)}")
        registered_at = registered_at or old["registered_at"]
        extra = {"resigned_at": now_utc(), "resigned_at_is": DATE_CLAIM}
    elif (out / STATEMENT).exists():
        raise CommitError(f"{out / STATEMENT} already exists: version {suite.version} is preregistered "
                          "(a new version of the rules needs a new version number)")
    if registered_at is not None and not is_utc_time(registered_at):
        raise CommitError(f"--registered-at {registered_at!r} must look like 2026-10-30T09:00:00Z")
    runs = runs_of(root, suite.name, suite.version)
    if runs and not resign:
        raise CommitError(f"{len(runs)} run(s) of {suite.name} version {suite.version} already exist "
                          f"({', '.join(r['run_id'] for r in runs[:3])}): a preregistration comes before any "
                          "result; raise the suite's version to preregister new rules")
    key, record, namespace = _signer(root, key_path)
    files = hashed_files(root, suite, PREREG_FORMAT)
    if not any(n.startswith(("scorer-a/", "project/")) for n in files):
        raise CommitError(f"suite {suite.name}: its scorer {suite.scorer!r} is neither installed with Tally nor in "
                          "a plugin folder named in tally.toml")
    missing = [n for n, p in files.items() if not p.is_file()]
    if missing:
        raise CommitError(f"cannot preregister: missing {', '.join(missing)}")
    statement = canonical({
        "format": PREREG_FORMAT, "suite": suite.name, "suite_version": suite.version,
        "registered_at": registered_at or now_utc(), "registered_at_is": DATE_CLAIM,
        "files": {"algorithm": "SHA-256", "sha256": _digests(files)},
        "statistics": statistics_settings(suite),
        "signer": {"key": record["name"], "principal": record["principal"], "namespace": namespace,
                   "fingerprint": record["fingerprint"]},
    } | extra)
    out.mkdir(parents=True, exist_ok=True)
    (out / STATEMENT_SIG).write_bytes(sign(key, statement, namespace).encode())
    (out / STATEMENT).write_bytes(statement)
    return out / STATEMENT


def _signer(root: Path, key_path: Path):
    """(signing key, its record in content/keys/keys.json, the namespace) of an active key."""
    key = load_private_key(key_path, root)
    record = find_key(load_registry(root), fingerprint_=fingerprint(bytes(key.verify_key)))
    if record is None or record.get("status") != "active":
        raise CommitError(f"key {fingerprint(bytes(key.verify_key))} is not an active key in content/keys/keys.json")
    return key, record, PREREG_NAMESPACE.format(site=record["namespaces"][0].split("@", 1)[1])


def _sign_older(root: Path, suite: str, version: str, key_path: Path, registered_at: str | None) -> Path:
    """Sign an older version's statement again: its file hashes, statistics and format are kept (they
    are that version's, not today's files), its claimed date unless `registered_at`; the signer is the
    key's and `resigned_at` records when."""
    if not is_safe_id(version):
        raise CommitError(f"--version {version!r} cannot name a folder")
    out = prereg_dir(root, suite, version)
    if not (out / STATEMENT).is_file():
        raise CommitError(f"--version {version}: {out / STATEMENT} does not exist; an older version's statement can "
                          "only be signed again (its files are not today's files)")
    old, _, problems = _read(out)
    if problems or parse_time(old.get("registered_at")) is None or old.get("suite_version") != version:
        raise CommitError(f"--version {version}: {out / STATEMENT} cannot be read: {'; '.join(problems)}")
    if registered_at is not None and not is_utc_time(registered_at):
        raise CommitError(f"--registered-at {registered_at!r} must look like 2026-10-30T09:00:00Z")
    key, record, namespace = _signer(root, key_path)
    statement = canonical(old | {
        "registered_at": registered_at or old["registered_at"], "resigned_at": now_utc(), "resigned_at_is": DATE_CLAIM,
        "signer": {"key": record["name"], "principal": record["principal"], "namespace": namespace,
                   "fingerprint": record["fingerprint"]}})
    (out / STATEMENT_SIG).write_bytes(sign(key, statement, namespace).encode())
    (out / STATEMENT).write_bytes(statement)
    return out / STATEMENT


@dataclass
class PreregStatus:
    """What the site and `tally verify` say about one preregistration."""

    suite: str
    version: str
    path: str  # relative to content/ (and to the site)
    registered_at: str | None
    changed: list[str] = field(default_factory=list)  # "name: changed|missing|added", "statistics settings"
    runs_before: list[str] = field(default_factory=list)  # run ids dated before the statement (or undated)
    runs_after: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # the statement itself
    resigned_at: str | None = None  # when it was signed again over changed files (the signer's claim)
    scored_by_current: bool = False  # its runs are scored by today's files: the hashes must still match


def _read(folder: Path) -> tuple[dict, bytes, list[str]]:
    data = (folder / STATEMENT).read_bytes()
    stmt, problem = parse_canonical(data)
    problems = [problem] if problem else []
    if not isinstance(stmt, dict) or stmt.get("format") not in PREREG_FORMATS:
        return {}, data, problems + [f"not a {' or '.join(PREREG_FORMATS)} statement"]
    return stmt, data, problems


def status(root: Path, folder: Path) -> PreregStatus:
    """Compare a statement with the files and runs as they are now (the signature is verify's)."""
    stmt, _, problems = _read(folder)
    suite_name, version = folder.parent.name, folder.name
    st = PreregStatus(suite_name, version, folder.relative_to(root / "content").as_posix() + "/" + STATEMENT,
                      stmt.get("registered_at"), problems=problems, resigned_at=stmt.get("resigned_at"))
    if stmt and (stmt.get("suite"), stmt.get("suite_version")) != (suite_name, version):
        st.problems.append(f"names {stmt.get('suite')} {stmt.get('suite_version')}, not its folder's suite and version")
    try:
        suite = _suite(root, suite_name)
        now = _digests(hashed_files(root, suite, str(stmt.get("format", PREREG_FORMAT))))
        settings = statistics_settings(suite)
        current_version = suite.version
    except CommitError as exc:
        st.problems.append(str(exc))
        return st
    then = (stmt.get("files") or {}).get("sha256") or {}
    runs = runs_of(root, suite_name, version)
    # Runs are always scored by today's files, whatever version they name: while runs of this version are
    # stored (or it is the current version), its files must still be the preregistered ones.
    st.scored_by_current = current_version == version or bool(runs)
    if st.scored_by_current:
        for name in sorted(set(then) | set(now)):
            if name not in now:
                st.changed.append(f"{name}: removed")
            elif name not in then:
                st.changed.append(f"{name}: added")
            elif now[name] is None:
                st.changed.append(f"{name}: missing")
            elif now[name] != then[name]:
                st.changed.append(f"{name}: changed")
        if stmt.get("statistics") != settings:
            st.changed.append("statistics settings: changed")
    when = parse_time(stmt.get("registered_at"))
    for meta in runs:
        started = parse_time(str(meta.get("started", "")).replace("Z", "+00:00"))
        ok = when is not None and started is not None and started > when
        (st.runs_after if ok else st.runs_before).append(str(meta["run_id"]))
    return st


def prereg_folders(root: Path) -> list[Path]:
    base = root.joinpath(*PREREG_DIR)
    return sorted(p.parent for p in base.glob(f"*/*/{STATEMENT}")) if base.is_dir() else []


def check_preregs(root: Path, trust: Trust, checks: Checks) -> None:
    """`tally verify`: each statement's signature and signer, its files unchanged, its runs after it."""
    from .verify import check_signature

    for folder in prereg_folders(root):
        subject = f"prereg {folder.parent.name} {folder.name}"
        st = status(root, folder)
        stmt, data, _ = _read(folder)
        checks.add(subject, "statement", not st.problems, "; ".join(st.problems) or
                   f"{STATEMENT} fixes {len((stmt.get('files') or {}).get('sha256') or {})} files and the "
                   f"statistics settings on {st.registered_at} (the signer's claim)")
        if parse_time(stmt.get("registered_at")) is None:
            checks.add(subject, "date", False, "registered_at is not an ISO 8601 time with a zone")
        signer: dict = stmt["signer"] if isinstance(stmt.get("signer"), dict) else {}
        if not (folder / STATEMENT_SIG).is_file():
            checks.add(subject, "signature", False, f"{STATEMENT_SIG} is missing")
        else:
            key = check_signature(subject, "signature", folder / STATEMENT_SIG, data, signer, PREREG_NAMESPACE,
                                  trust, checks)
            if key is not None and (why := trust.when_not_active(key, stmt.get("registered_at"))):
                checks.add(subject, "signer", False, f"the statement is {why}")
        checks.add(subject, "files unchanged", not st.changed,
                   "changed since the preregistration: " + "; ".join(st.changed) if st.changed
                   else "every hashed file and the statistics settings are as preregistered")
        checks.add(subject, "runs after it", not st.runs_before,
                   f"{len(st.runs_before)} run(s) of this version dated before the preregistration: "
                   + ", ".join(st.runs_before[:10]) if st.runs_before
                   else f"{len(st.runs_after)} run(s) of this version, all dated after it")
        if stmt.get("format") == PREREG_FORMAT_V1:
            checks.add(subject, "shared code", True, f"a {PREREG_FORMAT_V1} statement: it does not hash the shared "
                       "scoring code (generator/score/, generator/parse/, scorer-js/cli.js); re-sign it with "
                       "`tally prereg --resign`")
        if st.resigned_at:
            checks.add(subject, "re-signed", True, f"signed again on {st.resigned_at} (the signer's claim) over "
                       f"the files as they were then, keeping the claimed date {st.registered_at}")
    _check_unregistered(root, checks)


def _check_unregistered(root: Path, checks: Checks) -> None:
    """A preregistered suite scored under a version no statement fixes: raising the version is not a way
    around the preregistration. Reported for the current version and for every stored run's version."""
    registered: dict[str, set[str]] = {}
    for folder in prereg_folders(root):
        registered.setdefault(folder.parent.name, set()).add(folder.name)
    for suite_name, versions in sorted(registered.items()):
        try:
            current = _suite(root, suite_name).version
        except CommitError:
            continue
        unfixed = sorted({str(m.get("suite_version")) for m in runs_of_any(root, suite_name)} | {current})
        unfixed = [v for v in unfixed if v not in versions]
        for version in unfixed:
            n = sum(1 for m in runs_of_any(root, suite_name) if str(m.get("suite_version")) == version)
            checks.add(f"prereg {suite_name} {version}", "statement", False,
                       f"suite {suite_name} is preregistered ({', '.join(sorted(versions))}), but version {version}"
                       f"{' (current)' if version == current else ''} has no statement: its {n} run(s) are scored "
                       "under rules that no preregistration fixes")
