"""``railcheck next`` (and the editor's hover and completion) for 1890
(Kansai), whose records are replayed by the title's own checker (this
folder), not by the shared rounds and steps.  The command line and the
language server reach it through the title's class (``TitleKansai.own_table``):
shared code imports no title.

The checker has no pure checks to ask: its handlers judge an action by
taking it.  So every candidate (made generously from the state: each company,
source, price, train, the map's hexes and tiles ...) is judged the way
``railcheck validate`` judges the record: a copy of the checker paused where
the record stops takes the candidate as the record's next action
(the engine's ``Replay.play``), then the record's end (``record_ends``), and the
candidate is offered when that adds no error finding to those of the record
cut there (a duty the candidate leaves undone counts: a company's turn ended
without a train, a player's turn ended over the certificate limit).  No rule
is written here a second time.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Optional

from ...actions import (Bankrupt, Bid, BuyCompany, BuyShares, BuyTrain, Convert, DiscardTrain,
                       Dividend, IgnoreStation, LayTile, Par, Pass, PlaceToken, Privatise,
                       RoundMarker, Sale, SellShares)
from ...fastcopy import deepcopy
from ...findings import ERROR
from ...schema import is_unknown
from ...table import adapter
from ...table.nextmove import NextMoves, Option, _price_range, holder_gains
from .rounds import marker_label

#: the line given to a candidate action tried (its findings are told apart by it)
MARK = 10 ** 7


def _key(f) -> tuple:
    return (f.rule, f.line)


class KansaiPosition:
    """The checker paused before the record's action ``count``, and the
    trial of candidate actions on copies of it."""

    def __init__(self, record, rules, count: int):
        from ...engine import Replay
        self.record = replace(record, actions=list(record.actions[:count]))
        rp = Replay(self.record, rules, hints=False)
        rp.begin()
        for k in range(count):
            rp.play(k)
        #: the engine's replay paused there, and 1890's title object on its game
        self.rp = rp
        self.count = count
        #: actions played before each candidate (a round marker when the
        #: record's round is over: the candidates are the next round's)
        self.prefix: list = []
        self.trials = 0
        base = self._copy(self.rp)
        base.rounds.record_ends()
        self.base = Counter(_key(f) for f in base.game.findings if f.severity == ERROR)

    @property
    def r(self):
        """1890's title object (its state, numbers, rounds and ledger) where the checker
        is paused."""
        return self.rp.game.title

    def _copy(self, rp):
        memo = {id(rp.rules): rp.rules, id(rp.record): rp.record}
        return deepcopy(rp, memo)

    def advance(self, marker: RoundMarker) -> None:
        """The record's round is over: the candidates follow ``marker``."""
        marker = replace(marker, line=MARK - 1)
        acts = self.record.actions + [marker]
        self.rp.record = replace(self.record, actions=acts)
        self.rp.play(len(acts) - 1)
        self.prefix.append(marker)

    def trial(self, action, inspect=None, then=()):
        """(error findings the candidate adds, what ``inspect`` read of the
        checker right after it); ``then``: actions played after it (each
        marked a line further)."""
        self.trials += 1
        rp = self._copy(self.rp)
        action = replace(action, line=MARK)
        more = [replace(a, line=MARK + 1 + k) for k, a in enumerate(then)]
        acts = self.record.actions + self.prefix + [action] + more
        rp.record = replace(self.record, actions=acts)
        first = len(acts) - 1 - len(more)
        rp.play(first)
        seen = inspect(rp.game.title) if inspect is not None else None
        for k in range(len(more)):
            rp.play(first + 1 + k)
        rp.rounds.record_ends()
        findings = rp.game.findings
        have = Counter(_key(f) for f in findings if f.severity == ERROR)
        new = have - self.base
        errors = [f for f in findings if f.severity == ERROR and _key(f) in new]
        return errors, seen


class _Judge:
    def __init__(self, pos: KansaiPosition):
        self.pos = pos
        self.refused: list = []
        self.last_refusal: Optional[Option] = None

    def judge(self, kind, action, info=None, inspect=None, keep_refused=False, then=()):
        """The verdict on ``action`` (followed by ``then``: a refusal is then
        not kept among the candidates refused, since ``action`` alone may
        be accepted)."""
        info = dict(info or {})
        r = self.pos.r
        actor = getattr(action, "actor", None) or ""
        before = _cash(r, actor)

        def look(rr):
            out = {"cash_after": _cash(rr, actor)}
            if inspect is not None:
                out.update(inspect(rr))
            return out
        errors, seen = self.pos.trial(action, look, then)
        if errors:
            opt = Option(kind, action, False, info, errors[0].rule, errors[0].message)
            if not then:
                self.refused.append(opt)
            self.last_refusal = opt
            return opt if keep_refused else None
        seen = seen or {}
        if before is not None and seen.get("cash_after") is not None:
            info.setdefault("cost", before - seen["cash_after"])
        for k, v in seen.items():
            if k != "cash_after":
                info[k] = v
        return Option(kind, action, True, info)


def _cash(r, who: str):
    """``who``'s cash as the checker tracks it (in the auction: the player's, which the
    shared waterfall moves before the ledger starts), or None (not tracked)."""
    if not who:
        return None
    w = r.stock.waterfall
    if r.kind == "auction" and w is not None and who in w.game.player_by_name:
        return w.game.player_by_name[who].cash
    return r.ledger.get(who) if r.ledger.on else None


# ---------------------------------------------------------------------------
# who is to act


def _next_stock_player(r) -> Optional[str]:
    """The player to act in the stock round (the shared round's ``current``: the turn under
    way, or the next seat after a turn that ended, a player with nothing he may do passed
    over), or None when every player has passed in a row (S2.2: the round is over)."""
    s = r.stock.round
    if s.finished:
        return None
    return s.current.name if s.current is not None else \
        (r.holdings.priority_name() or r.holdings.names[0])


def _auction_player(r) -> Optional[str]:
    w = r.stock.waterfall
    if w is None:
        from .auction import waterfall
        w, _ = waterfall(r)
        if w is None:
            return None
    if w.finished:
        return None
    return w.current_player().name


# ---------------------------------------------------------------------------


def kansai_next(record, rules, count: int, *, verbose: bool = False, errors: bool = False):
    """What the one to act may do in the 1890 record cut before its action
    ``count`` (with ``errors``: and the number of error findings of the
    record up to there)."""
    nm, pos = _kansai_next(record, rules, count, verbose)
    if pos.r.ledger.on:
        nm.facts["bank"] = pos.r.ledger.bank
    return (nm, sum(pos.base.values())) if errors else nm


def locate(pos: KansaiPosition) -> tuple:
    """(actor, its kind, step, the round begun when the record's is over,
    notes, finished) where ``pos`` stands (moved on past a round that is
    over)."""
    r = pos.r
    notes: list = []
    finished = r.finished
    actor, actor_kind, step = None, "", ""
    moved = ""
    for _ in range(2):
        if r.finished:
            finished = True
            break
        if r.kind == "auction":
            actor = _auction_player(r)
            if actor is not None:
                actor_kind, step = "player", "the waterfall auction"
                break
            if r.stock.waterfall is None and r.stock.waterfall_missing is not None:
                notes.append("the auction's turns are not known (the components file leaves "
                             + ".".join(str(k) for k in r.stock.waterfall_missing)
                             + " unknown)")
                break
        elif r.kind == "SR":
            actor = _next_stock_player(r)
            if actor is not None:
                actor_kind = "player"
                break
        elif r.kind == "OR":
            actor = r.operating.actor
            current = actor if actor in r.rules.corp_by_sym else None
            actor = current or r.operating.next_company()
            if actor is not None:
                actor_kind = "company"
                step = "operating" if current else "to begin its turn"
                break
        if moved:
            break
        marker = r.rules_next_round()
        moved = marker_label(marker)
        pos.advance(marker)
        r = pos.r
    return actor, actor_kind, step, moved, notes, finished


def _kansai_next(record, rules, count: int, verbose: bool):
    pos = KansaiPosition(record, rules, count)
    actor, actor_kind, step, moved, notes, finished = locate(pos)
    r = pos.r
    label = r.round_label
    sit = adapter.Situation(label, r.kind, actor, actor_kind, step, actor or "", finished)
    nm = NextMoves(sit, r.phase.name, rules.currency)
    nm.notes.extend(notes)
    if moved:
        nm.notes.append(f"the record's round is over: the next action begins {moved} "
                        f"(write '{moved}' first)")
        nm.facts["round_begins"] = moved
    if finished or actor is None:
        nm.trials = pos.trials
        return nm, pos
    j = _Judge(pos)
    if actor_kind == "player":
        nm.options = _player_options(j, r, actor, nm)
    else:
        nm.options = _company_options(j, r, actor, nm, verbose)
    nm.trials = pos.trials
    nm.refused = j.refused
    if pos.prefix:
        # each action offered follows the marker that begins its round
        for o in nm.options:
            o.info["after"] = [marker_label(m) for m in pos.prefix]
    return nm, pos


# ---------------------------------------------------------------------------
# a player's turn: the auction and the stock rounds


def _player_options(j: _Judge, r, name: str, nm: NextMoves) -> list:
    h, led, rules = r.holdings, r.ledger, r.rules
    from .components import par_values
    cash = _cash(r, name)
    nm.facts.update({"cash": cash if cash is not None else "unknown",
                     "certificates": h.num_certs(h.by_name[name]) if led.on else
                     sum(1 for c in h.owned() if h.owner_of(c.sym) == name),
                     "certificate_limit": h.cert_limit if h.cert_limit is not None
                     else "unknown"})
    opts: list = []
    o = j.judge("pass", Pass(actor=name))
    if o:
        opts.append(o)
    top = cash if isinstance(cash, int) and cash > 0 else 0
    if r.kind == "auction":
        for c in rules.privates:
            if h.owner_of(c.sym) is not None or c.sym in r.not_in_play:
                continue
            o = j.judge("buy private", Bid(actor=name, company=c.sym, price=None),
                        {"private": c.sym, "seller": "bank"})
            if o is not None:
                o.info["price"] = o.info.get("cost")
                opts.append(o)

            def at(price, c=c):
                return j.judge("bid", Bid(actor=name, company=c.sym, price=price))
            value = rules.company_value(c.sym)
            low, high, o = _price_range(at, top, (None if is_unknown(value) else value,))
            if o is not None:
                o.info.pop("cost", None)        # (a bid is paid when it wins)
                o.info.update({"private": c.sym, "price_min": low, "price_max": high})
                opts.append(o)
        return opts
    # the late privates (from the first 3-train: L0) and the minors
    for c in rules.late_companies:
        if h.owner_of(c.sym) is not None or c.sym in r.not_in_play:
            continue
        o = j.judge("buy private", Bid(actor=name, company=c.sym, price=None),
                    {"private": c.sym, "seller": "bank"})
        if o is not None:
            o.info["price"] = o.info.get("cost")
            opts.append(o)
    prices = par_values(rules.components) or []
    if not prices:
        nm.notes.append("the par values are unknown (the components file's market.rows): a par "
                        "is taken at the price written, so none is listed but JR's")
    for c in rules.corporations:
        sym = c.sym
        if sym in r.not_in_play or (led.on and led.closed(sym)):
            continue
        if c.kind == "minor":
            if h.minor_owner(sym) is not None or h.corporations[sym].closed:
                continue
            o = j.judge("buy", BuyShares(actor=name, corporation=sym, count=1),
                        {"corporation": sym, "source": "ipo", "count": 1})
            if o is not None:
                opts.append(o)
            continue
        if h.par(sym) is None:
            fixed = c.extra["par"]
            ok, costs, first_refused = [], [], None
            for p in ([int(fixed)] if fixed else prices):
                o = j.judge("par", Par(actor=name, corporation=sym, price=p),
                            keep_refused=True)
                if o.legal:
                    ok.append(p)
                    costs.append(o.info.get("cost"))
                elif first_refused is None:
                    first_refused = o
            if ok:
                o = Option("par", Par(actor=name, corporation=sym, price=ok[0]), True,
                           {"corporation": sym, "prices": ok, "costs": costs})
                o.info["actions"] = [f"{name} par {sym} {p}" for p in ok]
                opts.append(o)
            elif first_refused is not None:
                first_refused.info["corporation"] = sym
                opts.append(first_refused)
            continue
        for source in ("ipo", "pool"):
            if source == "pool" and not h.pool(sym):
                continue
            a = BuyShares(actor=name, corporation=sym, count=1,
                          source=None if source == "ipo" else "pool")
            o = j.judge("buy", a, {"corporation": sym, "source": source, "count": 1},
                        keep_refused=True)
            if o.legal or source == "ipo":
                opts.append(o)
        held = h.percent(sym, name)
        for n in range(1, held // 10 + 1):
            sale = SellShares(actor=name, sales=[Sale(corporation=sym, count=n)])
            o = j.judge("sell", sale, {"corporation": sym, "count": n, "percent": n * 10},
                        inspect=lambda rr, s=sym: {"price_after": rr.ledger.price(s)
                                                   if rr.ledger.on else None})
            if o is not None:
                opts.append(o)
    # privates between players (S2.1, at any price)
    for sym, owner in ((c.sym, h.owner_of(c.sym)) for c in h.owned()):
        if owner == name or not h.is_player(owner):
            continue

        def at(price, sym=sym, owner=owner):
            return j.judge("buy private", BuyCompany(actor=name, company=sym, price=price,
                                                     seller=owner))
        first = at(0)
        if first is None:
            continue
        hi = at(top) if cash is not None else None
        first.info.update({"private": sym, "seller": owner, "price_min": 0,
                           "price_max": "any" if cash is None else top if hi is not None
                           else 0})
        first.info.pop("cost", None)
        opts.append(first)
    return opts


# ---------------------------------------------------------------------------
# a company's operating turn


def _company_options(j: _Judge, r, sym: str, nm: NextMoves, verbose: bool) -> list:
    h, led, rules = r.holdings, r.ledger, r.rules
    spec = rules.corp_by_sym[sym]
    current = r.operating.actor == sym
    turn = r.operating.turn if current else None       # the company's turn (Turn1890)
    nm.facts.update({"treasury": led.get(sym) if led.on else "unknown",
                     "price": led.price(sym) if led.on else None,
                     "trains": h.train_names(sym),
                     "train_limit": h.train_limit(h.corporations[sym]),
                     "president": h.president(sym) if spec.kind != "minor"
                     else h.minor_owner(sym),
                     "tile_lays": len(turn.laid_on) if turn is not None else 0,
                     "lays_allowed": (r.phase.jr_tile_lays if sym == "JR" and r.jr_is_state()
                                      else rules.operating.tile_lays)})
    opts: list = []
    if current:
        # the company's turn goes on until another company acts: ending it is
        # the next company's first action (its duties are checked then)
        nxt = r.operating.next_company(done=sym)
        if nxt is not None:
            o = j.judge("end turn", Pass(actor=nxt), {"next": nxt})
            if o is not None:
                opts.append(o)
            else:
                refused = j.last_refusal
                nm.notes.append(f"{sym}'s turn may not end yet: {refused.message} "
                                f"({refused.rule})")
        else:
            # the last to operate: its turn ends with the round (the next
            # round's line, where its duties are checked)
            marker = r.rules_next_round()
            o = j.judge("end turn", marker, {"next": marker_label(marker)})
            if o is not None:
                opts.append(o)
            else:
                refused = j.last_refusal
                nm.notes.append(f"{sym}'s turn may not end yet: {refused.message} "
                                f"({refused.rule})")
    else:
        # a pass begins the company's turn and ends it at once: judged with
        # what follows it (the next company's turn, or the next round), where
        # the turn's duties are checked
        nxt = r.operating.next_company(done=sym)
        after = Pass(actor=nxt) if nxt is not None else r.rules_next_round()
        o = j.judge("pass", Pass(actor=sym), then=[after])
        if o is not None:
            opts.append(o)
        else:
            refused = j.last_refusal
            nm.notes.append(f"{sym} may not pass: {refused.message} ({refused.rule})")
    board = r.operating.map.board
    if board is None:
        nm.notes.append("the components file gives no map: tile lays, stations and runs are "
                        "taken as written (any hex), so none is listed")
    else:
        opts.extend(_lays(j, r, sym, board))
        opts.extend(_tokens(j, r, sym, board))
    if turn is not None and turn.revenue is not None:
        for kind in ("payout", "withhold", "half"):
            o = j.judge("dividend", Dividend(actor=sym, kind=kind), {"dividend": kind},
                        inspect=lambda rr: _holders(rr, sym))
            if o is not None:
                _gains(r, o)
                opts.append(o)
    elif h.train_names(sym):
        nm.notes.append(f"{sym} runs its trains ({', '.join(h.train_names(sym))}) with a line "
                        f"'{sym} run TRAIN STOPS = REVENUE'; railcheck does not search 1890's "
                        f"runs (its values are the summary's levels)")
    opts.extend(_train_buys(j, r, sym))
    for t in sorted(set(h.train_names(sym))):
        o = j.judge("discard", DiscardTrain(actor=sym, train=t), {"train": t})
        if o is not None:
            opts.append(o)
    if sym in ("M1", "M2", "M3", "M4"):
        o = j.judge("convert", Convert(actor=sym), {"corporation": "KNR"})
        if o is not None:
            opts.append(o)
    if sym == "M5":
        o = j.judge("privatise", Privatise(actor=sym))
        if o is not None:
            opts.append(o)
    if h.owner_of("KRTR") is not None:
        from .orsteps import KRTR_FEE
        o = j.judge("ignore", IgnoreStation(actor=sym, company="KRTR", price=KRTR_FEE),
                    {"private": "KRTR", "price": KRTR_FEE})
        if o is not None:
            opts.append(o)
    # privates from players (O6: phases 2-3, half to twice the face value)
    for psym, owner in ((c.sym, h.owner_of(c.sym)) for c in h.owned()):
        if not h.is_player(owner):
            continue
        value = rules.company_value(psym)
        if is_unknown(value):
            continue
        lo, hi = (int(value) + 1) // 2, int(value) * 2
        low = j.judge("buy private", BuyCompany(actor=sym, company=psym, price=lo,
                                                seller=owner))
        if low is None:
            continue
        top = j.judge("buy private", BuyCompany(actor=sym, company=psym, price=hi,
                                                seller=owner))
        low.info.update({"private": psym, "seller": owner, "price_min": lo,
                         "price_max": hi if top is not None else lo})
        low.info.pop("cost", None)
        opts.append(low)
    pres = nm.facts.get("president")
    if pres and not h.train_names(sym):
        # B0: the president's sales for the train the company must buy
        for other in rules.corporations:
            held = h.percent(other.sym, pres) if other.kind != "minor" else 0
            for n in range(1, held // 10 + 1):
                sale = SellShares(actor=pres, sales=[Sale(corporation=other.sym, count=n)])
                o = j.judge("emergency sale", sale,
                            {"corporation": other.sym, "count": n, "percent": n * 10},
                            inspect=lambda rr, c=other.sym: {
                                "price_after": rr.ledger.price(c) if rr.ledger.on else None})
                if o is None:
                    break
                opts.append(o)
        o = j.judge("bankrupt", Bankrupt(actor=pres))
        if o is not None:
            opts.append(o)
    return opts


def _holders(rr, sym) -> dict:
    led = rr.ledger
    return {"holders_cash": {p: led.get(p) for p in rr.holdings.names} if led.on else {},
            "treasury_after": led.get(sym) if led.on else None,
            "price_after": led.price(sym) if led.on else None}


def _gains(r, o) -> None:
    holder_gains(o, {p: r.ledger.get(p) for p in r.holdings.names})


def _train_buys(j: _Judge, r, sym: str) -> list:
    h, rules = r.holdings, r.rules
    out = []
    seen = set()
    for t in rules.trains:
        name = t.name
        price = rules.train_price(name)
        price = None if is_unknown(price) else int(price)
        # every type: the checker refuses those not on sale yet (F7) or sold out
        o = j.judge("train", BuyTrain(actor=sym, train=name, price=price),
                    {"train": name, "source": "depot", "price": price})
        if o is not None:
            o.info.pop("cost", None)
            out.append(o)
        for old in sorted(set(h.train_names(sym))):
            worth = rules.number("trains", name, "trade_in", old)
            if is_unknown(worth) or price is None:
                continue
            o = j.judge("train", BuyTrain(actor=sym, train=name, price=price - int(worth),
                                          exchange=old),
                        {"train": name, "source": "depot", "price": price - int(worth),
                         "exchange": old})
            if o is not None:
                o.info.pop("cost", None)
                out.append(o)
    for name in sorted(set(h.pool_train_names())):
        price = rules.train_price(name)
        price = None if is_unknown(price) else int(price)
        o = j.judge("train", BuyTrain(actor=sym, train=name, source="pool", price=price),
                    {"train": name, "source": "pool", "price": price})
        if o is not None:
            o.info.pop("cost", None)
            out.append(o)
    led = r.ledger
    cash = led.get(sym) if led.on else 0
    for other in (c.sym for c in h.with_trains()):
        if other == sym:
            continue
        for name in sorted(set(h.train_names(other))):
            if (other, name) in seen:
                continue
            seen.add((other, name))

            def at(price, name=name, other=other):
                return j.judge("train", BuyTrain(actor=sym, train=name, source=other,
                                                 price=price))
            low, high, o = _price_range(at, max(1, cash))
            if o is not None:
                o.info.clear()
                o.info.update({"train": name, "source": other, "price_min": low,
                               "price_max": high})
                out.append(o)
    return out


def _lays(j: _Judge, r, sym: str, board) -> list:
    order = board.color_order
    out = []
    for h in board.hex_list:
        if h.color not in order[:-1]:
            continue
        want = order[order.index(h.color) + 1]
        for tname, t in board.tiles.items():
            if t.color != want or (board.remaining.get(tname) is not None
                                   and board.remaining[tname] <= 0):
                continue
            if (h.tile.label or None) != (t.label or None):
                continue
            for rot in t.distinct_rotations():
                a = LayTile(actor=sym, tile=tname, hex=h.coord, rotation=rot)
                o = j.judge("lay", a, {"hex": h.coord, "tile": tname, "rotation": rot,
                                       "upgrade": h.laid})
                if o is not None:
                    out.append(o)
    return out


def _tokens(j: _Judge, r, sym: str, board) -> list:
    out = []
    for h in board.hex_list:
        idx = h.city_indices()
        for city in (idx if len(idx) > 1 else [None] if idx else []):
            o = j.judge("token", PlaceToken(actor=sym, hex=h.coord, city=city),
                        {"hex": h.coord, "city": city})
            if o is not None:
                out.append(o)
    return out


def kansai_hover(record, rules, count: int) -> str:
    """Markdown for the editor's hover: the state after the record's first
    ``count`` actions (the round, who is to act, the cash, the company)."""
    pos = KansaiPosition(record, rules, count)
    actor, actor_kind, step, moved, _, finished = locate(pos)
    r = pos.r
    led = r.ledger
    out = []
    if finished:
        out.append(f"**game over** ({r.end_reason or ''})")
    else:
        turn = f"**{r.round_label}**, phase {r.phase.name}"
        if actor:
            turn += f": {actor} to act" + (f" ({step})" if step else "")
        out.append(turn)
    out.append("")
    out.append("| player | cash |")
    out.append("|---|---|")
    for p in r.holdings.names:
        cash = _cash(r, p)
        out.append(f"| {p} | {r.money(cash) if cash is not None else 'not tracked'} |")
    last = record.actions[count - 1] if count else None
    name = getattr(last, "actor", None)
    corp = name if name in rules.corp_by_sym else actor if actor_kind == "company" else None
    if corp is not None:
        trains = ", ".join(r.holdings.train_names(corp)) or "none"
        price = led.price(corp) if led.on else None
        pres = r.holdings.minor_owner(corp) if rules.corp_by_sym[corp].kind == "minor" \
            else r.holdings.president(corp)
        out.append("")
        out.append(f"**{corp}**: treasury "
                   f"{r.money(led.get(corp)) if led.on else 'not tracked'}, trains {trains}, "
                   f"price {r.money(price) if price is not None else 'no price'}, president "
                   f"{pres or 'nobody'}")
    return "\n".join(out)


def completion_items(record, rules, count: int) -> list:
    """(label, detail): the round's line when the record's round is over,
    then each action offered."""
    nm = kansai_next(record, rules, count)
    out = []
    begins = nm.facts.get("round_begins")
    if begins:
        out.append((begins, "the next round"))
    for a, o in _offered(nm):
        from ...notation import _write_action
        out.append((_write_action(a), f"legal now: {o.kind}"))
    return out


def _offered(nm) -> list:
    out = []
    for o in nm.legal:
        if o.kind == "par":
            out.extend((Par(actor=o.action.actor, corporation=o.action.corporation, price=p), o)
                       for p in o.info["prices"])
        else:
            out.append((o.action, o))
    return out
