"""Every persistent component class the bot posts, in one list: the bot registers them at
start-up (so controls on messages posted before a restart keep working), and a component whose
custom id fits none of them is answered as an old control."""

from __future__ import annotations

from . import archive_items, coaching, components, confirm, dialogs, undoing

ITEMS = (
    *components.DYNAMIC_ITEMS,
    *confirm.ITEMS,
    *dialogs.ITEMS,
    *archive_items.ITEMS,
    *coaching.ITEMS,
    *undoing.ITEMS,
)


def known(custom_id: object) -> bool:
    """Whether ``custom_id`` has the shape of one of :data:`ITEMS`."""
    return isinstance(custom_id, str) and any(
        cls.__discord_ui_compiled_template__.fullmatch(custom_id) for cls in ITEMS
    )
