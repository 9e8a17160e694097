"""Errors: ``ApiError`` is what the fake answers the client with; the others are raised to tests."""

from __future__ import annotations

from typing import Any


class ApiError(Exception):
    """An HTTP error answered to the client as Discord would: ``{"code", "message"[, "errors"]}``."""

    def __init__(self, status: int, code: int, message: str, errors: dict[str, Any] | None = None) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors

    def body(self) -> dict[str, Any]:
        """The JSON error body."""
        data: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.errors:
            data["errors"] = self.errors
        return data


def form_error(path: str, message: str, code: str = "BASE_TYPE_INVALID") -> ApiError:
    """A 400 / 50035 "Invalid Form Body" whose ``errors`` nest along the dotted ``path``."""
    errors: dict[str, Any] = {"_errors": [{"code": code, "message": message}]}
    for key in reversed(path.split(".")):
        errors = {key: errors}
    return ApiError(400, 50035, "Invalid Form Body", errors)


def unknown(kind: str) -> ApiError:
    """A 404 for an unknown resource, with Discord's error code for that kind."""
    codes = {
        "Channel": 10003,
        "Guild": 10004,
        "Member": 10007,
        "Message": 10008,
        "User": 10013,
        "Webhook": 10015,
        "interaction": 10062,
        "Application": 10002,
        "application command": 10063,
        "Attachment": 10065,
    }
    return ApiError(404, codes.get(kind, 0), f"Unknown {kind}")


MISSING_PERMISSIONS = (403, 50013, "Missing Permissions")
MISSING_ACCESS = (403, 50001, "Missing Access")
CANNOT_DM = (403, 50007, "Cannot send messages to this user")


class FakeDiscordError(AssertionError):
    """A test used the fake wrongly, or the bot did not do what the test waited for."""


class FakeDiscordTimeout(FakeDiscordError):
    """A wait on the fake's records ran out of time."""
