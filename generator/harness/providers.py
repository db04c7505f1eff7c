"""Providers the harness can call, read from content/providers.toml and validated.

A provider names the environment variable that holds its API key, never the key; the key is read
from the environment only when a call is made (`api_key`), and must be printable ASCII (what an
HTTP header can carry). A base URL, from the file or `--base-url`, must be http(s) with a host
(`url_problem`).
"""

from __future__ import annotations

import os
import re
import tomllib
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path

from generator.inputs.ids import id_problem
from generator.inputs.iso_date import is_iso_date
from generator.inputs.money import read_price

PROVIDERS_FILE = Path("content") / "providers.toml"
DEFAULT_TIMEOUT_S = 180.0
HOSTING = ("hosted", "self-hosted")
_ENV_NAME = re.compile(r"[A-Z_][A-Z0-9_]{0,99}")
_CURRENCY = re.compile(r"[A-Z]{3}")


class ProviderError(ValueError):
    """content/providers.toml is invalid, or a provider or model is not in it."""


@dataclass(frozen=True)
class Model:
    name: str
    input_per_mtok: str | None = None
    output_per_mtok: str | None = None
    simulated: bool = False
    served_as: tuple[str, ...] = ()


@dataclass(frozen=True)
class Provider:
    id: str
    title: str
    base_url: str
    hosting: str
    api_key_env: str | None = None
    concurrency: int = 8
    timeout_s: float = DEFAULT_TIMEOUT_S
    prices_date: str | None = None
    prices_currency: str = "USD"
    simulation_server: bool = False
    models: dict[str, Model] = field(default_factory=dict)

    def model(self, name: str) -> Model:
        if name not in self.models:
            served = ", ".join(sorted(self.models)) or "none"
            raise ProviderError(f"provider {self.id!r} does not serve model {name!r} (it serves: {served})")
        return self.models[name]

    def prices(self, model: str) -> dict | None:
        """The run.json `prices` object for `model`, or None (self-hosted, or no list price)."""
        m = self.model(model)
        if m.input_per_mtok is None or m.output_per_mtok is None:
            return None
        return {"currency": self.prices_currency, "input_per_mtok": m.input_per_mtok,
                "output_per_mtok": m.output_per_mtok, "date": self.prices_date}

    def api_key(self) -> str | None:
        """The key from the environment (None when the provider needs none)."""
        if self.api_key_env is None:
            return None
        key = os.environ.get(self.api_key_env, "")
        if not key.strip():
            raise ProviderError(f"provider {self.id!r} needs its API key in the environment variable "
                                f"{self.api_key_env}, which is not set")
        bad = next((i for i, c in enumerate(key) if not "!" <= c <= "~"), None)
        if bad is not None:  # the key itself is never shown
            raise ProviderError(f"the API key in the environment variable {self.api_key_env} has a character "
                                f"that is not printable ASCII (a space, a control or a non-ASCII character) "
                                f"at position {bad + 1} of {len(key)}; an HTTP header can't carry it")
        return key


def url_problem(url: object) -> str | None:
    """Why `url` can't be a provider's base URL (http or https, with a host, nothing unprintable), or None."""
    if not isinstance(url, str) or not url:
        return "must be an http(s) URL"
    if not url.isascii() or any(not c.isprintable() or c.isspace() for c in url):
        return f"must be an http(s) URL without spaces, control or non-ASCII characters, got {url[:200]!r}"
    try:
        parts = urllib.parse.urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError for a port that is not a number from 0 to 65535
    except ValueError as exc:
        return f"is not a valid URL ({exc}): {url[:200]!r}"
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        return f"must be an http:// or https:// URL with a host, got {url[:200]!r}"
    return None


def _price(value: object, where: str) -> str | None:
    if value is None:
        return None
    if read_price(value) is None:
        raise ProviderError(f"{where}: a price is a decimal string such as \"2.50\" (at most nine digits before "
                            f"the point and twelve after), got {value!r}")
    return str(value)


def _model(name: str, raw: object, where: str) -> Model:
    if (p := id_problem(name, "model")) is not None:
        raise ProviderError(f"{where}: {p}")
    if not isinstance(raw, dict):
        raise ProviderError(f"{where}: must be a table")
    unknown = set(raw) - {"input_per_mtok", "output_per_mtok", "simulated", "served_as"}
    if unknown:
        raise ProviderError(f"{where}: unknown key(s) {', '.join(sorted(unknown))}")
    served_as = raw.get("served_as", [])
    if not isinstance(served_as, list) or not all(isinstance(s, str) and s for s in served_as):
        raise ProviderError(f"{where}: served_as must be a list of model names")
    if not isinstance(raw.get("simulated", False), bool):
        raise ProviderError(f"{where}: simulated must be true or false")
    return Model(name, _price(raw.get("input_per_mtok"), where), _price(raw.get("output_per_mtok"), where),
                 raw.get("simulated", False), tuple(served_as))


def _provider(pid: str, raw: object) -> Provider:
    where = f"providers.{pid}"
    if (p := id_problem(pid, "provider")) is not None:
        raise ProviderError(f"{where}: {p}")
    if not isinstance(raw, dict):
        raise ProviderError(f"{where}: must be a table")
    base_url, hosting = raw.get("base_url"), raw.get("hosting")
    if not isinstance(base_url, str) or not re.match(r"https?://[^\s/]+", base_url) or url_problem(base_url):
        raise ProviderError(f"{where}: base_url {url_problem(base_url) or 'must be an http(s) URL'}")
    if hosting not in HOSTING:
        raise ProviderError(f"{where}: hosting must be one of {', '.join(HOSTING)}")
    key_env = raw.get("api_key_env")
    if key_env is not None and (not isinstance(key_env, str) or not _ENV_NAME.fullmatch(key_env)):
        raise ProviderError(f"{where}: api_key_env must be the NAME of an environment variable "
                            "(capitals, digits and '_'), never the key itself")
    concurrency, timeout = raw.get("concurrency", 8), raw.get("timeout_s", DEFAULT_TIMEOUT_S)
    if type(concurrency) is not int or not 1 <= concurrency <= 1024:
        raise ProviderError(f"{where}: concurrency must be an integer from 1 to 1024")
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not 0 < timeout <= 3600:
        raise ProviderError(f"{where}: timeout_s must be a number of seconds from 0 to 3600")
    date = raw.get("prices_date")
    if date is not None and not is_iso_date(date):
        raise ProviderError(f"{where}: prices_date must be a date YYYY-MM-DD, got {date!r}")
    currency = raw.get("prices_currency", "USD")
    if not isinstance(currency, str) or not _CURRENCY.fullmatch(currency):
        raise ProviderError(f"{where}: prices_currency must be a currency code of three capitals (USD), "
                            f"got {currency!r}")
    models_raw = raw.get("models", {})
    if not isinstance(models_raw, dict) or not models_raw:
        raise ProviderError(f"{where}: needs at least one [providers.{pid}.models.<model>] table")
    models = {name: _model(name, m, f"{where}.models.{name}") for name, m in models_raw.items()}
    if hosting == "hosted":
        for m in models.values():
            if m.input_per_mtok is None or m.output_per_mtok is None:
                raise ProviderError(f"{where}.models.{m.name}: a hosted model needs its list prices")
        if date is None:
            raise ProviderError(f"{where}: a hosted provider needs prices_date")
    return Provider(pid, str(raw.get("title", pid)), base_url.rstrip("/"), hosting, key_env, concurrency,
                    float(timeout), date, currency,
                    bool(raw.get("simulation_server", False)), models)


def load_providers(root: Path) -> dict[str, Provider]:
    """Every provider of ROOT/content/providers.toml; ProviderError names the bad entry."""
    path = Path(root) / PROVIDERS_FILE
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise ProviderError(f"{path}: not found") from exc
    except tomllib.TOMLDecodeError as exc:
        raise ProviderError(f"{path}: not valid TOML: {exc}") from exc
    table = raw.get("providers")
    if not isinstance(table, dict):
        raise ProviderError(f"{path}: needs [providers.<id>] tables")
    try:
        return {pid: _provider(pid, p) for pid, p in table.items()}
    except ProviderError as exc:
        raise ProviderError(f"{path}: {exc}") from None


def get_provider(root: Path, provider_id: str) -> Provider:
    providers = load_providers(root)
    if provider_id not in providers:
        raise ProviderError(f"unknown provider {provider_id!r}; known: {', '.join(sorted(providers))}")
    return providers[provider_id]
