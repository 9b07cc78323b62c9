"""Dealing: puzzles from real play, at a chosen level and difficulty, reproducibly.

- :mod:`.dealer`: :func:`~.dealer.deal` and :func:`~.dealer.deal_many`.
- :mod:`.filters`: what a lesson wants (:class:`~.filters.Filters`: no joker, one deck, ...),
  asked of the best answers' facts (:mod:`.answer_facts`), stored for the recorded turns
  (:mod:`.turn_facts`).
- :mod:`.scope`: a lesson's scope, and :mod:`.lessons`: the lessons' scopes.
- :mod:`.rating`: how hard a puzzle is (:func:`~.rating.rate`, :class:`~.rating.Difficulty`),
  from the solver's figures in :mod:`.features`, weighed as :mod:`.fitting` fitted them to
  people's solve times; :mod:`.rated_turns` keeps the recorded turns' scores.
- :mod:`.sources`: where turns come from (:class:`~.sources.TurnSource` and its kinds).
- :mod:`.recorded_turns`: turns recorded from simulated games, in ``data/``.
"""
