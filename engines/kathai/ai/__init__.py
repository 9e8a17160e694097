"""The Kathai AI: the easy seat and the evaluation (``heuristic``), a full state drawn from a
seat's view for the search (``determinize``), and the search's candidates and playout policy
(``playout``)."""
