"""A suite's own commands (`Suite.commands()`), run as `tally <suite name> ...`: built-in suites and a
project's plugin folders alike; a name no command or suite has is still an error."""

from __future__ import annotations

from click.testing import CliRunner

from generator.cli import main
from generator.suite.check import scaffold


def test_an_unknown_command_is_still_an_error(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    got = CliRunner().invoke(main, ["no-such-suite", "x"])
    assert got.exit_code == 2 and "No such command 'no-such-suite'" in got.output
    assert CliRunner().invoke(main, ["extracting"]).exit_code == 2  # a suite without commands of its own


def test_a_plugin_folder_suite_brings_its_own_command_group(monkeypatch, tmp_path):
    scaffold(tmp_path, "demo", "plugins")
    plugin = tmp_path / "plugins" / "demo" / "__init__.py"
    text = plugin.read_text(encoding="utf-8")
    plugin.write_text(text.replace("\nSUITE = Demo()", '''
def _commands(self):
    import click

    @click.group("demo")
    def group():
        """Demo commands."""

    @group.command("hello")
    @click.option("--n", type=int, default=1)
    def hello(n):
        click.echo("hello " * n)

    return group


Demo.commands = _commands
SUITE = Demo()'''), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    got = CliRunner().invoke(main, ["demo", "hello", "--n", "2"])
    assert got.exit_code == 0, got.output
    assert got.output.strip() == "hello hello"
    assert "Demo commands." in CliRunner().invoke(main, ["demo", "--help"]).output
