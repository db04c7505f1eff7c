"""The plugin system: what a suite is and how Tally finds, checks and starts one.

- `api`: the suite interface, importable from one module (its stable path for plugins is
  `generator.suite_api`, which re-exports it);
- `hooks`: every hook of the interface in its three roles (rules, pages, harness), with its signature
  and when it is called; `types`: the data types a suite declares with; `report`: the public view of
  scored runs that `report_tables` is given;
- `plugins`: finding suites (the `tally.suites` entry points and a project's plugin folders);
  `requires`: what a folder plugin needs installed;
- `check`, `commands` and `scaffold/`: `tally suite list | check | new`.
"""
