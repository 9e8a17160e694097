"""What the host asks in Ra: headlines, prompt lines and button labels."""

from __future__ import annotations

from engines.ra.positions import build
from tests.ra.helpers import A, B, C, E, own, run


def test_action_labels() -> None:
    s = build(3, cur=A)
    labels = {
        a: E.action_label(s, A, a)
        for a in ["draw", "invoke", "bid 13", "pass", "god pharaoh", "discard astronomy", "done"]
    }
    assert labels == {
        "draw": "Draw a tile",
        "invoke": "Invoke Ra",
        "bid 13": "Bid 13",
        "pass": "Pass",
        "god pharaoh": "God → Pharaoh",
        "discard astronomy": "Discard Astronomy",
        "done": "Done",
    }


def test_headline_and_prompts() -> None:
    s = build(3, cur=A, track=["gold"])
    s, _ = run(s, (A, "invoke"), (B, "bid 9"))
    v = E.view(s, C)
    assert v["headline"] == "Epoch 1 · Auction (voluntary) · {s2} to bid · high 9 by {s1}"
    assert own(v)["prompt"] == "High bid 9 ({s1}). Bid 10, 11 or pass."
    assert own(E.view(s, A))["prompt"] == "Waiting for {s2}."


def test_discard_prompt_for_a_single_tile() -> None:
    s = build(
        3,
        cur=A,
        up=[(2, 5, 8), (3, 6, 9, 12), (4, 7, 10, 11)],
        down=[(13,), (), ()],
        track=["unrest"],
        tiles=[{"astronomy": 1, "art": 1, "writing": 1}, {}, {}],
    )
    s, _ = run(s, (A, "invoke"), (B, "pass"), (C, "pass"), (A, "bid 2"))
    assert own(E.view(s, A))["prompt"] == "Discard 2 civilization tiles, one at a time."
    s, _ = run(s, (A, "discard art"))
    assert own(E.view(s, A))["prompt"] == "Discard 1 civilization tile."


def test_lone_seat_headline_does_not_claim_others_passed() -> None:
    s = build(
        3, cur=A, up=[(2, 5, 8, 13), (), ()], down=[(), (3, 6, 9, 12), (4, 7, 10, 11)], track=["pharaoh"]
    )
    s, _ = run(s, (A, "invoke"))
    assert E.view(s, None)["headline"] == (
        "Epoch 1 · Auction (voluntary) · {s0} must bid: nobody else has a sun to bid"
    )


def test_the_icons_name_the_pieces_of_the_buttons() -> None:
    """Every bid carries its sun, every god's pick, discard and Ra call its tile; no other
    button an icon (docs/playing.md#emojis); each key is one the renderer draws."""
    from engines.ra import icons
    from tests.icon_checks import controls, random_prompts

    seen: set[str] = set()
    for _, _, p in random_prompts("ra"):
        for action, _, icon in controls(p):
            verb, _, arg = action.partition(" ")
            want = {
                "bid": f"ra_sun{arg}",
                "god": f"ra_{arg.replace('-', '_')}",
                "discard": f"ra_{arg.replace('-', '_')}",
                "invoke": "ra_ra",
            }.get(verb, "")
            assert icon == want, action
            seen.add(icon)
    assert seen - {""} <= set(icons.KEYS)
    assert {"ra_ra", "ra_sun13", "ra_sun2"} <= seen and len(seen) > 12
