"""18Ireland (Ian Scrivins): data only so far.

``rules.yaml`` and ``board.yaml`` hold the title's numbers and map (see
docs/18Ireland.md); :mod:`.setup` reproduces the seed-drawn set-up.  The
title is not registered (no ``Title`` class yet): 18Ireland exports are
still reported as unsupported.
"""
