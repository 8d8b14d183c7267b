"""18Ireland's seed-drawn set-up: which three privates join DAR and DK, and
which minor company leaves the game.

18xx.games draws them from the game's seed (``settings.seed`` of an export)
with a linear congruential generator, ``x -> (a * x + c) mod m`` with the
constants of the ruleset's ``setup.rand`` (the reference's ``RAND_A``, ``RAND_C``,
``RAND_M``); the first state is ``seed mod m`` and every draw is the next state.
What is protected, kept and removed is the ruleset's ``setup`` too.  Two draws happen while the
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


@dataclass(frozen=True)
class Setup:
    companies: tuple        # the privates in the game, in list order
    removed_companies: tuple  # the privates drawn out, in draw order
    removed_minors: tuple   # the minors drawn out, in draw order
    minor_stack: tuple      # the protected minor first, then the others in drawn order

    @property
    def removed_minor(self):
        """The (first) minor drawn out, or None."""
        return self.removed_minors[0] if self.removed_minors else None


def draws(seed: int, rand):
    """The generator's draws for ``seed`` (``rand``: the ruleset's
    ``setup.rand``, {a, c, m}): an endless iterator."""
    a, c, m = int(rand["a"]), int(rand["c"]), int(rand["m"])
    state = seed % m
    while True:
        state = (a * state + c) % m
        yield state


def draw_setup(seed: int, companies: list[str], minors: list[str], setup) -> Setup:
    """The set-up for ``seed``; ``companies`` and ``minors`` are the symbols
    in the order of the title's lists (rules.yaml ``companies`` and the
    corporations of kind minor); ``setup`` is the ruleset's ``setup``
    (``protected_companies``, ``keep_companies``, ``protected_minor``,
    ``remove_minors``, ``rand``)."""
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ValueError(f"the seed is a whole number, not {seed!r}")
    rng = draws(seed, setup["rand"])
    protected = list(setup["protected_companies"])
    keep = setup["keep_companies"]
    candidates = [c for c in companies if c not in protected]
    keyed = [(next(rng), c) for c in candidates]
    out = tuple(c for _, c in sorted(keyed))[:len(companies) - keep] if keep is not None else ()
    kept = tuple(c for c in companies if c not in out)
    top = setup["protected_minor"]
    minor_keys = sorted((next(rng), m) for m in minors if m != top)
    n = int(setup["remove_minors"])
    stack = ((top,) if top else ()) + tuple(m for _, m in minor_keys[n:])
    return Setup(companies=kept, removed_companies=out,
                 removed_minors=tuple(m for _, m in minor_keys[:n]), minor_stack=stack)
