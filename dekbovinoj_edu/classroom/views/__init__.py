"""Class mode's views: the only part of :mod:`dekbovinoj_edu.classroom` that draws.

- :mod:`.board`: the teacher's board (students × puzzles) as HTML, from
  :class:`~dekbovinoj_edu.classroom.overview.ClassOverview`.
- :mod:`.marks`: how one cell reads: the glyph, the words (in the reader's language) and the
  colour for its :class:`~dekbovinoj_edu.classroom.overview.CellState`.
- :mod:`.teacher`: the dashboard page's server (127.0.0.1, a secret token).
- :mod:`.dashboard`: :class:`~.dashboard.Dashboard`, the same board as a notebook widget.
- :mod:`.student`: :class:`~.student.ClassApp`, the student's screens.
- :mod:`.keeper`: :class:`~.keeper.PageKeeper`, the hidden field between a student's app
  and its page (the page's address; the seat and the attempts not yet sent, in local
  storage).
"""
