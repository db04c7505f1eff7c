"""Start the simulation server for a project: in a child process (so that its CPU time doesn't
slow down the harness it answers, and measured latencies stay close to the simulated ones) or on
a thread of this process.
"""

from __future__ import annotations

import multiprocessing as mp
from dataclasses import dataclass, field
from pathlib import Path

from .server import Simulation
from .simulation import DEFAULT_SEED, Faults


@dataclass(frozen=True)
class ServerConfig:
    root: Path
    suite: str
    seed: int = DEFAULT_SEED
    scale: float = 1.0
    faults: Faults = field(default_factory=Faults)
    host: str = "127.0.0.1"
    port: int = 0
    hang_s: float = 600.0
    api_key: str | None = field(default=None, repr=False)  # required from clients when set
    profiles: tuple | None = None  # the example's simulated models to serve (None: all of its usual ones)


def build_models(config: ServerConfig) -> Simulation:
    """The simulated models, answering for every item of the suite (both halves); for a suite that
    names its own `local_simulation` (e.g. scripted tool-calling agents), that one."""
    from .plan import load_plan

    plan = load_plan(Path(config.root), config.suite, "both")
    if (target := plan.plugin.local_simulation) is not None:
        return load_simulation(target)(plan.items, plan.messages, config.seed, config.faults)
    from ..example.simmodels import SimModels  # the example's simulated document readers, imported only to serve them

    return SimModels(plan.items, plan.suite.reference_date, config.seed, config.scale, config.faults,
                     plan.template, profiles=None if config.profiles is None else list(config.profiles))


def load_simulation(target: str):
    """The callable named "module:attribute" by a suite's `local_simulation`."""
    import importlib

    module, _, attribute = target.partition(":")
    try:
        return getattr(importlib.import_module(module), attribute)
    except (ImportError, AttributeError, ValueError) as exc:
        raise ValueError(f"the suite's local_simulation {target!r} can't be loaded: {exc}") from None


def build_server(config: ServerConfig):
    from .server import SimServer

    return SimServer(build_models(config), config.host, config.port, config.hang_s, config.api_key)


def _child(config: ServerConfig, conn) -> None:  # runs in the child process
    import asyncio

    async def main() -> None:
        server = build_server(config)
        try:
            port = await server.start()
        except OSError as exc:
            conn.send(("error", str(exc)))
            return
        conn.send(("port", port))
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, conn.recv)  # any message, or the parent closing: stop
        await server.stop()

    try:
        asyncio.run(main())
    except (EOFError, KeyboardInterrupt):
        pass


class ServerProcess:
    """The server in a child process: `with ServerProcess(config) as port: ...`."""

    def __init__(self, config: ServerConfig):
        self.config = config
        self.port: int | None = None
        ctx = mp.get_context("spawn")
        self._conn, child_conn = ctx.Pipe()
        self._process = ctx.Process(target=_child, args=(config, child_conn), daemon=True,
                                    name="tally-sim-server")
        self._child_conn = child_conn

    def start(self) -> int:
        self._process.start()
        self._child_conn.close()
        if not self._conn.poll(60):
            self.stop()
            raise RuntimeError("the simulation server did not start within 60 s")
        kind, value = self._conn.recv()
        if kind != "port":
            self.stop()
            raise RuntimeError(f"the simulation server could not start: {value}")
        self.port = value
        return value

    def stop(self) -> None:
        try:
            self._conn.send("stop")
        except (OSError, BrokenPipeError):
            pass
        self._process.join(10)
        if self._process.is_alive():
            self._process.terminate()
            self._process.join(5)
        self._conn.close()

    def __enter__(self) -> int:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
