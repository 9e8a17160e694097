"""The end of an epoch in Ra: the tracks are cleared, the epoch is scored, and either the game
ends (after epoch 3) or the next epoch starts (docs/rules/ra.md#epoch-end)."""

from __future__ import annotations

from engines.events import Event
from engines.fastcopy import poke
from engines.ra import data
from engines.ra.apply.events import Events, event
from engines.ra.scoring import score_epoch
from engines.ra.state import (
    CIV,
    CIV_SLICE,
    FLOOD,
    KEEP_RUNS,
    LOSE,
    NCODES,
    NILE,
    O_HIDDEN,
    OVER,
    PHARAOH,
    RA,
    TURN,
    ScoreRow,
    State,
)

_ZEROS = (0,) * NCODES


def epoch_end(w: State, ev: Events) -> None:
    """Discard the tracks, score the epoch, then either end the game (epoch 3) or discard the
    held god, gold, flood, civilization and trader tiles, reset crates, turn every sun face up
    and give the first turn of the next epoch to the holder of the highest sun."""
    box = _clear_tracks(w)
    if w.a_ra != -1 or w.a_order or w.a_bids or w.a_kind or w.a_idx or w.a_high or w.a_high_seat != -1:
        end_auction(w)  # (an auction's settlement has reset them already)
    scores, rows = score_epoch(w)
    poke(w, "score", scores)
    poke(w, "history", w.history + ((w.epoch, rows),))
    ev.append(_epoch_event(w, rows))
    if w.epoch >= data.EPOCHS:
        poke(w, "box", tuple(box))
        poke(w, "step", OVER)
        ev.append(_game_over_event(scores))
        return
    _discard_held_tiles(w, box)
    _start_next_epoch(w, ev)


def _clear_tracks(w: State) -> list[int]:
    """Empty the auction track and the Ra track; the box counts with their tiles back in it."""
    box = list(w.box)
    for c in w.track:
        box[c] += 1
    box[RA] += w.ra_track
    poke(w, "track", ())
    poke(w, "ra_track", 0)
    return box


def _game_over_event(scores: tuple[int, ...]) -> Event:
    """The ``game_over`` event with every seat's final score."""
    return event(
        "game_over",
        "Game over: " + ", ".join([f"{{s{s}}} {v}" for s, v in enumerate(scores)]) + f" (best {max(scores)})",
        {"scores": list(scores)},
    )


def _discard_held_tiles(w: State, box: list[int]) -> None:
    """Return the tiles that do not survive an epoch (KEEP_RUNS says which do) to the box."""
    tiles = w.tiles
    columns = tuple(zip(*tiles, strict=True))
    for c in LOSE:
        box[c] += sum(columns[c])
    poke(w, "box", tuple(box))
    kept = []
    for row in tiles:
        new: tuple[int, ...] = ()
        for a, b, keep in KEEP_RUNS:
            new += row[a:b] if keep else _ZEROS[a:b]
        kept.append(new)
    poke(w, "tiles", tuple(kept))


def _start_next_epoch(w: State, ev: Events) -> None:
    """Reset crates, turn every sun face up and give the first turn to the highest sun."""
    n = w.n
    poke(w, "crates", (0,) * n)
    up = tuple([tuple(sorted(u + d)) for u, d in zip(w.up, w.down, strict=True)])
    poke(w, "up", up)
    poke(w, "down", ((),) * n)
    epoch = w.epoch + 1
    poke(w, "epoch", epoch)
    top = [u[-1] for u in up]
    high = max(top)
    cur = top.index(high)
    poke(w, "cur", cur)
    poke(w, "step", TURN)
    ev.append(
        event(
            "epoch_start",
            f"Epoch {epoch} begins: {{s{cur}}} starts with sun {high}",
            {"epoch": epoch, "seat": cur},
        )
    )


def _epoch_event(w: State, rows: tuple[ScoreRow, ...]) -> Event:
    """The ``epoch_score`` event; each row's ``counts`` say what the seat's score was counted
    from (public tiles and suns), so that a score sheet can say why a category scored nothing."""
    hidden = w.opts[O_HIDDEN]  # running totals stay private; epoch totals are public
    cats = data.CATEGORIES
    ncivs = len(CIV)
    tiles = w.tiles
    up = w.up
    down = w.down
    parts = []
    data_rows: list[dict[str, object]] = []
    for s, (points, floor, total, running) in enumerate(rows):
        t = tiles[s]
        row: dict[str, object] = {
            "seat": s,
            "points": dict(zip(cats, points, strict=True)),
            "floor": floor,
            "epoch_total": total,
            "counts": {
                "pharaohs": t[PHARAOH],
                "niles": t[NILE],
                "floods": t[FLOOD],
                "civ_kinds": ncivs - t[CIV_SLICE].count(0),
                "suns": sum(up[s]) + sum(down[s]),
            },
        }
        if hidden:
            parts.append(f"{{s{s}}} {total:+d}")
        else:
            parts.append(f"{{s{s}}} {total:+d} → {running}")
            row["running_total"] = running
        data_rows.append(row)
    epoch = w.epoch
    return event(
        "epoch_score", f"Epoch {epoch} scores: " + ", ".join(parts), {"epoch": epoch, "rows": data_rows}
    )


def end_auction(w: State) -> None:
    poke(w, "a_ra", -1)
    poke(w, "a_kind", 0)
    poke(w, "a_order", ())
    poke(w, "a_idx", 0)
    poke(w, "a_bids", ())
    poke(w, "a_high", 0)
    poke(w, "a_high_seat", -1)
