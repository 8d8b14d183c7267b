"""``railcheck next``: who is to act and what they may legally do now.

The list is not a second copy of the rules: candidate actions are made
generously from the state (every company, source and price, every hex, tile
and rotation the board has, every train on sale ...), sorted first by the
steps' own pure checks and then tried, one by one, as the record's next
action on the state where the replay stands (``adapter.Trials``): what is
offered is what ``railcheck validate`` accepts there, with the numbers the
trial shows (the cost, the price after a sale, what a payout gives each
holder).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from ..actions import (Assign, Bankrupt, Bid, BidForTurn, BuyCompany, BuyShares, BuyTrain, Choose,
                       DiscardTrain, Dividend, Exchange, LayTile, Par, Pass, PlaceToken,
                       Propose, Route, RunRoutes, Sale, SellCompany, SellShares, Stop, Vote)
from ..findings import RuleViolation
from ..state import Corporation, Player
from . import adapter

#: the run search's limit for the company's best runs, in seconds' worth of
#: steps (``runsearch.ticks_for``: the same runs on any machine)
RUN_LIMIT = 1.0


@dataclass
class Option:
    """One candidate with its verdict."""

    kind: str                   # "pass", "buy", "par", "sell", "lay", "token", "run", ...
    action: object
    legal: bool
    info: dict = field(default_factory=dict)
    rule: str = ""
    message: str = ""

    @property
    def text(self) -> str:
        from ..notation import _write_action
        try:
            return _write_action(self.action)
        except (ValueError, TypeError):
            return repr(self.action)

    def to_dict(self) -> dict:
        out = {"kind": self.kind, "legal": self.legal, "action": self.text}
        out.update(self.info)
        if not self.legal:
            out["refused"] = {"rule": self.rule, "message": self.message}
        return out


@dataclass
class NextMoves:
    situation: adapter.Situation
    phase: str
    currency: str
    options: list = field(default_factory=list)
    #: every candidate refused (what the agreement test plays as not offered)
    refused: list = field(default_factory=list)
    facts: dict = field(default_factory=dict)
    notes: list = field(default_factory=list)
    trials: int = 0

    @property
    def legal(self) -> list:
        return [o for o in self.options if o.legal]

    def offered_actions(self) -> list:
        """Every action offered, one by one (a par at each legal price)."""
        out = []
        for o in self.legal:
            if o.kind == "par":
                out.extend(Par(actor=o.action.actor, corporation=o.action.corporation,
                               price=p) for p in o.info["prices"])
            else:
                out.append(o.action)
        return out

    def to_dict(self) -> dict:
        s = self.situation
        return {"round": s.round, "phase": self.phase, "finished": s.finished,
                "actor": s.actor, "actor_kind": s.actor_kind, "step": s.step,
                "turn": s.detail, "facts": self.facts, "notes": self.notes,
                "options": [o.to_dict() for o in self.options],
                "legal_actions": [o.text for o in self.legal]}


# ---------------------------------------------------------------------------


class _Judge:
    def __init__(self, rp):
        self.rp = rp
        self.g = rp.game
        self.trials = adapter.Trials(rp)
        #: every candidate refused (by the pure check or the trial), kept or not
        self.refused: list = []
        #: kinds of action refused for a reason none of their candidates can
        #: escape (``adapter.KIND_REFUSALS``): not tried again
        self.dead: dict = {}
        #: kinds of action (and actor) refused by the step order that the
        #: replay takes as the next round's: tried without the pure check
        self.next_round: set = set()
        #: kinds refused by the step order that the replay refuses so too
        self.in_turn: set = set()

    def cash_of(self, name):
        g = self.g
        e = g.entity(name)
        return getattr(e, "cash", 0)

    def plan(self, action):
        """The step's pure check's plan, or None (refused, or no such check)."""
        try:
            return adapter.pure_check(self.g, action)
        except RuleViolation:
            return None

    def clean(self, action) -> bool:
        """The step's pure check takes ``action`` with nothing taken as written."""
        try:
            plan = adapter.pure_check(self.g, action)
        except RuleViolation:
            return False
        return plan is not None and adapter.plan_is_clean(plan)

    def judge(self, kind, action, info=None, *, inspect=None, pure=True, sequence=None,
              keep_refused=False) -> Optional[Option]:
        """The verdict on ``action``: the pure check's refusal, else the
        trial's.  Returns the option (None when refused and not kept)."""
        g = self.g
        info = dict(info or {})
        dead = self.dead.get((kind, action.actor))
        if dead is not None:
            opt = Option(kind, action, False, info, dead.rule, dead.message)
            self.refused.append(opt)
            return opt if keep_refused else None
        if pure and (kind, action.actor) not in self.next_round:
            try:
                adapter.pure_check(g, action)
            except RuleViolation as v:
                if v.rule == "or.step_order" and (kind, action.actor) not in self.in_turn:
                    # the turn is past this step, but the record may leave the
                    # round: the replay may take the action as the next
                    # round's (the companies between passing).  Tried until
                    # the replay takes one (then every candidate of the kind
                    # is tried) or refuses one for the step order too
                    verdict = self.trials.judge(sequence or [action], None)
                    if verdict.ok:
                        self.next_round.add((kind, action.actor))
                        return self.judge(kind, action, info, inspect=inspect, pure=pure,
                                          sequence=sequence, keep_refused=keep_refused)
                    if not verdict.ok and verdict.rule == "or.step_order":
                        self.in_turn.add((kind, action.actor))
                self.refused.append(Option(kind, action, False, info, v.rule, v.message))
                if v.rule in adapter.KIND_REFUSALS:
                    self.dead[(kind, action.actor)] = self.refused[-1]
                if not keep_refused:
                    return None
                return self.refused[-1]
        actor = action.actor
        before = self.cash_of(actor)

        def look(game):
            out = {"cash_after": getattr(game.entity(actor), "cash", None)}
            if inspect is not None:
                out.update(inspect(game))
            return out
        verdict = self.trials.judge(sequence or [action], look)
        if not verdict.ok:
            self.refused.append(Option(kind, action, False, info, verdict.rule,
                                       verdict.message))
            if verdict.rule in adapter.KIND_REFUSALS:
                self.dead[(kind, action.actor)] = self.refused[-1]
            if not keep_refused:
                return None
            return self.refused[-1]
        after = verdict.after or {}
        if verdict.moved_to:
            # legal as the next round's first action: the record leaves this one
            info["round"] = verdict.moved_to
        if after.get("cash_after") is not None and before is not None:
            info.setdefault("cost", before - after["cash_after"])
        for k, v in after.items():
            if k != "cash_after":
                info[k] = v
        return Option(kind, action, True, info)


def next_moves(rp, *, verbose: bool = False, run_limit: float = RUN_LIMIT) -> NextMoves:
    """What the one to act may do where the paused replay ``rp`` stands."""
    g = rp.game
    sit = adapter.situation(g)
    out = NextMoves(sit, g.phase.name, g.rules.currency)
    if sit.finished or sit.actor is None:
        if not sit.finished:
            out.notes.append("railcheck cannot tell who is to act here")
        return out
    j = _Judge(rp)
    if sit.actor_kind == "company" and sit.kind != "OR":
        out.options = _home_options(j, g, g.corporations[sit.actor])
    elif sit.actor_kind == "player":
        out.options = _player_options(j, g, g.player_by_name[sit.actor], out)
    else:
        out.options = _company_options(j, g, g.corporations[sit.actor], out, run_limit)
    out.trials = j.trials.count
    out.refused = j.refused
    return out


# ---------------------------------------------------------------------------
# a player's turn: stock rounds, auctions, merger rounds, and 1860's and
# 18Ireland's own steps


def _player_options(j: _Judge, g, player: Player, out: NextMoves) -> list:
    name = player.name
    opts: list = []
    out.facts.update({"cash": player.cash, "certificates": g.num_certs(player),
                      "certificate_limit": g.cert_limit})
    o = j.judge("pass", Pass(actor=name), pure=False)
    if o:
        opts.append(o)
    market = g.market
    par_prices = sorted({c.price for c in market.par_cells})
    for corp in g.corporations.values():
        if corp.closed:
            continue
        if not corp.ipoed:
            prices = []
            refused = None
            for price in par_prices:
                a = Par(actor=name, corporation=corp.sym, price=price)
                if prices:
                    # another price of a par the replay took: the step's clean
                    # plan decides, at the plan's cost (the agreement test
                    # plays such pars too)
                    plan = j.plan(a)
                    if plan is not None and adapter.plan_is_clean(plan):
                        prices.append(Option("par", a, True, {"cost": plan.cost}))
                    continue
                opt = j.judge("par", a, keep_refused=True)
                if opt.legal:
                    prices.append(opt)
                elif refused is None:
                    refused = opt
            if prices:
                opts.append(Option("par", prices[0].action, True,
                                   {"corporation": corp.sym,
                                    "prices": [p.action.price for p in prices],
                                    "costs": [p.info.get("cost") for p in prices]}))
                opts[-1].info["actions"] = [p.text for p in prices]
            elif refused is not None and corp.kind != "minor":
                refused.info["corporation"] = corp.sym
                opts.append(refused)
            continue
        for source in ("ipo", "pool"):
            if not any(c.owner == source and not c.president for c in corp.certs):
                continue
            for count in (1, 2, 3, 4):
                opt = j.judge("buy", BuyShares(actor=name, corporation=corp.sym, count=count,
                                               source=source),
                              {"corporation": corp.sym, "source": source, "count": count},
                              keep_refused=count == 1)
                if opt is None or (not opt.legal and count > 1):
                    break
                opts.append(opt)
                if not opt.legal:
                    break
        held = sum(c.percent for c in corp.certs if c.owner is player)
        if held:
            step = corp.share_percent or 10
            for n in range(1, held // step + 1):
                sale = SellShares(actor=name, sales=[Sale(corporation=corp.sym, count=n)])
                opt = j.judge("sell", sale, {"corporation": corp.sym, "count": n,
                                             "percent": n * step},
                              inspect=lambda game, c=corp.sym: _price_after(game, c))
                if opt is not None:
                    opts.append(opt)
    # the corporation's own shares in a merger, exchanges of privates
    for company in player.companies:
        if company.closed:
            continue
        # (a private whose data gives it an exchange: 1830's MH, 1860's four)
        swaps = [] if not (company.spec.special or {}).get("exchange") \
            else g.corporations.values()
        for corp in swaps:
            for source in ("ipo", "pool"):
                opt = j.judge("exchange", Exchange(actor=company.sym, corporation=corp.sym,
                                                   source=source),
                              {"private": company.sym, "corporation": corp.sym,
                               "source": source})
                if opt is not None:
                    opts.append(opt)
                    break
        opt = j.judge("sell private", SellCompany(actor=name, company=company.sym,
                                                  price=company.value))
        if opt is not None:
            gain = -opt.info.get("cost", 0)
            opt.action.price = gain
            opt.info.update({"private": company.sym, "price": gain})
            opts.append(opt)
    opts.extend(_private_buys_by_player(j, g, player))
    opts.extend(_auction_options(j, g, player))
    opts.extend(_minor_auction_options(j, g, player))
    opts.extend(_merger_options(j, g, player))
    return opts


def _price_after(game, sym) -> dict:
    corp = game.corporations[sym]
    return {"price_after": corp.price.price if corp.price is not None else None}


def _private_buys_by_player(j, g, player) -> list:
    out = []
    for company in g.companies.values():
        if company.closed:
            continue
        owner = company.owner
        if isinstance(owner, Player) and owner is not player:
            lo = 0
            opt = j.judge("buy private", BuyCompany(actor=player.name, company=company.sym,
                                                    price=lo))
            if opt is not None:
                hi = j.judge("buy private", BuyCompany(actor=player.name, company=company.sym,
                                                       price=player.cash))
                opt.info.update({"private": company.sym, "seller": owner.name,
                                 "price_min": lo,
                                 "price_max": player.cash if hi is not None else lo})
                out.append(opt)
        elif owner is None:
            # from the bank (1860's privates on sale)
            opt = j.judge("buy private", BuyCompany(actor=player.name, company=company.sym,
                                                    price=company.value))
            if opt is not None:
                opt.info.update({"private": company.sym, "seller": "bank",
                                 "price": opt.info.get("cost")})
                out.append(opt)
    return out


def _price_range(judge_at, top: int, hints=()):
    """The prices the replay accepts for one bid, as (lowest, highest, the
    option at the lowest), or (None, None, None): an accepted price is found
    among ``top`` (the cash), ``hints`` (a face value) and a coarse grid,
    then the ends of the range around it by binary search (a bid's range is
    one interval: at least the minimum, at most the cash or the cash less
    the cheapest item; 1860's item at its face value is one price).  About
    2 log2(top) trials."""
    grid = {top, *[h for h in hints if h is not None and 0 <= h <= top]}
    k = top
    while k > 1:
        k //= 2
        grid.add(k)
    grid.update(x for x in (1, 5, 10, 20, 50, 100) if x <= top)
    found = None
    for p in sorted(grid, reverse=True):
        opt = judge_at(p)
        if opt is not None:
            found = (p, opt)
            break
    if found is None:
        return None, None, None
    p, opt = found
    a, b = 0, p                  # the lowest accepted in [a, b]
    low, low_opt = p, opt
    while a < b:
        mid = (a + b) // 2
        o = judge_at(mid)
        if o is not None:
            low, low_opt, b = mid, o, mid
        else:
            a = mid + 1
    a, b = p, top                # the highest accepted in [a, b]
    high = p
    while a < b:
        mid = (a + b + 1) // 2
        if judge_at(mid) is not None:
            high, a = mid, mid
        else:
            b = mid - 1
    return low, high, low_opt


def _auction_options(j, g, player) -> list:
    r = g.round
    if getattr(r, "kind", "") != "auction":
        return []
    out = []
    for company in g.companies.values():
        if company.closed or company.owner is not None:
            continue
        opt = j.judge("choose", Choose(actor=player.name, company=company.sym), pure=False)
        if opt is not None:
            opt.info["private"] = company.sym
            out.append(opt)
        # the cheapest private bought at its price ("buy SV")
        opt = j.judge("buy private", Bid(actor=player.name, company=company.sym, price=None),
                      pure=False)
        if opt is not None:
            opt.info.update({"private": company.sym, "seller": "bank",
                             "price": opt.info.get("cost")})
            out.append(opt)

        def at(price, c=company):
            return j.judge("bid", Bid(actor=player.name, company=c.sym, price=price), pure=False)
        low, high, opt = _price_range(at, player.cash, (company.value,))
        if opt is not None:
            opt.info.update({"private": company.sym, "price_min": low, "price_max": high})
            out.append(opt)

    def turn_at(price):
        return j.judge("bid for turn", BidForTurn(actor=player.name, price=price), pure=False)
    low, high, opt = _price_range(turn_at, player.cash)
    if opt is not None:
        opt.info.update({"price_min": low, "price_max": high})
        out.append(opt)
    return out


def _minor_auction_options(j, g, player) -> list:
    """18Ireland: a minor's auction opened in the stock round with a bid, or
    a bid in the auction under way."""
    r = g.round
    if getattr(r, "kind", "") != "SR":
        return []
    auction = getattr(r, "auction", None)
    minors = [auction.corp] if auction is not None else \
        [c for c in g.corporations.values() if c.kind == "minor" and not c.ipoed
         and not c.closed]
    out = []
    for corp in minors:
        def at(price, c=corp):
            return j.judge("bid", Bid(actor=player.name, company=c.sym, price=price),
                           pure=False)
        low, high, opt = _price_range(at, player.cash)
        if opt is not None:
            opt.info.update({"corporation": corp.sym, "price_min": low, "price_max": high})
            out.append(opt)
    return out


def _merger_options(j, g, player) -> list:
    r = g.round
    if getattr(r, "kind", "") in ("SR", "OR", "auction"):
        return []
    out = []
    for corp in g.corporations.values():
        opt = j.judge("propose", Propose(actor=player.name, corporation=corp.sym), pure=False)
        if opt is not None:
            opt.info["corporation"] = corp.sym
            out.append(opt)
    for choice in ("for", "against"):
        opt = j.judge("vote", Vote(actor=player.name, choice=choice), pure=False)
        if opt is not None:
            out.append(opt)
    return out


def _home_options(j, g, corp) -> list:
    """A stock round's step that a company's home must be done first: 1860's
    home track (a yellow tile on the home hex, or a pass), 18Ireland's home
    station of a major just started (a free city)."""
    out = []
    o = j.judge("pass", Pass(actor=corp.sym), pure=False)
    if o is not None:
        out.append(o)
    if g.board is None:
        return out
    homes = corp.spec.home if isinstance(corp.spec.home, list) else [corp.spec.home]
    for coord in [str(h) for h in homes if h]:
        for tile, rot in _tiles_for_hex(g, coord):
            o = j.judge("home track", LayTile(actor=corp.sym, tile=tile, hex=coord,
                                              rotation=rot),
                        {"corporation": corp.sym, "hex": coord, "tile": tile,
                         "rotation": rot}, pure=False)
            if o is not None:
                out.append(o)
    for h in g.board.hex_list:
        for city in _cities_of(g, h.coord):
            o = j.judge("home station", PlaceToken(actor=corp.sym, hex=h.coord, city=city),
                        {"corporation": corp.sym, "hex": h.coord, "city": city}, pure=False)
            if o is not None:
                out.append(o)
    return out


# ---------------------------------------------------------------------------
# a company's operating turn


def _company_options(j: _Judge, g, corp: Corporation, out: NextMoves, run_limit) -> list:
    sym = corp.sym
    opts: list = []
    out.facts.update({"treasury": corp.cash,
                      "price": corp.price.price if corp.price is not None else None,
                      "trains": [t.name for t in corp.trains],
                      "train_limit": g.train_limit(corp),
                      "president": corp.president.name if corp.president else None,
                      "stations_left": len(corp.spec.tokens) - corp.tokens_placed
                      if hasattr(corp, "tokens_placed") else None,
                      "lays_allowed": adapter.lays_allowed(g),
                      **adapter.turn_counts(g)})
    o = j.judge("pass", Pass(actor=sym), pure=False)
    if o:
        opts.append(o)
    opts.extend(_issue_redeem(j, g, corp))
    opts.extend(_lays(j, g, sym, sym))
    opts.extend(_tokens(j, g, corp, sym))
    for company in corp.companies:
        if company.closed:
            continue
        special = company.spec.special or {}
        power = special.get("tile_lay") or special.get("teleport")
        if power:
            for o in _lays(j, g, company.sym, sym, power):
                o.info["private"] = company.sym
                opts.append(o)
        if special.get("token") or special.get("teleport"):
            for o in _tokens(j, g, corp, company.sym):
                o.info["private"] = company.sym
                opts.append(o)
        # a private's token placed for a bonus (18Ireland's CDSPC and TASPS):
        # the hexes its data names (its power refuses any other)
        for target in (special.get("assign") or {}).get("hexes") or ():
            o = j.judge("assign", Assign(actor=company.sym, target=str(target)),
                        {"private": company.sym, "hex": str(target)}, pure=False)
            if o is not None:
                opts.append(o)
    opts.extend(_runs(j, g, corp, out, run_limit))
    for kind in ("withhold", "payout", "half"):
        o = j.judge("dividend", Dividend(actor=sym, kind=kind), {"dividend": kind},
                    inspect=lambda game: _holders_cash(game, corp.sym))
        if o is not None:
            _gains(g, o)
            opts.append(o)
    opts.extend(_train_buys(j, g, corp))
    for train in corp.trains:
        o = j.judge("discard", DiscardTrain(actor=sym, train=train.name), {"train": train.name})
        if o is not None and not any(p.kind == "discard" and p.info["train"] == train.name
                                     for p in opts):
            opts.append(o)
    for company in g.companies.values():
        if company.closed or not isinstance(company.owner, Player):
            continue
        from ..steps.companies import company_price_range
        lo, hi = company_price_range(g, company)
        low = j.judge("buy private", BuyCompany(actor=sym, company=company.sym, price=lo))
        high = j.judge("buy private", BuyCompany(actor=sym, company=company.sym,
                                                 price=min(hi, corp.cash)))
        if low is not None or high is not None:
            o = low or high
            o.info.update({"private": company.sym, "seller": company.owner.name,
                           "price_min": lo if low is not None else min(hi, corp.cash),
                           "price_max": min(hi, corp.cash) if high is not None else lo})
            opts.append(o)
    # (1890's conversions, privatisations and station fees: its own checker,
    # asked by titles/kansai/table.py)
    o = j.judge("bankrupt", Bankrupt(actor=corp.president.name if corp.president else sym),
                pure=False)
    if o is not None:
        opts.append(o)
    # the president's emergency sales
    pres = corp.president
    if pres is not None and not corp.trains:
        for other in g.corporations.values():
            held = sum(c.percent for c in other.certs if c.owner is pres)
            step = other.share_percent or 10
            for n in range(1, held // step + 1):
                sale = SellShares(actor=pres.name, sales=[Sale(corporation=other.sym, count=n)])
                o = j.judge("emergency sale", sale,
                            {"corporation": other.sym, "count": n, "percent": n * step},
                            inspect=lambda game, c=other.sym: _price_after(game, c), pure=False)
                if o is not None:
                    opts.append(o)
    return opts


def _issue_redeem(j, g, corp) -> list:
    out = []
    for kind, action in (("issue", SellShares(actor=corp.sym,
                                              sales=[Sale(corporation=corp.sym, count=1)])),
                         ("redeem", BuyShares(actor=corp.sym, corporation=corp.sym, count=1,
                                              source="pool"))):
        o = j.judge(kind, action, {"corporation": corp.sym},
                    inspect=lambda game: _price_after(game, corp.sym))
        if o is not None:
            out.append(o)
    return out


def _holders_cash(game, sym) -> dict:
    return {"holders_cash": {p.name: p.cash for p in game.players},
            "treasury_after": game.corporations[sym].cash,
            "price_after": _price_after(game, sym)["price_after"]}


def _gains(g, o) -> None:
    holder_gains(o, {p.name: p.cash for p in g.players})


def holder_gains(o, cash_now: dict) -> None:
    """What a dividend gives each holder: the trial's ``holders_cash`` (each
    holder's cash after it, kept by the judge's ``inspect``) less ``cash_now``
    (each one's cash before), as ``o.info["to_holders"]``, the holders whose
    cash changed; the judge's ``cost`` (the company's) is dropped.  Shared by
    every title's ``next`` (1890's: ``titles/kansai/table.py``)."""
    cash = o.info.pop("holders_cash", {})
    o.info["to_holders"] = {name: cash[name] - now for name, now in cash_now.items()
                            if name in cash and cash[name] != now}
    o.info.pop("cost", None)


def _tiles_for_hex(g, coord: str) -> list:
    """Every (tile, rotation) that might go on the hex: the tiles of the
    next colour with copies left, each in its distinct rotations."""
    board = g.board
    h = board.hexes[coord]
    order = board.color_order
    if h.color not in order[:-1]:
        return []
    want = order[order.index(h.color) + 1]
    out = []
    for name, t in board.tiles.items():
        if t.color != want or (board.remaining.get(name) is not None
                               and board.remaining[name] <= 0):
            continue
        if (h.tile.label or None) != (t.label or None):
            continue
        for r in t.distinct_rotations():
            out.append((name, r))
    return out


def _lays(j, g, actor: str, corp_sym: str, power: Optional[dict] = None) -> list:
    """Tile lays and upgrades, one option per (hex, tile, rotation); with a
    private's ``power`` (its ``tile_lay`` or ``teleport`` data), only on the
    hexes and with the tiles the data names (the power refuses any other)."""
    if g.board is None:
        return []
    board = g.board
    colors = set(adapter.phase_colors(g))
    own = power is None
    # the company's own lays: none once its turn is past laying track, and
    # none where nothing can join its network; a private's lay in the track
    # step's window: none past it either; a connected one: as the company's
    passed = adapter.lays_passed(g)
    if passed and (own or (power.get("window") == "track_step"
                           and not power.get("after_track"))):
        return []
    away = adapter.unconnected_hexes(g, corp_sym) \
        if own or power.get("connected") else set()
    hexes = None if own or not isinstance(power.get("hexes"), list) \
        else {str(x) for x in power["hexes"]}
    tiles = None if own or not isinstance(power.get("tiles"), list) \
        else {str(x) for x in power["tiles"]}
    # semi-restrictive track (1860, 1889, 18Ireland): an upgrade's new track
    # is judged once the tile lies (the step's apply), so it differs by rotation
    semi = g.rules.operating["track_restriction"] == "semi_restrictive"
    out = []
    for h in board.hex_list:
        order = board.color_order
        if h.color not in order[:-1] or order[order.index(h.color) + 1] not in colors \
                or h.coord in away or (hexes is not None and h.coord not in hexes):
            continue
        tried: dict = {}        # tile -> the verdict of its first rotation tried
        for tile, rot in _tiles_for_hex(g, h.coord):
            if tiles is not None and tile not in tiles:
                continue
            a = LayTile(actor=actor, tile=tile, hex=h.coord, rotation=rot)
            info = {"hex": h.coord, "tile": tile, "rotation": rot, "upgrade": h.laid}
            first = tried.get(tile)
            if first is not None and first.legal and not (semi and h.laid):
                # another rotation of a tile the replay took here: the step's
                # pure check decides (the same cost, the same apply); the
                # agreement test plays such rotations too
                if not j.clean(a):
                    continue
                o = Option("lay", a, True, dict(info, cost=first.info.get("cost", 0)))
            else:
                o = j.judge("lay", a, info)
                if o is None:
                    continue
                tried[tile] = o
            out.append(o)
    return out


def _cities_of(g, coord: str) -> list:
    h = g.board.hexes[coord]
    idx = h.city_indices()
    return idx if len(idx) > 1 else [None] if idx else []


def _tokens(j, g, corp, actor: str) -> list:
    if g.board is None:
        return []
    out = []
    for h in g.board.hex_list:
        for city in _cities_of(g, h.coord):
            a = PlaceToken(actor=actor, hex=h.coord, city=city)
            o = j.judge("token", a, {"hex": h.coord, "city": city})
            if o is not None:
                out.append(o)
    return out


def _runs(j, g, corp, out: NextMoves, limit: float) -> list:
    """The best runs the company's trains can make now (the analyser's
    hindsight search), checked as the record's next action, and a payout
    of them."""
    if not corp.trains or g.board is None or adapter.runs_passed(g):
        return []
    from ..runsearch import best_runs, standard_runs, ticks_for
    if not standard_runs(g):
        own = getattr(g.title, "best_runs_now", None)
        if own is not None:
            return _own_runs(j, g, corp, out, own, limit)
        out.notes.append(f"no run search: {g.rules.title}'s runs follow rules of their own "
                         f"that the analyser's search does not model")
        return []
    trains = [(t.name, t.spec.reach) for t in corp.trains]
    try:
        total, routes, gave_up, chosen, _ = best_runs(g.board, corp.sym, trains,
                                                      g.phase.tiles[-1], ticks_for(limit))
    except RuleViolation as v:
        out.notes.append(f"no run search: {v.message}")
        return []
    if not chosen:
        return []
    hexes = g.board.hex_list
    action = RunRoutes(actor=corp.sym, revenue=total, routes=[
        Route(train=trains[ti][0], stops=[Stop(hex=hexes[hi].coord,
                                               city=ni if len(hexes[hi].nodes) > 1 else None)
                                          for hi, ni in stops])
        for ti, stops in chosen])
    info = {"revenue": total, "runs": [{"train": t, "stops": s} for t, s in routes]}
    if gave_up:
        info["note"] = (f"the search stopped at its budget of steps ({limit:g} s' worth): the "
                        f"best found by then")
    return _judged_runs(j, g, corp, out, action, info, total)


#: the steps of a title's own search of the best runs (1860's: best.py) for
#: each second of ``next``'s run limit
OWN_RUN_TICKS = 300_000


def _own_runs(j, g, corp, out: NextMoves, own, limit: float) -> list:
    """The best runs a title's own search finds (1860's and 18Ireland's, by
    their run rules: ``Title.best_runs_now``), checked as the record's next
    action, and a payout of them."""
    found = own(corp, max(1, int(OWN_RUN_TICKS * limit)))
    if found is None:
        return []
    revenue, subsidy, chosen, gave_up = found
    if not chosen:
        return []
    hexes = g.board.hex_list
    per_halt = int((g.rules.operating or {}).get("halt_subsidy") or 0)
    # each run with its revenue and the halts it counts (the search valued it
    # by the title's rules; the checker finds its track, or follows the hexes
    # of each stretch when the search gives them: 18Ireland's)
    routes = [Route(train=name, stops=[Stop(hex=hexes[hi].coord,
                                            city=ni if len(hexes[hi].nodes) > 1 else None)
                                       for hi, ni in stops],
                    path=path[0] if path else None,
                    revenue=rev, halts=sub // per_halt if per_halt and sub else None)
              for name, stops, rev, sub, *path in chosen]
    action = RunRoutes(actor=corp.sym, revenue=revenue, routes=routes)
    from ..board.routes import node_text
    info = {"revenue": revenue,
            "runs": [{"train": name, "stops": [node_text(g.board, hi, ni)
                                                for hi, ni in stops]}
                     for name, stops, *_ in chosen]}
    if subsidy:
        info["subsidy"] = subsidy
    if gave_up:
        info["note"] = "the search stopped at its budget of steps: the best found by then"
    return _judged_runs(j, g, corp, out, action, info, revenue)


def _judged_runs(j, g, corp, out: NextMoves, action, info: dict, revenue: int) -> list:
    """The best runs found, checked as the record's next action (refused:
    said in a note), with a payout of them and what it gives each holder."""
    o = j.judge("run", action, info)
    if o is None:
        refused = j.judge("run", action, info, keep_refused=True)
        out.notes.append(f"the best runs found ({g.money(revenue)}) are refused: "
                         f"{refused.message if refused else 'unknown'}")
        return []
    o.info.pop("cost", None)
    pay = j.judge("payout", Dividend(actor=corp.sym, kind="payout"), pure=False,
                  sequence=[action, Dividend(actor=corp.sym, kind="payout")],
                  inspect=lambda game: _holders_cash(game, corp.sym))
    if pay is not None:
        _gains(g, pay)
        o.info["payout"] = {"to_holders": pay.info["to_holders"],
                            "treasury_after": pay.info.get("treasury_after"),
                            "price_after": pay.info.get("price_after")}
    return [o]


def _train_buys(j, g, corp) -> list:
    out = []
    sym = corp.sym
    seen = set()
    for train in g.available_depot_trains() + g.pool_trains():
        source = "depot" if train in g.available_depot_trains() else "pool"
        if (train.name, source) in seen:
            continue
        seen.add((train.name, source))
        o = j.judge("train", BuyTrain(actor=sym, train=train.name, source=source,
                                      price=train.spec.price),
                    {"train": train.name, "source": source, "price": train.spec.price})
        if o is not None:
            o.info.pop("cost", None)
            out.append(o)
        ex = train.spec.exchange or {}
        for old in corp.trains:
            if old.name in [str(x) for x in ex.get("trains", [])]:
                price = train.spec.price - int(ex.get("discount", 0))
                o = j.judge("train", BuyTrain(actor=sym, train=train.name, source=source,
                                              price=price, exchange=old.name),
                            {"train": train.name, "source": source, "price": price,
                             "exchange": old.name})
                if o is not None:
                    o.info.pop("cost", None)
                    out.append(o)
                break
    #: a purchase from another company at a price of 1 refused because the
    #: company cannot pay it: every other company's train at that price is
    #: refused so too (the price is the only number the cash check reads), so
    #: none is tried again (each is kept among the refused, with that reason)
    broke = None
    for other in g.corporations.values():
        if other is corp or other.closed:
            continue
        for train in other.trains:
            if (train.name, other.sym) in seen:
                continue
            seen.add((train.name, other.sym))

            def at(price, t=train.name, src=other.sym, keep=False):
                return j.judge("train", BuyTrain(actor=sym, train=t, source=src, price=price),
                               keep_refused=keep)
            if broke is not None:
                j.refused.append(Option("train", BuyTrain(actor=sym, train=train.name,
                                                          source=other.sym, price=1),
                                        False, {}, broke.rule, broke.message))
                continue
            first = at(max(1, corp.cash), keep=True)
            if first is not None and not first.legal and first.rule == "trains.cash" \
                    and corp.cash < 1:
                broke = first
            if first is not None and not first.legal and "price" not in first.rule:
                continue        # refused whatever the price: no range to look for
            low, high, unit, o = _train_price_range(j, at, first, max(1, corp.cash),
                                                    sym, train.name, other.sym)
            if o is not None:
                o.info.clear()
                o.info.update({"train": train.name, "source": other.sym,
                               "price_min": low, "price_max": high})
                if unit > 1:
                    o.info["price_step"] = unit
                out.append(o)
    return out


def _train_price_range(j, at, first, top: int, sym: str, train: str, source: str):
    """The prices at which the company may buy ``train`` from ``source``
    (``_unit_price_range``'s result): searched with the step's pure check (its
    clean plan at each price, no trial) when the trial at the top price
    (``first``) took the purchase and the plan there is clean, then its ends
    confirmed by trial (the lowest and highest taken, the price below the
    lowest refused, and between two multiples of a unit); when a trial
    disagrees, or the pure check does not apply, every probe is a trial."""
    if first is not None and first.legal and j.clean(first.action):
        def probe(price):
            a = BuyTrain(actor=sym, train=train, source=source, price=price)
            return a if j.clean(a) else None
        low, high, unit, _ = _unit_price_range(probe, top)
        if low is not None:
            o = at(low)
            ok = o is not None and (high == low or at(high) is not None) \
                and (low - unit < 0 or at(low - unit) is None) \
                and (unit == 1 or high == low or at(low + 1) is None)
            if ok:
                return low, high, unit, o
    return _unit_price_range(at, top)


def _unit_price_range(judge_at, top: int):
    """A price range that may take only multiples of a unit (1860's trains
    between companies: multiples of 10): the range in multiples of 10 first,
    then, when a price between two of them is accepted too, to the unit.
    Returns (lowest, highest, unit, the option at the lowest)."""
    low, high, opt = _price_range(lambda k: judge_at(k * 10), top // 10)
    if opt is None or (high > low and judge_at(low * 10 + 1) is not None) \
            or (low > 0 and judge_at(low * 10 - 1) is not None):
        low, high, opt = _price_range(judge_at, top)
        return low, high, 1, opt
    return low * 10, high * 10, 10, opt


# ---------------------------------------------------------------------------
# text


def _m(nm: NextMoves, amount) -> str:
    from ..report import money
    return money(amount, nm.currency) if isinstance(amount, int) else str(amount)


def _range(nm: NextMoves, lo, hi) -> str:
    return _m(nm, lo) if lo == hi else f"{_m(nm, lo)} to {_m(nm, hi)}"


def _why(o: Option) -> str:
    """A refusal's reason, without what the replay does with it when the
    record has the action anyway ('taken as bought, as the record says')."""
    message = o.message.split("; taken as ")[0]
    return f"{message} ({o.rule})"


def render_text(nm: NextMoves, *, verbose: bool = False) -> str:
    s = nm.situation
    lines: list = []
    if s.finished:
        return "the game is over: nobody is to act\n"
    if s.actor is None:
        lines.append(f"{s.round}: " + "; ".join(nm.notes or ["nobody is to act"]))
        return "\n".join(lines) + "\n"
    f = nm.facts
    head = f"{s.actor} to act in {s.round}"
    if s.step:
        head += f" ({s.step})"
    if s.detail and s.detail != s.actor:
        head += f" [{s.detail}]"
    lines.append(head)
    if s.actor_kind == "player":
        lines.append(f"  cash {_m(nm, f['cash'])}; {f['certificates']} of "
                     f"{f['certificate_limit']} certificates")
    else:
        trains = ", ".join(f["trains"]) or "none"
        price = _m(nm, f["price"]) if f.get("price") is not None else "no price"
        lines.append(f"  treasury {_m(nm, f['treasury'])}; price {price}; trains {trains} "
                     f"(limit {f['train_limit']}); president {f.get('president') or 'nobody'}")
    by: dict = {}
    for o in nm.options:
        by.setdefault(o.kind, []).append(o)
    legal = nm.legal
    lines.append(f"  {len(legal)} legal action{'s' if len(legal) != 1 else ''} "
                 f"({nm.trials} tried on the replay)")
    lines.append("")

    def section(title, rows):
        if rows:
            lines.append(f"{title}:")
            lines.extend(f"  {r}" for r in rows)

    later = [o for o in nm.options if o.legal and o.info.get("round")]
    if later:
        # what is legal only as the next round's first action, said apart
        rounds = sorted({o.info["round"] for o in later})
        nm.options = [o for o in nm.options if o not in later]
        by = {}
        for o in nm.options:
            by.setdefault(o.kind, []).append(o)

    rows = []
    for o in by.get("buy", []):
        src = "IPO" if o.info.get("source") == "ipo" else "pool"
        n = o.info.get("count", 1)
        what = f"{o.info['corporation']} from the {src}" + (f", {n} shares" if n > 1 else "")
        if o.legal:
            rows.append(f"{what}: {_m(nm, o.info.get('cost'))}   [{o.text}]")
        else:
            rows.append(f"{what}: no — {_why(o)}")
    section("buy", rows)
    rows = []
    for o in by.get("par", []):
        if o.legal:
            prices = ", ".join(_m(nm, p) for p in o.info["prices"])
            rows.append(f"{o.info['corporation']} at {prices}   [{o.text}]")
        elif verbose:
            rows.append(f"{o.info.get('corporation')}: no — {_why(o)}")
    section("par (start a company)", rows)
    rows = []
    for o in by.get("sell", []) + by.get("emergency sale", []):
        n = o.info["count"]
        rows.append(f"{o.info['corporation']}: {n} share{'s' if n > 1 else ''} "
                    f"({o.info['percent']}%) for {_m(nm, -o.info.get('cost', 0))}, "
                    f"price after {_m(nm, o.info.get('price_after'))}"
                    + (" (emergency)" if o.kind == "emergency sale" else "")
                    + f"   [{o.text}]")
    section("sell", rows)
    lays = [o for o in by.get("lay", []) if o.legal]
    if lays:
        lines.append(f"lay track ({f.get('tile_lays', 0)} of {f.get('lays_allowed')} "
                     f"lays made this turn):")
        per_hex: dict = {}
        for o in lays:
            per_hex.setdefault((o.info.get("private"), o.info["hex"]), []).append(o)
        for (private, coord), os_ in sorted(per_hex.items(), key=lambda x: (x[0][0] or "",
                                                                              x[0][1])):
            tiles = sorted({o.info["tile"] for o in os_})
            cost = min(o.info.get("cost", 0) for o in os_)
            what = "upgrade" if os_[0].info.get("upgrade") else "lay"
            who = f" (with {private})" if private else ""
            row = (f"  {coord}{who}: {what}, {len(tiles)} tile{'s' if len(tiles) > 1 else ''} "
                   f"({', '.join(tiles)}), {len(os_)} way{'s' if len(os_) > 1 else ''}, "
                   f"cost {_m(nm, cost)}")
            lines.append(row)
            if verbose:
                for o in os_:
                    lines.append(f"      {o.info['tile']} r{o.info['rotation']}   [{o.text}]")
    toks = by.get("token", [])
    if toks:
        lines.append("place a station:")
        for o in toks:
            city = f" (city {o.info['city']})" if o.info.get("city") is not None else ""
            who = f" with {o.info['private']}" if o.info.get("private") else ""
            lines.append(f"  {o.info['hex']}{city}{who}: {_m(nm, o.info.get('cost', 0))}   "
                         f"[{o.text}]")
    for o in by.get("run", []):
        lines.append(f"run trains (best found: {_m(nm, o.info['revenue'])}):")
        for r in o.info["runs"]:
            lines.append(f"  {r['train']}: {' - '.join(r['stops'])}")
        if o.info.get("note"):
            lines.append(f"  ({o.info['note']})")
        pay = o.info.get("payout")
        if pay:
            gains = ", ".join(f"{p} +{_m(nm, v)}" for p, v in pay["to_holders"].items()) \
                or "nobody"
            lines.append(f"  paid out: {gains}; treasury after {_m(nm, pay['treasury_after'])}"
                         f", price after {_m(nm, pay['price_after'])}")
        lines.append(f"  [{o.text}]")
    rows = []
    for o in by.get("dividend", []):
        gains = ", ".join(f"{p} +{_m(nm, v)}" for p, v in o.info.get("to_holders", {}).items())
        price = o.info.get("price_after")
        rows.append(f"{o.info['dividend']}" + (f": {gains}" if gains else "")
                    + (f"; price after {_m(nm, price)}" if price is not None else "")
                    + f"   [{o.text}]")
    section("dividend", rows)
    rows = []
    for o in by.get("train", []):
        src = o.info["source"]
        if "price_min" in o.info:
            step = o.info.get("price_step")
            rows.append(f"{o.info['train']}-train from {src}: "
                        f"{_range(nm, o.info['price_min'], o.info['price_max'])}"
                        f"{f' (multiples of {_m(nm, step)})' if step else ''}   [{o.text}]")
        else:
            ex = f", trading in a {o.info['exchange']}" if o.info.get("exchange") else ""
            rows.append(f"{o.info['train']}-train from the {src}: {_m(nm, o.info['price'])}"
                        f"{ex}   [{o.text}]")
    section("buy a train", rows)
    rows = []
    for kind in ("buy private", "sell private", "exchange", "choose", "bid", "bid for turn",
                 "propose", "vote", "home track", "home station", "issue", "redeem", "assign",
                 "convert", "privatise", "ignore", "bankrupt", "discard"):
        for o in by.get(kind, []):
            extra = ""
            if o.info.get("corporation") and kind in ("propose", "bid"):
                extra += f" {o.info['corporation']}"
            if kind == "assign":
                extra += f" on {o.info['hex']}"
            if o.info.get("private"):
                extra += f" {o.info['private']}"
            if o.info.get("seller"):
                extra += f" from {o.info['seller']}"
            if "price_min" in o.info:
                extra += f" for {_range(nm, o.info['price_min'], o.info['price_max'])}"
            elif o.info.get("price") is not None:
                extra += f" for {_m(nm, o.info['price'])}"
            elif kind in ("issue", "redeem"):
                extra += (f": {_m(nm, abs(o.info.get('cost', 0)))}, price after "
                         f"{_m(nm, o.info.get('price_after'))}")
            rows.append(f"{kind}{extra}   [{o.text}]")
    section("other", rows)
    for o in by.get("end turn", []):
        lines.append(f"end {s.actor}'s turn ({o.info['next']} next)   [{o.text}]")
    if later:
        lines.append(f"or, ending {s.round} ({', '.join(rounds)} begins):")
        for o in later:
            lines.append(f"  [{o.text}]")
    if by.get("pass") and by["pass"][0].legal:
        lines.append(f"pass   [{by['pass'][0].text}]")
    elif s.actor_kind:
        lines.append("pass: not allowed now")
    for n in nm.notes:
        lines.append(f"note: {n}")
    return "\n".join(lines) + "\n"
