"""A game option (an expansion, a variant) and how a typed value becomes its type."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engines.errors import BadOption


@dataclass(frozen=True)
class Option:
    """One game option. ``kind`` is ``bool``, ``int`` (with optional bounds) or ``str`` (one of
    ``choices``, e.g. Kathai's ``first_player``: ``random`` or ``s0``…)."""

    name: str
    kind: type
    default: Any
    help: str
    min: int | None = None
    max: int | None = None
    choices: tuple[str, ...] = ()

    def values(self) -> tuple[str, ...]:
        """The values a player may pick from, as text (``true``/``false`` for a bool, the
        choices of a str option; () for an int)."""
        if self.kind is bool:
            return ("true", "false")
        if self.kind is str:
            return self.choices
        return ()

    def few_values(self, limit: int = 10) -> tuple[str, ...]:
        """The values a form offers as a choice of at most ``limit``: :meth:`values`, or every
        number of an ``int`` option whose bounds allow at most ``limit`` (``()`` when there are
        more, or none: the form asks for the number as text)."""
        if self.kind is int:
            if self.min is None or self.max is None or self.max - self.min + 1 > limit:
                return ()
            return tuple(str(v) for v in range(self.min, self.max + 1))
        values = self.values()
        return values if len(values) <= limit else ()

    def coerce(self, value: Any) -> Any:
        """Return ``value`` converted to this option's type, or raise :class:`BadOption`."""
        if self.kind is str:
            text = value.strip().lower() if isinstance(value, str) else None
            if text is None or text not in self.choices:
                shown = value if isinstance(value, str) else repr(value)
                raise BadOption(
                    f"Option `{self.name}` takes one of {', '.join(self.choices)}, not `{shown[:40]}`."
                )
            return text
        if self.kind is bool:
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.strip().lower() in ("true", "yes", "on", "1"):
                return True
            if isinstance(value, str) and value.strip().lower() in ("false", "no", "off", "0"):
                return False
            if isinstance(value, int) and value in (0, 1):
                return bool(value)
            raise BadOption(f"Option `{self.name}` takes true or false, not {value!r}.")
        if self.kind is int:
            try:
                if isinstance(value, bool):
                    raise ValueError
                v = int(value)
            except (TypeError, ValueError):
                raise BadOption(f"Option `{self.name}` takes a whole number, not {value!r}.") from None
            if (self.min is not None and v < self.min) or (self.max is not None and v > self.max):
                raise BadOption(f"Option `{self.name}` must be between {self.min} and {self.max}; got {v}.")
            return v
        raise BadOption(f"Option `{self.name}` has an unsupported type.")
