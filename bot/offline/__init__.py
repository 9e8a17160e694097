"""Offline commands: ``bazaar demo`` (AI games written to a folder), ``bazaar play`` (a person
against AI seats in the terminal), ``bazaar replay`` and the move-log format."""
