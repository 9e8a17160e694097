"""What the Pralaya pictures draw: each card type's look (:mod:`.cards`), its icon
(:mod:`.icons`), and the pieces built from them (:mod:`.pieces`: header, tags, island tiles)."""
