"""The Discord-free host: the store (one interface on SQLite or PostgreSQL, migrations per
dialect, ``bazaar db``), the game service (lobbies, moves, AI seats, loading by replay), live
games and batches, the turn clock, and the configuration. Nothing here imports discord."""
