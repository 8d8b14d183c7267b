"""A plain, comparable picture of a game's whole state (and of its round's, and of
its title's own state: 1860's receivership and insolvency, 18Ireland's stack ...).

Used to prove that a refused action changes nothing: the replay can take a
snapshot before each action and compare it after a refusal
(``Replay(check_purity=True)``).  Objects are named, not copied, so two
snapshots compare equal exactly when every value is the same.
"""

from __future__ import annotations

import functools
import types

from .state import Bank, Cert, Company, Corporation, Player, Train


def _name(obj):
    # (by the kind of its type, found once per type: the isinstance tests of
    # every value were a fifth of a purity-checked replay's time)
    how = _NAMING.get(type(obj))
    if how is None:
        how = _naming(type(obj))
    if how is _SELF:
        return obj
    if how is _NAME_OR_SYM:
        return getattr(obj, "name", None) or getattr(obj, "sym", None)
    if how is _PICTURED:
        return _plain(obj, 0)
    return getattr(obj, how)


#: how :func:`_name` names an instance of each type (found once per type):
#: itself (a plain value), by the attribute named (a train's ``id``, a
#: certificate's ``name``), by its name or else its symbol (a player, a
#: company), or by its picture (anything else)
_NAMING: dict = {}
_SELF, _NAME_OR_SYM, _PICTURED = object(), object(), object()


def _naming(t: type):
    k = _kind(t)
    if k == _ATOM:
        how = _SELF
    elif k == _NAMED:
        how = "id" if issubclass(t, Train) else "name" if issubclass(t, Cert) else _NAME_OR_SYM
    else:
        how = _PICTURED
    _NAMING[t] = how
    return how


#: how :func:`_plain` shows a value of each type (found once per type, by the
#: same isinstance tests in the same order: subclasses as their base)
_ATOM, _NAMED, _DICT, _LIST, _SET, _CODE, _OBJECT, _REPR = range(8)
_KINDS: dict = {}
#: the types whose values :func:`_plain` shows as themselves (above its
#: depth limit), looked up without a call
_PLAIN_TYPES = frozenset((str, int, bool, float, type(None)))


def _kind(t: type) -> int:
    k = _KINDS.get(t)
    if k is None:
        if issubclass(t, (str, int, bool, float, type(None))):
            k = _ATOM
        elif issubclass(t, (Player, Corporation, Company, Bank, Train, Cert)):
            k = _NAMED
        elif issubclass(t, dict):
            k = _DICT
        elif issubclass(t, (list, tuple)):
            k = _LIST
        elif issubclass(t, (set, frozenset)):
            k = _SET
        elif issubclass(t, (type, types.FunctionType, types.MethodType, types.BuiltinFunctionType,
                            types.ModuleType, functools.partial)):
            # code, not state: a class (a round's step classes), a function or
            # a method is named; walking its namespace is what made a
            # snapshot slow (an operating round's step classes were 90% of
            # its round's picture), and the replay changes no class
            k = _CODE
        elif hasattr(t, "__dict__") or hasattr(t, "__slots__"):
            k = _OBJECT
        else:
            k = _REPR
        _KINDS[t] = k
    return k


def _plain(value, depth: int):
    """Values of a round or turn object, recursively, with game objects named."""
    if depth > 4:
        return repr(type(value))
    k = _KINDS.get(type(value))
    if k is None:
        k = _kind(type(value))
    if k == _ATOM:
        return value
    if k == _NAMED:
        return _name(value)
    if k == _DICT:
        if depth < 4:
            # (a key that is a string and a value of a plain type are
            # themselves: no call for them, as in the objects' fields below)
            return {key if type(key) is str else str(_name(key)):
                    v if type(v) in _PLAIN_TYPES else _plain(v, depth + 1)
                    for key, v in value.items()}
        return {str(_name(key)): _plain(v, depth + 1) for key, v in value.items()}
    if k == _LIST:
        if depth < 4:
            return [v if type(v) in _PLAIN_TYPES else _plain(v, depth + 1) for v in value]
        return [_plain(v, depth + 1) for v in value]
    if k == _SET:
        return sorted(str(_plain(v, depth + 1)) for v in value)
    if k == _CODE:
        if isinstance(value, functools.partial):
            return ("partial", _plain(value.func, depth + 1), _plain(value.args, depth + 1))
        owner = getattr(value, "__self__", None)
        name = getattr(value, "__qualname__", None) or repr(value)
        if owner is not None and not isinstance(owner, type) \
                and not isinstance(value, types.ModuleType):
            # a bound method: the object it is bound to is state
            return (name, _plain(owner, depth + 1))
        return name
    if k == _OBJECT and hasattr(value, "__dict__"):
        # (the game and the round are pictured on their own; so is what an object names
        # as references that are not its state, ``not_state``: 1890's rounds' replay)
        skip = ("game", "round", *getattr(value, "not_state", ()))
        if depth < 4:
            return {key: v if type(v) in _PLAIN_TYPES else _plain(v, depth + 1)
                    for key, v in vars(value).items() if key not in skip}
        return {key: _plain(v, depth + 1) for key, v in vars(value).items()
                if key not in skip}
    return repr(value)


def _owners(things) -> list:
    """:func:`_name` of each one's owner (a certificate's: mostly "ipo" or
    "pool", itself with no call)."""
    naming = _NAMING
    return [o if naming.get(type(o)) is _SELF else _name(o) for o in [x.owner for x in things]]


def state_snapshot(g) -> dict:
    return {
        "bank": g.bank.cash,
        "players": [(p.name, p.cash, [c.sym for c in p.companies], p.bankrupt)
                    for p in g.players],
        "corporations": [(c.sym, c.cash, c.par and c.par.price,
                          c.price and (c.price.row, c.price.col,
                                       g.market.stacks.get(c.price, []).index(c)),
                          c.floated, c.closed, [t.id for t in c.trains],
                          [x.sym for x in c.companies], c.tokens_placed, _name(c.president),
                          c.operated, c.home_placed, _owners(c.certs))
                         for c in g.corporations.values()],
        "companies": [(c.sym, _name(c.owner), c.closed, c.price, c.uses)
                      for c in g.companies.values()],
        "trains": [(t.id, _name(t.owner), t.obsolete) for t in g.trains],
        # the markers on the market's cells (each company's place in its
        # cell's stack is above; these are every cell's, a marker left
        # behind on a cell too)
        "market": sorted((cell.row, cell.col, cell.price, [_name(c) for c in stack])
                         for cell, stack in g.market.stacks.items() if stack),
        "game": (g.phase_index, g.sr_number, g.or_number, g.or_count, g.finished,
                 g.end_reason, g.end_pending, g.bank_broken, sorted(g.laid_hexes),
                 _name(g.priority), [p.name for p in g.seat_order], _plain(g.pending_par, 0),
                 g.cert_limit, g.depot_start, sorted(g.following.order_flagged),
                 _plain(g.over_limit_flagged, 0)),
        # what a title's game keeps beyond the shared fields (1890's books)
        "own": _plain(g.own_state(), 0),
        # what is not sure (the checks skipped are a count for the report, not state)
        "unsure": (_plain(g.unsure.unsure, 0), _plain(g.unsure.at_most, 0)),
        "board": g.board.snapshot() if g.board is not None else None,
        "round": _plain(g.round, 0) if g.round is not None else None,
        # the record-following layer's state of the round (a stock round's
        # written turn, the companies an operating round keeps waiting)
        "following": _plain(getattr(g.following, "round", None), 0),
        # the title's own state (1860's receivership, insolvency, sections ...;
        # 18Ireland's stack of minors, assigned tokens ...)
        "title": _title_state(g.title),
    }


def _title_state(title) -> dict:
    """The title object's attributes, and those of its state objects and of the objects
    these hold (1890's ledger), each object's fields but what it holds as references that
    are not its state (``not_state``: 1890's title object's game and numbers, its state's
    rounds)."""
    out = {}
    skip = ("game", *getattr(title, "not_state", ()))
    for k, v in vars(title).items():
        if k in skip:
            continue
        if hasattr(v, "__dict__") and not isinstance(v, type):
            out[k] = {a: _fields(x) if _kind(type(x)) == _OBJECT and hasattr(x, "__dict__")
                      else _plain(x, 2) for a, x in _own(v)}
        else:
            out[k] = _plain(v, 1)
    return out


def _own(obj):
    """An object's fields, but those it names in ``not_state``."""
    skip = getattr(obj, "not_state", ())
    return [(a, x) for a, x in vars(obj).items() if a not in skip]


def _fields(obj) -> dict:
    return {a: _plain(x, 2) for a, x in _own(obj)}


def snapshot_diff(a, b, path: str = "") -> list[str]:
    """The paths at which two snapshots differ (for messages)."""
    if type(a) is not type(b):
        return [path or "."]
    if isinstance(a, dict):
        out = []
        for k in sorted(set(a) | set(b), key=str):
            if a.get(k) != b.get(k):
                out += snapshot_diff(a.get(k), b.get(k), f"{path}.{k}")
        return out
    if isinstance(a, (list, tuple)) and len(a) == len(b):
        out = []
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                out += snapshot_diff(x, y, f"{path}[{i}]")
        return out
    return [] if a == b else [path or "."]
