"""A per-user flood guard: a token bucket for each user id.

Each user may send ``burst`` interactions at once and ``rate`` more every second after that (the
bucket refills continuously). A normal player never comes near it: a Kathai sale built in its
form (two menus and Play) is three interactions in a few seconds, an offer two (the dialog's
button, then its submit), under the default burst of 8 with 2 more a second. A user who floods
the bot (a script, a stuck key, a modified client) is answered "slow down" once the bucket is
empty, and is served again as soon as it refills.

Discord-free, with an injectable monotonic clock, so tests drive it without sleeping. The table of
users is bounded: when it passes ``max_users`` the least recently seen users are dropped (a dropped
user simply starts again with a full bucket).
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable

DEFAULT_BURST = 8
DEFAULT_RATE = 2.0


class Throttle:
    """``allow(user_id)`` is True while the user's bucket holds a token (and takes it). With
    ``rate`` 0 or ``burst`` 0 the throttle is off and allows everything."""

    def __init__(
        self,
        burst: int = DEFAULT_BURST,
        rate: float = DEFAULT_RATE,
        *,
        clock: Callable[[], float] = time.monotonic,
        max_users: int = 50_000,
    ) -> None:
        self.burst = burst
        self.rate = rate
        self.clock = clock
        self.max_users = max_users
        self._buckets: OrderedDict[int, tuple[float, float]] = OrderedDict()  # user → (tokens, at)
        self.refused = 0  # interactions refused so far (for logs and tests)

    @property
    def enabled(self) -> bool:
        return self.burst > 0 and self.rate > 0

    def allow(self, user_id: int) -> bool:
        """Take a token from ``user_id``'s bucket; False (and nothing taken) if it is empty."""
        if not self.enabled:
            return True
        now = self.clock()
        tokens, at = self._buckets.pop(user_id, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - at) * self.rate)
        allowed = tokens >= 1.0
        if allowed:
            tokens -= 1.0
        else:
            self.refused += 1
        self._buckets[user_id] = (tokens, now)  # most recently seen last
        while len(self._buckets) > self.max_users:
            self._buckets.popitem(last=False)
        return allowed

    def wait(self, user_id: int) -> float:
        """Seconds until ``user_id`` has a token again (0 if they have one now)."""
        if not self.enabled or user_id not in self._buckets:
            return 0.0
        tokens, at = self._buckets[user_id]
        tokens = min(float(self.burst), tokens + (self.clock() - at) * self.rate)
        return 0.0 if tokens >= 1.0 else (1.0 - tokens) / self.rate


def parse_rate_limit(text: str) -> tuple[int, float]:
    """``"8/2"`` (a burst of 8, then 2 a second) → ``(8, 2.0)``; ``"off"`` or ``"0"`` → ``(0, 0.0)``.
    Raises ValueError with a readable message otherwise."""
    t = text.strip().lower()
    if t in ("off", "0", "none", "no"):
        return 0, 0.0
    burst_text, sep, rate_text = t.partition("/")
    try:
        burst = int(burst_text)
        rate = float(rate_text) if sep else DEFAULT_RATE
    except ValueError:
        raise ValueError("it must look like 8/2 (a burst of 8, then 2 a second) or off") from None
    if not (1 <= burst <= 1000 and 0 < rate <= 1000):
        raise ValueError("the burst must be 1–1000 and the rate above 0 and at most 1000 a second")
    return burst, rate
