"""Pictures of one turn's message per game, for the README: the real bot plays a few moves of each
game against the fake Discord of the tests (as ``benchmarks.messages`` does), and the newest turn
message the fake stored is drawn as a Discord client shows a Components V2 message: the container
with its accent bar, its text (mentions as @names, bold without its stars, the footer small), the
pictures of its gallery and its rows of controls. Written to ``docs/img/turn-<game>.png`` at 900
px wide, to be looked at 450 px wide (a phone's width at twice its density).

Run: ``python -m benchmarks.turnshots [--out docs/img] [game ...]``.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.messages import GAMES, playing  # noqa: E402

WIDTH, PAD, BAR = 900, 24, 8
BG, BOX, INK, DIM, BUTTON = (49, 51, 56), (43, 45, 49), (219, 222, 225), (148, 155, 164), (78, 80, 88)
FONTS = ROOT / "render" / "assets" / "fonts"


def _font(size: int, bold: bool = False) -> Any:
    return ImageFont.truetype(str(FONTS / ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")), size)


def plain(text: str, names: dict[int, str]) -> str:
    """A TextDisplay's markdown as a reader sees it: mentions as @names, times as words."""
    text = re.sub(r"<@!?(\d+)>", lambda m: "@" + names.get(int(m.group(1)), "someone"), text)
    text = re.sub(r"<t:\d+:R>", "in 24 hours", text)
    return text.replace("**", "").replace("`", "")


def _wrap(draw: ImageDraw.ImageDraw, line: str, font: Any, width: int) -> list[str]:
    words, out, cur = line.split(" "), [], ""
    for w in words:
        trial = f"{cur} {w}".strip()
        if draw.textlength(trial, font=font) <= width or not cur:
            cur = trial
        else:
            out.append(cur)
            cur = w
    return [*out, cur]


def _blocks(msg: Any, names: dict[int, str]) -> list[tuple[str, Any]]:
    """What the container shows, top to bottom: ("text", str), ("small", str), ("image", Image),
    ("rule", None), ("row", [labels])."""
    out: list[tuple[str, Any]] = []
    images = iter(msg.images)
    box = next((c for c in msg.components if c.get("type") == 17), {"components": msg.components})
    for c in box.get("components", []):
        kind = c.get("type")
        if kind == 10:
            said = plain(c.get("content", ""), names)
            out.append(("small", said[3:]) if said.startswith("-# ") else ("text", said))
        elif kind == 12:
            out.extend(
                ("image", Image.open(io.BytesIO(next(images).data)).convert("RGB")) for _ in c["items"]
            )
        elif kind == 14:
            out.append(("rule", None))
        elif kind == 1:
            out.append(
                ("row", [b.get("label") or b.get("placeholder") or "…" for b in c.get("components", [])])
            )
    return out


def draw_message(msg: Any, names: dict[int, str]) -> Image.Image:
    """``msg`` (a V2 message as the fake stores it) drawn as a client shows it."""
    inner = WIDTH - 2 * PAD - BAR - 2 * PAD
    probe = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    text_font, small_font, button_font = _font(28), _font(22), _font(24, bold=True)
    laid: list[tuple[str, Any, int]] = []
    for kind, what in _blocks(msg, names):
        if kind in ("text", "small"):
            font = text_font if kind == "text" else small_font
            lines = [w for line in what.split("\n") for w in _wrap(probe, line, font, inner)]
            laid.append((kind, lines, len(lines) * (font.size + 10) + 8))
        elif kind == "image":
            img = what.resize((inner, round(what.height * inner / what.width)), Image.Resampling.LANCZOS)
            laid.append((kind, img, img.height + 12))
        elif kind == "rule":
            laid.append((kind, None, 20))
        else:
            laid.append((kind, what, 64))
    height = sum(h for _, _, h in laid) + 4 * PAD
    out = Image.new("RGB", (WIDTH, height), BG)
    d = ImageDraw.Draw(out)
    accent = msg.accent_color if msg.accent_color is not None else 0x5865F2
    d.rounded_rectangle((PAD, PAD, WIDTH - PAD, height - PAD), 12, fill=BOX)
    d.rectangle(
        (PAD, PAD, PAD + BAR, height - PAD), fill=((accent >> 16) & 255, (accent >> 8) & 255, accent & 255)
    )
    x, y = PAD + BAR + PAD, 2 * PAD
    for kind, what, h in laid:
        if kind in ("text", "small"):
            font, ink = (text_font, INK) if kind == "text" else (small_font, DIM)
            for i, line in enumerate(what):
                d.text((x, y + i * (font.size + 10)), line, font=font, fill=ink)
        elif kind == "image":
            out.paste(what, (x, y))
        elif kind == "rule":
            d.line((x, y + 8, x + inner, y + 8), fill=BUTTON, width=2)
        else:
            _row(d, what, x, y, inner, button_font)
        y += h
    return out


def _row(d: ImageDraw.ImageDraw, labels: list[str], x: int, y: int, inner: int, font: Any) -> None:
    """One row of controls: buttons side by side (a menu, alone, the row's width)."""
    gap = 10
    width = (inner - gap * (len(labels) - 1)) // max(1, len(labels))
    for i, label in enumerate(labels):
        left = x + i * (width + gap)
        d.rounded_rectangle((left, y, left + width, y + 52), 8, fill=BUTTON)
        shown = label
        while d.textlength(shown, font=font) > width - 16 and len(shown) > 2:
            shown = shown[:-2] + "…"
        d.text((left + width / 2, y + 26), shown, font=font, fill=INK, anchor="mm")


async def shoot(game: str, out: Path, folder: Path, moves: int) -> Path:
    """Play ``moves`` moves of ``game`` in V2 and draw its newest turn message into ``out``."""
    async with playing(game, "v2", folder) as (fake, table, gid, place):
        for i in range(moves):
            if (await table.stored(gid)).status != "active":
                break
            await table.play_one(gid, place, "button" if i % 2 else "move")
        await table.settle()
        names = {u.id: name for name, u in table.players.items()}
        names[fake.bot_user.id] = "Bazaar"
        img = draw_message(table.last_turn(place), names)
    path = out / f"turn-{game}.png"
    img.quantize(256, method=Image.Quantize.MEDIANCUT).save(path, optimize=True)  # a small file for the repo
    return path


def main() -> None:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.turnshots", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "img")
    parser.add_argument("--moves", type=int, default=5, help="moves played before the picture (default 5)")
    parser.add_argument("games", nargs="*", help=f"games (default: {' '.join(GAMES)})")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)

    async def all_games() -> None:
        with tempfile.TemporaryDirectory() as tmp:
            for game in args.games or list(GAMES):
                print(await shoot(game, args.out, Path(tmp) / game, args.moves))

    asyncio.run(all_games())


if __name__ == "__main__":
    main()
