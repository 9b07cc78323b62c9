"""Refit the difficulty measure on the 24 game's human solve times and print the figures.

Usage: ``python scripts/fit_difficulty.py``. Prints each feature's Spearman
correlation with the players' mean solve time, the cross-validated correlation
of the fitted score (and of the simple baseline), and writes the coefficients
to ``dekbovinoj_edu/dealing/data/difficulty.json``; see
:mod:`dekbovinoj_edu.dealing.fitting`.
"""

from dekbovinoj_edu.dealing.fitting import main

if __name__ == "__main__":
    main()
