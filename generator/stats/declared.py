"""A suite's declared metrics as the engine evaluates them: ratio specs over per-item figures (with
the derived per-item columns that `macro` metrics need), dataset means, directions and display."""

from __future__ import annotations

import numpy as np

from ..suite.api import DatasetMean, Metric, Suite, macro_column
from .ratios import Spec


class Declared:
    def __init__(self, suite: Suite):
        self.suite = suite
        self.ratio_metrics = [m for m in suite.metrics if isinstance(m, Metric)]
        self.dataset_means = [m for m in suite.metrics if isinstance(m, DatasetMean)]
        self.spec: Spec = {m.name: (m.num, m.den) for m in self.ratio_metrics}
        self.by_name: dict[str, Metric | DatasetMean] = {m.name: m for m in suite.metrics}
        derived: list[tuple[str, str, str]] = []  # (column, numerator figure, denominator figure)
        for m in self.ratio_metrics:
            if m.macro:
                (num_col, _), = m.num
                (den_col, _), = m.den or ()
                num, den = num_col.split("/")
                derived += [(num_col, num, den), (den_col, "", den)]
        self.derived = list(dict.fromkeys(derived))
        self.figure_names: tuple[str, ...] = tuple(suite.figures) + tuple(c for c, _, _ in self.derived)

    def names(self) -> list[str]:
        """Every metric: the ratio metrics, then the dataset means."""
        return [m.name for m in self.ratio_metrics] + [m.name for m in self.dataset_means]

    def expand(self, figs: np.ndarray) -> np.ndarray:
        """Per-item figures (... x figures) with the derived columns appended: num/den where den > 0
        (else 0) and the indicator den > 0."""
        if not self.derived:
            return figs
        pos = {name: k for k, name in enumerate(self.suite.figures)}
        extra = []
        for _col, num, den in self.derived:
            d = figs[..., pos[den]]
            if num:
                q = np.zeros(d.shape)
                np.divide(figs[..., pos[num]], d, out=q, where=d > 0)
                extra.append(np.where(np.isnan(d), np.nan, q))
            else:
                extra.append(np.where(np.isnan(d), np.nan, (d > 0).astype(np.float64)))
        return np.concatenate([figs, np.stack(extra, axis=-1)], axis=-1)

    def higher_is_better(self, name: str) -> bool:
        return self.by_name[name].better != "lower"

    def ranked(self, name: str) -> bool:
        return self.by_name[name].better != "none"

    def label(self, name: str) -> str:
        return self.by_name[name].label if name in self.by_name else name.replace("_", " ").capitalize()

    def scale(self, name: str) -> tuple[float, str]:
        """(scale, unit) for display."""
        m = self.by_name.get(name)
        return (m.scale, m.unit) if m is not None else (100.0, "%")

    def report_columns(self) -> list[tuple[str, str, float]]:
        """(metric, heading, scale) of the terminal report: the headline first."""
        head = self.by_name[self.suite.headline]
        rest = [m for m in self.suite.metrics if m.report and m.name != head.name]
        return [(m.name, m.report or m.name, m.scale) for m in [head, *rest]]


__all__ = ["Declared", "macro_column"]
