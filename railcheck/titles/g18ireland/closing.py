"""Companies leaving the game and a president's bankruptcy (docs/18Ireland.md
B1-B6)."""

from __future__ import annotations

from dataclasses import dataclass

from ...mechanics.shares import bankrupt_president, sell_all_for


@dataclass
class Leftovers:
    """What B5 took out of the game with a bankrupt player, by name (the
    game's objects are copies after a look-ahead puts a state back): his
    privates with the hexes each blocked, and his certificates (company,
    index)."""
    player: str
    companies: dict
    certs: list

    def keep(self, g) -> None:
        """The site's reading (``leftovers: keep``): they stay his."""
        player = next(p for p in g.players if p.name == self.player)
        for sym, hexes in self.companies.items():
            company = g.companies[sym]
            company.closed, company.left_with, company.owner = False, None, player
            player.companies.append(company)
            for h in hexes:
                g.board.blocked.setdefault(h, set()).add(sym)
        for sym, index in self.certs:
            next(c for c in g.corporations[sym].certs if c.index == index).owner = player

    def says(self, g) -> str:
        shares: dict = {}
        for sym, index in self.certs:
            cert = next(c for c in g.corporations[sym].certs if c.index == index)
            shares[sym] = shares.get(sym, 0) + cert.percent
        what = [*sorted(self.companies), *(f"{p}% of {sym}" for sym, p in sorted(shares.items()))]
        return (f"{self.player} goes bankrupt holding {', '.join(what)}: by 18Ireland B5 they leave "
                f"the game with the player, but the record's later lines go on as if they stayed "
                f"theirs (as 18xx.games keeps them): taken so")


def close_corporation(g, corp):
    """``corp`` leaves the game: its trains, stations and certificates go,
    its cash returns to the bank, its privates close."""
    if corp.closed:
        return
    corp.closed = True
    g.transfer(corp, g.bank, corp.cash)
    for t in list(corp.trains):
        t.owner = None
    corp.trains = []
    for c in list(corp.companies):
        g.close_company(c)
    for cert in corp.certs:
        cert.owner = None
    corp.president = None
    if g.board is not None:
        g.board.remove_corporation(corp.sym)


def president_bankrupt(g, rnd, turn):
    """The operating company cannot buy the train it must own and its
    president cannot raise the money: he sells what he may, his cash goes to
    the company, he is bankrupt; every company he presides leaves the game,
    its other holders being paid the market price."""
    corp = turn.corp
    player = bankrupt_president(g, rnd, corp)
    sell_all_for(g, player, corp)
    g.transfer(player, corp, player.cash)
    player.bankrupt = True
    bankruptcy = g.rules.settings.player_bankruptcy
    paid = bankruptcy.holders_paid_market_price
    for c in list(g.corporations.values()):
        if c.closed or c.president is not player:
            continue
        if paid and c.price is not None:
            for p in g.players:
                if p is not player and not p.bankrupt:
                    n = c.percent_of(p) // c.share_percent
                    g.transfer(g.bank, p, n * c.price.price)
        close_corporation(g, c)
    if bankruptcy.leftovers == "leave":
        # B5: his privates and the shares he could not sell leave the game
        # (leftovers: keep, the site's reading, leaves them his)
        left = Leftovers(player.name,
                         {c.sym: sorted(h for h, who in (g.board.blocked.items() if g.board else ())
                                        if c.sym in who) for c in player.companies},
                         [(c.sym, cert.index) for c in g.corporations.values()
                          for cert in c.certs if cert.owner is player])
        for company in list(player.companies):
            g.close_company(company)
            company.left_with = player
        for c in g.corporations.values():
            for cert in c.certs:
                if cert.owner is player:
                    cert.owner = None
        if left.companies or left.certs:
            # the record may go on as 18xx.games plays it, keeping them his:
            # the record-following layer judges it by the record's next lines
            g.following.other_outcome(left.keep, left.says(g))
    _resort_after_next(g, rnd)
    after = bankruptcy.ends_game_after
    live = [p for p in g.players if not p.bankrupt]
    if after == "one" or len(live) <= 1:
        g.trigger_end("bankrupt")


def _resort_after_next(g, rnd):
    """His sales moved prices.  As on the site, the company next in the
    round's order operates next, and those after it are re-sorted by price
    (18005_5, #440: DKR falls to UR's cell and operates after it; the real
    game_end_bankrupt, #954: WLWR, next, operates before GNRI although it
    fell into GNRI's cell)."""
    order = getattr(rnd, "order", None)
    index = getattr(rnd, "index", None)
    if not order or index is None:
        return
    nxt = next((j for j in range(index + 1, len(order)) if not order[j].closed), None)
    if nxt is None:
        return
    rest = order[nxt + 1:]
    rest.sort(key=g.price_order_key)
    order[nxt + 1:] = rest
