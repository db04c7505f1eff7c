"""The built-in suites, one package each; they register through the `tally.suites` entry point like
any installed plugin (see pyproject.toml and generator/plugins.py)."""
