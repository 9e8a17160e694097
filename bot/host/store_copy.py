"""Moving an install to another database (``bazaar db copy``): every game, seat, move, snapshot,
posted message and draft copied with its id, and the tables kept per channel (the message shape
each channel takes, the V2 media edits refused there), then checked on the target.

The check reads every game back from the target and compares it with the source (row, seats,
move log and snapshot, field by field), and replays every started game on the target from its
seed and move log: the replayed state's fingerprint must be the stored snapshot's. A game that
does not replay (its log no longer replays on the source either, since both read back the same) is
reported, not counted as a failed copy.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engines import base

from .store import COPY_TABLES, GameRecord, Store, digest
from .store_side import PER_PLACE


@dataclass
class CopyReport:
    """What :func:`copy_store` copied (rows per table) and found when checking the target."""

    rows: dict[str, int] = field(default_factory=dict)
    replayed: int = 0  # started games replayed on the target
    unreplayable: list[int] = field(default_factory=list)  # not replayable on the source either
    differences: list[str] = field(default_factory=list)  # what differs on the target (a failed copy)

    @property
    def ok(self) -> bool:
        return not self.differences

    def summary(self) -> str:
        counts = ", ".join(f"{n} {table}" for table, n in self.rows.items())
        line = f"copied {counts}; {self.replayed} started game(s) replay on the target to their snapshots"
        if self.unreplayable:
            line += (
                f"; {len(self.unreplayable)} game(s) did not replay on the source either"
                " (copied as they are: " + ", ".join(f"#{g}" for g in self.unreplayable[:10]) + ")"
            )
        return line


def replays(record: GameRecord) -> bool | None:
    """Whether the game's move log replays from its seed to its stored snapshot (None for a game
    not started, or whose engine is not installed)."""
    row = record.row
    if row.status not in ("active", "finished") and record.snapshot is None:
        return None
    try:
        engine = base.get(row.kind)
    except base.BadOption:
        return None
    try:
        state = None
        for step in base.replay_steps(
            engine, row.seed, len(record.seats), row.options, [(m.seat, m.action) for m in record.moves]
        ):
            state = step[0]
    except Exception:  # a rules change or a damaged log: this game does not replay
        return False
    snap = record.snapshot
    return (
        snap is not None
        and snap[0] == row.version == len(record.moves)
        and snap[2] == digest(base.state_fingerprint(state))
    )


async def copy_store(source: Store, target: Store) -> CopyReport:
    """Copy everything in ``source`` into the empty ``target`` (one transaction), then check it
    (see the module's description). Raises :class:`~bot.host.store.StoreError` if the target
    holds games already; returns the report, whose ``differences`` say what a failed check found."""
    rows = await source.export_rows()
    await target.import_rows(rows)
    report = CopyReport(rows={table: len(rows[table]) for table in COPY_TABLES})
    copied = await target.export_rows()
    for table in COPY_TABLES:
        if len(copied[table]) != len(rows[table]):
            report.differences.append(
                f"{table}: {len(rows[table])} rows in the source, {len(copied[table])} copied"
            )
        elif table in PER_PLACE and copied[table] != rows[table]:  # no game's: row for row
            report.differences.append(f"{table}: the rows read back differently from the target")
    for gid, *_rest in rows["games"]:
        there, here = await target.record(gid), await source.record(gid)
        if there != here:
            report.differences.append(f"game #{gid} reads back differently from the target")
            continue
        assert there is not None
        result = replays(there)
        if result is None:
            continue
        if result:
            report.replayed += 1
        else:  # the same as in the source, which does not replay either
            report.unreplayable.append(gid)
    return report
