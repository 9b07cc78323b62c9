"""Solving: the best dek bovinoj of a puzzle, every best one, or "mu!".

- :mod:`.solver`: :func:`~.solver.solve`, :func:`~.solver.solve_all` and :class:`~.solver.Solution`.
- :mod:`.search`, :mod:`.search_base`, :mod:`.search_colour`, :mod:`.search_free`:
  the value search, with and without the colour rule.
- :mod:`.search_trees`: every binary tree of the cards, for a house rule's own operation.
- :mod:`.sums`: sums-only levels, by dynamic programming over the sums.
- :mod:`.normal_form`: answers as trees, printed with the checker's own printer.
- :mod:`.rational`: exact integer-pair rationals for the inner loop.
- :mod:`.reference`: a deliberately simple exhaustive solver the tests compare with.
"""
