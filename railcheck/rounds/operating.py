"""Operating rounds: privates pay, then each floated corporation in share
price order lays track, places a station, runs, pays or withholds, buys
trains.

A corporation's turn is its consecutive actions.  Its steps have an order
(track and station, then run, then dividend, then trains); an action of an
earlier step after a later one is refused.  ``pass`` only ends the step at
hand, so passes may be written or left out.  The turn ends when the next
corporation in order acts (or the round ends); then the end-of-turn duties
are checked: a dividend decision after a run, and owning a train.
Players act in an OR only to raise money for a forced train purchase
(emergency sales) or to exchange a private.
"""

from __future__ import annotations

from ..actions import (Bankrupt, BuyCompany, BuyTrain, DiscardTrain, Dividend, Exchange,
                       LayTile, Pass, PlaceToken, RunRoutes, SellShares)
from ..findings import RuleViolation
from ..state import Company, Corporation, Player, Train
from . import Round
from ..mechanics.shares import exchange_private, sale_percent, sell_shares

TRACK, TOKEN, ROUTE, DIVIDEND, TRAINS, COMPANIES, DONE = 1, 2, 3, 4, 5, 6, 7
STAGE_NAMES = {TRACK: "laying track", TOKEN: "placing a station", ROUTE: "running trains",
               DIVIDEND: "the dividend", TRAINS: "buying trains",
               COMPANIES: "buying privates", DONE: "the end of its turn"}


class Turn:
    def __init__(self, corp: Corporation):
        self.corp = corp
        self.step = TRACK
        self.tile_lays = 0
        self.tokens = 0
        self.revenue = None        # claimed revenue once run
        self.dividend_done = False
        self.emergency = False     # the president has been helping
        self.special_token = None  # a private whose station must be placed next (DH)
        self.acted = False         # the company has done something in this turn
        self.explicit_step = TRACK # where its last own action left the turn


class OperatingRound(Round):
    kind = "OR"

    def __init__(self, game):
        super().__init__(game)
        self.order: list[Corporation] = []
        self.index = -1
        self.turn: Turn | None = None
        #: the turn that ended by itself (nothing more it could do), while the
        #: next company has not acted yet: an action of its company reopens it
        self.closed_turn: Turn | None = None

    @property
    def label(self) -> str:
        g = self.game
        return f"OR {g.sr_number}.{g.or_number}"

    def describe_turn(self) -> str:
        return self.turn.corp.sym if self.turn else ""

    # ------------------------------------------------------------------

    def start(self):
        g = self.game
        g.or_number += 1
        g.pay_private_income()
        self.order = g.operating_order()
        self.index = -1
        self.next_corporation()

    def next_corporation(self):
        self.index += 1
        if self.index >= len(self.order):
            self.turn = None
            self.finish_if_done()
            return
        corp = self.order[self.index]
        self.turn = Turn(corp)
        self.start_turn(corp)
        self.settle()

    def finish_if_done(self):
        """After the last turn: the OR ends unless companies over the train limit
        still have to discard, or the last company may still use a private's
        extra tile lay it owns (18xx.games keeps its turn open for that); any
        other action ends the OR (``wants``)."""
        last = self.closed_turn.corp if self.closed_turn else None
        self.finished = not (self.game.excess_trains()
                             or (last is not None and self.extra_lay_left(last)))

    def start_turn(self, corp: Corporation):
        g = self.game
        if not corp.home_placed:
            corp.home_placed = True
            if corp.spec.home:
                if g.board is not None:
                    try:
                        g.board.place_home_token(corp.sym)
                        if isinstance(corp.spec.home, str) and corp.spec.home in g.laid_hexes:
                            g.board.offer_home_choice(corp.sym, corp.spec.home)
                    except RuleViolation as v:
                        g.flag(v.rule, v.message)
                corp.tokens_placed += 1
        corp.operated = True

    def end_turn(self):
        """Close the current corporation's turn, checking its duties."""
        t = self.turn
        if t is None:
            return
        g = self.game
        corp = t.corp
        if t.step <= TRAINS and self.must_buy_train(corp) and not g.finished:
            cheapest = self.cheapest_train()
            g.flag("trains.must_own",
                   f"{corp.sym} ended its turn without a train; it must buy one "
                   f"(cheapest: a {cheapest.name}-train for {g.money(cheapest.spec.price)}"
                   f"; {corp.sym} has {g.money(corp.cash)})")
        self.move_to(t, DONE)
        self.turn = None

    def must_buy_train(self, corp) -> bool:
        """No train, the depot still sells some, and (per the ruleset) a route to run."""
        g = self.game
        if corp.trains or corp.closed or self.cheapest_train() is None:
            return False
        mode = g.rules.operating.get("must_buy_train", "route")
        if mode == "never":
            return False
        if mode == "route":
            # without the map (--no-board) nobody can tell: no company is forced
            return g.board is not None and self.has_route(corp)
        return True

    # ------------------------------------------------------------------
    # which steps of a turn have anything to do (the rest pass by themselves)

    def has_route(self, corp) -> bool:
        board = self.game.board
        return True if board is None else board.has_route(corp.sym)

    def can_place_token(self, t: Turn) -> bool:
        g = self.game
        corp = t.corp
        if t.tokens >= int(g.rules.operating.get("tokens_per_turn", 1)):
            return False
        cost = corp.token_cost()
        if cost is None or corp.cash < cost:
            return False
        board = g.board
        return True if board is None else board.can_place_token(corp.sym)

    def can_buy_train(self, t: Turn) -> bool:
        g = self.game
        corp = t.corp
        if self.must_buy_train(corp):
            return True
        room = len(corp.trains) < g.train_limit(corp)
        offered = g.available_depot_trains() + g.pool_trains()
        if room:
            if any(tr.spec.price <= corp.cash for tr in offered):
                return True
            if corp.cash >= 1 and g.rules.operating.get("buy_from_others", True) and any(
                    c is not corp and not c.closed and any(not tr.obsolete for tr in c.trains)
                    for c in g.corporations.values()):
                return True
        for tr in offered:
            ex = tr.spec.exchange
            if ex and any(o.name in [str(x) for x in ex.get("trains", [])] for o in corp.trains) \
                    and corp.cash >= tr.spec.price - int(ex.get("discount", 0)):
                return True
        return False

    def purchasable_companies(self, corp) -> list:
        g = self.game
        if not g.phase.company_buy:
            return []
        out = []
        for c in g.companies.values():
            if c.closed or not isinstance(c.owner, Player):
                continue
            if (c.spec.special or {}).get("no_sale_to_corporation"):
                continue
            lo, _ = self.company_price_range(c)
            if corp.cash >= lo:
                out.append(c)
        return out

    def company_price_range(self, company) -> tuple[int, int]:
        g = self.game
        lo_f = g.rules.company_sales.get("min_factor", 0.5)
        hi_f = g.rules.company_sales.get("max_factor", 2.0)
        lo = -(-company.value * int(round(lo_f * 100)) // 100)
        hi = company.value * int(round(hi_f * 100)) // 100
        return lo, hi

    def step_available(self, t: Turn, step: int) -> bool:
        g = self.game
        if step == TRACK:
            return t.tile_lays < int(g.rules.operating.get("tile_lays", 1))
        if step == TOKEN:
            return self.can_place_token(t)
        if step == ROUTE:
            return bool(t.corp.trains) and t.revenue is None and self.has_route(t.corp)
        if step == DIVIDEND:
            return not t.dividend_done and (t.revenue or 0) > 0
        if step == TRAINS:
            return self.can_buy_train(t)
        if step == COMPANIES:
            return bool(self.purchasable_companies(t.corp))
        return False

    def move_to(self, t: Turn, step: int):
        """Move the turn forward to ``step``; a dividend step passed over is a
        withhold (nothing to pay when nothing was earned)."""
        if t.step <= ROUTE < step and t.revenue is None and self.step_available(t, ROUTE):
            trains = ", ".join(tr.name for tr in t.corp.trains)
            self.game.flag("route.missing",
                           f"{t.corp.sym} owns trains ({trains}) and has a route but did not run "
                           f"them; a company must run its trains (taken as earning nothing)")
        if t.step <= DIVIDEND < step and not t.dividend_done:
            revenue = t.revenue or 0
            if revenue > 0:
                self.game.flag("dividend.missing",
                               f"{t.corp.sym} ran for {self.game.money(revenue)} but neither paid "
                               f"out nor withheld; taken as withheld")
            self.pay_dividend(t, "withhold", revenue)
        t.step = max(t.step, step)

    def home_choice_pending(self, corp) -> bool:
        """The company must say in which city of a multi-city hex its station
        stands, now that track has been laid there."""
        board = self.game.board
        return board is not None and board.pending_relocation_of(corp.sym) is not None

    def settle(self):
        """Pass over steps with nothing to do; end the turn when none is left."""
        t = self.turn
        while t is not None and not self.game.finished:
            if t.special_token is not None or self.home_choice_pending(t.corp):
                return
            while t.step < DONE and not self.step_available(t, t.step):
                self.move_to(t, t.step + 1)
            if t.step < DONE:
                return
            self.end_turn()
            self.closed_turn = t
            self.next_corporation()
            return

    def cheapest_train(self):
        g = self.game
        cands = g.available_depot_trains() + g.pool_trains()
        return min(cands, key=lambda t: t.spec.price) if cands else None

    # ------------------------------------------------------------------

    def wants(self, action) -> bool:
        g = self.game
        actor = action.actor
        if actor in g.companies or isinstance(action, Exchange):
            return True
        if actor in g.player_by_name:
            if isinstance(action, (SellShares, Bankrupt)) and self.in_emergency(actor):
                return True
            return False      # a stock round action: this OR is over
        corp = g.corporations.get(actor)
        if corp is None:
            return True
        current = self.turn.corp if self.turn else None
        if isinstance(action, DiscardTrain) and corp is not current:
            return True
        if corp is current:
            stage = self.stage_of(action)
            if stage is not None and stage < self.turn.step and self.is_last() \
                    and g.or_number < g.or_count:
                return False  # the same company starts its turn of the next OR
            return True
        if corp in self.order[self.index + 1:]:
            return True
        if corp in self.order[: self.index + 1] and g.or_number < g.or_count:
            return False      # it operated already: the next OR of the set begins
        return True

    def is_last(self) -> bool:
        return self.index >= len(self.order) - 1

    def in_emergency(self, player_name: str) -> bool:
        """The operating company's president raising money for a train."""
        t = self.turn
        if not (t and t.corp.president and t.corp.president.name == player_name):
            return False
        cheapest = self.cheapest_train()
        return not t.corp.trains and cheapest is not None \
            and t.corp.cash < cheapest.spec.price

    def extra_lay_left(self, corp) -> bool:
        """``corp`` owns a private whose extra tile lay has uses left (CS)."""
        for c in corp.companies:
            lay = (c.spec.special or {}).get("tile_lay") or {}
            if not c.closed and lay.get("extra") and \
                    (lay.get("count") is None or c.uses < int(lay["count"])):
                return True
        return False

    def finish_round(self):
        """End the OR; companies that have not acted take an empty turn."""
        if self.game.current_action is not None:    # the record went on without discards
            self.enforce_discards(None)
        self.end_turn()
        self.skip_turns_until(None)
        self.index = len(self.order)
        self.finished = True

    def skip_turns_until(self, corp):
        """Companies before ``corp`` in the order (all, when None) that did not
        act take an empty turn, with its duties checked."""
        while self.index < len(self.order) - 1 and self.order[self.index + 1] is not corp:
            self.index += 1
            skipped = self.order[self.index]
            self.turn = Turn(skipped)
            self.start_turn(skipped)
            self.check_skipped_turn(skipped)
            self.end_turn()

    def check_skipped_turn(self, corp):
        if corp.trains:
            self.game.flag("or.turn_missing",
                           f"{corp.sym} took no turn in {self.label} although it owns trains "
                           f"({', '.join(t.name for t in corp.trains)}) and must run them")

    @staticmethod
    def stage_of(action):
        if isinstance(action, LayTile):
            return TRACK
        if isinstance(action, PlaceToken):
            return TOKEN
        if isinstance(action, RunRoutes):
            return ROUTE
        if isinstance(action, Dividend):
            return DIVIDEND
        if isinstance(action, BuyTrain):
            return TRAINS
        return None

    # ------------------------------------------------------------------

    def process(self, action):
        g = self.game
        actor = action.actor
        self.enforce_discards(action)
        if isinstance(action, Exchange):
            return exchange_private(g, action)
        if actor in g.companies:
            return self.process_private(g.companies[actor], action)
        if actor in g.player_by_name:
            return self.process_player(g.player_by_name[actor], action)
        corp = g.corporations.get(actor)
        if corp is None:
            raise RuleViolation("name.unknown", f"unknown actor '{actor}'")
        if isinstance(action, DiscardTrain) and (self.turn is None or corp is not self.turn.corp):
            self.do_discard(corp, action)
            if self.turn is None and self.index >= len(self.order):
                self.finish_if_done()
            return
        if self.turn is None and isinstance(action, Pass) and self.closed_turn is not None \
                and self.closed_turn.corp is corp and self.index >= len(self.order):
            # the last company declines its private's power (discards still due)
            self.finished = not self.game.excess_trains()
            return
        if self.turn is None or corp is not self.turn.corp:
            prev = self.closed_turn
            if prev is not None and prev.corp is corp and self.turn is not None \
                    and not self.turn.acted:
                return self.reopen(prev, action)
            self.switch_to(corp)
        self.closed_turn = None
        return self.process_corp(self.turn, action)

    def reopen(self, prev: Turn, action):
        """An action of the company whose turn just ended by itself: check it
        as part of that turn (a refusal then names the real reason, e.g. the
        train limit); if it is legal after all, the turn goes on."""
        saved = (self.index, self.turn)
        self.index -= 1
        self.turn = prev
        prev.step = prev.explicit_step
        try:
            self.process_corp(prev, action)
        except RuleViolation:
            prev.step = DONE
            self.index, self.turn = saved
            raise
        if self.turn is prev:
            return
        # the reopened turn ended again: the next company starts afresh
        self.closed_turn = prev

    def switch_to(self, corp: Corporation):
        rest = self.order[self.index + 1:]
        if corp not in rest:
            if not corp.floated:
                raise RuleViolation("or.not_floated",
                                    f"{corp.sym} has not floated and does not operate")
            done = corp in self.order[: self.index + 1]
            current = self.turn.corp.sym if self.turn else "nobody"
            raise RuleViolation("turn.order",
                                f"{corp.sym} " + ("already operated in " if done else
                                                   "does not operate in ")
                                + f"{self.label}; it is {current}'s turn")
        self.end_turn()
        self.skip_turns_until(corp)
        self.next_corporation()

    def check_stage(self, t: Turn, stage: int, what: str):
        if t.step > stage:
            raise RuleViolation("or.step_order",
                                f"{t.corp.sym} cannot {what} after {STAGE_NAMES[t.step]}")

    # ------------------------------------------------------------------
    # corporation actions

    def process_corp(self, t: Turn, action):
        t.acted = True
        if t.special_token is not None and not isinstance(action, PlaceToken):
            t.special_token = None       # the private's station is not placed
            if isinstance(action, Pass):
                return self.settle()
        if isinstance(action, Pass):
            if t.step == TRAINS and self.must_buy_train(t.corp):
                cheapest = self.cheapest_train()
                raise RuleViolation("trains.must_own",
                                    f"{t.corp.sym} has no train and must buy one (cheapest: a "
                                    f"{cheapest.name}-train for {self.game.money(cheapest.spec.price)}"
                                    f"; {t.corp.sym} has {self.game.money(t.corp.cash)}); it "
                                    f"cannot pass")
            self.move_to(t, min(t.step + 1, DONE))
            t.explicit_step = t.step
            self.settle()
            if self.turn is None and self.index >= len(self.order):
                # a pass ends the last turn, private powers and all (discards still due)
                self.finished = not self.game.excess_trains()
            return
        try:
            return self.process_corp_action(t, action)
        finally:
            if self.turn is t:
                t.explicit_step = t.step
                self.settle()

    def process_corp_action(self, t: Turn, action):
        if isinstance(action, LayTile):
            return self.do_lay(t, action)
        if isinstance(action, PlaceToken):
            return self.do_token(t, action)
        if isinstance(action, RunRoutes):
            return self.do_run(t, action)
        if isinstance(action, Dividend):
            return self.do_dividend(t, action)
        if isinstance(action, BuyTrain):
            return self.do_buy_train(t, action)
        if isinstance(action, DiscardTrain):
            return self.do_discard(t.corp, action)
        if isinstance(action, BuyCompany):
            return self.do_buy_company(t, action)
        if isinstance(action, Bankrupt):
            return self.do_bankrupt(t, action)
        raise RuleViolation("or.action", f"'{action.verb}' is not an operating round action")

    def do_lay(self, t: Turn, action: LayTile, special: Company | None = None):
        g = self.game
        corp = t.corp
        extra = bool(special and (special.spec.special.get("tile_lay") or {}).get("extra"))
        if not extra:
            self.check_stage(t, TRACK, "lay track")
        limit = int(g.rules.operating.get("tile_lays", 1))
        if not extra and t.tile_lays >= limit:
            raise RuleViolation("track.one_lay",
                                f"{corp.sym} already laid {t.tile_lays} tile(s) this turn; "
                                f"the limit is {limit}")
        cost = self.terrain_cost(action.hex)
        if special is not None:
            power = special.spec.special
            spec = power.get("tile_lay") or power.get("teleport") or {}
            if action.hex not in spec.get("hexes", []):
                raise RuleViolation("private.power",
                                    f"{special.sym} can lay track only on "
                                    f"{', '.join(spec.get('hexes', []))}, not {action.hex}")
            if spec.get("tiles") and action.tile not in [str(x) for x in spec["tiles"]]:
                raise RuleViolation("private.power",
                                    f"{special.sym} can lay only tile(s) "
                                    f"{', '.join(map(str, spec['tiles']))}, not {action.tile}")
            uses = spec.get("count")
            if uses is not None and special.uses >= int(uses):
                raise RuleViolation("private.power_used",
                                    f"{special.sym}'s tile lay may be used {uses} time(s) and "
                                    f"has been used")
        if corp.cash < cost:
            raise RuleViolation("track.cost",
                                f"{corp.sym} has {g.money(corp.cash)}; laying on {action.hex} "
                                f"costs {g.money(cost)}")
        if g.board is not None:
            paid, rotation = g.board.lay_tile(
                corp.sym, action.tile, action.hex, action.rotation,
                colors=list(g.phase.tiles),
                check_connection=special is None,
                special=special.sym if special else None, tile_copy=action.tile_copy)
            cost = paid
            if action.rotation is None:
                action.rotation = rotation
        g.laid_hexes.add(action.hex)
        g.transfer(corp, g.bank, cost)
        if special is not None:
            special.uses += 1
        if not extra:
            t.tile_lays += 1
            if special is not None and (special.spec.special or {}).get("teleport"):
                t.special_token = special

    def terrain_cost(self, hex_name: str) -> int:
        g = self.game
        if hex_name in g.laid_hexes:
            return 0
        board = g.rules.board or {}
        spec = (board.get("hexes") or {}).get(hex_name) or {}
        return int(spec.get("cost") or 0)

    def do_token(self, t: Turn, action: PlaceToken, special: Company | None = None):
        g = self.game
        corp = t.corp
        if g.board is not None and g.board.pending_relocation(corp.sym, action.hex):
            # the company's home station is placed again on the new tile: free
            g.board.place_token(corp.sym, action.hex, action.city, check_reach=False)
            return
        if special is None or t.special_token is not special:
            self.check_stage(t, TOKEN, "place a station")
        per_turn = int(g.rules.operating.get("tokens_per_turn", 1))
        if t.tokens >= per_turn and special is None:
            raise RuleViolation("token.one_per_turn",
                                f"{corp.sym} already placed {t.tokens} station(s) this turn")
        cost = corp.token_cost()
        if cost is None:
            raise RuleViolation("token.none_left",
                                f"{corp.sym} has placed all {len(corp.spec.tokens)} of its "
                                f"station markers")
        if special is not None:
            cost = 0
        if corp.cash < cost:
            raise RuleViolation("token.cash",
                                f"{corp.sym} has {g.money(corp.cash)}; its next station costs "
                                f"{g.money(cost)}")
        if g.board is not None:
            g.board.place_token(corp.sym, action.hex, action.city,
                                check_reach=special is None)
        corp.tokens_placed += 1
        g.transfer(corp, g.bank, cost)
        t.tokens += 1
        if t.special_token is special and special is not None:
            t.special_token = None
        else:
            self.move_to(t, ROUTE)

    def do_run(self, t: Turn, action: RunRoutes):
        g = self.game
        corp = t.corp
        self.check_stage(t, ROUTE, "run trains")
        if t.revenue is not None:
            raise RuleViolation("route.twice", f"{corp.sym} already ran its trains this turn")
        owned = {}
        for tr in corp.trains:
            owned[tr.name] = owned.get(tr.name, 0) + 1
        used = {}
        for r in action.routes:
            used[r.train] = used.get(r.train, 0) + 1
        for name, n in used.items():
            if n > owned.get(name, 0):
                have = ", ".join(f"{k}" for k in sorted(owned)) or "no trains"
                raise RuleViolation("route.train",
                                    f"{corp.sym} runs {n} {name}-train(s) but owns "
                                    f"{owned.get(name, 0)} (trains: {have})")
        claimed_parts = [r.revenue for r in action.routes]
        claimed = action.revenue
        if claimed is None and all(x is not None for x in claimed_parts):
            claimed = sum(claimed_parts)
        computed = None
        if g.board is not None and action.routes:
            distances = {tr.name: tr.spec.distance for tr in corp.trains}
            try:
                computed, per_route = g.board.revenue_of_routes(
                    corp.sym, action.routes, self.phase_color(), distances)
            except RuleViolation as v:
                g.flag(v.rule, v.message)
                computed = None
            else:
                for r, rev in zip(action.routes, per_route):
                    if r.revenue is not None and r.revenue != rev:
                        g.flag("route.revenue",
                               f"the {r.train}-train's run {'-'.join(str(s) for s in r.stops)} "
                               f"is worth {g.money(rev)}, not the {g.money(r.revenue)} claimed")
        elif not action.routes:
            computed = 0
        if claimed is None:
            claimed = computed if computed is not None else 0
        elif computed is not None and claimed != computed:
            g.flag("route.revenue",
                   f"{corp.sym}'s runs are worth {g.money(computed)}, but "
                   f"{g.money(claimed)} was claimed")
        t.revenue = claimed
        self.move_to(t, DIVIDEND)

    def phase_color(self) -> str:
        return self.game.phase.tiles[-1]

    def do_dividend(self, t: Turn, action: Dividend):
        g = self.game
        self.check_stage(t, DIVIDEND, "decide a dividend")
        if t.dividend_done:
            raise RuleViolation("dividend.twice", f"{t.corp.sym} already decided its dividend")
        kinds = g.rules.operating.get("dividend_kinds", ["payout", "withhold"])
        if action.kind not in kinds:
            raise RuleViolation("dividend.kind", f"{g.rules.title} knows no '{action.kind}' "
                                                 f"dividend; allowed: {', '.join(kinds)}")
        self.move_to(t, DIVIDEND)
        revenue = t.revenue or 0
        self.pay_dividend(t, action.kind, revenue)
        self.move_to(t, TRAINS)

    def pay_dividend(self, t: Turn, kind: str, revenue: int):
        g = self.game
        corp = t.corp
        t.dividend_done = True
        if kind == "withhold" or revenue == 0:
            g.transfer(g.bank, corp, revenue)
            g.move_price(corp, "left")
            return
        pool_to = g.rules.stock.get("pool_share_dividends", "corporation")
        ipo_to = g.rules.stock.get("ipo_share_dividends", "none")
        # the per-share amount is rounded down; the rest stays in the bank
        per_share = revenue * corp.share_percent // 100
        if per_share <= 0:
            g.move_price(corp, "left")
            return
        for holder in list(g.players) + ["pool", "ipo"] + [corp]:
            pct = corp.percent_of(holder)
            if not pct:
                continue
            amount = per_share * (pct // corp.share_percent)
            if holder == "pool":
                if pool_to == "corporation":
                    g.transfer(g.bank, corp, amount)
            elif holder == "ipo":
                if ipo_to == "corporation":
                    g.transfer(g.bank, corp, amount)
            else:
                g.transfer(g.bank, holder, amount)
        g.move_price(corp, "right")

    # ------------------------------------------------------------------
    # trains

    def resolve_train(self, t: Turn, action: BuyTrain) -> tuple[Train, object]:
        g = self.game
        if action.train_id:
            train = g.train_by_id.get(action.train_id)
            if train is None:
                raise RuleViolation("trains.unknown", f"no train {action.train_id}")
            return train, train.owner
        source = action.source
        if source in (None, "depot"):
            offered = {tr.name: tr for tr in g.available_depot_trains()}
            if action.train in offered:
                return offered[action.train], "depot"
            if source == "depot":
                avail = ", ".join(offered) or "none"
                raise RuleViolation("trains.not_available",
                                    f"the depot does not sell a {action.train}-train now "
                                    f"(available: {avail})")
        if source in (None, "pool"):
            for tr in g.pool_trains():
                if tr.name == action.train:
                    return tr, "pool"
            if source == "pool":
                raise RuleViolation("trains.not_available",
                                    f"the bank pool has no {action.train}-train")
        if source is None:
            avail = ", ".join(tr.name for tr in g.available_depot_trains()) or "none"
            raise RuleViolation("trains.not_available",
                                f"no {action.train}-train is for sale from the depot "
                                f"(available: {avail}) or the pool")
        other = g.corporations.get(source)
        if other is None:
            raise RuleViolation("name.unknown", f"unknown train source '{source}'")
        for tr in other.trains:
            if tr.name == action.train:
                return tr, other
        raise RuleViolation("trains.not_owned", f"{other.sym} owns no {action.train}-train")

    def do_buy_train(self, t: Turn, action: BuyTrain):
        g = self.game
        corp = t.corp
        self.check_stage(t, TRAINS, "buy trains")
        train, source = self.resolve_train(t, action)
        if source is None or source == corp:
            raise RuleViolation("trains.not_available",
                                f"train {train.id} is not for sale")
        if source == "depot" and train not in g.available_depot_trains():
            avail = ", ".join(tr.name for tr in g.available_depot_trains()) or "none"
            raise RuleViolation("trains.not_available",
                                f"the depot does not sell a {train.name}-train now "
                                f"(available: {avail})")
        exchange = None
        if action.exchange or action.exchange_id:
            exchange = self.resolve_exchange(corp, train, action)
        list_price = train.spec.price
        if exchange is not None:
            list_price -= int(train.spec.exchange.get("discount", 0))
        price = action.price if action.price is not None else list_price
        if isinstance(source, Corporation):
            if price < 1:
                raise RuleViolation("trains.price", "a train between companies costs at least "
                                                    f"{g.money(1)}")
        elif price != list_price:
            where = "the depot" if source == "depot" else "the bank pool"
            raise RuleViolation("trains.price",
                                f"a {train.name}-train from {where} costs {g.money(list_price)}"
                                f"{' with the exchange' if exchange else ''}, not "
                                f"{g.money(price)}")
        limit = g.train_limit(corp)
        after = len(corp.trains) + 1 - (1 if exchange is not None else 0)
        over = f"{corp.sym} owns {len(corp.trains)} trains; one more makes {after}, over " \
               f"the limit of {limit} in phase {g.phase.name}"
        # at the limit, a company may still buy when it can trade a train in
        could_exchange = self.can_buy_train(t)
        if after > limit and not could_exchange:
            raise RuleViolation("trains.limit", over)
        # every check passed: the steps before buying trains are over
        contribution = self.check_emergency(t, train, source, price) if corp.cash < price else 0
        if after > limit:
            # 18xx.games lets a company at its limit that could trade a train in
            # (a 4/5/6 for a D) buy any train outright: flagged, and the purchase
            # stands (the excess train is then discarded)
            g.flag("trains.limit", over)
        self.move_to(t, TRAINS)
        if contribution:
            g.transfer(corp.president, corp, contribution)
            t.emergency = True
        self.pay_train(corp, source, price)
        if exchange is not None:
            # the traded-in train goes to the bank pool (a 4 rusts there at once on the first D)
            corp.trains.remove(exchange)
            exchange.owner = "pool"
        g.give_train(train, corp)
        action.train_id = train.id
        action.source = source.sym if isinstance(source, Corporation) else source
        self.after_train_bought(corp, train)

    def resolve_exchange(self, corp, train, action):
        g = self.game
        spec = train.spec.exchange
        if not spec:
            raise RuleViolation("trains.exchange", f"a {train.name}-train cannot be bought "
                                                   f"in exchange for another")
        if action.exchange_id:
            ex = g.train_by_id.get(action.exchange_id)
            if ex is None or ex.owner is not corp:
                raise RuleViolation("trains.exchange", f"{corp.sym} does not own train "
                                                       f"{action.exchange_id}")
        else:
            ex = next((tr for tr in corp.trains if tr.name == action.exchange), None)
            if ex is None:
                raise RuleViolation("trains.exchange",
                                    f"{corp.sym} owns no {action.exchange}-train to trade in")
        if ex.name not in [str(x) for x in spec.get("trains", [])]:
            raise RuleViolation("trains.exchange",
                                f"a {ex.name}-train cannot be traded in for a {train.name}; "
                                f"only {', '.join(map(str, spec.get('trains', [])))}")
        return ex

    def pay_train(self, corp, source, price):
        g = self.game
        if isinstance(source, Corporation):
            g.transfer(corp, source, price)
        else:
            g.transfer(corp, g.bank, price)

    def check_emergency(self, t: Turn, train, source, price) -> int:
        """The treasury is short: allowed only for a company without trains;
        returns what the president must pay in (the shortfall)."""
        g = self.game
        corp = t.corp
        if corp.trains:
            raise RuleViolation("trains.cash",
                                f"{corp.sym} has {g.money(corp.cash)}, a {train.name}-train "
                                f"costs {g.money(price)} (the president helps only a company "
                                f"without trains)")
        pres = corp.president
        if isinstance(source, Corporation) and \
                g.rules.operating.get("emergency_from_others", "value") == "none":
            raise RuleViolation("emergency.source", "in an emergency only the depot sells")
        if source in ("depot", "pool") and g.rules.operating.get("emergency_buy_cheapest", True):
            cheapest = self.cheapest_train()
            if cheapest is not None and cheapest.spec.price < train.spec.price:
                raise RuleViolation("emergency.cheapest",
                                    f"{corp.sym} needs its president's money and must buy the "
                                    f"cheapest train: a {cheapest.name}-train for "
                                    f"{g.money(cheapest.spec.price)}, not a {train.name}-train")
        if isinstance(source, Corporation) and \
                g.rules.operating.get("emergency_from_others", "value") == "value" \
                and price > train.spec.price:
            raise RuleViolation("emergency.price",
                                f"with the president's money a train from another company "
                                f"costs at most its face value {g.money(train.spec.price)}")
        need = price - corp.cash
        if pres is None or pres.cash < need:
            have = pres.cash if pres else 0
            raise RuleViolation("emergency.cash",
                                f"{corp.sym} has {g.money(corp.cash)} and its president "
                                f"{pres.name if pres else '-'} has {g.money(have)}; the "
                                f"{train.name}-train costs {g.money(price)}")
        return need

    def after_train_bought(self, corp, train):
        g = self.game
        for company in list(corp.president.companies if corp.president else []) + \
                [c for c in g.companies.values()]:
            spec = company.spec.special or {}
            if spec.get("closes_when_bought_train") == corp.sym and not company.closed:
                g.close_company(company)

    def do_discard(self, corp: Corporation, action: DiscardTrain):
        g = self.game
        train = None
        if action.train_id:
            train = g.train_by_id.get(action.train_id)
            if train is not None and train.owner is not corp:
                train = None
        if train is None:
            train = next((tr for tr in corp.trains if tr.name == action.train), None)
        if train is None:
            raise RuleViolation("trains.discard", f"{corp.sym} owns no {action.train}-train")
        excess = len(corp.trains) - g.train_limit(corp)
        if excess <= 0:
            raise RuleViolation("trains.discard",
                                f"{corp.sym} owns {len(corp.trains)} trains, within the limit of "
                                f"{g.train_limit(corp)}; trains may not be discarded at will")
        corp.trains.remove(train)
        train.owner = "pool"

    def enforce_discards(self, action):
        """Companies over the train limit (after a phase change) must discard
        before anything else happens; a record that goes on without the
        discard is flagged and the cheapest excess trains go to the pool."""
        g = self.game
        excess = g.excess_trains()
        if not excess:
            return
        if isinstance(action, DiscardTrain) and any(c.sym == action.actor for c in excess):
            return      # the crowded companies discard in any order
        for corp, n in excess.items():
            limit = g.train_limit(corp)
            trains = sorted(corp.trains, key=lambda t: t.spec.price)
            g.flag("trains.discard_required",
                   f"{corp.sym} holds {len(corp.trains)} trains "
                   f"({', '.join(t.name for t in corp.trains)}), over the limit of {limit} in "
                   f"phase {g.phase.name}; it must discard {n} before play goes on "
                   f"(taken as discarding {', '.join(t.name for t in trains[:n])})")
            for t in trains[:n]:
                corp.trains.remove(t)
                t.owner = "pool"

    # ------------------------------------------------------------------
    # privates

    def do_buy_company(self, t: Turn, action: BuyCompany):
        g = self.game
        corp = t.corp
        company = self.company(action.company)
        if not g.phase.company_buy:
            raise RuleViolation("private.buy_phase",
                                f"companies cannot buy privates in phase {g.phase.name}")
        if company.closed:
            raise RuleViolation("private.closed", f"{company.sym} is closed")
        special = company.spec.special or {}
        if special.get("no_sale_to_corporation"):
            raise RuleViolation("private.no_sale", f"{company.sym} may not be sold to a company")
        owner = company.owner
        if not isinstance(owner, Player):
            raise RuleViolation("private.owner",
                                f"{company.sym} is owned by {g.holder_name(owner)}, not a player")
        lo, hi = self.company_price_range(company)
        if not lo <= action.price <= hi:
            raise RuleViolation("private.price",
                                f"{company.sym} (face {g.money(company.value)}) may be bought for "
                                f"{g.money(lo)} to {g.money(hi)}, not {g.money(action.price)}")
        if corp.cash < action.price:
            raise RuleViolation("private.cash",
                                f"{corp.sym} has {g.money(corp.cash)}, {company.sym} costs "
                                f"{g.money(action.price)}")
        g.transfer(corp, owner, action.price)
        owner.companies.remove(company)
        company.owner = corp
        corp.companies.append(company)
        if g.board is not None:
            g.board.unblock(company.sym)

    def process_private(self, company: Company, action):
        g = self.game
        owner = company.owner
        if company.closed or owner is None:
            raise RuleViolation("private.closed", f"{company.sym} is closed or unowned")
        if not isinstance(owner, Corporation):
            raise RuleViolation("private.power",
                                f"{company.sym}'s power is used by a company that owns it; it is "
                                f"owned by {g.holder_name(owner)}")
        if self.turn is None and self.closed_turn is not None and self.closed_turn.corp is owner \
                and self.index >= len(self.order):
            self.index -= 1             # the last turn of the OR goes on with the power
            self.turn = self.closed_turn
        if self.turn is None or self.turn.corp is not owner:
            if owner in self.order[self.index + 1:]:
                self.switch_to(owner)
            else:
                raise RuleViolation("private.power",
                                    f"{company.sym} can be used only in its owner "
                                    f"{owner.sym}'s turn")
        t = self.turn
        if isinstance(action, LayTile):
            self.do_lay(t, action, special=company)
        elif isinstance(action, PlaceToken):
            self.do_token(t, action, special=company)
        elif not isinstance(action, Pass):
            raise RuleViolation("private.power", f"{company.sym} cannot '{action.verb}'")
        if self.turn is t:
            self.settle()       # steps left with nothing to do pass by themselves now

    # ------------------------------------------------------------------
    # players: emergency sales and bankruptcy

    def process_player(self, player: Player, action):
        g = self.game
        if isinstance(action, SellShares):
            t = self.turn
            if t is None or t.corp.president is not player:
                raise RuleViolation("emergency.not_needed",
                                    f"{player.name} may sell shares in an operating round only "
                                    f"to raise money for a train their company must buy")
            corp = t.corp
            cheapest = self.cheapest_train()
            price = cheapest.spec.price if cheapest else 0
            if corp.trains or corp.cash + player.cash >= price:
                raise RuleViolation(
                    "emergency.not_needed",
                    f"{player.name} may not sell shares: {corp.sym} "
                    + ("owns a train" if corp.trains else
                       f"has {g.money(corp.cash)} and {player.name} {g.money(player.cash)}, "
                       f"enough for the cheapest train ({g.money(price)})"))
            for sale in action.sales:
                c = self.corporation(sale.corporation)
                pct = sale_percent(g, c, sale)
                if c.price is not None:
                    bundle = c.price.price * pct // c.share_percent
                    # too much when the bundle less its smallest certificate would do
                    smallest = c.price.price * _smallest_cert(c, player, sale, pct) \
                        // c.share_percent
                    if bundle - smallest + player.cash + corp.cash >= price:
                        raise RuleViolation(
                            "emergency.too_much",
                            f"{player.name} sells more than needed: {pct}% of {c.sym} brings "
                            f"{g.money(bundle)}; with {g.money(player.cash)} in hand and "
                            f"{g.money(corp.cash)} in {corp.sym}'s treasury one certificate "
                            f"fewer ({g.money(smallest)} less) would pay for the "
                            f"{g.money(price)} train")
                sell_shares(g, player, c, pct, emergency_for=corp, certs=sale.certs)
            t.emergency = True
            self.recalculate_order()
            return
        if isinstance(action, Bankrupt):
            t = self.turn
            if t is None or t.corp.president is not player:
                raise RuleViolation("bankrupt.not_president",
                                    f"{player.name} is not the president of the operating "
                                    f"company")
            return self.do_bankrupt(t, action)
        raise RuleViolation("or.player_action",
                            f"players do not '{action.verb}' in an operating round")

    def recalculate_order(self):
        """Share prices changed by sales during the OR: the companies still
        to operate are re-sorted."""
        rest = self.order[self.index + 1:]
        rest.sort(key=self.game.price_order_key)
        self.order[self.index + 1:] = rest

    def do_bankrupt(self, t: Turn, action):
        from ..mechanics.shares import declare_bankruptcy
        declare_bankruptcy(self.game, self, t)


def _smallest_cert(corp, player, sale, percent: int) -> int:
    """The percentage of the smallest certificate in the bundle a sale is made
    of: the certificates it names, else the player's ordinary shares and, when
    they do not cover the sale, the president's certificate."""
    named = [corp.certs[i].percent for i in sale.certs
             if i < len(corp.certs) and corp.certs[i].owner is player]
    if named:
        return min(named)
    ordinary = [c.percent for c in corp.certs_of(player) if not c.president]
    if percent > sum(ordinary) and corp.president is player:
        ordinary.append(corp.certs[0].percent)
    return min(ordinary, default=corp.share_percent)
