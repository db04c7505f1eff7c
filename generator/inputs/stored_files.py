"""Opening the project's stored JSON Lines files, plain or gzip-compressed: the one place that does.

A run's records are `responses.jsonl` or `responses.jsonl.gz` (never both: a run folder holding both
is an error naming it), and a suite's items files `items/<dataset>.<half>.jsonl` or `.jsonl.gz`.
Every reader (scoring with both scorers, statistics, the site, sealing, commitments, verification,
audits, labels) takes the records' bytes from `read_stored`, which inflates a `.gz` file; the build
cache keys on the bytes as stored (`path.read_bytes()`), compressed or not, and `inflate` turns those
bytes into the records. Inflating stops at `MAX_INFLATED_BYTES` (a gzip bomb is an error naming the
file, never a full memory), and a file that is not gzip, is cut short or has bytes after its last
member is an error naming the file. Writing back (`results seal`) keeps the file's form: a `.gz` file
is written gzip-compressed with no name and no time in its header, so the same records give the
same bytes.
"""

from __future__ import annotations

import gzip
import zlib
from pathlib import Path

from ..errors import InputProblem, visible

RESPONSES = "responses.jsonl"
GZ = ".gz"
RESPONSES_GZ = RESPONSES + GZ
MAX_INFLATED_BYTES = 1 << 30  # 1 GiB: a run's records at most once inflated (32 MiB a record, many records)
_CHUNK = 1 << 20


class StoredFileError(InputProblem):
    """A stored file that cannot be read as records (exit status 2); the message names the file."""


def is_compressed(path: Path) -> bool:
    return path.name.endswith(GZ)


def both_problem(folder: Path, name: str = RESPONSES) -> str | None:
    """Why `folder` is ambiguous (it holds NAME and NAME.gz), or None."""
    if (folder / name).exists() and (folder / (name + GZ)).exists():
        return f"holds both {name} and {name}{GZ}: records are stored once, plain or gzip-compressed; remove one"
    return None


def stored_file(folder: Path, name: str = RESPONSES) -> Path:
    """The file holding NAME's records in `folder`: NAME, or NAME.gz when only that exists (NAME, which
    may not exist, when neither does). Both present: StoredFileError naming the folder."""
    if (problem := both_problem(folder, name)) is not None:
        raise StoredFileError(visible(f"{folder}: {problem}"))
    plain = folder / name
    packed = folder / (name + GZ)
    return packed if not plain.exists() and (packed.exists() or packed.is_symlink()) else plain


def responses_file(run_dir: Path) -> Path:
    """A run folder's records file: responses.jsonl or responses.jsonl.gz."""
    return stored_file(run_dir, RESPONSES)


def inflate(path: Path, raw: bytes, limit: int | None = None) -> bytes:
    """The records in `raw`, the stored bytes of `path`: as they are, or inflated when `path` is a
    .gz file (every gzip member, at most `limit` bytes in all, MAX_INFLATED_BYTES by default)."""
    if not is_compressed(path):
        return raw
    limit = MAX_INFLATED_BYTES if limit is None else limit
    where = visible(str(path))
    out: list[bytes] = []
    size = 0
    rest = raw
    while True:
        engine = zlib.decompressobj(wbits=31)  # one gzip member, header and trailer checked
        try:
            chunk = engine.decompress(rest, _CHUNK)
            while True:
                size += len(chunk)
                if size > limit:
                    raise StoredFileError(f"{where}: inflates to more than {limit:,} bytes, the most a "
                                          "compressed stored file may hold (a gzip bomb?)")
                out.append(chunk)
                if engine.eof or not engine.unconsumed_tail:
                    break
                chunk = engine.decompress(engine.unconsumed_tail, _CHUNK)
        except zlib.error as exc:
            raise StoredFileError(f"{where}: not a readable gzip file ({exc})") from None
        if not engine.eof:
            raise StoredFileError(f"{where}: the gzip file is cut short (truncated?)")
        rest = engine.unused_data
        if not rest:
            return b"".join(out)
        if not rest.startswith(b"\x1f\x8b"):
            raise StoredFileError(f"{where}: {len(rest):,} bytes after the end of the gzip data")


def read_stored(path: Path) -> bytes:
    """The records of a stored file (plain or .gz), inflated."""
    return inflate(path, path.read_bytes())


def deflate_for(path: Path, data: bytes) -> bytes:
    """The bytes to store at `path` for the records `data`: gzip for a .gz file (no name, time 0:
    the same records give the same bytes), else `data` as it is."""
    return gzip.compress(data, compresslevel=9, mtime=0) if is_compressed(path) else data
