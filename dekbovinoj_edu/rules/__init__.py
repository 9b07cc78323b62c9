"""The rules' values: cards, levels, limits, puzzles and puzzle codes.

The lowest layer above the language (:mod:`dekbovinoj_edu.i18n`): plain frozen
values that every other layer builds on, and that import nothing above them.

- :mod:`.cards`: suits, colours, ranks, jokers and decks.
- :mod:`.operations`: the table of operations, each declared once.
- :mod:`.levels`: which operations a level allows, the colour rule, the target.
- :mod:`.limits`: every bound, named in one place.
- :mod:`.puzzle`: one turn: the pasture, the barn, the parity and the level.
- :mod:`.codes`: puzzle codes a teacher writes on the board.
- :mod:`.short_codes`: a house rule's level code, written once, and its puzzles' short codes.
"""
