"""Downloads: every exported table as CSV and JSON, the verdicts of the public half, the rescore and
statistics outputs, and the stored responses of the public half; each listed with its SHA-256."""

from __future__ import annotations

import csv
import functools
import gzip
import hashlib
import io
import itertools
import json
import os
import shutil
import sys
import zlib
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import BinaryIO

from ..csvsafe import csv_safe, dict_writer
from ..csvsafe import writer as csv_writer
from ..pipeline.cache import Cache, code_hash
from ..pipeline.outputs import item_stats_rows
from ..pipeline.run_parts import RunParts, names_key
from ..pipeline.run_score import RunScore
from .gather import SiteData
from .pages.items import items_file, oversize_files, page_files, public_item_lines, responses_file
from .pages.other import shown_difference

RESCORE_FILES = ("summary.json", "item_stats.csv", "calls.csv", "agreement.json")


def compact_json(doc: object) -> str:
    """A JSON download: sorted keys, no indentation and no spaces after separators (a third of an
    indented file's bytes are its indentation), one line ending with a newline."""
    return json.dumps(doc, sort_keys=True, ensure_ascii=False, separators=(",", ":")) + "\n"


def write_table(site_dir: Path, table) -> list[str]:
    header, rows = table.records()
    buf = io.StringIO()
    writer = dict_writer(buf, header)
    writer.writeheader()
    writer.writerows({k: ("" if v is None else csv_safe(v)) for k, v in r.items()} for r in rows)
    base = site_dir / table.export
    base.parent.mkdir(parents=True, exist_ok=True)
    base.with_suffix(".csv").write_text(buf.getvalue(), encoding="utf-8", errors="backslashreplace")
    doc = {"caption": table.caption, "columns": header, "rows": rows}
    base.with_suffix(".json").write_text(compact_json(doc), encoding="utf-8", errors="backslashreplace")
    return [table.export + ".csv", table.export + ".json"]


Keep = Callable[[str, "str | None", str, Callable[[Path], None]], None]  # build.Writer.cached_file


def _written(_group: str, _key: str | None, path: str, write: Callable[[Path], None], *, site_dir: Path) -> None:
    write(site_dir / path)


def _compressed_key(run_key: str) -> str:
    """What a run's compressed public lines depend on: the run (its build cache key: its stored files)
    and the compression (the versions of Python and of zlib, and the code that writes them)."""
    parts = ("public-lines", run_key, sys.version, zlib.ZLIB_RUNTIME_VERSION, code_hash("scoring"))
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()


def write_data_files(site_dir: Path, site: SiteData, keep: Keep | None = None, cache: Cache | None = None) -> None:
    """The non-table downloads, per suite under downloads/<suite>/. `keep(group, key, path, write)`
    writes a file that the build cache may keep (build.Writer.cached_file; default: written each time):
    each run's compressed public lines, which only that run changes. With `cache`, each run's compressed
    public verdicts (verdict_pieces.py) and its rows of calls.csv and item_stats.csv (`_by_run`) are kept
    there too. summary.json, and agreement.json when it quotes no private item, are the rescore's own
    files (`linked`)."""
    keep = keep or functools.partial(_written, site_dir=site_dir)
    for sd in site.suites:
        out = site_dir / "downloads" / sd.suite.name
        out.mkdir(parents=True, exist_ok=True)
        public = {i.id for i in sd.public_items}
        for name in RESCORE_FILES:
            if name == "calls.csv":  # a private item's token counts would tell its document's length
                _by_run(sd, name, out / name, public, cache, blank_private_sizes, RunScore.calls_csv)
            elif name == "item_stats.csv":  # a private item's figures would tell its answer key
                _by_run(sd, name, out / name, public, cache, public_only, functools.partial(item_stats_rows, sd.result))
            elif name == "agreement.json":  # a difference's unit and value can quote a private item
                _agreement_without_private(sd.rescore_dir / name, out / name, public)
            else:
                linked(sd.rescore_dir / name, out / name)
        _stats_without_private_items(sd.stats, out / "stats.json", public)
        _public_verdicts(sd, out / "verdicts-public.csv.gz", public, cache)
        responses = out / "responses-public"
        responses.mkdir(exist_ok=True)
        for r in sd.result.runs:  # each run's public lines, as its artifact keeps them: their one copy
            path = responses_file(sd, r.run.id)
            run_key = sd.result.run_keys.get(r.run.id)
            keep(f"-public-lines-{sd.suite.name}", _compressed_key(run_key) if run_key else None, path,
                 r.copy_public_lines)
        # the public items' lines exactly as stored, their one copy (item pages name their lines): gzip
        # with no name and no time in its header, the same bytes on every build
        with (site_dir / items_file(sd)).open("wb") as raw, \
                gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) as gz:
            for line in public_item_lines(sd):
                gz.write(line + b"\n")
        for rel_path, data in page_files(sd):  # the page images item pages show
            path = site_dir / rel_path
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        for rel_path, text in oversize_files(sd):  # what item pages show only in part
            path = site_dir / rel_path
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8", errors="backslashreplace")


PRIVATE_BLANK = ("prompt_tokens", "completion_tokens")  # what a sealed record keeps in its box
Rows = Iterator[list[str]]
RowsOf = Callable[[Rows, int, list[str], set[str]], Iterable[list[str]]]
PARTS_FORMAT = "public rows 1"
PARTS_KINDS = {"calls.csv": "public-calls", "item_stats.csv": "public-item-stats"}  # the build cache's entries


def blank_private_sizes(rows: Rows, item: int, header: list[str], public: set[str]) -> Iterator[list[str]]:
    """calls.csv's rows with the token counts left empty on the rows of items that are not public: a
    sealed record keeps them in its box (the prompt's size is the document's length, the reply's follows
    what it found in the document)."""
    blank = [header.index(c) for c in PRIVATE_BLANK if c in header]
    for row in rows:
        if len(row) > item and row[item] not in public:
            for at in blank:
                if len(row) > at:
                    row[at] = ""
        yield row


def public_only(rows: Rows, item: int, _header: list[str], public: set[str]) -> Iterator[list[str]]:
    """item_stats.csv's rows of public items only: a private item's per-item figures (faults found and
    missed, fake or genuine counts) would tell its answer key."""
    return (r for r in rows if len(r) > item and r[item] in public)


def _by_run(sd, name: str, dst: Path, public: set[str], cache: Cache | None, rows_of: RowsOf,
            run_rows: Callable[[RunScore], bytes]) -> None:
    """A rescore CSV file (the suite's `name`: its header, then each run's rows, `run_rows(r)`, as the
    rescore wrote them from the same runs) with its rows passed through `rows_of` (by `public_rows_of`),
    written a run at a time. Each run's part is kept in the build cache (run_parts.py) under the run's key
    (its rows: the run's stored files, and the suite's items and the scoring code that writes them), the
    public items, the header and this code, so that a run added has its own rows alone made, read and
    written again."""
    with (sd.rescore_dir / name).open("rb") as fh:
        header = fh.readline()
        while header.count(b'"') % 2 and (more := fh.readline()):  # a line break within a quoted cell
            header += more
    parts = RunParts(cache, PARTS_KINDS[name], sd.suite.name, PARTS_FORMAT, code_hash("render"), names_key(public),
                     hashlib.sha256(header).hexdigest())
    with dst.open("wb") as out:
        out.write(public_rows_of(header, b"", rows_of, public, with_header=True))
        for r in sd.result.runs:
            made = functools.partial(_public_part, header, r, run_rows, rows_of, public)
            out.write(parts.of(sd.result.run_keys.get(r.run.id), made))
    parts.prune()


def _public_part(header: bytes, r: RunScore, run_rows: Callable[[RunScore], bytes], rows_of: RowsOf,
                 public: set[str]) -> bytes:
    return public_rows_of(header, run_rows(r), rows_of, public)


def public_rows_of(header: bytes, rows: bytes, rows_of: RowsOf, public: set[str], with_header: bool = False) -> bytes:
    """`rows` (whole rows of a CSV file whose first line is `header`, as written) read with the csv
    module, passed through `rows_of(rows, the item column, header, public)` (as they are when the header
    has no item column) and written again with it, after the header when `with_header`: what reading the
    whole file and writing it again row by row gives for them (a run's rows end with their line break:
    read alone, they are read as in the file)."""
    names = next(csv.reader(io.StringIO(_text(header), newline="")), None)
    if names is None:
        return b""
    buffer = io.StringIO(newline="")
    writer = csv_writer(buffer)
    if with_header:
        writer.writerow(names)
    read: Rows = csv.reader(io.StringIO(_text(rows), newline=""))
    writer.writerows(rows_of(read, names.index("item"), names, public) if "item" in names else read)
    return buffer.getvalue().encode("utf-8", "backslashreplace")


def _text(data: bytes) -> str:
    return data.decode("utf-8", "backslashreplace")


def linked(src: Path, dst: Path) -> None:
    """`dst` as the same file as `src` (a hard link), or a copy where links fail (another file system,
    no hard links). Only for a file of the rescore outputs, which are written into a fresh folder and
    swapped in, never written again in place (outputs.py), into a site being written, whose files are
    never written in place either (build.py writes the site into a fresh folder and swaps it in;
    keep_unchanged replaces a file by a link to the previous site's with a rename, and only where that
    link fails sets a file's times, never its bytes): a later build or rescore changes neither file
    through the other. `dst` is replaced by a rename, never written through."""
    tmp = dst.with_name(f".{dst.name}.link")
    tmp.unlink(missing_ok=True)
    try:
        os.link(src, tmp)
    except OSError:
        shutil.copyfile(src, tmp)
    os.replace(tmp, dst)


def _agreement_without_private(src: Path, dst: Path, public: set[str]) -> None:
    """agreement.json with each private item's difference shown as `shown_difference` shows it."""
    doc = json.loads(src.read_text(encoding="utf-8"))
    listed = doc.get("differences") if isinstance(doc, dict) else None
    shown = [shown_difference(d, public) if isinstance(d, dict) else d for d in listed or []]
    if listed and shown != listed:  # written as the rescore writes it (generator/pipeline/outputs.py)
        dst.write_text(json.dumps(doc | {"differences": shown}, indent=2, sort_keys=True, ensure_ascii=False) + "\n",
                       encoding="utf-8")
    else:
        linked(src, dst)


def _stats_without_private_items(stats: dict, dst: Path, public: set[str]) -> None:
    """stats.json with its item analysis per public item only (the private half's items are counted in
    the suite page's summary, never listed: which items have a value at all, and each one's mean over
    the runs, follow its answer key, e.g. an item with no fault to find has none). Written compact (as
    `compact_json`) from the statistics in memory (the document stats.json holds), one family's pairs at
    a time (stats/json_stream.py): neither the text of every pair nor a second copy of them is held."""
    from ..stats.json_stream import write_json

    doc = dict(stats)
    ia = doc.get("item_analysis")
    if isinstance(ia, dict):
        ia = doc["item_analysis"] = dict(ia)
        if isinstance(ia.get("items"), dict):
            ia["items"] = {k: v for k, v in ia["items"].items() if k in public}
        for key in ("not_separating", "against_order"):
            if isinstance(ia.get(key), list):
                ia[key] = [k for k in ia[key] if k in public]
    with dst.open("w", encoding="utf-8") as fh:
        write_json(doc, fh, separators=(",", ":"))
        fh.write("\n")


def text_out(target: Path):
    """`target` opened for UTF-8 text; gzip-compressed when its name ends in .gz, with no name and no
    time in the gzip header (the same bytes on every build)."""
    if target.suffix != ".gz":
        return target.open("w", encoding="utf-8", errors="backslashreplace", newline="")
    file = target.open("wb")
    return _ClosingText(gzip.GzipFile(filename="", mode="wb", fileobj=file, mtime=0), file)


class _ClosingText(io.TextIOWrapper):
    """A text stream over a GzipFile that also closes the file the GzipFile writes to."""

    def __init__(self, raw: gzip.GzipFile, file: BinaryIO):
        super().__init__(raw, encoding="utf-8", errors="backslashreplace", newline="")  # type: ignore[arg-type]
        self._file = file

    def close(self) -> None:
        super().close()
        self._file.close()


READ_BLOCK = 1 << 20  # bytes of verdicts.csv read at a time


def _public_verdicts(sd, target: Path, public: set[str], cache: Cache | None) -> None:
    """verdicts-public.csv.gz: verdicts.csv's header and each run's public rows (public_rows of its rows,
    as verdicts.csv holds them), as text_out would write them, one gzip member of the runs' pieces
    (verdict_pieces.py: a run's piece from the build cache when it is unchanged)."""
    from .verdict_pieces import Pieces, piece, write_member

    with (sd.rescore_dir / "verdicts.csv").open("rb") as fh:
        header = fh.readline()
    if not header:
        write_member(target, [])
        return
    pieces = Pieces(cache, sd.suite.name, public)

    def rows(r) -> Callable[[], bytes]:
        return lambda: _as_written(b"".join(public_rows([r.verdict_csv()], public)))

    runs = (pieces.of(sd.result.run_keys.get(r.run.id), rows(r)) for r in sd.result.runs)
    write_member(target, itertools.chain([piece(_as_written(header))], runs))
    pieces.prune()


def _as_written(data: bytes) -> bytes:
    """Bytes as a UTF-8 text stream writes them after reading them with backslashreplace (text_out)."""
    return data.decode("utf-8", "backslashreplace").encode("utf-8", "backslashreplace")


def public_verdicts(source: Path, target: Path, public: set[str]) -> None:
    """The rows of verdicts.csv whose item is public, as they are in it (public_rows), written through a
    text stream: gzip-compressed when the target ends in .gz. Read a block at a time (the file is never
    held whole). The site's download is written from each run's rows instead (verdict_pieces.py)."""
    with source.open("rb") as src, text_out(target) as dst:
        header = src.readline()
        if not header:
            return
        dst.write(header.decode("utf-8", "backslashreplace"))
        for row in public_rows(iter(lambda: src.read(READ_BLOCK), b""), public):
            dst.write(row.decode("utf-8", "backslashreplace"))


def public_rows(blocks: Iterable[bytes], public: set[str]) -> Iterator[bytes]:
    """The rows (bytes, each ending with a line break) of verdicts.csv's rows after its header, handed over
    in blocks, whose item is public, as they are: a row is found by its quotes (a cell may hold a line
    break: a unit may come from a key of the model's JSON; a line ends a row only after an even number of
    quote characters), its item is its second cell (an id is never quoted, so its text is the cell's; a
    quoted one is read with the csv module). The same rows as reading the file with the csv module and
    writing each public row with it again (verdicts.csv is written as the csv module writes:
    csv_columns.py), without the cost."""
    wanted = {p.encode("utf-8", "backslashreplace") for p in public}
    record: list[bytes] = []  # the lines of a row whose quoted cell goes on past a line break
    quotes, rest = 0, b""
    for block in blocks:
        lines = (rest + block).split(b"\n")
        rest = lines.pop()  # the start of a line that goes on in the next block
        for line in lines:
            n = line.count(b'"')
            if not record and not n:  # a row on one line with no quote: its item is its second cell
                cells = line.split(b",", 2)
                if len(cells) > 2 and cells[1] in wanted:
                    yield line + b"\n"
                continue
            record.append(line)
            quotes += n
            if quotes % 2 == 0:
                if _item_of(row := b"\n".join(record) + b"\n") in wanted:
                    yield row
                record, quotes = [], 0
    if rest:
        record.append(rest)
    if record:  # the last row of rows that do not end with a line break, or a quote left open
        row = b"\n".join(record) + b"\n"
        if _item_of(row) in wanted:
            yield row


def _item_of(record: bytes) -> bytes | None:
    """The second cell of a verdicts.csv row (its item), or None when it has none."""
    cells = record.split(b",", 2)
    if len(cells) < 3 or cells[0].startswith(b'"') or cells[1].startswith(b'"'):
        row = next(csv.reader(io.StringIO(record.decode("utf-8", "backslashreplace"), newline="")), [])
        return row[1].encode("utf-8", "backslashreplace") if len(row) > 1 else None
    return cells[1]


def listing(site_dir: Path) -> list[dict]:
    """Every file under downloads/ with its size and SHA-256, sorted by path; also written as SHA256SUMS."""
    files = []
    base = site_dir / "downloads"
    for path in sorted(p for p in base.rglob("*") if p.is_file() and p.name != "SHA256SUMS"):
        digest = hashlib.sha256()
        with path.open("rb") as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                digest.update(block)
        files.append({"path": path.relative_to(site_dir).as_posix(), "name": path.relative_to(base).as_posix(),
                      "bytes": path.stat().st_size, "sha256": digest.hexdigest()})
    (base / "SHA256SUMS").write_text("".join(f"{f['sha256']}  {f['name']}\n" for f in files), encoding="utf-8")
    return files


def folders(files: list[dict]) -> list[dict]:
    """The downloads page's groups: the files of each folder (a suite's own files, its page images,
    strata, stored responses...), in path order, with their count and total bytes."""
    groups: dict[str, list[dict]] = {}
    for f in files:
        folder, _, _ = f["name"].rpartition("/")
        groups.setdefault(folder, []).append(f)
    return [{"folder": folder, "files": fs, "bytes": sum(f["bytes"] for f in fs),
             "id": "files-" + (folder.replace("/", "-") or "site")}
            for folder, fs in sorted(groups.items())]
