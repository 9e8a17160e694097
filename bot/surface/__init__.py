"""The Discord surface: the bot (``app``), slash commands, persistent components, what each
interaction does (``actions``), posting boards and DMs (``publish``), message texts and the
drawing of engine prompts as Discord components (``controls``). It reads prompts and views, never a
game's internals."""
