"""Copying a frozen state fast: the one place that writes an instance's ``__dict__``.

Game states are frozen dataclasses. A move builds the next state from the last one with a few
fields changed; ``dataclasses.replace`` does that through ``__init__`` (one
``object.__setattr__`` per field), which costs more than the move itself in a random playout.
The functions here copy the instance dict once instead:

* :func:`replace` -- a copy with some fields changed (``dataclasses.replace`` without
  ``__init__``); :func:`update` the same with the changes in a mapping;
* :func:`build` -- a new instance from every field's value, without ``__init__``;
* :func:`work` / :func:`make` -- a "work dict": a state's fields copied once into a plain dict
  that one function edits (``d["step"] = 2``, no call per field), then the new instance made
  from that very dict (no second copy); :func:`make` also turns a dict literal of every field
  into an instance (an event built at every action); :func:`maker` writes such a literal once
  as a constructor of its own (``new_event(kind, text, data)``, no call but its own);
* :func:`thaw` / :func:`poke` -- a private copy that one function changes field by field and
  then hands out as the new value (it must not be changed after that); :func:`fields_of` its
  dict, for a function that writes several fields;
* :func:`memo` / :func:`remember` / :func:`forget` -- entries that ride along in a state's
  ``__dict__`` without being fields: invisible to ``==``, to ``repr``, to
  :func:`engines.serial.state_fingerprint` and to views (a cache, or what a state remembers for
  the AI such as the asks refused this turn). :func:`replace` and :func:`thaw` carry them along.

Each has a plain reference version built on :mod:`dataclasses` (:func:`replace_reference`,
:func:`build_reference`, :func:`work_reference`, :func:`make_reference`,
:func:`maker_reference`); :func:`use_reference`
switches every call to them, so a test can play
whole games both ways and compare (``tests/test_fastcopy.py``). The fast versions do no
checking: callers pass field names and values of the right types, as the reference would demand.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

T = TypeVar("T")

_reference = False
_new = object.__new__
_set = object.__setattr__


def use_reference(on: bool) -> None:
    """Make every function here use its plain :mod:`dataclasses` version (``on``) or the fast one."""
    global _reference
    _reference = on


def _extras(obj: object) -> dict[str, Any]:
    names = {f.name for f in dataclasses.fields(obj)}  # type: ignore[arg-type]
    return {k: v for k, v in vars(obj).items() if k not in names}


def replace_reference(obj: T, /, **changes: Any) -> T:
    """``dataclasses.replace(obj, **changes)`` for fields; non-field entries (see :func:`memo`) in
    ``changes`` or carried by ``obj`` are set on the copy afterwards."""
    names = {f.name for f in dataclasses.fields(obj)}  # type: ignore[arg-type]
    fields = {k: v for k, v in changes.items() if k in names}
    out = dataclasses.replace(obj, **fields)  # type: ignore[type-var]
    vars(out).update(_extras(obj))
    for k, v in changes.items():
        if k not in names:
            vars(out)[k] = v
    return out


def replace(obj: T, /, **changes: Any) -> T:
    """A copy of the frozen dataclass ``obj`` with ``changes`` (field name -> value); entries that
    are not fields are kept as :func:`memo` entries. ``obj`` is unchanged."""
    if _reference:
        return replace_reference(obj, **changes)
    new: T = _new(type(obj))
    d = new.__dict__
    d.update(obj.__dict__)
    d.update(changes)
    return new


def update(obj: T, changes: Mapping[str, Any], /) -> T:
    """:func:`replace` with the changes in a mapping already built (a move that gathers its
    changes as it goes): the same copy without unpacking them into keyword arguments. The old
    dict is copied whole and then set as the new instance's (as :func:`thaw_dict` does): for a
    value whose dict came from another copy, a third cheaper than filling the new instance's own
    dict key by key (Phraya's players)."""
    if _reference:
        return replace_reference(obj, **changes)
    d = obj.__dict__.copy()
    d.update(changes)
    new: T = _new(type(obj))
    _set(new, "__dict__", d)
    return new


def build_reference(cls: type[T], /, **values: Any) -> T:
    """``cls(**values)``."""
    return cls(**values)


def build(cls: type[T], /, **values: Any) -> T:
    """An instance of the frozen dataclass ``cls`` holding ``values`` (every field without a
    default must be given; defaults and default factories fill the rest), without running
    ``__init__`` (so no ``__post_init__`` either)."""
    if _reference:
        return build_reference(cls, **values)
    defaults, factories = _defaults(cls)
    d = dict(defaults)
    for name, factory in factories:
        if name not in values:
            d[name] = factory()
    d.update(values)
    new: T = _new(cls)
    _set(new, "__dict__", d)
    return new


def work_reference(obj: object) -> dict[str, Any]:
    """Every field of ``obj`` by name (``dataclasses.fields``), then its :func:`memo` entries."""
    out = {f.name: getattr(obj, f.name) for f in dataclasses.fields(obj)}  # type: ignore[arg-type]
    out.update(_extras(obj))
    return out


def work(obj: object) -> dict[str, Any]:
    """A private copy of the fields of the frozen dataclass ``obj`` (and its :func:`memo`
    entries) as a plain dict, for one function to edit and hand to :func:`make` (after which
    nobody changes it). ``obj`` is unchanged."""
    if _reference:
        return work_reference(obj)
    return obj.__dict__.copy()


def make_reference(cls: type[T], values: Mapping[str, Any], /) -> T:
    """``cls(**fields)`` from the field entries of ``values``; the other entries are set on the
    new instance as :func:`memo` entries."""
    names = {f.name for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    out = cls(**{k: v for k, v in values.items() if k in names})
    vars(out).update({k: v for k, v in values.items() if k not in names})
    return out


def make(cls: type[T], values: dict[str, Any], /) -> T:
    """An instance of the frozen dataclass ``cls`` whose dict is ``values`` itself: every field
    (defaults are not filled in) and possibly :func:`memo` entries, as :func:`work` gives them or
    as a dict literal. No ``__init__`` and no copy: ``values`` must not be changed afterwards."""
    if _reference:
        return make_reference(cls, values)
    new: T = _new(cls)
    _set(new, "__dict__", values)
    return new


def maker_reference(cls: type[T], /, *names: str) -> Callable[..., T]:
    """``lambda *values: cls(**dict(zip(names, values)))``."""

    def new(*values: Any) -> T:
        if len(values) != len(names):
            raise TypeError(f"{cls.__name__}: {len(names)} values expected, {len(values)} given")
        return cls(**dict(zip(names, values, strict=True)))

    return new


def maker(cls: type[T], /, *names: str) -> Callable[..., T]:
    """A constructor of the frozen dataclass ``cls`` taking the fields ``names`` by position,
    every other field at its plain default: ``maker(Event, "kind", "text", "data")`` gives
    ``new(kind, text, data)``. It is :func:`make` of a dict literal without a call of its own:
    its code is generated once here (as :mod:`dataclasses` generates ``__init__``), the dict
    literal in field order. In reference mode it calls :func:`make_reference` (``cls(**fields)``)."""
    defaults, _ = _defaults(cls)
    fields = [f.name for f in dataclasses.fields(cls)]  # type: ignore[arg-type]
    if len(set(names)) != len(names) or not set(names) <= set(fields):
        raise TypeError(f"maker: {names} are not distinct fields of {cls.__name__}")
    if any(not n.isidentifier() or n.startswith("_") for n in names):
        raise TypeError("maker: fields whose names start with '_' are not supported")
    rest = [f for f in fields if f not in names]
    if not set(rest) <= set(defaults):
        raise TypeError(f"maker: {cls.__name__}'s fields {rest} need plain defaults")
    items = ", ".join(f"{f!r}: {f if f in names else '_fc_' + f}" for f in fields)
    source = (
        f"def _fc_outer(_fc_cls, {''.join('_fc_' + f + ', ' for f in rest)}):\n"
        f"    def new({', '.join(names)}):\n"
        f"        _fc_d = {{{items}}}\n"
        "        if _reference:\n"
        "            return make_reference(_fc_cls, _fc_d)\n"
        "        _fc_o = _new(_fc_cls)\n"
        "        _set(_fc_o, '__dict__', _fc_d)\n"
        "        return _fc_o\n"
        "    return new\n"
    )
    scope: dict[str, Any] = {}
    exec(source, globals(), scope)  # the function reads this module's _reference, _new, _set
    new: Callable[..., T] = scope["_fc_outer"](cls, *(defaults[f] for f in rest))
    new.__qualname__ = new.__name__ = f"new_{cls.__name__}"
    return new


_DEFAULTS: dict[type, tuple[dict[str, Any], tuple[tuple[str, Callable[[], Any]], ...]]] = {}


def _defaults(cls: type) -> tuple[dict[str, Any], tuple[tuple[str, Callable[[], Any]], ...]]:
    """``cls``'s plain field defaults, and its fields with a default factory (called anew for
    each instance, as ``__init__`` does)."""
    got = _DEFAULTS.get(cls)
    if got is None:
        plain: dict[str, Any] = {}
        factories: list[tuple[str, Callable[[], Any]]] = []
        for f in dataclasses.fields(cls):
            if f.default is not dataclasses.MISSING:
                plain[f.name] = f.default
            elif f.default_factory is not dataclasses.MISSING:
                factories.append((f.name, f.default_factory))
        got = (plain, tuple(factories))
        _DEFAULTS[cls] = got
    return got


def thaw(obj: T) -> T:
    """A private copy of ``obj`` that the caller may change with :func:`poke` until it hands the
    copy out as the new value (after which nobody changes it)."""
    if _reference:
        return replace_reference(obj)
    new: T = _new(type(obj))
    _set(new, "__dict__", obj.__dict__.copy())
    return new


def thaw_dict_reference(obj: T) -> tuple[T, dict[str, Any]]:
    """:func:`replace_reference` with no change, and the copy's dict."""
    out = replace_reference(obj)
    return out, vars(out)


def thaw_dict(obj: T) -> tuple[T, dict[str, Any]]:
    """:func:`thaw`, and the copy's own dict: a move that runs step after step writes the copy's
    fields there (``d[name] = value``, no call a write) and reads back what an earlier step wrote
    (``d[name]``) until it hands the copy out, as with :func:`poke`. The dict is a copy of the
    old one (a dict holding the same keys, memo entries included, is copied whole; filling a new
    instance's own dict key by key costs more once the state carries memo entries)."""
    if _reference:
        return thaw_dict_reference(obj)
    d = obj.__dict__.copy()
    new: T = _new(type(obj))
    _set(new, "__dict__", d)
    return new, d


poke: Callable[[object, str, Any], None] = object.__setattr__
"""``poke(copy, name, value)`` sets field ``name`` of a copy made by :func:`thaw` (never of a
state others hold): ``object.__setattr__`` itself, so that a move that sets many fields pays no
call of its own for each."""


def memo(obj: object, key: str, default: Any = None) -> Any:
    """The non-field entry ``key`` of ``obj`` (see the module's docstring), or ``default``."""
    return obj.__dict__.get(key, default)


peek: Callable[[object, str, Any], Any] = getattr
"""``peek(obj, key, default)``: :func:`memo` with its default given, for a hot path: ``getattr``
itself, so that it pays no call of its own (a memo key names no field and nothing of the class,
so the attribute found is the entry of the dict, or none)."""


fields_of: Callable[[Any], dict[str, Any]] = vars
"""``fields_of(copy)``: the dict of a copy made by :func:`thaw` (never of a state others hold),
the one :func:`thaw_dict` hands out, fetched again by a function that writes several fields:
``d["step"] = 2`` costs a fifth of a :data:`poke` (``object.__setattr__`` is called through a
tuple of its arguments), so from two writes on the fetch pays for itself. ``vars`` itself."""


remember: Callable[[object, str, Any], None] = object.__setattr__
"""``remember(obj, key, value)`` keeps ``value`` under the non-field entry ``key`` of ``obj`` (a
cache of something the state's fields already determine, or a note for the state's own later
use): ``object.__setattr__`` itself, as :data:`poke` (a key that names no field goes into the
dict beside the fields)."""


def forget(obj: object, key: str) -> None:
    """Drop the non-field entry ``key`` of ``obj``, if it has one."""
    obj.__dict__.pop(key, None)
