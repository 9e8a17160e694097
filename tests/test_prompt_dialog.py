"""``engines.prompt.Dialog``: a button opening labelled picks sent together (a Discord modal)."""

from __future__ import annotations

import pytest

from engines import prompt as pr


def _pick(key: str, label: str = "Which", lo: int = 1, hi: int = 1) -> pr.Pick:
    return pr.Pick(key, label, tuple(pr.Choice(label=v, value=v) for v in ("a", "b", "c")), min=lo, max=hi)


def test_a_dialog_builds_its_template_from_every_pick() -> None:
    d = pr.Dialog("d", "Open…", "Title", (_pick("x"), _pick("y", lo=0, hi=3)), "go {x} {y} now")
    assert d.build({"x": ["b"], "y": ["c", "a"]}) == "go b a c now"  # choice order, as a form
    assert d.build({"x": ["b"]}) == "go b now"  # an optional pick left empty
    with pytest.raises(pr.PromptError, match="Choose “Which” first"):
        d.build({"y": ["a"]})
    with pytest.raises(pr.PromptError, match="not on the menu"):
        d.build({"x": ["z"]})


def test_a_dialog_is_one_row_and_is_found_by_its_key() -> None:
    d = pr.Dialog("offer", "Make an offer…", "Make an offer", (_pick("x"),), "{x}")
    p = pr.Prompt(0, "", (pr.Button("Pass", "pass"), d))
    assert pr.rows(p.controls) == 2 and p.find("offer") is d and p.actions() == ["pass"]


def test_a_dialog_holds_what_a_modal_holds() -> None:
    with pytest.raises(ValueError, match="1 to 5 picks"):
        pr.Dialog("d", "Open…", "T", tuple(_pick(f"p{i}") for i in range(6)), "")
    with pytest.raises(ValueError, match="1 to 5 picks"):
        pr.Dialog("d", "Open…", "T", (), "")
    with pytest.raises(ValueError, match="exceed 45"):
        pr.Dialog("d", "Open…", "T", (_pick("x", "x" * 46),), "{x}")
