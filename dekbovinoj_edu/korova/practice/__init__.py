"""Корова 006 practice: puzzles about ordering, differences and adding, and the session.

- :mod:`.puzzles`: the kinds of puzzle, dealt from real game positions, with explanations.
- :mod:`.session`: :class:`~.session.KorovaSession`, behind the practice view.
"""
