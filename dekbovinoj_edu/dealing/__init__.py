"""Dealing: puzzles from real play, at a chosen level and difficulty, reproducibly.

- :mod:`.dealer`: :func:`~.dealer.deal` and :func:`~.dealer.deal_many`.
- :mod:`.rating`: how hard a puzzle is (:func:`~.rating.rate`, :class:`~.rating.Difficulty`).
- :mod:`.sources`: where turns come from (:class:`~.sources.TurnSource` and its kinds).
- :mod:`.recorded_turns`: turns recorded from simulated games, in ``data/``.
"""
