"""The store's tables beside the games themselves, one mixin per topic, gathered here so that
:class:`~bot.host.store_base.Store` names one base (a new topic adds its mixin here)."""

from __future__ import annotations

from .store_archive import StoreArchive
from .store_guilds import GuildSettings
from .store_media import MediaEdits
from .store_posts import PostClaims
from .store_rating_due import RatingDue
from .store_ratings import RatingTables
from .store_reviews import Reviews
from .store_side import SideTables


class Tables(
    SideTables, PostClaims, StoreArchive, Reviews, MediaEdits, GuildSettings, RatingTables, RatingDue
):
    """Clock claims, copying, posted messages, drafts (:class:`SideTables`); post claims; the
    archive (/history, /replay, rematches, outcomes); hints and reviews; refused media edits;
    servers' settings; ratings (and whether they are due again at start-up)."""
