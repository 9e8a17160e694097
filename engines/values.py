"""The plain values every layer passes around: an action, a view, and the keys every view holds."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

Action = str
"""An action is its canonical text, e.g. ``"take b4"`` or ``"bid 13"``."""

View = Mapping[str, Any]
"""What one viewer may see of a state: a JSON-serialisable mapping; each game declares a
``TypedDict`` for its own (``engines/<game>/view.py``)."""

VIEW_KEYS = ("game", "viewer", "n_players", "to_move", "over", "headline")
"""Keys every view carries: the game name, the viewer seat (or None), the player count, the seats
awaited, whether the game is over, and a one-line summary of whose turn it is and what step."""
