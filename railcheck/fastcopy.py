"""``copy.deepcopy`` without its generic machinery, for the game's state.

A replay's whole changing state is copied many times: before a reading of a
refused line is tried (``following/lookahead.save``), where a round may be
taken up again (``following/rounds.save_state``), and where a hint's
candidates or ``railcheck next`` start from a kept state
(``replay_state.capture`` / ``install``).  ``copy.deepcopy`` asks every
object the generic questions (a ``__deepcopy__``? a reducer? a
``__setstate__``?) and keeps each original alive in the memo; for the
plain objects, lists, dicts, tuples and sets the state is made of, the
answers are always the same.

:func:`deepcopy` answers them once per type and copies those kinds itself,
exactly as ``copy.deepcopy`` does (the same new objects, the same sharing,
the same memo entries for the originals); every other value (an object
with its own ``__deepcopy__``, a slotted or reduced one, a subclass of a
built-in container) is handed to ``copy.deepcopy`` with the same memo.
"""

from __future__ import annotations

import copy
import copyreg
import types

#: how each type is copied (found once per type)
_ATOM, _LIST, _DICT, _TUPLE, _SET, _FROZENSET, _PLAIN, _FIELDS, _OWN, _GENERIC = range(10)
_HOW: dict = {}
#: the plain values ``market.deepcopy_fields`` keeps as they are
_ATOMIC = frozenset((int, str, bool, float, type(None)))

#: the types copy.deepcopy returns as they are
for _t in (type(None), int, float, bool, complex, bytes, str, types.CodeType, type, range,
           types.BuiltinFunctionType, type(Ellipsis), type(NotImplemented), types.FunctionType,
           property):
    _HOW[_t] = _ATOM
_HOW[list] = _LIST
_HOW[dict] = _DICT
_HOW[tuple] = _TUPLE
_HOW[set] = _SET
_HOW[frozenset] = _FROZENSET


def _how(cls: type) -> int:
    """How ``copy.deepcopy`` copies an instance of ``cls`` (not a built-in
    container): its own ``__deepcopy__`` (called by :func:`deepcopy` as
    ``copy.deepcopy`` calls it), a plain object (a new instance of the class
    with a deep copy of its ``__dict__``: the default reduction), or
    anything else (``copy.deepcopy`` itself)."""
    how = _HOW.get(cls)
    if how is not None:
        return how
    if cls in copy._deepcopy_dispatch or issubclass(cls, type) or cls in copyreg.dispatch_table:  # type: ignore[attr-defined]
        how = _GENERIC
    elif getattr(getattr(cls, "__deepcopy__", None), "__qualname__", None) == "deepcopy_fields" \
            and cls.__deepcopy__.__module__ == "railcheck.market":
        how = _FIELDS     # (its loop, written out below)
    elif getattr(getattr(cls, "__deepcopy__", None), "__qualname__", None) == "unchanging" \
            and cls.__deepcopy__.__module__ == "railcheck.market":
        how = _ATOM       # (a value never changed once made: itself)
    elif getattr(cls, "__deepcopy__", None) is not None:
        how = _OWN
    elif (cls.__reduce_ex__ is object.__reduce_ex__ and cls.__reduce__ is object.__reduce__
          and getattr(cls, "__getstate__", None) is object.__getstate__
          and not hasattr(cls, "__setstate__")
          and not hasattr(cls, "__getnewargs_ex__") and not hasattr(cls, "__getnewargs__")
          and cls.__new__ is object.__new__
          and all("__slots__" not in vars(k) for k in cls.__mro__)
          and not issubclass(cls, (list, dict, set, frozenset, tuple))
          and "__dict__" in dir(cls)):
        how = _PLAIN
    else:
        how = _GENERIC
    _HOW[cls] = how
    return how


def deepcopy(x, memo: dict):
    """``copy.deepcopy(x, memo)``, faster for the kinds above."""
    d = id(x)
    y = memo.get(d, memo)
    if y is not memo:
        return y
    cls = type(x)
    how = _HOW.get(cls)
    if how is None:
        how = _how(cls)
    if how == _ATOM:
        return x
    if how == _FIELDS:
        # market.deepcopy_fields, as the object's __deepcopy__ does it
        y = cls.__new__(cls)
        memo[d] = y
        yd = y.__dict__
        for k, v in x.__dict__.items():
            t = type(v)
            if t in _ATOMIC or (t is frozenset and all(type(e) in _ATOMIC for e in v)):
                yd[k] = v
            else:
                yd[k] = deepcopy(v, memo)
        return y
    if how == _LIST:
        y = []
        memo[d] = y
        append = y.append
        for a in x:
            # (a plain value is itself: no call for it)
            append(a if type(a) in _ATOMIC else deepcopy(a, memo))
        return y
    if how == _DICT:
        return _copy_dict(x, d, memo)
    if how == _TUPLE:
        items = [deepcopy(a, memo) for a in x]
        # (a tuple met again while its items were copied: copied there)
        y = memo.get(d, memo)
        if y is not memo:
            return y
        for k, j in zip(x, items):
            if k is not j:
                y = tuple(items)
                memo[d] = y
                return y
        return x
    if how == _SET or how == _FROZENSET:
        y = cls([deepcopy(a, memo) for a in x])
        memo[d] = y
        return y
    if how == _PLAIN and "__deepcopy__" not in x.__dict__:
        y = cls.__new__(cls)
        memo[d] = y
        state = x.__dict__
        if state:
            # (copy.deepcopy copies the instance's dict as a dict of its own,
            # the memo naming it, and puts its items into the new instance's)
            y.__dict__.update(_copy_dict(state, id(state), memo))
        return y
    if how == _OWN:
        y = x.__deepcopy__(memo)  # type: ignore[attr-defined]
        if y is not x:
            memo[d] = y
        return y
    return copy.deepcopy(x, memo)


def _copy_dict(x: dict, d: int, memo: dict) -> dict:
    """A dict's copy, as :func:`deepcopy` makes it (``d`` its id): a key or
    value of a plain type (a field's name, a number) is itself, with no
    call for it (a game state's dicts are mostly such: the fields of its
    objects); the rest copied.  (Its memo entry is looked up first, as
    :func:`deepcopy` would.)"""
    y = memo.get(d, memo)
    if y is not memo:
        return y
    y = {}
    memo[d] = y
    atomic = _ATOMIC
    for key, value in x.items():
        y[key if type(key) in atomic else deepcopy(key, memo)] = \
            value if type(value) in atomic else deepcopy(value, memo)
    return y
