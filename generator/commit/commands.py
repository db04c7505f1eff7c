"""Click commands for commitments: `keys new|rotate`, `commit`, `commit-responses`, `reveal`, `verify`.

Registered on the main group in generator/cli.py; heavy modules are imported inside each command.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from .. import options
from ..errors import EXIT_FAILED
from ..errors import EXIT_INPUT as EXIT_USAGE

ROOT_OPTION = options.ROOT


def _fail(exc: Exception) -> None:
    click.echo(f"error: {exc}", err=True)
    sys.exit(EXIT_USAGE)


@click.group("keys")
def keys() -> None:
    """Signing keys for commitments (public parts in content/keys/)."""


@keys.command("new")
@click.argument("name")
@click.option("--private-key", "private_key", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="Where to write the private key (mode 0600). Refused inside the project's git work tree "
                   "(or inside --root when that is not in one).")
@click.option("--site", default=None, help="Site name in the signature namespaces. Default: tally.example.")
@click.option("--principal", default=None, help="Principal in allowed_signers. Default: NAME@SITE.")
@ROOT_OPTION
def keys_new(name: str, private_key: Path, site: str | None, principal: str | None, root: Path) -> None:
    """Generate an Ed25519 key pair NAME."""
    from . import DEFAULT_SITE, CommitError
    from .keys import load_registry, new_key

    try:
        record = new_key(root, name, private_key, site or DEFAULT_SITE, principal)
    except CommitError as exc:
        _fail(exc)
    click.echo(f"private key: {private_key} (mode 0600; keep it offline, outside the project)")
    click.echo(f"public key:  content/keys/{record['openssh']}, {record['pem']}, allowed_signers, keys.json")
    click.echo(f"fingerprint: {record['fingerprint']}")
    if len(load_registry(root)["keys"]) == 1:
        click.echo(f"This is the project's first key: pin it with trust = \"{record['fingerprint']}\" in the "
                   "[commitments] section of tally.toml, and publish the fingerprint outside this repository.")
    else:
        click.echo("Not trusted yet: hand over to it with `tally keys rotate --old OLD.key --new "
                   f"{private_key}` before it signs anything.")


@keys.command("rotate")
@click.option("--old", "old_key", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="Private key being retired (outside the project).")
@click.option("--new", "new_key", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="Private key taking over (created with `tally keys new`; outside the project).")
@click.option("--date", default=None, help="Date to state (default: now); it is the signers' claim.")
@click.option("--reason", default="", help="Why the key is rotated.")
@ROOT_OPTION
def keys_rotate(old_key: Path, new_key: Path, date: str | None, reason: str, root: Path) -> None:
    """Hand over from one key to the next: a statement signed by both, the only way a new key is trusted.

    Rounds signed by the old key keep verifying."""
    from . import CommitError
    from .rotation import rotate

    try:
        path = rotate(root, old_key, new_key, date=date, reason=reason)
    except CommitError as exc:
        _fail(exc)
    click.echo(f"wrote {path} and its two signatures; keys.json marks the old key retired")


@click.command("commit")
@click.argument("round_name", metavar="ROUND")
@click.option("--items", "items_dir", required=True, type=click.Path(file_okay=False, exists=True, path_type=Path),
              help="Folder of *.jsonl item files; the items with half \"private\" are committed.")
@click.option("--key", "key_path", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="Private signing key (mode 0600, outside the project).")
@click.option("--private-dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Private storage for the salted item files. Default: ROOT/private/commitments/ROUND.")
@click.option("--benchmark", default=None, help="Suite name. Default: the folder holding --items.")
@click.option("--committed-at", default=None, help="Date to claim (default: now). Only ever the signer's claim.")
@ROOT_OPTION
def commit(round_name: str, items_dir: Path, key_path: Path, private_dir: Path | None, benchmark: str | None,
           committed_at: str | None, root: Path) -> None:
    """Commit to ROUND's private items: salted item files to private storage, the signed list to content/."""
    from . import CommitError
    from .rounds import commit as run_commit

    try:
        out = run_commit(root, round_name, items_dir, key_path, private_dir=private_dir,
                         benchmark=benchmark, committed_at=committed_at)
    except CommitError as exc:
        _fail(exc)
    click.echo(f"committed {out['items']} items as round {round_name}, signed by {out['fingerprint']}")
    click.echo(f"public:  {out['dir']}")
    click.echo(f"private: {out['private']} (keep it; `tally reveal` publishes it at retirement)")


@click.command("commit-responses")
@click.argument("round_name", metavar="ROUND")
@click.option("--key", "key_path", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="Private signing key (the active key; mode 0600, outside the project).")
@click.option("--committed-at", default=None, help="Date to claim (default: now). Only ever the signer's claim.")
@ROOT_OPTION
def commit_responses(round_name: str, key_path: Path, committed_at: str | None, root: Path) -> None:
    """Commit to ROUND's private responses when its results are published: a signed Merkle root per run
    over the sealed private records (`tally results seal` first); `tally reveal` publishes them."""
    from . import CommitError
    from .responses import commit_responses as run_commit

    try:
        out = run_commit(root, round_name, key_path, committed_at)
    except CommitError as exc:
        _fail(exc)
    click.echo(f"committed {out['records']} private responses of {out['runs']} runs: {out['path']}")


@click.command("reveal")
@click.argument("round_name", metavar="ROUND")
@click.option("--from", "source", required=True, type=click.Path(file_okay=False, exists=True, path_type=Path),
              help="Private storage of the round (holding items/).")
@click.option("--key", "key_path", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="Private signing key for the reveal statement (the active key; outside the project).")
@click.option("--revealed-at", default=None, help="Date to claim (default: now). Only ever the signer's claim.")
@click.option("--responses-withheld", default=None, metavar="REASON",
              help="Reveal the items without the committed private responses (e.g. their full records were not "
                   "kept); the signed reveal statement gives REASON.")
@ROOT_OPTION
def reveal(round_name: str, source: Path, key_path: Path, revealed_at: str | None, responses_withheld: str | None,
           root: Path) -> None:
    """Publish ROUND's exact committed item files with a signed reveal statement, and check them."""
    from . import CommitError
    from .reveals import reveal as run_reveal
    from .verify import verify as run_verify

    try:
        paths = run_reveal(root, round_name, source, key_path, revealed_at, responses_withheld)
    except CommitError as exc:
        _fail(exc)
    click.echo(f"revealed {len(paths)} items of {round_name}; the new head is printed below")
    _report(run_verify(root, round_name))


@click.command("prereg")
@click.argument("suite_name", metavar="SUITE")
@click.option("--key", "key_path", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="Private signing key (mode 0600, outside the project).")
@click.option("--registered-at", default=None, help="Date to claim (default: now). Only ever the signer's claim.")
@click.option("--resign", is_flag=True,
              help="Sign the existing statement again over today's files, keeping its claimed date (unless "
                   "--registered-at) and recording when (resigned_at): `tally verify` and the suite page say so.")
@click.option("--version", "version", default=None, metavar="V",
              help="Sign the statement of version V (default: the current one). An older version's existing "
                   "statement is signed again over its own file hashes, recording when (resigned_at).")
@ROOT_OPTION
def prereg(suite_name: str, key_path: Path, registered_at: str | None, resign: bool, version: str | None,
           root: Path) -> None:
    """Sign the preregistration of SUITE's current version: the SHA-256 of its rule page, suite.toml,
    prompt, both scorers' source files, the shared scoring code and its statistics settings. Refused once a
    run of that version exists (except --resign). With --version, an older version's statement."""
    from . import CommitError
    from .prereg import preregister

    try:
        path = preregister(root, suite_name, key_path, registered_at, resign, version)
    except CommitError as exc:
        _fail(exc)
    click.echo(f"wrote {path} and its signature; `tally verify` checks it against every run of this version")


@click.command("verify")
@click.argument("round_name", metavar="[ROUND]", required=False)
@click.option("--trust", "trust", default=None, metavar="FINGERPRINT",
              help="The root key's fingerprint (SHA256:...), from a source outside this repository. "
                   "Default: trust in the [commitments] section of ROOT/tally.toml.")
@click.option("--head", "head", default=None, metavar="HASH",
              help="The published SHA-256 of the newest signed file; the chain must end there.")
@click.option("--site", "site", default=None, metavar="NAME",
              help="The published site name (e.g. tally.example): every signature's namespace must name it.")
@click.option("-q", "--quiet", is_flag=True, help="Print only failures and the summary.")
@ROOT_OPTION
def verify(round_name: str | None, trust: str | None, head: str | None, site: str | None, quiet: bool,
           root: Path) -> None:
    """Check keys from the pinned root, the chain of rounds, signatures, hashes, Merkle roots, canonical
    form, salts and item counts. Exit status 1 when a check fails, 2 on a bad option or tally.toml."""
    from ..inputs.config import ConfigError, is_fingerprint, load_config
    from .verify import verify as run_verify

    if trust is not None and not is_fingerprint(trust):
        _fail(ValueError(f"--trust {trust!r} is not a fingerprint as `ssh-keygen -l` prints it (SHA256:...)"))
    if head is not None and (len(head) != 64 or any(c not in "0123456789abcdef" for c in head)):
        _fail(ValueError(f"--head {head!r} is not a SHA-256 in 64 lowercase hex digits"))
    try:
        load_config(root)
    except ConfigError as exc:
        _fail(exc)
    _report(run_verify(root, round_name, trust=trust, head=head, site=site), quiet)


def _report(checks, quiet: bool = False) -> None:
    for check in checks:
        if not quiet or not check.ok:
            click.echo(str(check))
    failed = checks.failed()
    click.echo(f"{len(checks)} checks, {len(failed)} failed")
    if failed:
        sys.exit(EXIT_FAILED)
