"""The verb table of the game notation: one entry per verb.

An entry says everything the notation knows about a verb:

* ``syntax``: how it is written after the actor, one Lark alternative per
  string (``"BID name INT"``).  Upper-case words that the base grammar
  (``railcheck/grammar/notation.lark``) does not define become case-insensitive
  whole-word keywords (``BID`` matches ``bid``, ``Bid``...).  ``rules`` holds
  extra Lark rules the syntax uses (``train_option``...).
* ``makes``: the action classes it makes (the writer looks verbs up by
  them).
* ``bind(b, kw, args)``: the action of a parsed line.  ``kw`` is the verb's
  first keyword and ``args`` the rest of the parse, in order: tokens as
  leaves ``(text, column, TYPE)``, sub-rules as tuples ``(rule, ...)``.  ``b``
  is the binder of :mod:`railcheck.notation`: ``b.name(leaf, kinds)``
  resolves a name (an unknown one is a finding), ``b.int_``, ``b.amount``,
  ``b.node``, ``b.route``, ``b.options`` read values, ``raise b.error(leaf,
  message)`` reports a bad value on that line.
* ``write(w, action)``: the text after the actor, or None when this verb
  does not write that action (another verb making the same class will).
  ``w`` is the writer's toolkit: ``w.name`` (quoted when needed),
  ``w.number``, ``w.amount``, ``w.route``.
* ``examples``: verb parts of real lines (``"bid CA 165"``); every one is
  parsed when the parser is built (warming up its states), and the tests
  check that each parses, binds to one of ``makes`` and is written back
  the same.
* ``hints``: for syntax errors, what a name after one of the verb's words
  is (``{"bid": "a private company"}``); ``advice(words)``: a remark for a
  frequent slip, given the line's lower-cased words.

Adding a verb is adding an entry here (and its action class to
``railcheck/actions.py`` if it is new, and a paragraph to docs/notation.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Optional

from .actions import (
    Assign, Bankrupt, Bid, BidForTurn, BuyCompany, BuyShares, BuyTrain, Choose, Convert, DiscardTrain,
    Dividend, Exchange, IgnoreStation, LayTile, Par, Pass, PlaceToken, Privatise, Propose,
    RunRoutes, SellCompany, SellShares, Sale, Vote,
)

# kinds of names (what the binder looks a name up as)
PLAYER = ("player",)
CORPORATION = ("corporation",)
COMPANY = ("company",)
TRAIN = ("train",)
TILE = ("tile",)
SUBJECT = ("player", "corporation")
BUYABLE = ("corporation", "company")

NAME_TYPES = ("NAME", "QUOTED")
AMOUNT_TYPES = ("INT", "PERCENT")

DIVIDEND_KINDS = ("payout", "withhold", "half")


@dataclass(frozen=True)
class Verb:
    key: str
    syntax: tuple[str, ...]
    makes: tuple[type, ...]
    bind: Callable
    write: Callable
    examples: tuple[str, ...]
    rules: str = ""
    hints: dict = field(default_factory=dict)
    advice: Optional[Callable] = None


def is_leaf(x) -> bool:
    """A token ``(text, column, TYPE)``, not a sub-rule ``(rule, ...)``."""
    return isinstance(x, tuple) and len(x) == 3 and isinstance(x[1], int)


def pick(args, *types):
    """The first token among ``args`` of one of ``types``, or None."""
    for x in args:
        if is_leaf(x) and x[2] in types:
            return x
    return None


def rules_of(args, name: str) -> list:
    """The sub-rules called ``name`` among ``args``."""
    return [x for x in args if not is_leaf(x) and x[0] == name]


# ---------------------------------------------------------------- binders

def _bind_bid(b, kw, args):
    if len(args) == 1:      # `bid 100`: a bid for the right to buy (1860's auction)
        return BidForTurn(price=b.int_(args[0]))
    # a private, or a company auctioned in a stock round (18Ireland's minors)
    corp = None
    if b.r.known("corporation"):
        corp, _ = b.r.lookup(b.text(args[0]), CORPORATION)
    return Bid(company=corp if corp is not None else b.name(args[0], COMPANY, "private"),
               price=b.int_(args[1]))


def _bind_propose(b, kw, args):
    return Propose(corporation=b.name(args[0], CORPORATION))


def _bind_vote(b, kw, args):
    return Vote(choice=args[0][0].lower())


def _bind_choose(b, kw, args):
    price = pick(args, "INT")
    return Choose(company=b.name(args[0], COMPANY, "private"),
                  price=None if price is None else b.int_(price))


def _bind_par(b, kw, args):
    return Par(corporation=b.name(args[0], CORPORATION), price=b.int_(args[1]))


def _bind_buy(b, kw, args):
    """`buy X`: a private at face value (a Bid) or shares of a corporation,
    told apart by the name; with a count or a source it is always shares."""
    amount = pick(args, *AMOUNT_TYPES)
    name = pick(args, *NAME_TYPES)
    source = pick(args, "IPO", "POOL")
    src = None if source is None else source[0].lower()
    plain = amount is None and source is None
    if not b.r.strict:
        count, percent = b.amount(amount)
        return BuyShares(corporation=b.text(name), count=count, percent=percent, source=src)
    kinds = BUYABLE if plain else CORPORATION
    value, kind = b.r.lookup(b.text(name), kinds)
    if value is None:
        note = ""
        if not plain:
            other, _ = b.r.lookup(b.text(name), COMPANY)
            if other is not None:
                note = f" ('{other}' is a private: write 'buy {other}' without a count or source)"
        near = b.unknown(name, b.kinds_phrase(kinds), b.r.candidates(kinds), note)
        if near is None:
            return BuyShares(corporation=b.text(name))
        value, kind = b.r.lookup(near, kinds)
    if kind == "company":
        return Bid(company=value, price=None)
    count, percent = b.amount(amount)
    return BuyShares(corporation=value, count=count, percent=percent, source=src)


def _bind_buy_train(b, kw, args):
    train = pick(args, "TRAIN_TYPE")
    o = b.options(rules_of(args, "option"))
    source = None
    if "from" in o:
        s = o["from"]
        if s[2] in ("DEPOT", "POOL"):
            source = s[0].lower()
        elif s[0].lower() == "reserve":
            # 18Ireland's primed trains not yet in the pool (an import writes it)
            source = "reserve"
        else:
            source = b.name(s, CORPORATION)
    return BuyTrain(train=b.name(train, TRAIN), source=source,
                    price=None if "for" not in o else b.int_(o["for"]),
                    exchange=None if "exchange" not in o else b.name(o["exchange"], TRAIN))


def _bind_buy_private(b, kw, args):
    company = pick(args, *NAME_TYPES)
    o = b.options(rules_of(args, "private_option"))
    if "for" not in o:
        raise b.error(b.end_column(), "expected 'for PRICE' in 'buy private' (the price paid)")
    seller = None if "from" not in o else b.name(o["from"], SUBJECT)
    return BuyCompany(company=b.name(company, COMPANY, "private"),
                      price=b.int_(o["for"]), seller=seller)


def _bind_sell_private(b, kw, args):
    company = pick(args, *NAME_TYPES)
    return SellCompany(company=b.name(company, COMPANY, "private"),
                       price=b.int_(pick(args, "INT")))


def _bind_sell(b, kw, args):
    sales = []
    for sale in rules_of(args, "sale"):
        count, percent = b.amount(pick(sale[1:], *AMOUNT_TYPES))
        sales.append(Sale(corporation=b.name(pick(sale[1:], *NAME_TYPES), CORPORATION),
                          count=count, percent=percent))
    return SellShares(sales=sales)


def _bind_exchange(b, kw, args):
    source = pick(args, "IPO", "POOL")
    return Exchange(corporation=b.name(pick(args, *NAME_TYPES), CORPORATION),
                    source=None if source is None else source[0].lower())


def _bind_lay(b, kw, args):
    tile, hex_ = pick(args, "TILE"), pick(args, "HEX")
    rot = pick(args, "ROTATION")
    rotation = None
    if rot is not None:
        rotation = int(rot[0][1:])
        if rotation > 5:
            raise b.error(rot, f"rotation '{b.clip(rot[0])}' out of range: r0 to r5")
    return LayTile(tile=b.name(tile, TILE), hex=hex_[0].upper(), rotation=rotation)


def _bind_token(b, kw, args):
    stop = b.node(pick(args, "NODE"))
    corp = pick(args, *NAME_TYPES)
    return PlaceToken(hex=stop.hex, city=stop.city,
                      corporation=None if corp is None else b.name(corp, CORPORATION))


def _bind_run(b, kw, args):
    totals = rules_of(args, "total")
    return RunRoutes(routes=[b.route(r) for r in rules_of(args, "route")],
                     revenue=b.int_(totals[0][1]) if totals else None)


def _bind_dividend(b, kw, args):
    return Dividend(kind=kw[0].lower())


def _bind_discard(b, kw, args):
    return DiscardTrain(train=b.name(args[0], TRAIN))


# ---------------------------------------------------------------- writers

def _write_bid(w, a):
    if isinstance(a, BidForTurn):
        return f"bid {w.number(a.price)}"
    if a.price is None:
        return None  # written by `buy`
    return f"bid {w.name(a.company)} {w.number(a.price)}"


def _write_buy(w, a):
    if isinstance(a, Bid):
        return f"buy {w.name(a.company)}"
    text = f"buy {w.amount(a.count, a.percent)}{w.name(a.corporation)}"
    return text + (f" {a.source}" if a.source else "")


def _write_buy_train(w, a):
    text = f"buy train {a.train}"
    if a.source is not None:
        text += " from " + (a.source if a.source in ("depot", "pool", "reserve")
                            else w.name(a.source))
    if a.price is not None:
        text += f" for {w.number(a.price)}"
    if a.exchange is not None:
        text += f" exchange {a.exchange}"
    return text


def _write_buy_private(w, a):
    text = f"buy private {w.name(a.company)}"
    if a.seller is not None:
        text += f" from {w.name(a.seller)}"
    return text + f" for {w.number(a.price)}"


def _write_sell(w, a):
    if not a.sales:
        raise ValueError("a sale of nothing cannot be written")
    return "sell " + ", ".join(f"{w.amount(s.count, s.percent) or '1 '}{w.name(s.corporation)}"
                               for s in a.sales)


def _write_lay(w, a):
    return f"lay {a.tile} {a.hex}" + ("" if a.rotation is None else f" r{int(a.rotation)}")


def _write_token(w, a):
    text = f"token {w.stop(a.hex, a.city)}"
    return text + ("" if a.corporation is None else f" for {w.name(a.corporation)}")


def _write_run(w, a):
    body = ", ".join(w.route(r) for r in a.routes) if a.routes else "none"
    return f"run {body}" + ("" if a.revenue is None else f" = {w.number(a.revenue)}")


def _write_dividend(w, a):
    if a.kind not in DIVIDEND_KINDS:
        raise ValueError(f"unknown dividend kind {a.kind!r}")
    return a.kind


def _buy_train_slip(words: list[str]) -> Optional[str]:
    """`PRR buy 3`: a train bought without the word `train`."""
    if len(words) in (3, 4) and words[1] == "buy" and words[2].isdigit() \
            and "train" not in words:
        return "to buy a train, write 'buy train TYPE'"
    return None


# ---------------------------------------------------------------- the table

_CLAUSES = """
option: FROM train_source
      | FOR INT
      | EXCHANGE TRAIN_TYPE
?train_source: DEPOT | POOL | name
"""

VERBS: tuple[Verb, ...] = (
    Verb("pass", ("PASS",), (Pass,),
         bind=lambda b, kw, args: Pass(), write=lambda w, a: "pass",
         examples=("pass",)),
    Verb("bid", ("BID name INT", "BID INT"), (Bid, BidForTurn), _bind_bid, _write_bid,
         examples=("bid CA 165", "bid 100"), hints={"bid": "a private company"}),
    Verb("buy", ("BUY amount? name share_source?",), (BuyShares, Bid), _bind_buy, _write_buy,
         examples=("buy PRR", "buy 2 PRR", "buy 20% PRR", "buy PRR pool", "buy 2 PRR ipo"),
         hints={"buy": "a corporation, a private"}),
    Verb("buy_train", ("BUY TRAIN TRAIN_TYPE option*",), (BuyTrain,),
         _bind_buy_train, _write_buy_train, rules=_CLAUSES,
         examples=("buy train 2", "buy train 2 from depot", "buy train 3 from pool for 150",
                   "buy train 4 from B&O for 1 exchange D", "buy train D exchange 4"),
         advice=_buy_train_slip),
    Verb("buy_private", ("BUY PRIVATE name private_option*",), (BuyCompany,),
         _bind_buy_private, _write_buy_private,
         rules="private_option: FROM name | FOR INT",
         examples=("buy private DH for 140", "buy private DH from Alice for 140"),
         hints={"private": "a private company"}),
    Verb("choose", ("CHOOSE name INT?",), (Choose,), _bind_choose,
         lambda w, a: f"choose {w.name(a.company)}"
         + ("" if a.price is None else f" {w.number(a.price)}"),
         examples=("choose CS", "choose CS 45"), hints={"choose": "a private company"}),
    Verb("par", ("PAR name INT",), (Par,), _bind_par,
         lambda w, a: f"par {w.name(a.corporation)} {w.number(a.price)}",
         examples=("par PRR 67",), hints={"par": "a corporation"}),
    Verb("sell_private", ("SELL PRIVATE name FOR INT",), (SellCompany,),
         _bind_sell_private,
         lambda w, a: f"sell private {w.name(a.company)} for {w.number(a.price)}",
         examples=("sell private CS for 10",), hints={"private": "a private company"}),
    Verb("sell", ('SELL sale ("," sale)*',), (SellShares,), _bind_sell, _write_sell,
         rules="sale: amount? name",
         examples=("sell PRR", "sell 2 PRR", "sell 2 PRR, B&O", "sell 2 PRR, 20% C&O"),
         hints={"sell": "a corporation", ",": "a corporation"}),
    Verb("exchange", ("EXCHANGE name share_source?",), (Exchange,), _bind_exchange,
         lambda w, a: f"exchange {w.name(a.corporation)}" + (f" {a.source}" if a.source else ""),
         examples=("exchange NYC", "exchange NYC pool"), hints={"exchange": "a corporation"}),
    Verb("lay", ("LAY TILE HEX ROTATION?",), (LayTile,), _bind_lay, _write_lay,
         examples=("lay 57 H10", "lay 57 H10 r2")),
    Verb("token", ("TOKEN NODE (FOR name)?",), (PlaceToken,), _bind_token, _write_token,
         examples=("token H12", "token H12.1", "token F16 for PRR"),
         hints={"for": "a corporation"}),
    Verb("run", ('RUN route ("," route)* total?', "RUN NONE total?"), (RunRoutes,),
         _bind_run, _write_run,
         examples=("run none", "run none = 0", "run 2 H1-H2", "run 2 H1-H2 = 1",
                   "run 2 H1-H2 (1) = 1", "run 2 H1-H2-H3 (1) = 1",
                   "run 2 H1-H2 (1), 3 H1-H2-H3 (1) = 1", "run 2 H1~H2~H3-H4 (1) = 1")),
    Verb("dividend", ("PAYOUT", "WITHHOLD", "HALF"), (Dividend,), _bind_dividend, _write_dividend,
         examples=("payout", "withhold", "half")),
    Verb("discard", ("DISCARD TRAIN_TYPE",), (DiscardTrain,), _bind_discard,
         lambda w, a: f"discard {a.train}", examples=("discard 2",)),
    Verb("assign", ("ASSIGN HEX",), (Assign,),
         bind=lambda b, kw, args: Assign(target=b.text(args[0]).upper()),
         write=lambda w, a: f"assign {a.target}", examples=("assign C13",)),
    Verb("propose", ("PROPOSE name",), (Propose,), _bind_propose,
         lambda w, a: f"propose {w.name(a.corporation)}",
         examples=("propose NYC",), hints={"propose": "a company (a minor, or the major formed)"}),
    Verb("vote", ("VOTE FOR", "VOTE AGAINST"), (Vote,), _bind_vote,
         lambda w, a: f"vote {a.choice}", examples=("vote for", "vote against")),
    Verb("bankrupt", ("BANKRUPT",), (Bankrupt,),
         bind=lambda b, kw, args: Bankrupt(), write=lambda w, a: "bankrupt",
         examples=("bankrupt",)),
    Verb("convert", ("CONVERT",), (Convert,),
         bind=lambda b, kw, args: Convert(), write=lambda w, a: "convert",
         examples=("convert",)),
    Verb("privatise", ("PRIVATISE",), (Privatise,),
         bind=lambda b, kw, args: Privatise(), write=lambda w, a: "privatise",
         examples=("privatise",)),
    Verb("ignore", ("IGNORE name (FOR INT)?",), (IgnoreStation,),
         bind=lambda b, kw, args: IgnoreStation(
             company=b.name(args[0], COMPANY, "private"),
             price=None if pick(args, "INT") is None else b.int_(pick(args, "INT"))),
         write=lambda w, a: f"ignore {w.name(a.company)}"
         + ("" if a.price is None else f" for {w.number(a.price)}"),
         examples=("ignore CA", "ignore CA for 100"), hints={"ignore": "a private company"}),
)

#: verb key -> entry
BY_KEY = {v.key: v for v in VERBS}


def writers_for(cls: type) -> list[Verb]:
    """The verbs that may write an action of class ``cls``, in table order."""
    return [v for v in VERBS if cls in v.makes]
