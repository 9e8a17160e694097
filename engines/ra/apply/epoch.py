"""The end of an epoch in Ra: the tracks are cleared, the epoch is scored, and either the game
ends (after epoch 3) or the next epoch starts (docs/rules/ra.md#epoch-end)."""

from __future__ import annotations

from engines.events import Event
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
    Work,
)

_ZEROS = (0,) * NCODES


def epoch_end(w: Work, ev: Events) -> None:
    """Discard the tracks, score the epoch, then either end the game (epoch 3) or discard the
    held god, gold, flood, civilization and trader tiles, reset crates, turn every sun face up
    and give the first turn of the next epoch to the holder of the highest sun."""
    box = list(w.box)
    for c in w.track:
        box[c] += 1
    box[RA] += w.ra_track
    w.track = ()
    w.ra_track = 0
    end_auction(w)
    scores, rows = score_epoch(w)
    w.score = scores
    epoch = w.epoch
    w.history += ((epoch, rows),)
    ev.append(_epoch_event(w, rows))
    n = w.n
    if epoch >= data.EPOCHS:
        w.box = tuple(box)
        w.step = OVER
        ev.append(
            event(
                "game_over",
                "Game over: "
                + ", ".join([f"{{s{s}}} {scores[s]}" for s in range(n)])
                + f" (best {max(scores)})",
                {"scores": list(scores)},
            )
        )
        return
    tiles = w.tiles
    columns = tuple(zip(*tiles, strict=True))
    for c in LOSE:
        box[c] += sum(columns[c])
    w.box = tuple(box)
    kept = []
    for row in tiles:
        new: tuple[int, ...] = ()
        for a, b, keep in KEEP_RUNS:
            new += row[a:b] if keep else _ZEROS[a:b]
        kept.append(new)
    w.tiles = tuple(kept)
    w.crates = (0,) * n
    up = w.up = tuple([tuple(sorted(u + d)) for u, d in zip(w.up, w.down, strict=True)])
    w.down = ((),) * n
    epoch = w.epoch = epoch + 1
    top = [u[-1] for u in up]
    high = max(top)
    cur = w.cur = top.index(high)
    w.step = TURN
    ev.append(
        event(
            "epoch_start",
            f"Epoch {epoch} begins: {{s{cur}}} starts with sun {high}",
            {"epoch": epoch, "seat": cur},
        )
    )


def _epoch_event(w: Work, rows: tuple[ScoreRow, ...]) -> Event:
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


def end_auction(w: Work) -> None:
    w.a_ra = -1
    w.a_kind = 0
    w.a_order = ()
    w.a_idx = 0
    w.a_bids = ()
    w.a_high = 0
    w.a_high_seat = -1
