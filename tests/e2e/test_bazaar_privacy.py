"""Hidden information: every DM and ephemeral answer carries exactly its recipient's view, and the
channel only ever the spectator view; private events reach only their owner."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import render
from engines import base
from engines.pralaya.state import BUY
from render.common import to_png
from tests.e2e.bazaar_harness import (
    board_pngs,
    decode_view_image,
    install_toy_secret,
    make_table,
    replay_states,
    shown,
)
from tests.fakediscord import FakeDiscord, RunBot

MOVE = re.compile(r"\(move (\d+)\)|· move (\d+)")


def _version(content: str) -> int:
    m = MOVE.search(content)
    assert m, content
    return int(m.group(1) or m.group(2))


async def test_pralaya_dms_and_channel_show_only_the_right_views(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    gid, thread = await table.start_game("ann", ("bob",), 1)
    for i in range(14):
        await table.play_one(gid, thread, "button" if i % 2 else "move")

    row = await table.stored(gid)
    seats = await table.bot.service.store.seats(gid)
    names = [s.name for s in seats]
    engine = base.get("pralaya")
    states = replay_states(engine, row.seed, len(seats), row.options, await table.db_moves(gid))
    pr = render.get("pralaya")

    # the channel: every board (every version of an edited one) is the spectator view of its
    # version, nothing else
    boards = [(content, png) for m in fake.messages(thread) for content, png in shown(fake, m) if png]
    ids = [m.id for m in fake.messages(thread) for _, png in shown(fake, m) if png]
    assert len(boards) >= 8
    expected = board_pngs(
        "pralaya",
        row.seed,
        len(seats),
        row.options,
        await table.db_moves(gid),
        names,
        [_version(content) for content, _ in boards],
        ids,
    )
    for (content, png), want in zip(boards, expected, strict=True):
        state = states[_version(content)]
        assert png == want
        for secret in engine.secrets(state, None):
            assert secret not in content
    assert not any(m.attachments for m in fake.messages(table.channel))  # lobby channel: no boards

    # the DMs: each person's own view, text and image, and only theirs
    seen_hands = set()
    for seat in seats:
        user = table.players[seat.name] if seat.user_id else None
        if user is None:
            continue
        dms = fake.dms(user)
        dm = fake.dm_channel(user)
        assert dms and dm is not None and all(m.channel_id == dm.id for m in dms)
        for content, dm_png in (v for m in dms for v in shown(fake, m)):  # every version of every DM
            state = states[_version(content)]
            own = engine.view(state, seat.seat)
            assert pr.text(own, names) in content
            assert dm_png == to_png(pr.hand(own, names))
            for other in range(len(seats)):
                other_text = pr.text(engine.view(state, other), names)
                if other != seat.seat and other_text != pr.text(own, names):
                    assert other_text not in content
            for secret in engine.secrets(state, seat.seat):
                assert secret not in content
            seen_hands.add(json.dumps(own["me"]["hand"], sort_keys=True))
    assert len(seen_hands) > 2  # the hands did change during the game, and DMs followed them
    assert fake.dms(table.players["cy"]) == []  # nobody else got a DM

    # /hand and "My hand" answer ephemerally with the caller's own view; spectators get a refusal
    final = states[-1]
    h = await fake.slash(table.players["bob"], thread, "hand")
    assert h.ephemeral and h.response is not None and h.response.visible_to == table.players["bob"].id
    assert pr.text(engine.view(final, 1), names) in h.text
    assert h.attachments[0].data == to_png(pr.hand(engine.view(final, 1), names))
    turn = table.last_turn(thread)
    h = await fake.click(table.players["ann"], turn, label="My hand")
    await table.settle()
    assert h.followups[-1].ephemeral and pr.text(engine.view(final, 0), names) in h.followups[-1].text
    h = await fake.click(table.players["cy"], turn, label="My hand")
    await table.settle()
    assert h.followups[-1].ephemeral and "not playing" in h.followups[-1].text


@pytest.fixture
def toy_secret() -> Iterator[None]:
    remove = install_toy_secret()
    yield
    remove()


async def test_private_events_and_hidden_cards_reach_only_their_owner(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path, toy_secret: None
) -> None:
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    gid, thread = await table.start_game("ann", ("bob", "cy"), 0, game="toysecret")
    while (await table.stored(gid)).status == "active":
        await table.play_one(gid, thread, "move")
    await table.recaps_posted()  # its spectator boards are checked below too
    row = await table.stored(gid)
    engine = base.get("toysecret")
    moves = await table.db_moves(gid)
    states = replay_states(engine, row.seed, 3, row.options, moves)
    assert [a for _, a, _ in moves] == ["draw"] * 6

    # channel: only spectator views, never a card of anyone's hand before the end
    for content, png in (v for m in fake.messages(thread) for v in shown(fake, m)):
        if png is not None and png.startswith(b"GIF"):  # the recap: its frames are the spectator
            continue  # boards of each turn (tests/e2e/test_bazaar_recap.py decodes every one)
        if png is not None:
            drawn = decode_view_image(png)
            assert drawn["view"]["viewer"] is None
            assert drawn["what"] in ("board", "score_sheet")
        if "is over" not in content:
            assert not any(card in content for card in engine.secrets(states[0], None))
            assert "you drew" not in content
    # DMs: each carries the recipient's own view and only their private events
    for seat, who in enumerate(("ann", "bob", "cy")):
        user = table.players[who]
        mine = {c for st in states for c in st.hands[seat]}
        for content, png in (v for m in fake.dms(user) for v in shown(fake, m)):
            version = _version(content)
            if png is not None:
                drawn = decode_view_image(png)
                assert drawn["what"] == "hand" and drawn["view"]["viewer"] == seat
            for card in engine.secrets(states[version], seat):
                assert card not in content, (who, card, content)
        private_lines = [line for m in fake.dms(user) for line in m.text.splitlines() if "you drew" in line]
        expected = [
            f"• you drew {states[v + 1].hands[seat][-1]}" for v, (s, _, _) in enumerate(moves) if s == seat
        ]
        assert private_lines == expected
        assert all(line.split()[-1] in mine for line in private_lines)
    # the ephemeral move confirmation carries the mover's own private event
    confirmations = [i for i in fake.interactions if i.label == "/move"]
    assert confirmations and all(i.ephemeral and "you drew" in i.text for i in confirmations)


def _component_text(components: list[dict[str, Any]]) -> str:
    """Everything a component row shows or carries: labels, values, descriptions, custom ids."""
    out = []
    for row in components:
        for c in row.get("components", []):
            out += [str(c.get(k, "")) for k in ("label", "custom_id", "placeholder")]
            out += [
                f"{o.get('label', '')} {o.get('value', '')} {o.get('description') or ''}"
                for o in c.get("options", [])
            ]
    return " ".join(out)


async def test_public_boards_never_offer_moves_that_depend_on_a_hidden_hand(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    """Pralaya's buy step lists the payments the active hand allows ("Buy Veda: 1 gold"): on the
    public board those buttons would tell everyone which coins a hidden hand holds. A player who
    holds something hidden gets their moves privately (My hand, /move); the board offers only
    My hand. Seed 7 with three people reaches a buy with coins in hand early."""
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    gid, thread = await table.start_game("ann", ("bob", "cy"), 0)
    engine = base.get("pralaya")
    buys = 0
    for i in range(40):
        game = await table.bot.service.get(gid)
        if not game.awaited():
            break
        seat = game.awaited()[0]
        legal = engine.legal_actions(game.state, seat)
        public = engine.public_actions(game.state, seat)
        assert public == (game.state.step != BUY)  # collecting is public, buying is not
        turn = table.last_turn(thread)
        shown = _component_text(turn.components).lower()
        if not public:
            # (and the Undo of the last mover, if it can be taken back: test_undo.py)
            kept = [c for c in turn.custom_ids if not c.startswith("bzbu:")]
            assert kept == [f"bz:{gid}:0:!hand"], (i, turn.custom_ids)
            assert "My hand" in turn.text and "/move" in turn.text
        else:  # the island's cells within the public Vitality left: buttons (or a menu) on the board
            version = game.row.version
            offered = [
                c
                for c in turn.custom_ids
                if c not in (f"bz:{gid}:0:!hand", f"bzhint:{gid}:{version}") and not c.startswith("bzbu:")
            ]
            assert offered == (
                [f"bz:{gid}:{version}:{a}" for a in legal] if len(legal) <= 10 else [f"bzs:{gid}:{version}"]
            ), (i, offered)
        if any(a.startswith("buy ") for a in legal):
            buys += 1
            for coin in ("gold", "silver", "copper", "0g", "1g", "1s", "1c"):
                assert coin not in shown, (i, coin, shown)
            # the awaited player sees those moves in their own My hand answer and plays from it;
            # the answer then shows their new view and their next moves (or none), in place
            user, version = table.user_of(game, seat), game.row.version
            panel = await table.open_hand(user, thread, gid)
            buy = next(a for a in legal if a.startswith("buy "))
            assert f"bz:{gid}:{version}:{buy}" in panel.custom_ids
            h = await table.use(user, panel, gid, version, buy)
            await table.settle()
            assert not h.followups and panel.versions  # edited, nothing new posted
            assert all(f":{version}:" not in c for c in panel.custom_ids)
            after = await table.bot.service.get(gid)
            assert after.row.version > version
            names = [s.name for s in after.seats]
            own = engine.view(after.state, seat)
            assert render.get("pralaya").text(own, names) in panel.text
            assert panel.attachments[0].data == to_png(render.get("pralaya").hand(own, names))
            continue
        await table.play_one(gid, thread, "button" if i % 3 else "move")
    assert buys >= 2
