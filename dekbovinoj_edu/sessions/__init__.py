"""Sessions: what a student or a table does over time, as plain Python models (no widgets).

- :mod:`.feedback`: what a session says back (:class:`~.feedback.Feedback`) and the score.
- :mod:`.answer`: the answer being built, shared by practice and the game table.
- :mod:`.practice`: :class:`~.practice.PracticeSession`, behind the practice widget.
- :mod:`.game_table`: :class:`~.game_table.GameTableSession`, a whole game at one screen.
"""
