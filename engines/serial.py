"""States as plain JSON values, and the fingerprint a replay is checked against."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from typing import Any


def to_jsonable(obj: Any) -> Any:
    """Dataclasses, tuples, lists, dicts and scalars -> plain JSON types (dict keys -> str)."""
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: to_jsonable(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    if isinstance(obj, (list, tuple)):
        return [to_jsonable(x) for x in obj]
    if isinstance(obj, (set, frozenset)):
        return sorted(to_jsonable(x) for x in obj)
    if isinstance(obj, Mapping):
        return {str(k): to_jsonable(v) for k, v in obj.items()}
    if obj is None or isinstance(obj, (bool, int, float, str)):
        return obj
    raise TypeError(f"cannot serialise {type(obj).__name__}")


def state_fingerprint(state: Any) -> str:
    """A canonical JSON text of a state, used to check a replay against the stored snapshot."""
    return json.dumps(to_jsonable(state), sort_keys=True, separators=(",", ":"))
