"""`tally longlistbench import`: a LongListBench checkout as Tally items and runs.

Items: one per document, `content/suites/longlistbench/items/<hf config>.public.jsonl`, with the OCR
transcript as the document text and the ground truth unchanged as `gold`. Runs: one folder per stored
result directory (`benchmarks/results/<dir>/`), `results/longlistbench/<dir>/`, one response record
per document holding the prediction file's text exactly as stored. Tally sent none of these requests:
each record has `request: null`, a `note` saying so and the `source` file with its SHA-256; `run.json`
names the model, the harness that ran it, and LongListBench's own cost measurement where it published
one. Nothing is written outside the project, and every file read is named by the checkout's own
listing (a path from a metadata file is never followed).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from generator.ids import id_problem

CONFIGS = ("core_operations", "claim_multihop", "policy_packets")
# The example's subset: six documents of six different families (the full set: --all).
EXAMPLE = ("multihop_012_001_crosspage", "driver_schedule_sparse_001", "ifta_tax_inquiry_001",
           "driver_mvr_packet_001", "loss_run_external_001", "multihop_bop_012_001")
NOTE = ("Imported from LongListBench's stored results: Tally sent no request; the content is the stored "
        "prediction file, byte for byte")
ATTRIBUTION = ("LongListBench by Kay.ai (github.com/kaydotai/longlistbench, release {version}), MIT licence; "
               "documents, ground truth and stored runs hosted with attribution")


PUBLISHED = "published.json"  # LongListBench's own per-document figures of the imported documents
COUNT_KEYS = ("exact_record_matches", "ground_truth_count", "predicted_count", "found", "total_gold_field_pairs",
              "total_pred_field_pairs", "complete_document", "f1")


def _published(report: object, samples: list[str]) -> dict:
    """The published per-document figures of `samples` (and the run's model_stats headline figures)."""
    assert isinstance(report, dict)
    docs = {r["sample"]: {k: r["metrics"][k] for k in COUNT_KEYS} for r in report["detailed_results"]
            if r["sample"] in samples}
    stats = next(iter(report["model_stats"].values()))
    return {"documents": docs, "model_stats": {k: stats[k] for k in ("avg_f1", "exact_record_recall",
                                                                     "complete_documents", "weighted_f1")}}


def write_text(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8", newline="\n")


class ConvertError(Exception):
    """A checkout that is not LongListBench's layout (named file and reason)."""


def _text(path: Path) -> str:
    """A file of the checkout: a real file (a symbolic link is never followed), UTF-8."""
    if path.is_symlink() or not path.is_file():
        raise ConvertError(f"{path}: not a file of a LongListBench checkout (missing, or a link or a folder)")
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, ValueError) as exc:
        raise ConvertError(f"{path}: cannot read it ({exc})") from exc


def _json(path: Path) -> object:
    try:
        return json.loads(_text(path))
    except ValueError as exc:
        raise ConvertError(f"{path}: not JSON ({exc})") from exc


def _safe(name: str, what: str) -> str:
    if (problem := id_problem(name, what)) is not None:
        raise ConvertError(problem)
    return name


def documents(checkout: Path) -> list[str]:
    folder = checkout / "data" / "ground_truth"
    if not folder.is_dir():
        raise ConvertError(f"{checkout}: not a LongListBench checkout (no data/ground_truth/)")
    return sorted(_safe(p.stem, "document id") for p in folder.glob("*.json") if p.is_file() and not p.is_symlink())


def item(checkout: Path, sample: str) -> dict:
    meta = _json(checkout / "data" / "metadata" / f"{sample}.json")
    assert isinstance(meta, dict)
    config = meta.get("hf_config")
    if config not in CONFIGS:
        raise ConvertError(f"{sample}: metadata hf_config {config!r} is not one of {', '.join(CONFIGS)}")
    transcript = checkout / "data" / "transcripts" / "ocr_gemini" / f"{sample}.md"
    return {"id": sample, "dataset": config, "half": "public",
            "strata": {"family": str(meta.get("complexity_regime")), "pages": _band(meta.get("pdf_page_count"))},
            "document": {"text": _text(transcript)},
            "gold": _json(checkout / "data" / "ground_truth" / f"{sample}.json")}


def _band(pages: object) -> str:
    n = pages if isinstance(pages, int) else 0
    return "1-24" if n < 25 else "25-99" if n < 100 else "100+"


def _costs(checkout: Path) -> dict[str, tuple[str, str]]:
    """Result directory -> (API-equivalent USD, source file) from benchmarks/cost_measurements/."""
    out: dict[str, tuple[str, str]] = {}
    base = checkout / "benchmarks" / "cost_measurements"
    by_time = {}
    for d in sorted((checkout / "benchmarks" / "results").iterdir()):
        meta = d / "run_metadata.json"
        if meta.is_file():
            m = _json(meta)
            if isinstance(m, dict) and m.get("generated_at"):
                by_time[m["generated_at"]] = d.name
    for f in sorted(base.glob("*/summary.json")):
        doc = _json(f)
        for run in doc.get("runs", []) if isinstance(doc, dict) else []:
            if run.get("api_equivalent_usd") is not None:
                out[run["result_dir"]] = (f"{run['api_equivalent_usd']}", f.relative_to(checkout).as_posix())
    for f in sorted(base.glob("*/usage_summary.json")):
        doc = _json(f)
        cost = (doc.get("measured_cost") or {}) if isinstance(doc, dict) else {}
        usd = cost.get("api_equivalent_usd", cost.get("usd"))
        run = by_time.get(doc.get("generated_at")) if isinstance(doc, dict) else None
        if run and usd is not None and run not in out:
            out[run] = (f"{usd}", f.relative_to(checkout).as_posix())
    for d in sorted((checkout / "benchmarks" / "results").iterdir()):  # Claude Code: its own per-document estimate
        meta = d / "run_metadata.json"
        m = _json(meta) if meta.is_file() else None
        samples = m.get("samples") if isinstance(m, dict) else None
        if d.name in out or not isinstance(samples, dict) or not samples:
            continue
        per = [s.get("estimated_api_cost_usd") for s in samples.values() if isinstance(s, dict)]
        if len(per) == len(samples) and all(isinstance(c, (int, float)) for c in per):
            out[d.name] = (f"{sum(per):.6f}", f"benchmarks/results/{d.name}/run_metadata.json")
    return out


def run_facts(meta: dict, name: str) -> tuple[str, str, str, str]:
    """(model, provider, input kind, description) of a stored result directory, from its metadata."""
    runner = str(meta.get("runner", ""))
    if runner.startswith("run_codex_cli"):
        version = str(meta.get("cli_version_observed_at_metadata_write", "")).removeprefix("codex-cli ").strip()
        return (str(meta["requested_model"]), f"codex-cli-{version}", "text",
                f"Codex CLI {version}, reasoning effort {meta.get('effort')}, one repository-denied thread per document")
    if runner.startswith("run_claude_cli"):
        version = str(meta.get("cli_version_observed_at_metadata_write", "")).split(" ")[0]
        return (str(meta["requested_model"]), f"claude-code-{version}", "text",
                f"Claude Code {version}, effort {meta.get('effort')}, one repository-denied session per document")
    if runner.startswith("run_bonsai"):
        return ("ternary-bonsai-27b", "together", "text",
                f"{meta.get('model_id')} served by Together AI, LongListBench's page-by-page extraction pipeline")
    if runner.startswith("reducto"):
        condition = str(meta.get("condition", "")).replace("_", "-")
        kind = "pdf" if meta.get("input_format") == "raw_pdf" else "text"
        return (f"reducto-deep-extract-{meta.get('requested_model')}-{condition}", "reducto", kind,
                f"Reducto Deep Extract {meta.get('requested_model')} on the raw PDFs ({meta.get('condition')}); "
                f"LongListBench reports {meta.get('total_credits')} Reducto credits for the 32 documents")
    raise ConvertError(f"{name}: unknown runner {runner!r} in run_metadata.json")


def _usage(sample_meta: object) -> dict | None:
    if not isinstance(sample_meta, dict):
        return None
    u = next((sample_meta[k] for k in ("usage", "tokens") if isinstance(sample_meta.get(k), dict)), sample_meta)
    pt = u.get("input_tokens", u.get("prompt_tokens"))
    ct = u.get("output_tokens", u.get("completion_tokens"))
    if isinstance(pt, int) and isinstance(ct, int):
        return {"prompt_tokens": pt, "completion_tokens": ct}
    return None


def record(checkout: Path, path: Path, sample: str, model: str, sample_meta: object) -> dict:
    data = path.read_bytes()
    content = data.decode("utf-8")
    usage = _usage(sample_meta)
    rec = {"item": sample, "repeat": 0, "request": None,
           "attempts": [{"start": None, "status": 200, "error": None, "latency_ms": None}],
           "note": NOTE,
           "source": {"file": path.relative_to(checkout).as_posix(), "sha256": hashlib.sha256(data).hexdigest()},
           "response": {"object": "chat.completion", "model": model,
                        "choices": [{"index": 0, "message": {"role": "assistant", "content": content},
                                     "finish_reason": "stop"}]} | ({"usage": usage} if usage else {}),
           "latency_ms": None}
    if usage:
        rec["usage"] = usage
    return rec


def convert(checkout: Path, root: Path, samples: list[str]) -> tuple[int, int]:
    """Write the items of `samples` and every stored run's records for them; (items, runs) written."""
    version = _text(checkout / "VERSION").strip() if (checkout / "VERSION").is_file() else "?"
    known = set(documents(checkout))
    unknown = sorted(set(samples) - known)
    if unknown:
        raise ConvertError(f"{checkout}: no such document(s): {', '.join(unknown)}")
    items: dict[str, list[dict]] = {}
    for sample in samples:
        it = item(checkout, sample)
        items.setdefault(it["dataset"], []).append(it)
    try:
        costs = _costs(checkout)
    except (KeyError, TypeError, AttributeError) as exc:
        raise ConvertError(f"{checkout}/benchmarks/cost_measurements: not LongListBench's layout ({exc!r})") from exc
    converted: dict[str, tuple[str, str, dict]] = {}  # everything is read and checked before anything is written
    for d in sorted((checkout / "benchmarks" / "results").iterdir()):
        if not d.is_dir() or d.is_symlink() or not (d / "evaluation_report.json").is_file():
            continue
        _safe(d.name, "result directory")
        try:
            converted[d.name] = _convert_run(checkout, d, samples, version, costs)
        except (KeyError, TypeError, AttributeError, IndexError, ValueError) as exc:
            raise ConvertError(f"{d}: not LongListBench's layout of a result directory ({type(exc).__name__}: "
                               f"{exc})") from exc
    item_dir = root / "content" / "suites" / "longlistbench" / "items"
    item_dir.mkdir(parents=True, exist_ok=True)
    for old in item_dir.glob("*.jsonl"):
        old.unlink()
    for dataset, rows in items.items():
        write_text(item_dir / f"{dataset}.public.jsonl",
                   "".join(json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n" for r in sorted(rows, key=lambda r: r["id"])))
    published: dict[str, dict] = {}
    for name, (responses, run_json, figures) in converted.items():
        out = root / "results" / "longlistbench" / name
        out.mkdir(parents=True, exist_ok=True)
        write_text(out / "responses.jsonl", responses)
        write_text(out / "run.json", run_json)
        published[name] = figures
    runs = len(converted)
    write_text(root / "content" / "suites" / "longlistbench" / PUBLISHED,
               json.dumps({"source": "benchmarks/results/*/evaluation_report.json", "attribution":
                           ATTRIBUTION.format(version=version), "runs": published}, indent=1, sort_keys=True) + "\n")
    return sum(len(v) for v in items.values()), runs


def _convert_run(checkout: Path, d: Path, samples: list[str], version: str,
                 costs: dict[str, tuple[str, str]]) -> tuple[str, str, dict]:
    """One stored result directory as a run folder's files: (responses.jsonl, run.json, published figures)."""
    meta = _json(d / "run_metadata.json")
    if not isinstance(meta, dict):
        raise ConvertError(f"{d / 'run_metadata.json'}: not a JSON object")
    model, provider, kind, how = run_facts(meta, d.name)
    files = {p.name: p for p in d.iterdir() if p.is_file() and not p.is_symlink()}
    lines = []
    for sample in sorted(samples):
        found = [p for n, p in sorted(files.items()) if n.startswith(f"{sample}_") and n.endswith("_predicted.json")]
        if len(found) != 1:
            raise ConvertError(f"{d}: expected one prediction file of {sample}, found {len(found)}")
        lines.append(record(checkout, found[0], sample, model, (meta.get("samples") or {}).get(sample)))
    responses = "".join(json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n" for r in lines)
    stamp = str(meta["generated_at"]).replace("+00:00", "Z")
    run = {"format": 1, "suite": "longlistbench", "suite_version": version, "run_id": d.name, "model": model,
           "provider": provider, "hosting": "hosted", "simulated": False, "half": "public",
           "imported": "LongListBench stored result directory",
           "description": (f"A real run, imported from LongListBench's stored results "
                           f"(benchmarks/results/{d.name}/): {how}. The times are when LongListBench wrote its run "
                           f"metadata. " + ATTRIBUTION.format(version=version) + "."),
           "harness_version": str(meta.get("runner")), "started": stamp, "finished": stamp}
    if kind != "text":
        run["input"] = kind
    if d.name in costs:
        usd, source = costs[d.name]
        run["measured_cost"] = {"usd": usd, "currency": "USD", "source": source,
                                "what": "LongListBench's API-equivalent cost of the whole 32-document run"}
    return (responses, json.dumps(run, ensure_ascii=False, indent=2, sort_keys=True) + "\n",
            _published(_json(d / "evaluation_report.json"), samples))
