"""The solver: the best dek bovinoj of a puzzle, and every best one.

RULES.md, "A puzzle": the best move takes the most cards; ties go to the move
that takes more pasture cards, then to the one that plays no joker. A player
may play one joker from the barn first (flipping the colours), so the solver
tries that too.

Peter's turn from the rules takes all six cards:

>>> from dekbovinoj_edu.rules.puzzle import Puzzle
>>> peter = solve(Puzzle.parse("9♦ 3♥ 7♥ | K♣ 2♣ 3♠", level=2))
>>> len(peter.cards), peter.pasture, peter.joker
(6, 3, False)

Sofia has no dek bovinoj without her joker, and two cards with it:

>>> sofia = Puzzle.parse("9♦ 3♥ | Q♠ JK 7♥", level=2)
>>> solve(sofia)
Solution(cards=(Card.parse('3♥'), Card.parse('7♥')), expression='7♥ + 3♥', joker=True,
         pasture=1, value=10)
>>> str(solve(sofia))
'JK, 7♥ + 3♥ = 10'
>>> solve(Puzzle.parse("9♦ 3♥ | Q♠ 7♥", level=2)) is None  # "mu!"
True

How the search works, and what it tries at level 3, is described in
:mod:`dekbovinoj_edu.solving.search`.
"""

from __future__ import annotations

import dataclasses
import functools
import threading
from collections.abc import Callable, Hashable, Iterable, Iterator
from dataclasses import dataclass, field
from enum import Enum
from functools import cache
from itertools import combinations
from typing import Any, Final, TypeVar, cast

from ..checking.errors import CheckError
from ..checking.expression import parse_expression
from ..rules.cards import Card
from ..rules.levels import LEVELS, Level
from ..rules.limits import Limits
from ..rules.operations import Search
from ..rules.puzzle import Puzzle
from .budget import TooBigToSolve, charge, on_stop
from .normal_form import (
    Binary,
    Neg,
    Node,
    Num,
    Power,
    Product,
    Sum,
    Wrap,
    normalize,
    to_text,
    value,
)
from .readable import answer_key, simplicity
from .search import Grammar, Tree, token
from .search_trees import TreeSearch
from .sums import best_signed_subset, best_signed_subsets, is_sums_only

__all__ = [
    "DEFAULT_LIMIT",
    "LISTED_LEVEL_3_CARDS",
    "LISTED_TREES",
    "Listing",
    "Solution",
    "answers",
    "first_answer",
    "list_best",
    "normal_forms",
    "possible",
    "simplest",
    "solve",
    "solve_all",
]

DEFAULT_LIMIT = 100
"""How many answers :func:`solve_all` lists at most unless told otherwise."""

LEVEL_3_OPS = LEVELS[3].operations - LEVELS[2].operations
"""The operations level 3 adds to level 2."""
LISTED_LEVEL_3_CARDS = 7
"""Up to this many cards :func:`solve_all` lists every level-3 form of the best move."""


@dataclass(frozen=True)
class Solution:
    """One dek bovinoj: the cards it takes, the expression, and whether a joker is played first.

    ``expression`` is written in the checker's notation with every card named
    by its suit, so it can be checked or pasted as it is.
    """

    cards: tuple[Card, ...]
    """The cards taken: the pasture's first, then the barn's, in the puzzle's order."""
    expression: str
    """The expression, e.g. ``K♣ × 2♣ + 3♠ − 9♦ − 3♥ − 7♥``."""
    joker: bool = False
    """Whether one joker from the barn is played first (flipping the colours)."""
    pasture: int = 0
    """How many of the cards come from the pasture."""
    value: int = 10
    """The value of the expression: the level's target."""
    tree: Node | None = field(default=None, compare=False, repr=False)
    """The expression as a tree (:mod:`dekbovinoj_edu.solving.normal_form`)."""

    @property
    def size(self) -> int:
        """How many cards the move takes."""
        return len(self.cards)

    @property
    def barn(self) -> int:
        """How many of the cards come from the barn."""
        return len(self.cards) - self.pasture

    @property
    def rank(self) -> tuple[int, int, bool]:
        """The order of RULES.md: more cards, then more pasture cards, then no joker.

        A larger rank is a better move.
        """
        return (self.size, self.pasture, not self.joker)

    def __str__(self) -> str:
        prefix = "JK, " if self.joker else ""
        return f"{prefix}{self.expression} = {self.value}"

    def _repr_html_(self) -> str:
        """The cards taken, drawn (:func:`~.drawing.cards.hand_svg`), and the expression.

        >>> solve(Puzzle.parse("| 10♣", level=1))._repr_html_().count("<svg")
        1
        """
        from html import escape

        from ..drawing.cards import hand_svg

        return f"<div>{hand_svg(self.cards)}<p><code>{escape(str(self))}</code></p></div>"


@dataclass(frozen=True)
class _Candidate:
    """A set of cards the solver may try: which, from where, and after which parity."""

    cards: tuple[Card, ...]
    tokens: tuple[int, ...]
    pasture: int
    joker: bool


def _positions(puzzle: Puzzle, joker: bool) -> tuple[Puzzle, list[tuple[Card, bool, int]]]:
    """The puzzle actually played and its usable cards: (card, from pasture, token)."""
    played = puzzle.after_joker() if joker else puzzle
    colour = played.level.colour_rule
    cards = [(card, True) for card in played.pasture]
    cards += [(card, False) for card in played.barn if not card.is_joker]
    return played, [
        (card, on_pasture, token(card.rank, colour and not card.is_positive(played.flipped)))
        for card, on_pasture in cards
    ]


def _candidates(puzzle: Puzzle, size: int | None = None) -> Iterator[_Candidate]:
    """Every distinct set of cards a move could take (of ``size`` cards only, if given),
    best first by RULES.md's order.

    Sets of the same size, pasture count and parity holding the same ranks with
    the same signs are the same for the arithmetic; only the first is kept.
    Lazy: the solver usually stops at one of the first.
    """
    jokers = [False]
    if puzzle.has_joker and puzzle.level.colour_rule:
        jokers.append(True)  # without the colour rule a joker changes nothing
    usable = {joker: _positions(puzzle, joker)[1] for joker in jokers}
    pasture = {joker: [u for u in usable[joker] if u[1]] for joker in jokers}
    barn = {joker: [u for u in usable[joker] if not u[1]] for joker in jokers}
    seen: set[tuple] = set()
    most = max(len(u) for u in usable.values())
    # A level that asks for every card (the 24 game) has one candidate: all of them.
    sizes = [most] if puzzle.level.all_cards else range(most, 0, -1)
    if size is not None:
        sizes = [size] if size in sizes else []
    for size in sizes:
        for from_pasture in range(min(size, len(puzzle.pasture)), -1, -1):
            for joker in jokers:
                if size - from_pasture > len(barn[joker]):
                    continue
                for left in combinations(pasture[joker], from_pasture):
                    for right in combinations(barn[joker], size - from_pasture):
                        charge()  # a page's solve has a budget (.budget)
                        chosen = left + right
                        tokens = tuple(sorted(tok for _, _, tok in chosen))
                        key = (joker, from_pasture, tokens)
                        if key not in seen:
                            seen.add(key)
                            cards = tuple(card for card, _, _ in chosen)
                            yield _Candidate(cards, tokens, from_pasture, joker)


def _to_node(tree: Tree, pool: dict[int, list[Card]] | None) -> Node:
    """A search tree as a :mod:`.normal_form` tree, cards drawn from ``pool``.

    The tags are those of :data:`.search_base.Tree`; any other is an error.
    """
    match tree[0]:
        case "n":
            tok = tree[1]
            card = pool[tok].pop() if pool is not None else None
            return Num(tok >> 1, tree[2], card, tree[3])
        case "s":
            return Sum(((_to_node(tree[1], pool), False), (_to_node(tree[2], pool), tree[3])))
        case "p":
            return Product(((_to_node(tree[1], pool), False), (_to_node(tree[2], pool), tree[3])))
        case "d":  # a divisor: flattened into the product around it by normalize()
            return Product(((_to_node(tree[1], pool), True),))
        case "^":
            return Power(_to_node(tree[1], pool), _to_node(tree[2], pool))
        case "m":
            return Neg(_to_node(tree[1], pool))
        case "√" | "!":
            return Wrap(tree[0], _to_node(tree[1], pool))
        case "b":
            return Binary(tree[1], _to_node(tree[2], pool), _to_node(tree[3], pool))
        case unknown:
            raise ValueError(f"the solver has no tree of kind {unknown!r}")


def _solution(puzzle: Puzzle, candidate: _Candidate, tree: Tree) -> Solution:
    played, usable = _positions(puzzle, candidate.joker)
    pool: dict[int, list[Card]] = {}
    remaining = list(candidate.cards)
    for card, _, tok in reversed(usable):
        if card in remaining:
            remaining.remove(card)
            pool.setdefault(tok, []).append(card)
    node = normalize(_to_node(tree, pool), played.level.operations)
    return Solution(
        cards=candidate.cards,
        expression=to_text(node, played.level.table),
        joker=candidate.joker,
        pasture=candidate.pasture,
        value=played.level.target,
        tree=node,
    )


GRAMMAR_MEMO_SIZE = 300_000
"""How many remembered questions a level's :class:`~.search.Grammar` keeps between calls
before it starts afresh (memory stays bounded in a long game or a dealing run)."""

_grammars: dict[Level, Grammar | TreeSearch] = {}
on_stop(_grammars.clear)  # a search stopped half-way (.budget) leaves its memory unfinished

_SEARCHING = threading.RLock()
"""Held by a thread while it searches: the kept grammars' memory and their narrowing
(``Grammar._limit``) belong to one search at a time. Without it, a page's background solve
and a press of "Mu!", or two of the class service's threads, met in one grammar: a search
read another's narrowing half-way (a ``TypeError``, or an answer missed and remembered)."""

F = TypeVar("F", bound=Callable[..., Any])


def _one_search_at_a_time(function: F) -> F:
    """``function`` run while this thread holds :data:`_SEARCHING` (the others wait)."""

    @functools.wraps(function)
    def searching(*args: Any, **kwargs: Any) -> Any:
        with _SEARCHING:
            return function(*args, **kwargs)

    return cast(F, searching)


def _grammar(level: Level) -> Grammar | TreeSearch:
    """The level's search, kept between calls: its value sets of small sets of cards are
    the same for every puzzle, so later puzzles reuse them.

    A level with an operation searched as :attr:`~.operations.Search.TREES` (a house rule's
    own) gets the tree search; every other level the grammar.
    """
    grammar = _grammars.get(level)
    if grammar is None or grammar.memo_size() > GRAMMAR_MEMO_SIZE:
        searches = {level.table[op].search for op in level.operations}
        trees = Search.TREES in searches
        grammar = _grammars[level] = TreeSearch(level) if trees else Grammar(level)
    return grammar


@_one_search_at_a_time
def solve(puzzle: Puzzle) -> Solution | None:
    """The best dek bovinoj of the puzzle, or ``None`` when there is none ("mu!").

    A level with ``all_cards`` (the 24 game) only counts moves that take every
    card. Exact at every level and house rule (any operations, colour rule on or
    off, any target); at level 3 over every expression the checker accepts whose
    steps have rational values (:mod:`~dekbovinoj_edu.solving.search_general`). A house
    rule's own operation (searched as trees) is solved by :mod:`.search_trees`, without the
    colour rule only; with it, :func:`solve` raises ``ValueError``.
    An answer the checker would refuse under the level's limits (too many
    cards, too long, nested too deep) does not count: with that many cards the
    move takes fewer. (The expression found first for a set of cards decides;
    with more than about 30 cards, where answers stop fitting, this is slow.)

    >>> solve(Puzzle.parse("| 10♣", level=1)).expression
    '10♣'
    >>> solve(Puzzle.parse("5♠ 5♣ | K♦", level=1))
    Solution(cards=(Card.parse('5♠'), Card.parse('5♣')), expression='5♠ + 5♣', joker=False,
             pasture=2, value=10)
    """
    grammars = [_grammar(puzzle.level)]
    simpler = puzzle.level.operations - LEVEL_3_OPS
    if simpler != puzzle.level.operations:
        # Level 3 allows all of level 2: its faster search answers most puzzles first,
        # and more simply; level 3's own search is only needed when it finds nothing.
        grammars.insert(0, _grammar(dataclasses.replace(puzzle.level, operations=simpler)))
    target = (puzzle.level.target, 1)
    limits = puzzle.level.limits
    if is_sums_only(puzzle.level) and not puzzle.level.all_cards:
        decided = _solve_sums(puzzle, grammars[-1], target)
        if decided is not _UNDECIDED:
            return decided
    for candidate in _candidates(puzzle):
        if len(candidate.cards) > limits.max_cards or _shortest(candidate) > limits.max_chars:
            continue
        for grammar in grammars:
            tree = grammar.reach(candidate.tokens, target)
            if tree is not None:
                found = _solution(puzzle, candidate, tree)
                if _fits(found, puzzle):
                    return found
    return None


class _Undecided(Enum):
    """The type of :data:`_UNDECIDED` (a one-member enum, so that type checkers narrow it)."""

    UNDECIDED = "undecided"


_UNDECIDED: Final = _Undecided.UNDECIDED
"""What :func:`_solve_sums` returns when the general search must decide after all."""


def _solve_sums(
    puzzle: Puzzle, grammar: Grammar | TreeSearch, target: tuple[int, int]
) -> Solution | _Undecided | None:
    """The best move of a sums-only level in polynomial time (:mod:`.sums`).

    The best set of cards comes from the knapsack over sums; the grammar then
    writes it. Returns ``None`` when no sum reaches the target (exactly: "mu!"),
    or :data:`_UNDECIDED` when the set cannot be written within the level's
    limits, which leaves the choice to the general search.
    """
    jokers = [False, True] if puzzle.has_joker and puzzle.level.colour_rule else [False]
    best: tuple[tuple[int, int, bool], _Candidate] | None = None
    for joker in jokers:
        played, usable = _positions(puzzle, joker)
        found = best_signed_subset(_sum_items(played, usable), puzzle.level.target)
        if found is None:
            continue
        size, pasture, chosen = found
        rank = (size, pasture, not joker)
        if best is None or rank > best[0]:
            picked = [usable[index] for index in chosen]
            cards = tuple(card for card, _, _ in picked)
            tokens = tuple(sorted(tok for _, _, tok in picked))
            best = (rank, _Candidate(cards, tokens, pasture, joker))
    if best is None:
        return None
    candidate = best[1]
    limits = puzzle.level.limits
    if len(candidate.cards) > limits.max_cards or _shortest(candidate) > limits.max_chars:
        return _UNDECIDED
    tree = grammar.reach(candidate.tokens, target)
    if tree is None:
        return _UNDECIDED
    solution = _solution(puzzle, candidate, tree)
    return solution if _fits(solution, puzzle) else _UNDECIDED


def _sum_candidates(puzzle: Puzzle, best: Solution) -> Iterator[_Candidate]:
    """The sets of cards as good as ``best`` at a sums-only level, each kind once.

    Only the best sets are walked (:func:`.sums.best_signed_subsets`),
    never the larger sets that fail, which makes long pastures fast.
    """
    played, usable = _positions(puzzle, best.joker)
    items = _sum_items(played, usable)
    seen: set[tuple[int, ...]] = set()
    for chosen in best_signed_subsets(items, puzzle.level.target):
        picked = [usable[index] for index in chosen]
        tokens = tuple(sorted(tok for _, _, tok in picked))
        if tokens not in seen:
            seen.add(tokens)
            cards = tuple(card for card, _, _ in picked)
            yield _Candidate(cards, tokens, best.pasture, best.joker)


def _sum_items(
    played: Puzzle, usable: list[tuple[Card, bool, int]]
) -> list[tuple[tuple[int, ...], bool]]:
    """Each usable card's possible values at a sums-only level, and whether it is on the pasture."""
    return [
        (
            (card.rank, -card.rank)
            if not played.level.colour_rule
            else (card.signed_value(played.flipped),),
            on_pasture,
        )
        for card, on_pasture, _ in usable
    ]


def _shortest(candidate: _Candidate) -> int:
    """No expression with these cards is shorter: each card's name, ``" + "`` between them."""
    return sum(len(str(card)) for card in candidate.cards) + 3 * (len(candidate.cards) - 1)


def _fits(solution: Solution, puzzle: Puzzle) -> bool:
    """Whether the checker reads the expression within the level's limits (length, nesting)."""
    try:
        parse_expression(solution.expression, puzzle.level.limits, puzzle.level.table)
    except CheckError:
        return False
    return True


@dataclass(frozen=True)
class Listing:
    """The best answers :func:`list_best` found, and whether they are all there are."""

    answers: tuple[Solution, ...]
    """Distinct best answers, the simplest first."""
    complete: bool
    """Whether these are every distinct best answer (else the search stopped at the limit,
    after :data:`LISTED_TREES` expressions, or at a page's budget)."""


LISTED_TREES = 20_000
"""How many expressions :func:`list_best` looks at, at most, when it has a ``limit``."""


def solve_all(puzzle: Puzzle, limit: int | None = DEFAULT_LIMIT) -> list[Solution]:
    """Every best dek bovinoj, one per distinct way: :func:`list_best`'s answers.

    >>> [s.expression for s in solve_all(Puzzle.parse("8♣ 4♠ 2♥ |", level=2))]
    ['8♣ + 4♠ ÷ 2♥', '8♣ + 4♠ − 2♥']
    """
    return list(list_best(puzzle, limit).answers)


@_one_search_at_a_time
def list_best(puzzle: Puzzle, limit: int | None = DEFAULT_LIMIT) -> Listing:
    """Every best dek bovinoj, one per distinct way; empty when there is none.

    All answers take the same number of cards, pasture cards and joker as
    :func:`solve`'s. *Distinct* means distinct answers for a person
    (:func:`.readable.answer_key` of the normal form,
    :func:`~dekbovinoj_edu.solving.normal_form.normalize`): answers that differ only
    by the order of terms or factors, by brackets around a sum inside a sum
    (or a product inside a product), or by a part that changes nothing (``× A♥``,
    ``^ A♥``, ``2!``) are one way. Cards of the same rank that
    count with the same sign are interchangeable: one way that could take
    either is listed once. Up to ``limit`` answers (``None``: all of them; a
    big puzzle can have millions), the simplest first among those found
    (:func:`.readable.simplicity`); at level 3 those without √ ! ^ are looked for first.

    With √, ! or ^ and a best move of more than :data:`LISTED_LEVEL_3_CARDS`
    cards, the answers listed are those written with the level's other
    operations whenever there are any: listing every form with roots, powers and
    factorials of eight or more cards takes minutes and gigabytes. With a ``limit``, at
    most :data:`LISTED_TREES` expressions are looked at; :attr:`Listing.complete` says
    whether the answers are all there are.

    >>> listing = list_best(Puzzle.parse("8♣ 4♠ 2♥ |", level=2))
    >>> len(listing.answers), listing.complete
    (2, True)
    """
    best = solve(puzzle)
    if best is None:
        return Listing((), True)
    target = (puzzle.level.target, 1)
    grammars = [_grammar(puzzle.level)]
    simpler = puzzle.level.operations - LEVEL_3_OPS
    plain_best = not any(mark in best.expression for mark in "√!^")
    if simpler and simpler != puzzle.level.operations:
        # The answers without √ ! ^ are the simplest: they are looked for first, and alone
        # for a long move that has one.
        plain = _grammar(dataclasses.replace(puzzle.level, operations=simpler))
        if best.size <= LISTED_LEVEL_3_CARDS:
            grammars.insert(0, plain)
        elif plain_best:
            grammars = [plain]
    trees = (tree for grammar in grammars for tree in _all_trees(puzzle, grammar, target, best))
    budget = None if limit is None else LISTED_TREES
    found, complete = _distinct(puzzle, _rational_first(puzzle, trees), _way_of_form, limit, budget)
    return Listing(tuple(sorted(found, key=_simplicity)), complete)


@_one_search_at_a_time
def normal_forms(puzzle: Puzzle, limit: int | None = DEFAULT_LIMIT) -> list[Solution]:
    """Every best dek bovinoj, one per normal form (:func:`.normal_form.normalize` alone,
    where :func:`list_best` also joins the answers that differ by a part that changes
    nothing), the shortest first among the first ``limit`` found: what the difficulty measure
    (:mod:`dekbovinoj_edu.dealing.features`) counts, as it was fitted.

    >>> [s.expression for s in normal_forms(Puzzle.parse("8♣ 4♠ 2♥ |", level=2))]
    ['8♣ + 4♠ ÷ 2♥', '8♣ + 4♠ − 2♥']
    """
    best = solve(puzzle)
    if best is None:
        return []
    grammar = _grammar(puzzle.level)
    simpler = puzzle.level.operations - LEVEL_3_OPS
    plain_best = not any(mark in best.expression for mark in "√!^")
    listed_plainly = best.size > LISTED_LEVEL_3_CARDS and plain_best
    if listed_plainly and simpler and simpler != puzzle.level.operations:
        grammar = _grammar(dataclasses.replace(puzzle.level, operations=simpler))
    trees = _all_trees(puzzle, grammar, (puzzle.level.target, 1), best)
    found = _distinct(
        puzzle, _rational_first(puzzle, trees, _unlike_the_fitted), _way_of_normal_form, limit
    )[0]
    return sorted(found, key=lambda s: (len(s.expression), s.expression))


def _way_of_normal_form(candidate: _Candidate, form: Node) -> Hashable:
    return form


def _simplicity(solution: Solution) -> tuple[int, int, int, int, int, str]:
    assert solution.tree is not None
    return simplicity(solution.tree, solution.expression)


SIMPLEST_LOOK = 20
"""How many distinct best answers :func:`simplest` compares at a level with √ ! ^."""


def simplest(puzzle: Puzzle) -> Solution | None:
    """The best answer a person reads first (:func:`.readable.simplicity`), for hints and
    for what a "mu!" missed; ``None`` when there is none.

    At a level with √, ! or ^ it is the simplest of the first :data:`SIMPLEST_LOOK`
    distinct best answers (those without √ ! ^ come first); elsewhere :func:`solve`'s.

    >>> str(solve(Puzzle.parse("8♣ 3♠ 4♦ |", level=3)))
    '3♠! + √√√((−4♦) ^ 8♣) = 10'
    >>> str(simplest(Puzzle.parse("8♣ 3♠ 4♦ |", level=3)))
    '8♣ + 3♠! − 4♦ = 10'
    """
    if not puzzle.level.operations & LEVEL_3_OPS:
        return solve(puzzle)
    found = solve_all(puzzle, limit=SIMPLEST_LOOK)
    return found[0] if found else None


def possible(puzzle: Puzzle) -> bool:
    """Whether the puzzle has any dek bovinoj at all (the best one need not be found).

    Decided exactly, like :func:`solve`, but the small sets of cards are tried
    first: most puzzles that have a dek bovinoj have a short one, and one is
    enough. (The game asks this about every remaining card, to end the game.)

    >>> possible(Puzzle.parse("J♣ Q♠ K♣ J♠ Q♣ K♠ |", level=2))
    False
    >>> possible(Puzzle.parse("J♣ Q♠ K♣ J♠ Q♣ K♠ 3♦ |", level=2))
    True
    """
    return first_answer(puzzle) is not None


@_one_search_at_a_time
def first_answer(puzzle: Puzzle) -> Solution | None:
    """A dek bovinoj of the puzzle, the first found trying small sets of cards first, or None.

    Not the best move: the quickest to find on a long pasture, where :func:`solve`
    would go through every large set of cards first. Exact about whether there is one.

    >>> first_answer(Puzzle.parse("J♣ Q♠ K♣ J♠ Q♣ K♠ 10♣ |", level=2)).expression
    '10♣'
    """
    if is_sums_only(puzzle.level) and not puzzle.level.all_cards:
        return solve(puzzle)  # the knapsack is exact and fast
    grammar = _grammar(puzzle.level)
    target = (puzzle.level.target, 1)
    limits = puzzle.level.limits
    seen: set[tuple[int, ...]] = set()
    most = len(puzzle.cards)
    sizes = [most] if puzzle.level.all_cards else range(1, most + 1)
    for size in sizes:
        for candidate in _candidates(puzzle, size):
            if candidate.tokens in seen:
                continue
            seen.add(candidate.tokens)
            if len(candidate.cards) > limits.max_cards or _shortest(candidate) > limits.max_chars:
                continue
            tree = grammar.reach(candidate.tokens, target)
            if tree is not None:
                return _solution(puzzle, candidate, tree)
    return None


@_one_search_at_a_time
def answers(puzzle: Puzzle, cards: int, limit: int | None = DEFAULT_LIMIT) -> list[Solution]:
    """Every dek bovinoj that takes exactly ``cards`` cards, one per distinct way.

    Not only the best moves: a lesson may want the quick two-card answers
    too. Distinct as in :func:`solve_all` (normal forms), for each set of
    cards, pasture count and joker; up to ``limit`` answers (``None``: all),
    the better moves first (RULES.md's order), then the shortest. Every
    answer passes ``check()``. A level with ``all_cards`` has answers of
    every card only.

    >>> peter = Puzzle.parse("9♦ 3♥ 7♥ | K♣ 2♣ 3♠", level=2)
    >>> [s.expression for s in answers(peter, cards=2)]
    ['K♣ − 3♥']
    >>> answers(peter, cards=1)
    []
    >>> len(answers(peter, cards=6, limit=None)) == len(solve_all(peter, limit=None))
    True
    """
    trees = _sized_trees(puzzle, _grammar(puzzle.level), (puzzle.level.target, 1), cards)
    return _best_first(_distinct(puzzle, _rational_first(puzzle, trees), _way_of_move, limit)[0])


def _way_of_form(candidate: _Candidate, form: Node) -> Hashable:
    """Best answers all make the same move: their way is the answer a person reads
    (:func:`.readable.answer_key` of the normal form)."""
    return answer_key(form)


def _way_of_move(candidate: _Candidate, form: Node) -> Hashable:
    """Answers of one size may make different moves (pasture cards, joker) with one form."""
    return candidate.joker, candidate.pasture, form


def _distinct(
    puzzle: Puzzle,
    trees: Iterable[tuple[_Candidate, Tree]],
    way: Callable[[_Candidate, Node], Hashable],
    limit: int | None,
    budget: int | None = None,
) -> tuple[list[Solution], bool]:
    """The answers these trees write, one for each distinct ``way`` (a key made of the
    candidate and the tree's normal form), each read by the checker within the level's
    limits; up to ``limit`` of them (``None``: all), in the order the trees come, from at
    most ``budget`` trees (``None``: all); and whether every tree was looked at. A page's
    budget (:mod:`.budget`) that runs out after some were found leaves those."""
    forms: set[tuple[_Candidate, Node]] = set()
    seen: set[Hashable] = set()
    found: list[Solution] = []
    try:
        for count, (candidate, tree) in enumerate(trees, start=1):
            charge()
            if budget is not None and count > budget:
                return found, False
            form = normalize(_to_node(tree, None), puzzle.level.operations)
            if (candidate, form) in forms:
                continue  # the same normal form again: the same way
            forms.add((candidate, form))
            key = way(candidate, form)
            if key in seen:
                continue
            seen.add(key)
            answer = _solution(puzzle, candidate, tree)
            if _fits(answer, puzzle):
                found.append(answer)
                if limit is not None and len(found) >= limit:
                    return found, False
    except TooBigToSolve as stopped:
        if stopped.cancelled or not found:
            raise
        return found, False
    return found, True


def _rational_first(
    puzzle: Puzzle,
    trees: Iterable[tuple[_Candidate, Tree]],
    aside: Callable[[Tree, Limits], bool] | None = None,
) -> Iterator[tuple[_Candidate, Tree]]:
    """The trees, those that pass through an irrational number (``−√10♦ ^ √4♣``; ``aside``
    says which, :func:`_through_irrational` unless told) only for a move no other tree
    makes: RULES.md (the package's) suggests such an answer only where the same cards have
    no rational one."""
    limits = puzzle.level.limits
    irrational = aside or _through_irrational
    kept: dict[tuple[tuple[int, ...], bool, int], list[tuple[_Candidate, Tree]]] = {}
    rational: set[tuple[tuple[int, ...], bool, int]] = set()
    for candidate, tree in trees:
        move = (candidate.tokens, candidate.joker, candidate.pasture)
        if irrational(tree, limits):
            if move not in rational:
                kept.setdefault(move, []).append((candidate, tree))
            continue
        rational.add(move)
        kept.pop(move, None)
        yield candidate, tree
    for move, trees_kept in kept.items():
        if move not in rational:
            yield from trees_kept


def _through_irrational(tree: Tree, limits: Limits) -> bool:
    """Whether a search tree passes through an irrational number: a card under roots that
    makes one (the search's only irrational steps, :mod:`.search_general`).

    >>> from dekbovinoj_edu.rules.limits import DEFAULT_LIMITS
    >>> _through_irrational(("^", ("n", 21, True, "√"), ("n", 8, False, "√")), DEFAULT_LIMITS)
    True
    >>> _through_irrational(("s", ("n", 18, False, "√!"), ("n", 8, False, "")), DEFAULT_LIMITS)
    False
    """
    if tree[0] == "n":
        return not _rational_marks(tree[1] >> 1, tree[3], limits)
    return any(_through_irrational(part, limits) for part in tree[1:] if isinstance(part, tuple))


def _unlike_the_fitted(tree: Tree, limits: Limits) -> bool:
    """Whether a tree passes through an irrational number other than in a term of two roots,
    ``−√12♦ × √3♣``: the only such answers the difficulty measure's stored scores counted.

    >>> from dekbovinoj_edu.rules.limits import DEFAULT_LIMITS
    >>> pair = ("p", ("n", 25, True, "√"), ("n", 6, False, "√"), False)  # −√12♦ × √3♣
    >>> _unlike_the_fitted(("s", ("n", 12, False, ""), pair, False), DEFAULT_LIMITS)
    False
    >>> _unlike_the_fitted(("^", ("n", 21, True, "√"), ("n", 8, False, "√")), DEFAULT_LIMITS)
    True
    """
    pair = tree[0] == "p" and all(part[0] == "n" and part[3] == "√" for part in tree[1:3])
    if pair and tree[1][2]:  # a red card with its sign leads: −√12♦ × √3♣, −√8♦ ÷ √2♥
        return False
    if tree[0] == "n":
        return not _rational_marks(tree[1] >> 1, tree[3], limits)
    return any(_unlike_the_fitted(part, limits) for part in tree[1:] if isinstance(part, tuple))


@cache
def _rational_marks(rank: int, marks: str, limits: Limits) -> bool:
    """Whether a card under these roots and factorials has a rational value."""
    try:
        value(Num(rank, unary=marks), limits)
    except ValueError:
        return False
    return True


def _sized_trees(
    puzzle: Puzzle, grammar: Grammar | TreeSearch, target: tuple[int, int], cards: int
) -> Iterator[tuple[_Candidate, Tree]]:
    """Every tree of every candidate of exactly ``cards`` cards within the level's limits."""
    limits = puzzle.level.limits
    for candidate in _candidates(puzzle, cards):
        if len(candidate.cards) > limits.max_cards or _shortest(candidate) > limits.max_chars:
            continue
        for tree in grammar.all(candidate.tokens, target):
            yield candidate, tree


def _best_first(found: list[Solution]) -> list[Solution]:
    return sorted(found, key=lambda s: (_negated(s.rank), len(s.expression), s.expression))


def _negated(rank: tuple[int, int, bool]) -> tuple[int, int, bool]:
    return (-rank[0], -rank[1], not rank[2])


def _all_trees(
    puzzle: Puzzle, grammar: Grammar | TreeSearch, target: tuple[int, int], best: Solution
) -> Iterator[tuple[_Candidate, Tree]]:
    """Every tree of every candidate as good as ``best`` (candidates come best first)."""
    if is_sums_only(puzzle.level) and not puzzle.level.all_cards:
        for candidate in _sum_candidates(puzzle, best):
            for tree in grammar.all(candidate.tokens, target):
                yield candidate, tree
        return
    for candidate in _candidates(puzzle):
        rank = (len(candidate.cards), candidate.pasture, not candidate.joker)
        if rank < best.rank:
            return
        if rank == best.rank:
            for tree in grammar.all(candidate.tokens, target):
                yield candidate, tree
