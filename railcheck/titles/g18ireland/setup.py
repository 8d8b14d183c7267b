"""18Ireland's seed-drawn set-up: which three privates join DAR and DK, and
which minor company leaves the game.

18xx.games draws them from the game's seed (``settings.seed`` of an export)
with a linear congruential generator, ``x -> (A * x + C) mod M`` with the
reference constants ``RAND_A``, ``RAND_C``, ``RAND_M``; the first state is
``seed mod M`` and every draw is the next state.  Two draws happen while the
game is built, in this order:

1. the privates: the nine that are not protected (every private but DAR and
   DK, in the order the game's list gives them) each get one draw, in list
   order; sorted by their draw, smallest first, the first six leave the game.
   The three left and DAR and DK are auctioned (five in all).
2. the minors: the thirteen that are not protected (every minor but DKR, in
   list order) each get the next draw, in list order; sorted by their draw,
   smallest first, the first leaves the game and the other twelve form the
   stack, in that order, under DKR.  Only the minor on top of the stack (the
   first not yet started) may be auctioned in a stock round, and a stock
   round in which no minor was started closes it.

No train is drawn: the 18xx.games roster already has seven 2H (the box's
eighth is left out, see docs/18Ireland.md), and the DKR's 2H is the first of
the depot.  The draws were checked against all 28 corpus games
(tests/g18ireland/test_g18ireland_data.py): the five privates drawn are exactly the
privates the game's actions name, and the minor drawn never acts.
"""

from __future__ import annotations

from dataclasses import dataclass

#: the generator of 18xx.games (reference constants RAND_A, RAND_C, RAND_M)
RAND_A = 1103515245
RAND_C = 12345
RAND_M = 2147483648

#: privates always in the game, and the minor never removed
PROTECTED_COMPANIES = ("DAR", "DK")
PROTECTED_MINOR = "DKR"
#: privates in the game after the draw
KEEP_COMPANIES = 5


@dataclass(frozen=True)
class Setup:
    companies: tuple        # the privates in the game, in list order
    removed_companies: tuple  # the privates drawn out, in draw order
    removed_minor: str
    minor_stack: tuple      # DKR first, then the other minors in drawn order


def draws(seed: int):
    """The generator's draws for ``seed``: an endless iterator."""
    state = seed % RAND_M
    while True:
        state = (RAND_A * state + RAND_C) % RAND_M
        yield state


def draw_setup(seed: int, companies: list[str], minors: list[str]) -> Setup:
    """The set-up for ``seed``; ``companies`` and ``minors`` are the symbols
    in the order of the title's lists (rules.yaml ``companies`` and the
    corporations of kind minor)."""
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ValueError(f"the seed is a whole number, not {seed!r}")
    rng = draws(seed)
    candidates = [c for c in companies if c not in PROTECTED_COMPANIES]
    keyed = [(next(rng), c) for c in candidates]
    out = tuple(c for _, c in sorted(keyed))[:len(companies) - KEEP_COMPANIES]
    kept = tuple(c for c in companies if c not in out)
    minor_keys = sorted((next(rng), m) for m in minors if m != PROTECTED_MINOR)
    stack = (PROTECTED_MINOR,) + tuple(m for _, m in minor_keys[1:])
    return Setup(companies=kept, removed_companies=out, removed_minor=minor_keys[0][1],
                 minor_stack=stack)
