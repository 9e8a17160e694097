"""bot.surface.layout: one message as a Components V2 container or in the classic shape, and what
an older V2 message keeps once its controls are taken away."""

from __future__ import annotations

from typing import Any

import discord

from bot.surface import controls, layout
from engines import prompt as pr


def _prompt() -> pr.Prompt:
    menu = pr.Pick("card", "Pick a card", (pr.Choice("a", "A"), pr.Choice("b", "B")))
    return pr.Prompt(0, "", (pr.Button("Pass", "pass"), pr.Button("Draw", "draw"), menu))


def _box(view: discord.ui.LayoutView) -> dict[str, Any]:
    """The one top-level component (the container) of ``view`` as sent to Discord."""
    components: list[dict[str, Any]] = view.to_components()  # type: ignore[no-untyped-call]
    assert len(components) == 1
    return components[0]


def _shown(**kwargs: Any) -> layout.Shown:
    base: dict[str, Any] = {
        "footer": "Ra — move 3",
        "accent": 0x0072B2,
        "pngs": [b"one", b"two"],
        "filename": "ra-1-3.png",
        "controls": lambda: controls.view(1, 3, _prompt()),
    }
    return layout.Shown("**Ra #1** · move 3\n➡️ <@5>: your move", **{**base, **kwargs})


def test_a_message_is_one_container_with_text_gallery_rows_and_footer() -> None:
    shown = _shown()
    box = _box(layout.layout(shown))
    assert box["type"] == 17 and box["accent_color"] == 0x0072B2
    kinds = [c["type"] for c in box["components"]]
    assert kinds == [10, 12, 14, 1, 1, 1, 10]  # text, gallery, separator, 3 rows, footer
    assert box["components"][0]["content"].startswith("**Ra #1**")
    urls = [i["media"]["url"] for i in box["components"][1]["items"]]
    assert (
        urls
        == ["attachment://ra-1-3.png", "attachment://ra-1-3-2.png"]
        == [f"attachment://{f.filename}" for f in shown.files()]
    )
    assert box["components"][-1]["content"] == "-# Ra — move 3"
    # the rows are the classic view's rows, item for item
    classic = controls.view(1, 3, _prompt()).to_components()
    v2_rows = [c for c in box["components"] if c["type"] == 1]
    assert [[i.get("custom_id") for i in r["components"]] for r in v2_rows] == [
        [i.get("custom_id") for i in r["components"]] for r in classic
    ]
    assert layout.v2(shown)["view"].has_components_v2() and len(layout.v2(shown)["files"]) == 2


def test_without_pictures_or_controls_the_container_holds_less_and_classic_is_content() -> None:
    shown = _shown(controls=None)
    box = _box(layout.layout(shown, pictures=False))
    assert [c["type"] for c in box["components"]] == [10, 10]
    kwargs = layout.classic(_shown())
    assert kwargs["content"].startswith("**Ra #1**") and len(kwargs["files"]) == 2
    assert isinstance(kwargs["view"], discord.ui.View) and not kwargs["view"].has_components_v2()
    bare = layout.bare(_shown())
    assert bare.controls is None and bare.pngs == [b"", b""] and bare.names == _shown().names


def test_an_older_v2_message_keeps_its_text_and_pictures_without_its_rows() -> None:
    box = _box(layout.layout(_shown()))
    url = "https://cdn.example/attachments/1/2/ra-1-3.png"
    box["components"][1]["items"][0]["media"] = {"url": url + "?ex=1", "width": 1000}
    data = {
        "flags": layout.FLAG,
        "components": [box],
        "attachments": [{"url": url + "?ex=2", "filename": "ra-1-3.png"}],
    }
    (kept,) = layout.strip_controls(data) or []
    assert [c["type"] for c in kept["components"]] == [10, 12, 14, 10]
    assert kept["components"][1]["items"][0]["media"] == {"url": "attachment://ra-1-3.png"}
    assert kept["components"][1]["items"][1]["media"] == {"url": "attachment://ra-1-3-2.png"}
    assert layout.strip_controls({"flags": 0, "components": []}) is None  # classic: view=None
