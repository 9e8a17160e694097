"""How a game's options are asked in ``/game new``'s dialog (``Option.few_values``), and that every
registered game's options fit that dialog: one checkbox group of at most ten true/false options
plus at most four other fields (a Discord modal holds five)."""

from __future__ import annotations

import pytest

from engines import base
from engines.options import Option


def test_few_values_by_kind() -> None:
    assert Option("b", bool, False, "").few_values() == ("true", "false")
    assert Option("s", str, "x", "", choices=("x", "y")).few_values() == ("x", "y")
    assert Option("i", int, -1, "", min=-1, max=4).few_values() == ("-1", "0", "1", "2", "3", "4")
    assert Option("i", int, 4, "", min=1, max=10).few_values() == tuple(str(v) for v in range(1, 11))
    assert Option("i", int, 6, "", min=1, max=12).few_values() == ()  # too many: typed
    assert Option("i", int, 6, "").few_values() == ()  # unbounded: typed
    assert Option("s", str, "a", "", choices=tuple("abcdefghijk")).few_values() == ()


@pytest.mark.parametrize("engine", base.games(), ids=lambda e: e.name)
def test_every_games_options_fit_the_dialog(engine: base.Engine) -> None:
    bools = [o for o in engine.options if o.kind is bool]
    others = [o for o in engine.options if o.kind is not bool]
    assert len(bools) <= 10 and (1 if bools else 0) + len(others) <= 5
    for o in others:  # the form's default is one of its values, as options: text reads it
        few = o.few_values()
        assert not few or str(o.default) in few
        assert len(o.name) <= 45 and all(len(v) <= 100 for v in few)
