"""A seeded fuzz through the fake Discord: thousands of random hostile interactions (odd and
forged commands, options, custom ids and select values, clicks by the wrong people and from
another server, autocomplete) interleaved with legitimate moves, across one game of every
registered kind at once. Checks: no unhandled exception or error log line, every interaction
acknowledged in time, the database changed only by the legitimate moves (and the AI seats they
woke), and no answer to anyone carried ids hidden from them (see ``fuzz_leaks``).

``BAZAAR_FUZZ_SEED`` picks the seed (default 1). The long run is marked ``slow``
(``pytest -m slow tests/e2e/test_fuzz.py``); a short one runs with the suite.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from engines import base
from tests.e2e.bazaar_harness import make_table
from tests.e2e.fuzz_kit import Fuzz
from tests.e2e.fuzz_leaks import Leaks
from tests.fakediscord import FakeDiscord, RunBot

SEED = int(os.environ.get("BAZAAR_FUZZ_SEED", "1"))
NAMES = tuple(f"p{i}{x}" for i in range(len(base.games())) for x in "ab") + ("eve",)


async def _fuzz(fake: FakeDiscord, run_bot: RunBot, tmp_path: Path, total: int, batch: int) -> None:
    table = make_table(fake, run_bot, tmp_path, names=NAMES)
    other = fake.add_guild("Elsewhere", channels=["lounge"])
    fake.add_user("mal", guild=other)
    await table.boot()
    fuzz = Fuzz(table, SEED, batch=batch)
    try:
        await fuzz.setup()
        await fuzz.run(total)
    finally:
        fuzz.close()
    errors = [
        line for line, _ in fuzz.logs if "Traceback" in line or line.startswith(("Error in", "Command /"))
    ]
    records = [i for i in fake.interactions]
    unanswered = [
        i
        for i in records
        if i.expired
        or (i.kind != "autocomplete" and not i.acked)
        or (i.kind == "autocomplete" and i.choices is None)
    ]
    leaks = Leaks(fuzz)
    await leaks.load()
    found, searched = leaks.check()
    moves = {gid: await table.db_moves(gid) for gid in fuzz.places}
    by = {b for ms in moves.values() for _, _, b in ms}
    legit = sum(len(v) for v in fuzz.legit.values())
    hostile = [i for i in records if fuzz.phase_of.get(i.id, 0) and i.id not in fuzz.legit_ids]
    private = [i for i in hostile if any(m.ephemeral and m.visible_to == i.user.id for m in i.messages)]
    choices = [i for i in hostile if i.kind == "autocomplete"]
    answered = {i.id for i in private}
    silent = [i for i in hostile if i.kind != "autocomplete" and i.id not in answered]
    versions = {k: (await table.stored(g)).version for k, g in fuzz.games.items()}
    print(
        f"\nfuzz seed {SEED}: {sum(fuzz.sent.values())} hostile interactions "
        f"({', '.join(f'{k} {n}' for k, n in sorted(fuzz.sent.items()))}); "
        f"{len(records)} interactions in all; "
        f"{legit} legitimate moves accepted, {fuzz.refused_legit} refused; "
        f"{sum(len(m) for m in moves.values())} moves stored (by {sorted(by)}); "
        f"game versions {versions}; "
        f"{searched} texts searched for hidden ids; hostile answers: {len(private)} private, "
        f"{len(choices)} autocomplete, {len(silent)} silent"
    )
    assert errors == [], errors[:3]
    assert unanswered == [], unanswered[:5]
    assert silent == [], silent[:5]
    for gid, ms in moves.items():
        assert [(s, a) for s, a, b in ms if b == "player"] == fuzz.legit[gid], gid
        assert by <= {"player", "ai"}, by
    assert found == [], "\n".join(found[:10])
    assert fake.bot_errors == []
    assert legit >= len(fuzz.games), "the games did not advance"


async def test_fuzz_short(fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path) -> None:
    await _fuzz(fake_discord, run_bot, tmp_path, total=600, batch=30)


@pytest.mark.slow
async def test_fuzz_long(fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path) -> None:
    await _fuzz(fake_discord, run_bot, tmp_path, total=10_000, batch=60)
