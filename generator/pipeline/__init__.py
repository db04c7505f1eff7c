"""The pipeline of `tally rescore`, `tally stats` and `tally site build`: load -> score -> statistics
-> outputs, run by one orchestrator.

- `orchestrate`: the orchestrator, one set of options for the three commands;
- load and score: `stages` (loading suites, items and runs; scoring them; per-run summaries);
  `scorer_a` (one run's stored bytes -> verdict rows, figures, calls, digest) with `calls` (each
  call's operations figures); `crosscheck` (the agreement gate: scorer B on every stored response);
  `processes` and `distributed` (scoring on several processes or a Dask cluster);
- a scored run: `artifact` (one immutable, content-addressed file), `run_score` (its handle and the
  store of a command's artifacts), `csv_columns` (its rows, written column by column), `cache` (the
  build cache the artifacts and a suite's statistics live in);
- statistics: generator/stats/;
- outputs: `outputs` (build/rescore/), `report` (terminal summaries); the site: generator/render/;
- `memory`: giving freed memory back between the stages of a long build.
"""
