"""The Pralaya AI: the easy level's heuristic (:mod:`.heuristic`: ``choose`` and the values it
weighs), a full state drawn from one seat's view for the search (:mod:`.determinize`), and the
search's playout policy and action list (:mod:`.playout`)."""
