"""Kathai through the real discord.py client against the fake Discord, with three people: an
offer to everyone made in the DM's dialog (a modal), declined by one and accepted from a DM by the other; a
named offer that is declined; a sale built in the form; a bribe, and the lock refusing the
reverse bribe with its reason; a silent addressee declined by the turn clock; and the game to its
score sheet (a short turn limit ends it)."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.bazaar_harness import make_table, moved_past, poke
from tests.fakediscord import FakeDiscord, Interaction, Message, RunBot, User


def _dm_with(fake: FakeDiscord, user: User, custom_id: str) -> Message:
    found = [m for m in fake.dms(user) if custom_id in m.custom_ids]
    assert found, (custom_id, [m.custom_ids for m in fake.dms(user)][-3:])
    return found[-1]


async def test_kathai_trades_sales_bribes_and_the_clock(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    gid, place = await table.start_game(
        "ann", ("bob", "cy"), 0, game="kathai", clock="10m", options="turn_limit=9"
    )
    bot = table.bot
    game = await bot.service.get(gid)
    engine = game.engine
    users = {s.seat: table.user_of(game, s.seat) for s in game.seats}

    def legal(seat: int) -> list[str]:
        return engine.legal_actions(game.state, seat)

    async def typed(seat: int, text: str) -> Interaction:
        h = await fake.slash(users[seat], place, "move", action=text)
        await table.settle()
        assert h.text.startswith("✅ Played"), h.text
        return h

    # 1. the active player makes an offer to everyone in the dialog of their DM: the button opens
    #    a modal of four labelled menus at once (no deferral first), and sending it plays the offer
    a = game.state.active
    others = [s for s in range(3) if s != a]
    v = game.row.version
    offer = next(
        x for x in legal(a) if x.startswith("offer all ") and x.endswith(" for any 1") and len(x.split()) == 6
    )
    give = offer.split()[2]
    dm = _dm_with(fake, users[a], f"bzd:{gid}:{v}:offer")
    opened = await fake.click(users[a], dm, f"bzd:{gid}:{v}:offer")
    assert opened.callback_type == 9 and opened.modal is not None, opened
    fields = [c["component"]["custom_id"] for c in opened.modal["components"]]
    assert fields == ["to", "give", "want", "count"]
    assert [c["label"] for c in opened.modal["components"]][0] == "To whom"
    answers = {"to": ["all"], "give": [give], "want": ["for any"], "count": ["1"]}
    sent = await fake.submit_modal(opened, answers)
    await table.settle()
    assert sent.content.startswith(f"✅ Played `{offer}`"), sent.content
    assert (await table.db_moves(gid))[-1] == (a, offer, "player")
    assert set(game.awaited()) == set(others)
    board = table.last_turn(place)
    assert sorted(board.mention_ids) == sorted(users[s].id for s in others)

    # 2. one declines from their DM; the other accepts from theirs with exactly one card
    d, b = others
    v = game.row.version
    await fake.click(users[d], _dm_with(fake, users[d], f"bz:{gid}:{v}:decline"), f"bz:{gid}:{v}:decline")
    await table.settle()
    v = game.row.version
    reply = _dm_with(fake, users[b], f"bzs:{gid}:{v}:accept")
    menu = next(s for s in reply.selects if s["custom_id"] == f"bzs:{gid}:{v}:accept")
    assert (menu["min_values"], menu["max_values"]) == (1, 1)
    got = menu["options"][0]["value"]
    await fake.select(users[b], reply, f"bzs:{gid}:{v}:accept", [got])
    await table.settle()
    assert (await table.db_moves(gid))[-1] == (b, f"accept {got}", "player")
    public = "\n".join(m.text for m in fake.messages(place))
    assert "declines" in public and "trade" in public
    assert f"{give} " not in public.replace(offer, "") and got not in public  # only the traders see the cards
    assert any(got in m.text for m in fake.dms(users[a]))
    assert not any(got in m.text and give in m.text for m in fake.dms(users[d]))

    # 3. a named offer in the trading step, declined; then the active player passes
    named = next(x for x in legal(a) if x.startswith(f"offer s{d} ") and x.endswith(" for any 1"))
    await typed(a, named)
    assert game.awaited() == (d,)
    await typed(d, "decline")
    await typed(a, "pass")

    # 4. the next turns: a sale built in the form, a bribe and the lock refusing its reverse,
    #    and a silent addressee declined by the clock
    sold = bribed = clocked = refused = False
    lock_pair: tuple[str, str] | None = None
    for _ in range(12):
        if sold and bribed and clocked and refused or game.row.status != "active":
            break
        a = game.state.active
        if lock_pair is not None and not refused:
            card = (
                next(x.split()[1] for x in legal(a) if x.startswith("swap "))
                if any(x.startswith("swap ") for x in legal(a))
                else "profit"
            )
            h = await fake.slash(
                users[a], place, "move", action=f"bribe {lock_pair[0]} {lock_pair[1]} {card}"
            )
            assert h.ephemeral and "bribe card on" in h.text and "forbids" in h.text, h.text
            refused = True
        sells = [x for x in legal(a) if x.startswith("sell ")]
        bribes = [x for x in legal(a) if x.startswith("bribe ")]
        if not sold and sells:
            words = sells[0].split()
            v = game.row.version
            dm = _dm_with(fake, users[a], f"bzfs:{gid}:{v}:move")
            await fake.select(users[a], dm, f"bzf:{gid}:{v}:move:do", [" ".join(words[:2])])
            await fake.select(users[a], dm, f"bzf:{gid}:{v}:move:cards", words[2:])
            await fake.click(users[a], dm, f"bzfs:{gid}:{v}:move")
            await table.settle()
            assert (await table.db_moves(gid))[-1] == (a, sells[0], "player")
            assert "sells" in table.last_turn(place).text.lower()
            sold = True
        elif not bribed and bribes:
            await typed(a, bribes[0])
            lock_pair = (bribes[0].split()[1], bribes[0].split()[2])
            bribed = True
        elif not clocked:
            target = next(s for s in range(3) if s != a)
            ask = next(x for x in legal(a) if x.startswith(f"offer s{target} ") and x.endswith(" for any 1"))
            await typed(a, ask)
            version = game.row.version
            table.now.advance(601)
            poke(bot)
            await fake.wait_for(moved_past(game, version))
            await table.settle()
            assert (await table.db_moves(gid))[-1] == (target, "decline", "clock")
            assert "Time ran out" in table.last_turn(place).text
            clocked = True
            await typed(a, "pass")
        else:
            await typed(a, "pass")
    assert sold and bribed and clocked and refused

    # 5. to the end (the turn limit): the score sheet closes the game
    for _ in range(200):
        if game.row.status != "active":
            break
        seat = next(s for s in game.awaited() if not game.ai_plays(s))
        await typed(seat, "decline" if "decline" in legal(seat) else "pass")
    assert (await table.stored(gid)).status == "finished"
    final = [m for m in fake.messages(place) if "is over" in m.text]
    assert final and final[-1].attachments and final[-1].attachments[0].filename.endswith("-final.png")
