"""Ra's AI: the easy heuristic seat and the evaluation (``heuristic``), a full state drawn from one
seat's view (``determinize``), and the playout policy with the moves worth searching
(``playout``)."""
