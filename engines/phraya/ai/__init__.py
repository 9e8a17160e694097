"""The Phraya AIs: the easy heuristic, and what the search needs (determinize, playout)."""
