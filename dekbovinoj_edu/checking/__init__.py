"""Checking an expression: typed text in, a :class:`~.checker.Verdict` out.

Parse, then check, then evaluate, as separate steps with their own errors
(``ARCHITECTURE.md`` follows one check through them):

- :mod:`.expression`: normalise, tokenise and parse into whitelisted nodes; print back.
- :mod:`.colour_rule`: the level's operations and the colour rule's form.
- :mod:`.matching`: which card is which number (a bipartite matching).
- :mod:`.evaluate`: exact values, every power, root and factorial bounded first.
- :mod:`.checker`: :func:`~.checker.check` and its :class:`~.checker.Verdict`.
- :mod:`.errors`: one ``ValueError`` subclass per way an expression fails.
- :mod:`.steps`: an expression told step by step, the way Peter tells his.
"""
