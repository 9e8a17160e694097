"""Driving the bot as users do: slash commands, autocomplete, button clicks and select menus.

Each call builds the INTERACTION_CREATE payload Discord would send (with the fields
discord.py 2.7 reads: attachment_size_limit, app_permissions, entitlements, context,
authorizing_integration_owners, channel, member with permissions, locale…), dispatches it to
the connected bot and returns an ``Interaction`` handle that records how the bot answered.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .commands import build_options, nest_options, resolve_command
from .errors import FakeDiscordError
from .modals import select_resolved, submit_data
from .payloads import ATTACHMENT_SIZE_LIMIT, channel_payload, member_payload, message_payload, user_payload
from .records import Attachment, Channel, Choice, Message, User
from .world import World

if TYPE_CHECKING:
    from .gateway import Gateway
    from .server import FakeDiscord

APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 2, 3, 4, 5
KIND = {
    APPLICATION_COMMAND: "command",
    MESSAGE_COMPONENT: "component",
    AUTOCOMPLETE: "autocomplete",
    MODAL_SUBMIT: "modal",
}


class Interaction:
    """One interaction sent to the bot, and everything the bot answered to it.

    ``callback_type`` is the first callback's type (4 message, 5 deferred message, 6 deferred
    update, 7 update message, 8 autocomplete result, 9 modal). ``response`` is the original
    response message (for 6/7, the message whose component was used); ``followups`` the
    follow-up messages; ``edits`` the edit payloads applied to the original.
    """

    def __init__(
        self,
        fake: FakeDiscord,
        iid: int,
        itype: int,
        user: User,
        channel: Channel,
        payload: dict[str, Any],
        label: str,
        message: Message | None = None,
    ) -> None:
        self.fake = fake
        self.id = iid
        self.type = itype
        self.token = f"fake-{iid}-{secrets.token_urlsafe(16)}"
        self.user = user
        self.channel = channel
        self.payload = payload
        self.label = label
        #: For component interactions: the message whose component was used.
        self.message = message
        self.callbacks: list[dict[str, Any]] = []
        self.response: Message | None = None
        self.followups: list[Message] = []
        self.edits: list[dict[str, Any]] = []
        self.choices: list[Choice] | None = None
        #: The modal the bot opened in answer (callback type 9), as Discord keeps it (components
        #: numbered); ``fake.submit_modal(handle, {...})`` fills and sends it.
        self.modal: dict[str, Any] | None = None
        #: The MODAL_SUBMIT interaction that answered ``modal`` (a modal is submitted once).
        self.modal_submit: Interaction | None = None
        self.original_deleted = False
        self.sent_at: float | None = None
        self.acked_at: float | None = None
        self.expired = False

    # ----------------------------------------------------------------- state
    @property
    def kind(self) -> str:
        """'command', 'component', 'autocomplete' or 'modal' (a modal submit)."""
        return KIND[self.type]

    @property
    def callback_type(self) -> int | None:
        """Type of the initial response, None before the bot acknowledged."""
        return self.callbacks[0]["type"] if self.callbacks else None

    @property
    def acked(self) -> bool:
        """True once the bot sent its initial response."""
        return bool(self.callbacks)

    @property
    def deferred(self) -> bool:
        """True when the initial response was a defer (type 5 or 6)."""
        return self.callback_type in (5, 6)

    @property
    def done(self) -> bool:
        """True once the interaction has its final response (a deferred message must be edited or
        followed up)."""
        if not self.callbacks:
            return False
        if self.callback_type == 5:
            return self.response is not None and (not self.response.loading or self.original_deleted)
        return True

    @property
    def ack_latency(self) -> float | None:
        """Seconds from the event reaching the bot's socket to the initial response."""
        if self.sent_at is None or self.acked_at is None:
            return None
        return self.acked_at - self.sent_at

    @property
    def ephemeral(self) -> bool:
        """True when the response message is ephemeral."""
        return self.response is not None and self.response.ephemeral

    def _final(self) -> Message:
        if self.response is None:
            raise FakeDiscordError(f"{self!r} has no response message (callback type {self.callback_type})")
        return self.response

    @property
    def content(self) -> str:
        """Content of the response message."""
        return self._final().content

    @property
    def embeds(self) -> list[dict[str, Any]]:
        """Embeds of the response message."""
        return self._final().embeds

    @property
    def components(self) -> list[dict[str, Any]]:
        """Components of the response message."""
        return self._final().components

    @property
    def attachments(self) -> list[Attachment]:
        """Attachments of the response message."""
        return self._final().attachments

    files = attachments

    @property
    def text(self) -> str:
        """All text of the response message (content, embeds, TextDisplays wherever nested)."""
        return self._final().text

    @property
    def images(self) -> list[Attachment]:
        """The images the response message shows, in order (see ``Message.images``)."""
        return self._final().images

    @property
    def messages(self) -> list[Message]:
        """The response message (if any) followed by the follow-ups, without duplicates."""
        out = [self.response] if self.response is not None else []
        return out + [m for m in self.followups if m is not self.response]

    # ----------------------------------------------------------------- waiting
    def _on_sent(self) -> None:
        if self.sent_at is not None:
            return
        loop = asyncio.get_running_loop()
        self.sent_at = loop.time()
        deadline = self.fake.ack_deadline
        if deadline is not None:
            loop.call_later(deadline, self._expire)

    def _expire(self) -> None:
        if not self.callbacks:
            self.expired = True
            self.fake._changed()

    async def wait(
        self, predicate: Callable[[Interaction], Any], timeout: float | None = None, what: str = "condition"
    ) -> Any:
        """Wait until ``predicate(self)`` is truthy and return its value.

        Raises FakeDiscordError right away if the bot let the 3 s acknowledgement deadline pass,
        FakeDiscordTimeout after ``timeout`` seconds.
        """

        def check() -> Any:
            if self.expired:
                raise FakeDiscordError(
                    f"{self!r}: the bot did not respond within {self.fake.ack_deadline} s "
                    "(Discord shows 'This interaction failed')" + self.fake._report()
                )
            return predicate(self)

        return await self.fake.wait_for(check, timeout, what=f"{what} of {self!r}")

    async def wait_ack(self, timeout: float | None = None) -> Interaction:
        """Wait for the initial response; returns self."""
        await self.wait(lambda h: h.acked, timeout, "acknowledgement")
        return self

    async def wait_done(self, timeout: float | None = None) -> Interaction:
        """Wait until the interaction has its final response (see ``done``); returns self."""
        await self.wait(lambda h: h.done, timeout, "final response")
        return self

    async def wait_followups(self, count: int = 1, timeout: float | None = None) -> list[Message]:
        """Wait until at least ``count`` follow-ups exist; returns them."""
        await self.wait(lambda h: len(h.followups) >= count, timeout, f"{count} follow-up(s)")
        return self.followups

    async def wait_edits(self, count: int = 1, timeout: float | None = None) -> Message:
        """Wait until the original response was edited ``count`` times (e.g. after a type 6 defer);
        returns it."""
        await self.wait(lambda h: len(h.edits) >= count, timeout, f"{count} edit(s) of the original")
        return self._final()

    def __repr__(self) -> str:
        state = f"callback={self.callback_type}" if self.callbacks else "unanswered"
        return f"<Interaction {self.kind} {self.label!r} by {self.user.name} id={self.id} {state}>"


class Driver(World):
    """The user-side actions of FakeDiscord (its base class)."""

    gateway: Gateway
    interactions: list[Interaction]

    def _as_fake(self) -> FakeDiscord:
        """This object as the FakeDiscord it is (an Interaction holds the whole fake)."""
        from .server import FakeDiscord

        assert isinstance(self, FakeDiscord), "Driver is only FakeDiscord's base class"
        return self

    async def slash(
        self,
        user: User | str,
        channel: Channel | str,
        command: str,
        *,
        wait: bool = True,
        timeout: float | None = None,
        options: dict[str, Any] | None = None,
        raw_options: list[dict[str, Any]] | None = None,
        **values: Any,
    ) -> Interaction:
        """Run ``/command`` ("game new") as ``user`` in ``channel`` with option values as keywords.

        Values: str/int/float/bool, a User/Role/Channel record for those option types, an
        Attachment or (filename, bytes) for attachments; a choice may be given by value or name.
        ``options`` is for names that are not identifiers. Waits for the final response unless
        ``wait=False``. Returns the Interaction; raises FakeDiscordError if the command or an
        option does not exist or a value is invalid.

        ``raw_options`` (instead of values) is a FORGED payload: the leaf options are sent exactly
        as given (``[{"type": 3, "name": "count", "value": ""}]``: wrong types, values out of range,
        required options missing), unchecked, nested in the subcommand as Discord nests them.
        Discord itself checks what its clients send, so only a stale command registration (the
        command changed since the last sync) or a hostile client produces such payloads.
        """
        user, channel = self.user(user), self.channel(channel)
        values = {**(options or {}), **values}
        cmd, subs, leaf_defs = resolve_command(self, user, channel, command)
        if raw_options is not None:
            if values:
                raise FakeDiscordError("slash() takes option values or raw_options, not both")
            leaf, resolved = list(raw_options), dict[str, Any]()
        else:
            leaf, resolved = build_options(self, user, channel, leaf_defs, values)
        handle = self._new_interaction(
            APPLICATION_COMMAND, user, channel, self._command_data(cmd, subs, leaf, resolved), f"/{command}"
        )
        if wait:
            await handle.wait_done(timeout)
        return handle

    async def autocomplete(
        self,
        user: User | str,
        channel: Channel | str,
        command: str,
        *,
        focused: str,
        timeout: float | None = None,
        options: dict[str, Any] | None = None,
        raw_options: list[dict[str, Any]] | None = None,
        **values: Any,
    ) -> list[Choice]:
        """Type into option ``focused`` of ``/command``; returns the bot's choices as Choice(name, value).

        ``raw_options`` (instead of values) is a FORGED payload, sent unchecked as in
        :meth:`slash`; the option named ``focused`` in it is marked focused."""
        user, channel = self.user(user), self.channel(channel)
        values = {**(options or {}), **values}
        cmd, subs, leaf_defs = resolve_command(self, user, channel, command)
        if raw_options is not None:
            if values:
                raise FakeDiscordError("autocomplete() takes option values or raw_options, not both")
            leaf = [{**o, "focused": True} if o.get("name") == focused else dict(o) for o in raw_options]
            resolved: dict[str, Any] = {}
        else:
            leaf, resolved = build_options(self, user, channel, leaf_defs, values, focused=focused)
        handle = self._new_interaction(
            AUTOCOMPLETE,
            user,
            channel,
            self._command_data(cmd, subs, leaf, resolved),
            f"/{command} [{focused}]",
        )
        await handle.wait(lambda h: h.choices is not None, timeout, "autocomplete choices")
        return list(handle.choices or [])

    async def click(
        self,
        user: User | str,
        message: Message | int,
        custom_id: str | None = None,
        *,
        label: str | None = None,
        wait: bool = True,
        timeout: float | None = None,
    ) -> Interaction:
        """Click the button ``custom_id`` (or the one labelled ``label``) on ``message`` as ``user``.

        Raises FakeDiscordError if there is no such enabled button or the user cannot see the message.
        Waits for the final response unless ``wait=False``; returns the Interaction.
        """
        user, msg = self.user(user), self._message_ref(message, user)
        if custom_id is None and label is None:
            raise FakeDiscordError("click() needs a custom_id or a label")
        try:
            comp = msg.component(custom_id, label=label)
        except KeyError as exc:
            raise FakeDiscordError(str(exc.args[0])) from None
        if comp.get("type") != 2:
            raise FakeDiscordError(
                f"component {custom_id or label!r} is not a button (type {comp.get('type')})"
            )
        if comp.get("style") in (5, 6) or "custom_id" not in comp:
            raise FakeDiscordError(
                f"button {custom_id or label!r} is a link/premium button: it sends no interaction"
            )
        if comp.get("disabled"):
            raise FakeDiscordError(f"button {comp['custom_id']!r} is disabled")
        data = {"custom_id": comp["custom_id"], "component_type": 2}
        if "id" in comp:
            data["id"] = comp["id"]
        handle = self._component(user, msg, data, f"click {comp.get('label') or comp['custom_id']}")
        if wait:
            await handle.wait_done(timeout)
        return handle

    async def select(
        self,
        user: User | str,
        message: Message | int,
        custom_id: str,
        values: list[Any],
        *,
        wait: bool = True,
        timeout: float | None = None,
    ) -> Interaction:
        """Choose ``values`` in the select menu ``custom_id`` of ``message`` as ``user``.

        String selects take option values; user/role/channel selects take records. Raises
        FakeDiscordError for an unknown menu or value or a wrong count. Returns the Interaction.
        """
        user, msg = self.user(user), self._message_ref(message, user)
        try:
            comp = msg.component(custom_id)
        except KeyError as exc:
            raise FakeDiscordError(str(exc.args[0])) from None
        ctype = comp.get("type")
        if ctype not in (3, 5, 6, 7, 8):
            raise FakeDiscordError(f"component {custom_id!r} is not a select menu (type {ctype})")
        if comp.get("disabled"):
            raise FakeDiscordError(f"select {custom_id!r} is disabled")
        lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
        if not lo <= len(values) <= hi:
            raise FakeDiscordError(f"select {custom_id!r} takes {lo}..{hi} values, got {len(values)}")
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": ctype}
        if ctype == 3:
            allowed = [o["value"] for o in comp.get("options", [])]
            bad = [v for v in values if v not in allowed]
            if bad:
                raise FakeDiscordError(f"select {custom_id!r} has no option(s) {bad}; options: {allowed}")
            data["values"] = list(values)
        else:
            data["values"] = [str(v.id) for v in values]
            data["resolved"] = select_resolved(self, self.channels[msg.channel_id], values, {})
        if "id" in comp:
            data["id"] = comp["id"]
        handle = self._component(user, msg, data, f"select {custom_id}={data['values']}")
        if wait:
            await handle.wait_done(timeout)
        return handle

    async def click_raw(
        self,
        user: User | str,
        message: Message | int,
        custom_id: str,
        *,
        component_type: int = 2,
        values: list[Any] | None = None,
        wait: bool = True,
        timeout: float | None = None,
    ) -> Interaction:
        """A FORGED component interaction on ``message`` as ``user``: any ``custom_id`` string and,
        for a select (``component_type`` 3), ``values`` sent unchecked (not strings, not among the
        options, too many). The interaction's copy of the message carries just that one component
        (as a message posted by an older or another build of the bot would), so the client finds
        the component it was "used" on. Nothing the message really shows is changed. Waits for the
        final response unless ``wait=False``."""
        user, msg = self.user(user), self._message_ref(message, user)
        comp: dict[str, Any] = {"type": component_type, "custom_id": custom_id}
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": component_type}
        if component_type == 2:
            comp.update(style=2, label="forged")
        else:
            shown = values if isinstance(values, list) else []
            comp.update(
                options=[{"label": str(v)[:100] or "-", "value": str(v)[:100] or "-"} for v in shown][:25]
                or [{"label": "-", "value": "-"}],
                min_values=0,
                max_values=max(1, min(25, len(shown))),
            )
            data["values"] = values  # exactly as given: a list, or not even one
        rows = [{"type": 1, "components": [comp]}]
        channel = self.channels[msg.channel_id]
        handle = self._new_interaction(
            MESSAGE_COMPONENT,
            user,
            channel,
            data,
            f"forged {str(custom_id)[:40]!r}",
            message=msg,
            message_components=rows,
        )
        if wait:
            await handle.wait_done(timeout)
        return handle

    async def submit_modal(
        self,
        handle: Interaction,
        answers: dict[str, Any] | None = None,
        *,
        wait: bool = True,
        timeout: float | None = None,
    ) -> Interaction:
        """Fill the modal the bot opened in answer to ``handle`` and submit it, as its user.

        ``answers`` maps a field's custom_id to its value: str for a text input, option values
        (list) for a string select or checkbox group, User/Role/Channel records (list) for the
        other selects, one option value (or None) for a radio group, bool for a checkbox; fields
        left out keep their defaults. Raises FakeDiscordError when there is no modal, it was
        already submitted, or an answer is not one the modal allows. Returns the MODAL_SUBMIT
        Interaction (waits for its final response unless ``wait=False``)."""
        if handle.modal is None:
            raise FakeDiscordError(f"{handle!r} opened no modal (callback type {handle.callback_type})")
        if handle.modal_submit is not None:
            raise FakeDiscordError(f"the modal of {handle!r} was already submitted")
        data = submit_data(self, handle.channel, handle.modal, dict(answers or {}))
        sub = self._new_interaction(
            MODAL_SUBMIT,
            handle.user,
            handle.channel,
            data,
            f"modal {handle.modal['custom_id']}",
            handle.message,
        )
        handle.modal_submit = sub
        if wait:
            await sub.wait_done(timeout)
        return sub

    # ----------------------------------------------------------------- helpers
    def _message_ref(self, message: Message | int, user: User) -> Message:
        """The message record, checked to be visible to ``user``; raises FakeDiscordError."""
        msg = message if isinstance(message, Message) else self.message_store.get(int(message))
        if msg is None:
            raise FakeDiscordError(f"unknown message {message!r}")
        if msg.deleted:
            raise FakeDiscordError(f"message {msg.id} was deleted")
        channel = self.channels[msg.channel_id]
        if msg.ephemeral and msg.visible_to not in (None, user.id):
            raise FakeDiscordError(f"{user!r} cannot see ephemeral message {msg.id}")
        if channel.is_dm and channel.recipient_id != user.id:
            raise FakeDiscordError(
                f"{user!r} cannot see DM message {msg.id} (DM of user {channel.recipient_id})"
            )
        if not channel.is_dm and not self.permissions_in(channel, user):
            raise FakeDiscordError(f"{user!r} cannot see {channel!r}")
        return msg

    def _component(self, user: User, msg: Message, data: dict[str, Any], label: str) -> Interaction:
        channel = self.channels[msg.channel_id]
        return self._new_interaction(MESSAGE_COMPONENT, user, channel, data, label, message=msg)

    def _command_data(
        self,
        cmd: dict[str, Any],
        subs: list[str],
        leaf: list[dict[str, Any]],
        resolved: dict[str, Any],
    ) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": cmd["id"],
            "name": cmd["name"],
            "type": 1,
            "options": nest_options(subs, leaf, cmd.get("options") or []),
        }
        if "guild_id" in cmd:
            data["guild_id"] = cmd["guild_id"]
        if resolved:
            data["resolved"] = resolved
        return data

    def _new_interaction(
        self,
        itype: int,
        user: User,
        channel: Channel,
        data: dict[str, Any],
        label: str,
        message: Message | None = None,
        message_components: list[dict[str, Any]] | None = None,
    ) -> Interaction:
        guild = self.guild_of(channel)
        session = self.gateway.target(guild.id if guild is not None else None)
        if session is None:
            raise FakeDiscordError(
                "no bot is connected to the fake gateway (start one with run_bot first)"
                + (" for this guild's shard" if self.gateway.live_sessions() else "")
            )
        iid = self.ids.next()
        payload: dict[str, Any] = {
            "id": str(iid),
            "application_id": str(self.application_id),
            "type": itype,
            "data": data,
            "channel_id": str(channel.id),
            "channel": channel_payload(self, channel, permissions_for=user),
            "version": 1,
            "locale": "en-US",
            "entitlements": [],
            "entitlement_sku_ids": [],
            "app_permissions": str(self.permissions_in(channel, self.bot_user)),
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
        }
        if guild is not None:
            member = guild.members.get(user.id)
            if member is None:
                raise FakeDiscordError(f"{user!r} is not a member of {guild!r}")
            payload.update(
                {
                    "guild_id": str(guild.id),
                    "guild": {"id": str(guild.id), "locale": guild.locale, "features": []},
                    "guild_locale": guild.locale,
                    "context": 0,
                    "member": member_payload(self, member, permissions=self.permissions_in(channel, user)),
                    "authorizing_integration_owners": {"0": str(guild.id)},
                }
            )
        else:
            payload.update(
                {"user": user_payload(user), "context": 1, "authorizing_integration_owners": {"0": "0"}}
            )
        handle = Interaction(self._as_fake(), iid, itype, user, channel, payload, label, message)
        if message is not None:
            payload["message"] = message_payload(self, message)
            if message_components is not None:
                payload["message"]["components"] = message_components
        payload["token"] = handle.token
        self.interaction_records[iid] = handle
        self.interactions.append(handle)
        session.dispatch("INTERACTION_CREATE", payload, on_sent=handle._on_sent)
        self._changed()
        return handle
