"""Ra as plain text (Discord markdown): the board, the viewer's prompt, legal actions and score
preview when the view has ``me``, and the ranking once the game is over. At most 1900 chars."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engines.base import format_text
from engines.ra.view import AuctionView, PlayerView, RaView
from render.common import ordinal, score_lines, seat_names, signed
from render.ra.art import CIVS, MONUMENTS, tile_abbr, tile_name
from render.ra.board import KIND_LABEL, STEP_LABEL, owed_text
from render.ra.hand import final_line, preview_categories

LIMIT = 1900


def _tiles(p: PlayerView, traders: bool, short: bool) -> str:
    """'Gods 1 · Gold 2 · Pharaohs 3 · Nile 2 · Flood 1 · Civ (2): Astronomy, Art×2 · …'."""
    t = p["tiles"]
    label = tile_abbr if short else tile_name
    bits = []
    for code, word in (
        ("god", "Gods"),
        ("gold", "Gold"),
        ("pharaoh", "Pharaohs"),
        ("nile", "Nile"),
        ("flood", "Flood"),
    ):
        if t.get(code):
            bits.append(f"{word} {t[code]}")
    for codes, word in ((CIVS, "Civ"), (MONUMENTS, "Mon")):
        held = [c for c in codes if t.get(c)]
        if held:
            items = ", ".join(label(c) + (f"×{t[c]}" if t[c] > 1 else "") for c in held)
            bits.append(f"{word} ({len(held)}): {items}")
    if traders:
        bits.append(f"Traders {p['traders']} · crates {p['crates']}")
    return " · ".join(bits) if bits else "no tiles"


def _seat_line(view: RaView, nm: Sequence[str], s: int, short: bool) -> str:
    p = view["players"][s]
    traders = bool(view["options"].get("traders", True))
    mark = " ▶" if s in view["to_move"] else ""
    score = p["score"]
    up = " ".join(str(v) for v in p["up"]) or "none"
    down = " ".join(str(v) for v in p["down"])
    last = int(view["epoch"]) >= 3  # no next epoch: they only count in the sun totals
    suns = f"suns {up}" + (f" (face down{'' if last else ' till next epoch'}: {down})" if down else "")
    pts = "?" if score is None else str(score)
    return f"**{nm[s]}**{mark} — {pts} pts · {suns} · {_tiles(p, traders, short)}"


def text(view: RaView, names: Sequence[str] | None = None, *, moves: bool = True) -> str:
    """The view as Discord markdown text, at most 1900 characters, with names for ``{sN}``;
    without the viewer's legal actions when ``moves`` is false (the terminal lists them)."""
    nm = seat_names(names, int(view["n_players"]))
    for short in (False, True):
        out = _compose(view, nm, short, moves)
        if len(out) <= LIMIT:
            return out
    return out[: LIMIT - 1] + "…"


def _compose(view: RaView, nm: Sequence[str], short: bool, moves: bool = True) -> str:
    n = int(view["n_players"])
    step = STEP_LABEL.get(view["step"], view["step"])
    lines = [f"**Ra** · Epoch {view['epoch']}/3 · {step}"]
    if view["headline"] and not view["over"]:  # at the end the Final line says it
        lines.append(format_text(view["headline"], list(nm)))
    lines.append(
        f"Ra track {view['ra_track']}/{view['ra_limit']} · centre sun "
        f"{view['center']} · bag {view['bag_total']}"
    )
    track = view["track"]
    lab = tile_abbr if short else tile_name
    lines.append(f"Auction track ({len(track)}/8): " + (", ".join(lab(c) for c in track) or "empty"))
    a = view["auction"]
    if a:
        lines.append(_auction_line(a, nm))
    p = view["pending"]
    if p:
        lines.append(f"Disaster: {nm[int(p['seat'])]} must discard {owed_text(p)}")
    lines.append("")
    lines += [_seat_line(view, nm, s, short) for s in range(n)]
    lines += _me_lines(view, nm, moves)
    out = view["outcome"]
    if view["over"] and out:
        lines.append("")
        order = sorted(range(n), key=lambda s: (out["ranks"][s], s))
        ranking = [
            f"{ordinal(out['ranks'][s])} {nm[s]} {out['scores'][s]} pts"
            + (" 🏆" if s in out.get("winners", []) else "")
            for s in order
        ]
        lines.append("**Final:** " + " · ".join(ranking))
    return "\n".join(lines)


def _auction_line(a: AuctionView, nm: Sequence[str]) -> str:
    """The running auction in one line: kind, Ra player, high bid, bids so far, who is to bid."""
    rp = int(a["ra_player"])
    s = f"Auction: {KIND_LABEL.get(a['kind'], a['kind'])} by {nm[rp]}"
    if a["forced"]:  # the Ra player has to bid only when everyone else passes
        alone = list(a["to_bid"]) == [rp]
        s += " (must bid)" if alone else f" ({nm[rp]} must bid if everyone else passes)"
    high = a["high"]
    s += f" · high {high['sun']} by {nm[int(high['seat'])]}" if high else " · no bid yet"
    done = [f"{nm[int(b['seat'])]} {'pass' if b['sun'] is None else b['sun']}" for b in a["bids"]]
    if done:
        s += " · so far: " + ", ".join(done)
    if a["to_bid"]:
        s += " · to bid: " + " → ".join(nm[x] for x in a["to_bid"])
    return s


def _me_lines(view: RaView, nm: Sequence[str], moves: bool) -> list[str]:
    """A seat's own lines: its prompt (or final rank), its moves and its epoch preview."""
    me = view["me"]
    if not me:
        return []
    lines = [""]
    if view["over"]:  # the header says the game is over: the rank, not that again
        lines.append(final_line(view, nm, int(me["seat"])))
    elif me["prompt"]:
        prompt = format_text(me["prompt"], list(nm))
        lines.append(f"**Your move:** {prompt}" if me["legal"] else prompt)
    if me["legal"] and moves:
        lines.append("Actions: " + " ".join(f"`{x}`" for x in me["legal"]))
    prev = me["preview"]
    if prev and not view["over"]:
        cats = preview_categories(view, prev)
        delta = sum(int(v) for v in prev.values())
        lines.append(
            f"If epoch {view['epoch']} ended now: "
            + " · ".join(f"{c} {signed(int(prev[c]))}" for c in cats)
            + f" = **{signed(delta)}**"
        )
    return lines


def _most_fewest_reason(values: Sequence[int], mine: int, what: str) -> str:
    if mine == 1 and what[:1].isupper() and what.endswith("s"):
        what = what[:-1]  # "1 Pharaoh"
    if min(values) == max(values):
        return f"everyone has {mine} {what}, so nobody scores"
    return f"{mine} {what}: neither the most nor the fewest"


def _epoch_zeros(row: dict[str, Any], rows: Sequence[dict[str, Any]], final: bool) -> list[tuple[str, str]]:
    """The categories of one seat's epoch row that scored 0 although it held something for them,
    each with its reason (from the counts the epoch was scored on)."""
    pts, cnt = row.get("points") or {}, row.get("counts")
    if not cnt:
        return []
    counts = [r.get("counts") or {} for r in rows]
    out: list[tuple[str, str]] = []
    if not pts.get("Pharaohs") and cnt["pharaohs"]:
        out.append(
            (
                "Pharaohs",
                _most_fewest_reason([c.get("pharaohs", 0) for c in counts], cnt["pharaohs"], "Pharaohs"),
            )
        )
    if not pts.get("Nile & floods") and cnt["niles"] and not cnt["floods"]:
        k = cnt["niles"]
        out.append(
            ("Nile & floods", f"{k} Nile{'s' if k > 1 else ''} but no flood; Niles score only with a flood")
        )
    if not pts.get("Civilizations") and cnt["civ_kinds"]:
        k = cnt["civ_kinds"]
        out.append(("Civilizations", f"{k} kind{'s' if k > 1 else ''}; 3 or more kinds score (none costs 5)"))
    if final and not pts.get("Suns"):
        suns = [c.get("suns", 0) for c in counts]
        why = (
            _most_fewest_reason(suns, cnt["suns"], "in suns")
            if min(suns) != max(suns)
            else "every player's suns add up to the same, so nobody scores"
        )
        out.append(("Suns", why))
    return out


def epoch_text(events: Sequence[Any], names: Sequence[str] | None = None) -> str | None:
    """The scoring of each epoch that ``events`` (public events of one batch) closed, by category
    per seat with the reason for a zero; None when no epoch was scored."""
    blocks = []
    for e in events:
        if e.kind != "epoch_score":
            continue
        rows = list(e.data.get("rows") or [])
        nm = seat_names(names, len(rows))
        epoch = int(e.data.get("epoch", 0))
        lines = [f"Epoch {epoch} scoring"]
        for row in rows:
            s = int(row["seat"])
            run = row.get("running_total")
            floor = int(row.get("floor") or 0)
            lines.append(
                f"{nm[s]}: {signed(int(row['epoch_total']))}"
                + (f" → {run} pts" if run is not None else "")
                + (f" (lifted {floor} to the zero floor)" if floor else "")
            )
            parts = [f"{c} {signed(int(p))}" for c, p in (row.get("points") or {}).items() if p]
            if parts:
                lines.append("   " + " · ".join(parts))
            lines += [f"   {c}: {why}" for c, why in _epoch_zeros(row, rows, epoch == 3)]
        blocks.append("\n".join(lines))
    return "\n".join(blocks) if blocks else None


def score_text(view: RaView, names: Sequence[str] | None = None) -> str:
    """The final score of a finished game's view: each seat's total, best first, with the points
    of every category over the three epochs (the epoch sheets give the reasons for zeros)."""
    out = view["outcome"]
    if not view["over"] or not out:
        return ""
    n = int(view["n_players"])
    nm = seat_names(names, n)
    lines = ["Final scoring"]
    for s in sorted(range(n), key=lambda s: (out["ranks"][s], s)):
        bd = (out.get("breakdown") or [])[s] or {}
        note = out["notes"][s] if s < len(out.get("notes") or []) else ""
        lines += score_lines(
            out["ranks"][s],
            nm[s],
            out["scores"][s],
            [(c, int(bd.get(c, 0))) for c in out["categories"]],
            note=note,
        )
    return "\n".join(lines)
