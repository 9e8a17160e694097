"""Contact sheets for ``bazaar demo``'s output: ``index.html`` of one game folder (the recap, the
final sheet and hands, the interim sheets and every turn, as thumbnails linking to the files)
and of the output folder (one card per game folder).

Plain HTML5 with its style inline: relative links only, no scripts, fonts or anything fetched
from elsewhere, so a folder can be opened, zipped or moved as it is.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

STYLE = """
body { font: 15px/1.4 system-ui, sans-serif; margin: 1.5em; background: #f6f1e6; color: #22201e; }
h1 { font-size: 1.4em; margin: 0 0 .3em; } h2 { font-size: 1.1em; margin: 1.4em 0 .5em; }
pre { background: #fffcf5; padding: .6em; border: 1px solid #cec4b2; overflow-x: auto; }
.grid { display: flex; flex-wrap: wrap; gap: 12px; }
figure { margin: 0; width: 240px; }
figure.big { width: min(100%, 520px); }
figure img { width: 100%; height: auto; border: 1px solid #cec4b2; background: #fff; }
figcaption { font-size: .85em; color: #766e64; }
"""

_TURN = re.compile(r"^turn-(\d+)(-start)?\.png$")
_SECOND = re.compile(r"^turn-(\d+)(-start)?-2\.png$")  # the second picture posted with a board
_SHEET = re.compile(r"^sheet-(\d+)-(.+)\.png$")
_HAND = re.compile(r"^final-hand-(\d+)\.png$")


def title_of(name: str) -> str:
    """A caption for a file ``bazaar demo`` writes, from its name alone ("Turn 12", "Start",
    "Epoch 1 scoring (after turn 40)", "Final hand of seat 2", …)."""
    if name == "recap.gif":
        return "Recap: one board per turn"
    if name == "final-score-sheet.png":
        return "Final score sheet"
    if m := _TURN.match(name):
        return "Start" if m.group(2) else f"Turn {int(m.group(1)) - 1}"
    if m := _SECOND.match(name):
        return ("Start" if m.group(2) else f"Turn {int(m.group(1)) - 1}") + ", second picture"
    if m := _SHEET.match(name):
        return f"{m.group(2).replace('-', ' ').capitalize()} (after turn {int(m.group(1)) - 1})"
    if m := _HAND.match(name):
        return f"Final hand of seat {m.group(1)}"
    return name


def _figure(href: str, caption: str, *, big: bool = False) -> str:
    h, c = html.escape(href, quote=True), html.escape(caption)
    cls = ' class="big"' if big else ""
    return (
        f'<figure{cls}><a href="{h}"><img src="{h}" alt="{c}" loading="lazy"></a>'
        f"<figcaption>{c}</figcaption></figure>"
    )


def _page(title: str, body: list[str]) -> str:
    t = html.escape(title)
    return "\n".join(
        [
            "<!DOCTYPE html>",
            '<html lang="en">',
            "<head>",
            '<meta charset="utf-8">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f"<title>{t}</title>",
            f"<style>{STYLE}</style>",
            "</head>",
            "<body>",
            f"<h1>{t}</h1>",
            *body,
            "</body>",
            "</html>",
            "",
        ]
    )


def _section(heading: str, figures: list[str]) -> list[str]:
    if not figures:
        return []
    return [f"<h2>{html.escape(heading)}</h2>", '<div class="grid">', *figures, "</div>"]


def game_index(folder: Path, title: str, result: list[str] | None = None) -> str:
    """The contact sheet of one game folder, from the files in it."""
    names = sorted(p.name for p in folder.iterdir() if p.is_file())
    top = [_figure(n, title_of(n), big=True) for n in ("recap.gif", "final-score-sheet.png") if n in names]
    body = []
    if result:
        body += ["<h2>Result</h2>", f"<pre>{html.escape(chr(10).join(result))}</pre>"]
    body += _section("The game", top)
    body += _section("Final hands", [_figure(n, title_of(n)) for n in names if _HAND.match(n)])
    body += _section("Interim sheets", [_figure(n, title_of(n)) for n in names if _SHEET.match(n)])
    body += _section(
        "Every turn", [_figure(n, title_of(n)) for n in names if _TURN.match(n) or _SECOND.match(n)]
    )
    if "phone.html" in names:
        body.append('<p><a href="phone.html">phone.html</a>: every picture at a phone\'s width (450 px)</p>')
    if "moves.log" in names:
        body.append('<p><a href="moves.log">moves.log</a> (replay it with <code>bazaar replay</code>)</p>')
    return _page(title, body)


def write_game_index(folder: Path, title: str, result: list[str] | None = None) -> Path:
    """Write :func:`game_index` to ``folder/index.html``; returns its path."""
    path = folder / "index.html"
    path.write_text(game_index(folder, title, result), encoding="utf-8")
    return path


PHONE_PX = 450
"""How wide Discord shows an image on a phone."""
PHONE_STYLE = f"""
body {{ font: 15px/1.4 system-ui, sans-serif; margin: 1em; background: #313338; color: #dbdee1; }}
h1 {{ font-size: 1.2em; }} h2 {{ font-size: 1em; margin: 1.2em 0 .3em; color: #b5bac1; }}
img {{ display: block; width: {PHONE_PX}px; height: auto; margin: 0 0 6px; }}
a {{ color: #00a8fc; }}
"""


def _order(name: str) -> tuple[int, int, int, str]:
    """Where a picture goes on the phone page: the end first (recap, final sheet, hands), then
    every turn in play order with the sheets posted on the way, each board before its second
    picture."""
    top = {"recap.gif": 0, "final-score-sheet.png": 1}
    if name in top:
        return (top[name], 0, 0, name)
    if _HAND.match(name):
        return (2, 0, 0, name)
    m = _TURN.match(name) or _SECOND.match(name) or _SHEET.match(name)
    turn = int(m.group(1)) if m else 10**9
    return (3, 2 * turn + (1 if _SHEET.match(name) else 0), 1 if _SECOND.match(name) else 0, name)


def phone_page(folder: Path, title: str) -> str:
    """Every picture of a game folder at :data:`PHONE_PX` wide, as a phone shows them: one
    heading per post (a board and its second picture together)."""
    pictures = sorted(
        (p.name for p in folder.iterdir() if p.suffix in (".png", ".gif") and p.is_file()), key=_order
    )
    body = [
        f"<p>Every picture at {PHONE_PX} px wide, as Discord shows it on a phone. "
        '<a href="index.html">All files</a></p>'
    ]
    for name in pictures:
        if not _SECOND.match(name):
            body.append(f"<h2>{html.escape(title_of(name))}</h2>")
        h = html.escape(name, quote=True)
        body.append(f'<img src="{h}" alt="{html.escape(title_of(name))}" width="{PHONE_PX}" loading="lazy">')
    page = _page(f"{title}: on a phone", body)
    return page.replace(f"<style>{STYLE}</style>", f"<style>{PHONE_STYLE}</style>")


def write_phone_page(folder: Path, title: str) -> Path:
    """Write :func:`phone_page` to ``folder/phone.html``; returns its path."""
    path = folder / "phone.html"
    path.write_text(phone_page(folder, title), encoding="utf-8")
    return path


def _game_title(folder: Path) -> str:
    m = re.search(r"<title>(.*?)</title>", (folder / "index.html").read_text(encoding="utf-8"))
    return html.unescape(m.group(1)) if m else folder.name


def out_index(out_dir: Path) -> str:
    """The contact sheet of an output folder: each game folder holding an ``index.html``, shown
    by its recap (or its final sheet) and linking to its own contact sheet."""
    cards = []
    for folder in sorted(p for p in out_dir.iterdir() if (p / "index.html").is_file()):
        shown = next((n for n in ("recap.gif", "final-score-sheet.png") if (folder / n).is_file()), None)
        link = html.escape(f"{folder.name}/index.html", quote=True)
        caption = html.escape(f"{_game_title(folder)} ({folder.name})")
        img = (
            f'<img src="{html.escape(f"{folder.name}/{shown}", quote=True)}" alt="{caption}" loading="lazy">'
            if shown
            else ""
        )
        phone = (
            f' · <a href="{html.escape(f"{folder.name}/phone.html", quote=True)}">on a phone</a>'
            if (folder / "phone.html").is_file()
            else ""
        )
        cards.append(
            f'<figure><a href="{link}">{img}</a><figcaption><a href="{link}">{caption}</a>{phone}'
            "</figcaption></figure>"
        )
    return _page("Bazaar demo games", _section("Games", cards) or ["<p>No games yet.</p>"])


def write_out_index(out_dir: Path) -> Path:
    """Write :func:`out_index` to ``out_dir/index.html``; returns its path."""
    path = out_dir / "index.html"
    path.write_text(out_index(out_dir), encoding="utf-8")
    return path
