"""The static site: gather rescore and statistics outputs, then write pages (see build.py)."""
