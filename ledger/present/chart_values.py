"""The numbers and labels charts are drawn from, without matplotlib: thinning long
lines, periods of dates, date labels in the interface's language, box statistics,
decimals that never read ``-0.0`` (ledger/present/plots.py draws them)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from datetime import date, timedelta
from typing import Any

from ledger.book.scope import day_of
from ledger.core.i18n import _, language
from ledger.storage.rows import SessionRow

MAX_POINTS = 1500  # per line
MAX_GROUPS = 24  # bar groups


def fixed(value: float, places: int = 1) -> str:
    """``value`` with ``places`` decimals, never ``-0.0``.

    >>> fixed(-0.04), fixed(2.25, 2)
    ('0.0', '2.25')
    """
    text = f"{value:.{places}f}"
    return text[1:] if text.startswith("-") and not text.strip("-0.") else text


def thin(points: Sequence[Any], limit: int = MAX_POINTS) -> list[Any]:
    """At most ``limit`` points, evenly spread, always keeping the first and the last.

    >>> thin(list(range(10)), 4)
    [0, 3, 6, 9]
    """
    n = len(points)
    if n <= limit:
        return list(points)
    return [points[round(i * (n - 1) / (limit - 1))] for i in range(limit)]


def period_of(day: date, period: str) -> str:
    """The label of the week / month / quarter / year a day falls in.

    >>> period_of(date(2024, 5, 3), "quarter")
    '2024 Q2'
    """
    if period == "week":
        monday = day - timedelta(days=day.weekday())
        return _("week of {day}").format(day=monday.isoformat())
    if period == "month":
        return day.strftime("%Y-%m")
    if period == "quarter":
        return f"{day.year} Q{(day.month - 1) // 3 + 1}"
    return str(day.year)


def date_formats() -> dict[str, list[str]]:
    """The date labels of a time axis in the interface's language (matplotlib's
    ConciseDateFormatter: years, months, days, hours, minutes, seconds; then the labels
    at the start of a larger unit; then the offset shown at the axis' end).  English
    keeps matplotlib's own (``Apr``, ``Nov-30``); Chinese writes 2024年, 4月, 4月30日."""
    if language() == "en":
        return {}
    return {"formats": ["%Y年", "%m月", "%d日", "%H:%M", "%H:%M", "%S.%f"],
            "zero_formats": ["", "%Y年", "%m月", "%m月%d日", "%H:%M", "%H:%M"],
            "offset_formats": ["", "%Y年", "%Y年%m月", "%Y年%m月%d日", "%Y年%m月%d日",
                               "%Y年%m月%d日 %H:%M"]}


def group_results(
    rows: Sequence[tuple[SessionRow, dict[str, float]]], limit: int = MAX_GROUPS
) -> tuple[str | None, dict[str, dict[str, float]]]:
    """Each session's results, or summed per week / month / quarter / year (the finest
    period that gives at most ``limit`` groups): (period or None, {group: {player: value}})."""
    period = None
    if len(rows) > limit:
        days = {day_of(s) for s, _v in rows}
        for period in ("week", "month", "quarter", "year"):
            if len({period_of(date.fromisoformat(d), period) for d in days}) <= limit:
                break
    groups: dict[str, dict[str, float]] = {}
    for s, values in rows:
        day = day_of(s)
        key = period_of(date.fromisoformat(day), period) if period else f"#{s.id} {day}"
        group = groups.setdefault(key, {})
        for name, v in values.items():
            group[name] = group.get(name, 0.0) + v
    return period, groups


def weighted_box(values: Counter[int]) -> dict[str, Any]:
    """matplotlib ``bxp`` statistics from a value -> count table (no raw list needed)."""
    total = sum(values.values())
    ordered = sorted(values.items())

    def quantile(q: float) -> float:
        target, seen = q * (total - 1), 0
        for value, n in ordered:
            seen += n
            if seen > target:
                return float(value)
        return float(ordered[-1][0])

    q1, med, q3 = quantile(0.25), quantile(0.5), quantile(0.75)
    reach = 1.5 * (q3 - q1)
    inside = [v for v, _count in ordered if q1 - reach <= v <= q3 + reach]
    mean = sum(v * n for v, n in ordered) / total
    return {"q1": q1, "med": med, "q3": q3, "whislo": float(min(inside)),
            "whishi": float(max(inside)), "mean": mean, "fliers": []}
