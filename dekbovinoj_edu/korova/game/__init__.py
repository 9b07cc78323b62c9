"""Корова 006, the whole game: the engine, its refusals, and the computer players.

- :mod:`.engine`: :class:`~.engine.KorovaGame` and its turns.
- :mod:`.errors`: one error class per refused move.
- :mod:`.bots`: computer players of three strengths.
"""
