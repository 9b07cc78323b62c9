"""Корова 006's values: the 104 cards, their cow heads, and the four placement rules.

- :mod:`.cards`: the deck, penalty points, row and hand sizes.
- :mod:`.placement`: where a card goes (ascending, smallest difference, sixth cow, lowest card).
"""
