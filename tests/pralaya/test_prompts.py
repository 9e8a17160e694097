"""What the Pralaya host asks: button labels, and which legal lists are public."""

from __future__ import annotations

from engines.pralaya.positions import rig
from engines.pralaya.rules import PralayaEngine
from engines.pralaya.state import State
from tests.pralaya.helpers import E, fresh


def cell(state: State, name: str) -> str | None:
    return next(c["card"] for c in E.view(state, None)["island"] if c["cell"] == name)


def test_labels() -> None:
    s = rig(fresh(), island={"b4": "dem1", "a1": "gol1"}, round=2, active=0)
    assert E.action_label(s, 0, "take b4") == "Take b4 · Demon Statue (1 V)"
    assert E.action_label(s, 0, "done") == "Done collecting"
    assert E.action_label(s, 0, "buy veda 0g 1s 1c") == "Buy Veda: 1 silver + 1 copper"
    assert E.action_label(s, 0, "buy dhoni 0g 0s 0c") == "Buy Dhoni X: no coins"
    assert E.action_label(s, 0, "buy dhoni 1g 0s 2c") == "Buy Dhoni X: all coins (1 gold + 2 copper)"
    assert E.action_label(s, 0, "pass") == "Pass (buy nothing)"
    assert E.action_label(s, 0, "discard a1") == "Discard a1 · Gold Coin"


def test_public_actions_collecting_and_discarding_are_derivable_from_the_spectator_view() -> None:
    """``public_actions`` lets the bot show a step's moves under the public board. It must be
    True only where the legal list follows from what spectators see: collecting (cells of the
    face-up island within the public Vitality left) and discarding; False when buying with a
    hidden hand (the payments tell which coins it holds), True again with open hands."""
    import random as _random

    engine = PralayaEngine()
    rng = _random.Random(8)
    seen = {"collect": 0, "discard": 0, "buy": 0}
    for seed in range(30):
        opts = {"open_hands": seed % 5 == 0}
        s = engine.setup(seed, 2 + seed % 4, opts)
        while engine.outcome(s) is None:
            seat = engine.to_move(s)[0]
            legal = engine.legal_actions(s, seat)
            v = engine.view(s, None)
            public = engine.public_actions(s, seat)
            seen[v["step"]] += 1
            relics = [c for c in v["island"] if c["code"] not in (None, "oce")]
            if v["step"] == "collect":
                assert public
                takes = [
                    f"take {c['cell']}" for c in relics if c["cost"] is not None and c["cost"] <= v["v_left"]
                ]
                done = ["done"] if any(c["taken"] for c in v["island"]) else []
                assert legal == sorted(done + takes)
            elif v["step"] == "discard":
                assert public
                assert legal == sorted(f"discard {c['cell']}" for c in relics)
            else:
                assert public == opts["open_hands"]
            s = engine.apply(s, seat, rng.choice(legal))[0]
    assert all(seen.values()), seen


def test_labels_of_an_ocean_cell_name_no_cost() -> None:
    s = rig(fresh(), island={"a1": "dem1"}, round=2, active=0)
    assert E.action_label(s, 0, "take a2") == "Take a2 · Ocean (cannot be taken)"


def test_take_labels_give_what_a_coin_is_worth() -> None:
    s = rig(fresh(3), island={"a1": "gol1", "a2": "sil1", "a3": "cop1", "b1": "man1"}, round=2, active=0)
    assert E.action_label(s, 0, "take a1") == "Take a1 · Gold Coin (3 V, worth 6)"
    assert E.action_label(s, 0, "take a2").endswith("worth 3)")
    assert E.action_label(s, 0, "take a3").endswith("worth 1)")
    assert "worth" not in E.action_label(s, 0, "take b1")


def test_an_escaped_seat_is_asked_to_discard_from_the_island() -> None:
    """Pralaya has no hand limit: the escaped seat's instruction says what its discard is."""
    s = rig(fresh(), dhoni={0: "dhx"}, island={"a1": "dem1", "b2": "man1"}, round=3, active=0)
    p = E.prompt(s, 0)
    assert p.text == "You have escaped: discard one relic from the island"
    assert "limit" not in p.text


def test_the_icons_name_the_relics_of_the_buttons() -> None:
    """Taking or discarding a cell carries the relic lying there (the one its label names), a
    purchase the Veda or the Dhoni; done, pass and empty cells no icon (docs/playing.md#emojis)."""
    from engines.pralaya import data, icons
    from tests.icon_checks import controls, random_prompts

    seen: set[str] = set()
    for _, _, p in random_prompts("pralaya"):
        for action, label, icon in controls(p):
            seen.add(icon)
            verb = action.split()[0]
            if verb == "buy":
                assert icon == "pralaya_" + action.split()[1], action
            elif verb in ("take", "discard") and "·" in label:
                relic = data.RELIC_BY_CODE[icon.removeprefix("pralaya_")]
                assert label.split("· ", 1)[1].startswith(relic.name), (label, icon)
            else:
                assert icon == "", action
    assert {"pralaya_veda", "pralaya_dhoni", "pralaya_man"} <= seen and seen - {""} <= set(icons.KEYS)
