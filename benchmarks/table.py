"""One table for every benchmark figure: what was measured, its value, the aim and a verdict.

Each benchmark module offers ``rows(quick: bool) -> list[Figure]``; :func:`print_table` prints
them together (``python -m benchmarks``)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Figure:
    """One measured figure. ``met`` is None when the figure has no aim (it is reported only)."""

    name: str
    value: str
    aim: str = ""
    met: bool | None = None
    note: str = ""


def verdict(met: bool | None) -> str:
    return "—" if met is None else ("met" if met else "NOT MET")


def _aimed(name: str, text: str, aim: str, met: bool, note: str) -> Figure:
    return Figure(name, text.strip(), aim.strip(), met, note)


def aim_at_most(
    name: str, value: float, limit: float, unit: str, fmt: str = "{:.1f}", note: str = ""
) -> Figure:
    """A figure whose aim is ``value < limit``."""
    return _aimed(name, f"{fmt.format(value)} {unit}", f"< {fmt.format(limit)} {unit}", value < limit, note)


def aim_at_least(
    name: str, value: float, limit: float, unit: str, fmt: str = "{:,.0f}", note: str = ""
) -> Figure:
    """A figure whose aim is ``value >= limit``."""
    return _aimed(name, f"{fmt.format(value)} {unit}", f">= {fmt.format(limit)} {unit}", value >= limit, note)


def render_table(figures: Iterable[Figure]) -> str:
    """The figures as an aligned text table (notes, when any, below it)."""
    figs = list(figures)
    head = ("figure", "value", "aim", "verdict")
    marks: dict[int, int] = {}  # figure index -> its note's number
    for i, f in enumerate(figs):
        if f.note:
            marks[i] = len(marks) + 1
    cells = [
        (f.name + (f" [{marks[i]}]" if i in marks else ""), f.value, f.aim or "—", verdict(f.met))
        for i, f in enumerate(figs)
    ]
    widths = [max(len(r[c]) for r in [head, *cells]) for c in range(4)]
    line = "  ".join("-" * w for w in widths)
    out = ["  ".join(h.ljust(w) for h, w in zip(head, widths, strict=False)), line]
    out += ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=False)).rstrip() for r in cells]
    notes = [f"[{marks[i]}] {f.note}" for i, f in enumerate(figs) if f.note]
    return "\n".join(out + ([""] + notes if notes else []))


def safely(section: str, rows: Callable[[], list[Figure]]) -> list[Figure]:
    """``rows()``, or one row saying the section failed and why (the other sections still run)."""
    try:
        return rows()
    except Exception as err:  # a benchmark that breaks is reported, not hidden
        import traceback

        traceback.print_exc()
        return [Figure(f"{section}: failed", f"{type(err).__name__}: {str(err)[:80]}", "", False)]


def machine() -> str:
    """The machine the figures come from: cores, CPU model, Python, and how busy it is."""
    import os
    import platform

    model = "unknown CPU"
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            model = next((x.split(":", 1)[1].strip() for x in info if x.startswith("model name")), model)
    except OSError:
        pass
    return (
        f"{os.cpu_count()} cores ({model}), Python {platform.python_version()} on {platform.system()} "
        f"{platform.machine()}; load average {os.getloadavg()[0]:.1f}"
    )


def print_header(quick: bool) -> None:
    print(f"Bazaar benchmarks{' (--quick)' if quick else ''} — {machine()}", flush=True)


def from_rows(rows: Iterable[Mapping[str, Any]]) -> list[Figure]:
    """Figures from rows as the other benchmark modules give them:
    ``{"name", "value", "unit", "aim", "met"}`` (aim "" and met None when there is no aim)."""
    out = []
    for r in rows:
        value = r["value"]
        text = f"{value:,}" if isinstance(value, (int, float)) else str(value)
        out.append(
            Figure(
                str(r["name"]),
                f"{text} {r.get('unit', '')}".strip(),
                str(r.get("aim") or ""),
                r.get("met"),
                str(r.get("note") or ""),
            )
        )
    return out
