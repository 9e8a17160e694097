"""What `bazaar demo` writes besides the boards: every interim sheet, the recap, and the index.html
contact sheets (valid, self-contained, every link to a file that is there)."""

from __future__ import annotations

import io
from html.parser import HTMLParser
from pathlib import Path

import pytest
from PIL import GifImagePlugin, Image

import render
from bot.offline import contact
from bot.offline.demo import ai_game, run_demo
from engines import base
from render import recap

VOID = {"meta", "img", "br", "hr", "link", "input"}


class Checked(HTMLParser):
    """Parses a page, failing on a tag closed out of order; collects links and what is fetched."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.links: list[str] = []
        self.tags: list[str] = []
        self.images: list[tuple[str, str]] = []  # (src, alt)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        self.tags.append(tag)
        if tag not in VOID:
            self.stack.append(tag)
        self.links += [v for k, v in attrs if k in ("href", "src") and v is not None]
        if tag == "img":
            self.images.append((a.get("src") or "", a.get("alt") or ""))

    def handle_endtag(self, tag: str) -> None:
        assert self.stack and self.stack[-1] == tag, f"</{tag}> closes {self.stack[-1:]}"
        self.stack.pop()


def check_page(path: Path) -> Checked:
    text = path.read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>") and '<meta charset="utf-8">' in text
    page = Checked()
    page.feed(text)
    page.close()
    assert page.stack == [], page.stack
    assert (
        page.tags.count("html")
        == page.tags.count("head")
        == page.tags.count("body")
        == page.tags.count("title")
        == 1
    )
    assert not {"script", "link", "iframe", "object"} & set(page.tags)
    for link in page.links:  # relative, to files that exist: nothing fetched from elsewhere
        assert "://" not in link and not link.startswith(("/", "//")), link
        assert (path.parent / link).is_file(), link
    assert all(alt for _, alt in page.images)
    return page


def test_a_demo_writes_every_interim_sheet_the_recap_and_contact_sheets(tmp_path: Path) -> None:
    game = next(e.name for e in base.games() if getattr(render.get(e.name), "interim_sheet", None))
    engine = base.get(game)
    n = engine.min_players
    res = run_demo(game, 2, n, {}, tmp_path)
    folder = res.folder
    # the interim sheets are those the renderer offers for one step's public events (what the bot posts)
    _, moves = ai_game(engine, 2, n, engine.resolve_options({}))
    expected = []
    for state, played in list(base.replay_steps(engine, 2, n, engine.resolve_options({}), moves))[1:]:
        assert played is not None  # (every step after the setup is a move)
        found = render.interim_sheet(game, engine.view(state, None), base.events_for(played.events, None))
        if found is not None:
            expected.append(found[0])
    sheets = sorted(folder.glob("sheet-*.png"))
    assert expected and res.sheets == len(sheets) == len(expected)
    assert [contact.title_of(p.name).split(" (after")[0].lower() for p in sheets] == [
        c.lower() for c in expected
    ]

    turns = sorted(p for p in folder.glob("turn-*.png") if not p.name.endswith("-2.png"))
    assert res.snapshots == len(turns) and res.recap is not None
    data = (folder / "recap.gif").read_bytes()
    assert data == res.recap.data and len(data) <= recap.BUDGET
    with Image.open(io.BytesIO(data)) as gif:
        assert isinstance(gif, GifImagePlugin.GifImageFile)
        assert gif.format == "GIF" and gif.n_frames == res.recap.frames == len(turns)

    page = check_page(folder / "index.html")
    shown = {src for src, _ in page.images}
    assert {"recap.gif", "final-score-sheet.png"} | {p.name for p in [*turns, *sheets]} <= shown
    assert "moves.log" in page.links

    top = check_page(tmp_path / "index.html")
    assert f"{folder.name}/index.html" in top.links and f"{folder.name}/recap.gif" in top.links


def test_the_out_index_lists_every_game_folder_and_titles_come_from_file_names(tmp_path: Path) -> None:
    two = next(e for e in base.games() if e.min_players <= 2)
    first = run_demo(two.name, 1, 2, {}, tmp_path, images=False)
    second = run_demo(two.name, 2, 2, {}, tmp_path, images=False)
    page = check_page(tmp_path / "index.html")
    assert {f"{first.folder.name}/index.html", f"{second.folder.name}/index.html"} <= set(page.links)
    assert "moves.log" in check_page(first.folder / "index.html").links
    assert contact.title_of("turn-0001-start.png") == "Start"
    assert contact.title_of("turn-0013.png") == "Turn 12"
    assert contact.title_of("sheet-0062-epoch-1-scoring.png") == "Epoch 1 scoring (after turn 61)"
    assert contact.title_of("final-hand-2.png") == "Final hand of seat 2"


@pytest.mark.parametrize("name", ['<b>"x"</b>', "a & b"])
def test_titles_are_escaped(tmp_path: Path, name: str) -> None:
    (tmp_path / "g").mkdir()
    contact.write_game_index(tmp_path / "g", name, [name])
    text = (tmp_path / "g" / "index.html").read_text()
    assert name not in text and check_page(tmp_path / "g" / "index.html")


def test_phone_html_shows_every_picture_at_phone_width_boards_with_their_second_picture(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``phone.html`` beside the game's files: every picture the demo wrote (boards each followed
    by its second picture, sheets, hands, the recap) at 450 px wide, the end first; drawn by the
    stand-in renderer with a second picture, so it checks the page whatever the games draw."""
    from tests.render_stub import use_stub

    use_stub(monkeypatch, extra_for={"pralaya"})
    res = run_demo("pralaya", 1, 3, {}, tmp_path)
    folder = res.folder
    boards = sorted(p.name for p in folder.glob("turn-*.png") if not p.name.endswith("-2.png"))
    seconds = sorted(p.name for p in folder.glob("turn-*-2.png"))
    assert len(boards) == res.snapshots and seconds == [b.replace(".png", "-2.png") for b in boards]
    page = check_page(folder / "phone.html")
    srcs = [src for src, _ in page.images]
    pictures = sorted(p.name for p in folder.iterdir() if p.suffix in (".png", ".gif"))
    assert sorted(srcs) == pictures  # every picture, once
    assert srcs[:2] == ["recap.gif", "final-score-sheet.png"]  # the end first
    assert srcs[2:5] == [f"final-hand-{s}.png" for s in (1, 2, 3)]
    for b in boards:  # a board's second picture right after it, as one message shows them
        assert srcs[srcs.index(b) + 1] == b.replace(".png", "-2.png")
    text = (folder / "phone.html").read_text()
    assert text.count('width="450"') == len(srcs) and "width: 450px" in text
    assert "phone.html" in check_page(folder / "index.html").links
    assert f"{folder.name}/phone.html" in check_page(tmp_path / "index.html").links
    # the recap: one frame per board written, each that board (caption included), one size
    with (
        Image.open(io.BytesIO((folder / "recap.gif").read_bytes())) as gif,
        Image.open(folder / boards[0]) as first,
    ):
        assert isinstance(gif, GifImagePlugin.GifImageFile)
        assert gif.n_frames == len(boards) and gif.size == first.size
