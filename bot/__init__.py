"""The Discord app and the command line: commands, views, DMs, store, scheduler, CLI."""
