"""Buying trains (from the depot, the bank pool or another company), the
president's help when a company without trains cannot pay, and discarding
trains over the limit."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..actions import BuyTrain, DiscardTrain
from ..findings import RuleViolation, plural
from ..state import Corporation
from .base import Step


def _names(trains) -> str:
    """The types of ``trains``, each once, in order ("none" for no train)."""
    return ", ".join(dict.fromkeys(tr.name for tr in trains)) or "none"


@dataclass
class _BuyPlan:
    train: Any
    source: Any            # "depot", "pool" or a Corporation
    price: int
    exchange: Any          # the train traded in, or None
    contribution: int         # what the president pays in
    over_limit: Any = None  # the finding of a purchase over the limit that stands
    wrong_price: Any = None  # the finding of a depot or pool train bought at another price
    short: Any = None      # the finding of a purchase paid with more than there is
    short_rule: str = "trains.cash"


def cheapest_train(g):
    """The cheapest train the depot or the bank pool sells now."""
    cands = g.available_depot_trains() + g.pool_trains()
    return min(cands, key=lambda t: t.spec.price) if cands else None


class BuyTrainStep(Step):
    name = "buying trains"
    verb = "buy trains"
    actions = (BuyTrain,)
    ordered = True

    # ------------------------------------------------------------------
    # duties

    def must_buy(self, corp) -> bool:
        """No train, the depot still sells some, and (per the ruleset) a route to run."""
        g = self.game
        cheapest = cheapest_train(g)
        if corp.trains or corp.closed or cheapest is None:
            return False
        if g.rules.operating.must_buy_needs_cash_above_cheapest \
                and corp.cash <= cheapest.spec.price:
            return False
        mode = g.rules.operating.must_buy_train
        if mode == "never":
            return False
        if mode == "route":
            # without the map (--no-board) nobody can tell: no company is forced
            return g.board is not None and g.board.has_route(corp.sym)
        return True

    def must_buy_message(self, corp) -> str:
        g = self.game
        cheapest = cheapest_train(g)
        return (f"(cheapest: a {cheapest.name}-train for {g.money(cheapest.spec.price)}"
                f"; {corp.sym} has {g.money(corp.cash)})")

    def available(self, turn) -> bool:
        g = self.game
        corp = turn.corp
        if self.must_buy(corp):
            return True
        room = len(corp.trains) < g.train_limit(corp)
        offered = g.available_depot_trains() + g.pool_trains()
        if room:
            if any(tr.spec.price <= corp.cash for tr in offered):
                return True
            if corp.cash >= 1 and g.rules.operating.buy_from_others and any(
                    c is not corp and not c.closed and any(not tr.obsolete for tr in c.trains)
                    for c in g.corporations.values()):
                return True
        return self.exchange_in_reach(corp, offered) is not None

    def exchange_in_reach(self, corp, offered=None):
        """(a train of ``corp``'s, the train it could be traded in for) when the
        company can afford such a trade now (1830: a 4, 5 or 6 for a D), else None."""
        g = self.game
        if offered is None:
            offered = g.available_depot_trains() + g.pool_trains()
        for tr in offered:
            ex = tr.spec.exchange
            if not ex or corp.cash < tr.spec.price - int(ex["discount"]):
                continue
            names = [str(x) for x in ex["trains"]]
            old = next((o for o in corp.trains if o.name in names), None)
            if old is not None:
                return old, tr
        return None

    def check_pass(self, turn) -> None:
        corp = turn.corp
        if self.must_buy(corp):
            raise RuleViolation("trains.must_own",
                                f"{corp.sym} has no train and must buy one "
                                f"{self.must_buy_message(corp)}; it cannot pass")

    def end_of_turn(self, turn) -> None:
        """The company's turn ends: it must own a train if it has a route."""
        corp = turn.corp
        if turn.step <= self.round.step_index(self) and self.must_buy(corp) \
                and not self.game.finished:
            self.game.flag("trains.must_own",
                           f"{corp.sym} ended its turn without a train; it must buy one "
                           f"{self.must_buy_message(corp)}")

    # ------------------------------------------------------------------

    def check(self, turn, action: BuyTrain) -> _BuyPlan:
        g = self.game
        corp = turn.corp
        self.refuse_after(turn)
        train, source = self.resolve_train(action)
        if source is None or source == corp:
            raise RuleViolation("trains.not_available", f"train {train.id} is not for sale")
        if source == "depot" and train not in g.available_depot_trains():
            offered = g.available_depot_trains()
            same = [tr for tr in offered if tr.name == train.name]
            if same:        # the record names one of the type's later trains
                raise RuleViolation("trains.not_available",
                                    f"the depot sells its {train.name}-trains one after "
                                    f"another: {same[0].id} is next, not {train.id}")
            raise RuleViolation("trains.not_available",
                                f"the depot does not sell a {train.name}-train now "
                                f"(available: {_names(offered)})")
        exchange = None
        if action.exchange or action.exchange_id:
            exchange = self.resolve_exchange(corp, train, action)
        list_price = train.spec.price
        if exchange is not None:
            list_price -= int(train.spec.exchange["discount"])
        price = action.price if action.price is not None else list_price
        if isinstance(source, Corporation):
            if price < 1:
                raise RuleViolation("trains.price", "a train between companies costs at least "
                                                    f"{g.money(1)}")
        wrong_price = None
        if not isinstance(source, Corporation) and price != list_price:
            # the money moved as recorded: flagged, and bought at the written price
            where = "the depot" if source == "depot" else "the bank pool"
            wrong_price = (f"a {train.name}-train from {where} costs {g.money(list_price)}"
                           f"{' with the exchange' if exchange else ''}, not {g.money(price)}; "
                           f"taken as paid (18xx.games takes the written price)")
        limit = g.train_limit(corp)
        after = len(corp.trains) + 1 - (1 if exchange is not None else 0)
        over = None
        if after > limit:
            over = (f"{corp.sym} owns {plural(len(corp.trains), 'train')}; one more makes "
                    f"{after}, over "
                    f"the limit of {limit} in phase {g.phase.name}")
            # 18xx.games lets a company at its limit that could trade a train in
            # (a 4/5/6 for a D) buy any train outright: flagged, and the purchase
            # stands (the excess train is then discarded); otherwise refused
            if not self.available(turn):
                raise RuleViolation("trains.limit", over)
            trade = self.exchange_in_reach(corp)
            if trade is not None:
                over += (f": a company at its train limit may not buy a train; 18xx.games "
                         f"lets {corp.sym} buy because it could trade its {trade[0].name}-train "
                         f"in for a {trade[1].name}; taken as bought, as the record says")
        contribution, short, short_rule = 0, None, "trains.cash"
        if corp.cash < price:
            if corp.trains:
                # the record says the train was bought: flagged, and taken as paid
                # (the treasury goes below zero) so the replay stays with the record
                if g.short_of(corp, price):
                    short = (f"{corp.sym} has {g.money(corp.cash)}, a {train.name}-train "
                             f"costs {g.money(price)} (the president helps only a company "
                             f"without trains); taken as bought, as the record says")
            else:
                try:
                    contribution = self.check_emergency(turn, train, source, price)
                except RuleViolation as v:
                    if v.rule != "emergency.cash" or corp.president is None:
                        raise
                    # the record says the train was bought: the president pays the
                    # rest (going below zero), flagged, so the replay stays with it
                    contribution = price - corp.cash
                    short = v.message + "; taken as bought, as the record says"
                    short_rule = v.rule
        return _BuyPlan(train, source, price, exchange, contribution, over, wrong_price, short,
                        short_rule)

    def apply(self, turn, action: BuyTrain, plan: _BuyPlan) -> None:
        g = self.game
        corp = turn.corp
        if plan.over_limit:
            g.flag("trains.limit", plan.over_limit)
        if plan.wrong_price:
            g.flag("trains.price", plan.wrong_price)
        if plan.short:
            g.flag(plan.short_rule, plan.short)
        # the steps before buying trains are over
        self.round.move_to(turn, self.round.step_index(self))
        if plan.contribution and corp.president is None:
            # passing over the dividend (a withhold) closed the company: its
            # price left the market and no president is left to pay in
            g.flag("emergency.cash",
                   f"{corp.sym} closed when its dividend was withheld, so no president "
                   f"pays {g.money(plan.contribution)} towards the {plan.train.name}-train; "
                   f"taken as bought, as the record says")
        elif plan.contribution:
            g.transfer(corp.president, corp, plan.contribution)
            turn.emergency = True
        source = plan.source
        g.transfer(corp, source if isinstance(source, Corporation) else g.bank, plan.price)
        if plan.exchange is not None:
            # the traded-in train goes to the bank pool (a 4 rusts there at once on the first D)
            corp.trains.remove(plan.exchange)
            plan.exchange.owner = "pool"
        g.give_train(plan.train, corp)
        action.train_id = plan.train.id
        action.source = source.sym if isinstance(source, Corporation) else source
        self.after_bought(corp)

    # ------------------------------------------------------------------

    def resolve_train(self, action: BuyTrain):
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
                raise RuleViolation("trains.not_available",
                                    f"the depot does not sell a {action.train}-train now "
                                    f"(available: {_names(offered.values())})")
        if source in (None, "pool"):
            for tr in g.pool_trains():
                if tr.name == action.train:
                    return tr, "pool"
            if source == "pool":
                raise RuleViolation("trains.not_available",
                                    f"the bank pool has no {action.train}-train")
        if source is None:
            raise RuleViolation("trains.not_available",
                                f"no {action.train}-train is for sale from the depot "
                                f"(available: {_names(g.available_depot_trains())}) or the pool")
        if source == "reserve":
            # a train an export takes from the reserve (18Ireland's primed
            # trains), written 'from reserve' by an import: as its train id
            for tr in g.trains:
                if tr.owner == "reserve" and tr.name == action.train:
                    return tr, "reserve"
            raise RuleViolation("trains.not_available",
                                f"the reserve has no {action.train}-train")
        other = g.corporations.get(source)
        if other is None:
            raise RuleViolation("name.unknown", f"unknown train source '{source}'")
        for tr in other.trains:
            if tr.name == action.train:
                return tr, other
        raise RuleViolation("trains.not_owned", f"{other.sym} owns no {action.train}-train")

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
        if ex.name not in [str(x) for x in spec["trains"]]:
            raise RuleViolation("trains.exchange",
                                f"a {ex.name}-train cannot be traded in for a {train.name}; "
                                f"only {', '.join(map(str, spec.get('trains', [])))}")
        return ex

    def check_emergency(self, turn, train, source, price) -> int:
        """The treasury is short: allowed only for a company without trains,
        and where the president contributes at all (``operating.president_contributes``);
        returns what the president must pay in (the shortfall)."""
        g = self.game
        corp = turn.corp
        if not g.rules.operating.president_contributes:
            raise RuleViolation("trains.cash",
                                f"{corp.sym} has {g.money(corp.cash)}, a {train.name}-train costs "
                                f"{g.money(price)}; the president never pays towards a train")
        if corp.trains:
            raise RuleViolation("trains.cash",
                                f"{corp.sym} has {g.money(corp.cash)}, a {train.name}-train "
                                f"costs {g.money(price)} (the president helps only a company "
                                f"without trains)")
        pres = corp.president
        from_others = g.rules.operating.emergency_from_others
        if isinstance(source, Corporation) and from_others == "none":
            raise RuleViolation("emergency.source", "in an emergency only the depot sells")
        if source in ("depot", "pool") and g.rules.operating.emergency_buy_cheapest:
            cheapest = cheapest_train(g)
            if cheapest is not None and cheapest.spec.price < train.spec.price:
                raise RuleViolation("emergency.cheapest",
                                    f"{corp.sym} needs its president's money and must buy the "
                                    f"cheapest train: a {cheapest.name}-train for "
                                    f"{g.money(cheapest.spec.price)}, not a {train.name}-train")
        if isinstance(source, Corporation) and from_others == "value" \
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

    def after_bought(self, corp) -> None:
        """A private that closes when its company buys a train (1830's BO)."""
        g = self.game
        for company in g.companies.values():
            spec = company.spec.special or {}
            if spec.get("closes_when_bought_train") == corp.sym and not company.closed:
                g.close_company(company)


class DiscardTrainStep(Step):
    """A company over its train limit (after a phase change) discards to the
    bank pool.  Non-blocking: it comes whenever the record gives it."""

    name = "discarding trains"
    verb = "discard trains"
    actions = (DiscardTrain,)

    def available(self, turn) -> bool:
        """A company is over its train limit."""
        return bool(self.game.excess_trains())

    def check(self, turn, action: DiscardTrain):
        g = self.game
        corp = g.corporations[action.actor] if turn is None else turn.corp
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
                                f"{corp.sym} owns {plural(len(corp.trains), 'train')}, "
                                f"within the limit of "
                                f"{g.train_limit(corp)}; trains may not be discarded at will")
        return (corp, train)

    def apply(self, turn, action, plan) -> None:
        corp, train = plan
        corp.trains.remove(train)
        train.owner = "pool"

    def enforce(self, action) -> None:
        """Companies over the train limit must discard before anything else
        happens; a record that goes on without the discard is flagged and the
        cheapest excess trains go to the pool."""
        g = self.game
        excess = g.excess_trains()
        if isinstance(action, DiscardTrain) and any(c.sym == action.actor for c in excess):
            return      # the crowded companies discard in any order
        for corp, n in excess.items():
            limit = g.train_limit(corp)
            trains = sorted(corp.trains, key=lambda t: t.spec.price)
            g.flag("trains.discard_required",
                   f"{corp.sym} holds {plural(len(corp.trains), 'train')} "
                   f"({', '.join(t.name for t in corp.trains)}), over the limit of {limit} in "
                   f"phase {g.phase.name}; it must discard {n} before play goes on "
                   f"(taken as discarding {', '.join(t.name for t in trains[:n])})")
            for t in trains[:n]:
                corp.trains.remove(t)
                t.owner = "pool"
