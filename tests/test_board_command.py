"""The terminal's ``board`` command: the text map (Phraya) and the board picture in a file."""

from __future__ import annotations

import io
import re
from pathlib import Path

from bot.offline import boardcmd
from bot.offline.terminal import play_terminal
from engines.phraya import ENGINE as E
from engines.phraya.describe.textmap import text_map
from engines.phraya.positions import build
from engines.phraya.state import MOVE

NAMES = ["Ann", "Bob", "Cy"]


def _rows(text: str) -> dict[int, list[str]]:
    """The island rows of the map: row number -> its lines (top, middle with the label, low)."""
    lines = text.splitlines()
    out = {}
    for i, line in enumerate(lines):
        m = re.match(r"row (\d) ", line)
        if m:
            out[int(m.group(1))] = lines[i - 1 : i + 2]
    return out


def test_map_shows_sections_stalls_owners_boats_and_barge() -> None:
    s = build(3, step=MOVE, boats={0: "h12", 1: "v01"}, fill_boats=True, owners={"h02n": 1, "h12n": 0})
    text = text_map(E.view(s, 0), NAMES)
    for sec in ("h00", "h12", "v01", "v23"):
        assert sec in text
    assert "h12 <P>" in text and "<O>" in text  # boats, by colour letter
    assert "P = Ann" in text and "O = Bob" in text and "W = Cy" in text
    assert "BARGE" in text and text.count("BARGE") == 2  # on x11, and in the key
    rows = _rows(text)
    # h02n (meat, Bob's) is on the south side of island row 0, column 2; h12n (veg) on row 1's
    low0 = rows[0][2]
    assert "meatO" in low0 and low0.index("meatO") > low0.index("Temple")
    assert "vegP" in rows[1][2]
    # a restaurant lists its order by the restaurant's id, as the move lists do
    oid = s.orders_on[s.board.restaurants.index("h02s")]
    assert "h02s" in text and "Rest" in rows[1][0]
    assert oid not in text
    # the sections reachable now are marked
    assert any(f"[{x}]" in text for x in E.view(s, 0)["reachable"])


def test_map_hides_what_the_view_hides() -> None:
    s = build(3, step=MOVE, boats={0: "h12"}, fill_boats=True)
    text = text_map(E.view(s, 0), NAMES)
    for tile in s.stall_baskets:
        assert tile not in text
    assert "veg/" not in text and "fruit/" not in text


def test_board_command_prints_the_map_and_writes_the_picture(tmp_path: Path) -> None:
    out = io.StringIO()
    save = tmp_path / "state" / "play.log"
    lines = iter(["board", "quit"])
    code = play_terminal("phraya", 3, 0, seed=3, read=lambda p: next(lines), out=out, save=save, level="easy")
    assert code == 0
    text = out.getvalue()
    assert "row 0" in text and "Owners: P = You" in text
    png = save.with_name("phraya-board.png")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert str(png) in text
    assert text.rstrip().endswith("continues it.")  # quit after: the game stays saved


def test_board_command_for_a_game_without_a_map(tmp_path: Path) -> None:
    out = io.StringIO()
    lines = iter(["board", "quit"])
    save = tmp_path / "play.log"
    code = play_terminal("ra", 3, 0, seed=3, read=lambda p: next(lines), out=out, save=save, level="easy")
    assert code == 0
    assert (tmp_path / "ra-board.png").read_bytes()[:4] == b"\x89PNG"
    assert "row 0" not in out.getvalue()


def test_png_path_without_a_save_file() -> None:
    p = boardcmd.png_path("phraya", None)
    assert p.name == "bazaar-phraya-board.png"
