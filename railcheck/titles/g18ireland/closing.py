"""Companies leaving the game and a president's bankruptcy (docs/18Ireland.md
B1-B6)."""

from __future__ import annotations

from ...mechanics.shares import bankrupt_president, sell_all_for


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
    bankruptcy = g.rules.raw.get("player_bankruptcy") or {}
    paid = bankruptcy.get("holders_paid_market_price")
    for c in list(g.corporations.values()):
        if c.closed or c.president is not player:
            continue
        if paid and c.price is not None:
            for p in g.players:
                if p is not player and not p.bankrupt:
                    n = c.percent_of(p) // c.share_percent
                    g.transfer(g.bank, p, n * c.price.price)
        close_corporation(g, c)
    if bankruptcy.get("leftovers", "leave") == "leave":
        # B5: his privates and the shares he could not sell leave the game
        # (leftovers: keep, the site's reading, leaves them his)
        for company in list(player.companies):
            g.close_company(company)
            company.left_with = player
        for c in g.corporations.values():
            for cert in c.certs:
                if cert.owner is player:
                    cert.owner = None
    # (the order of the round stays as it was set at its start)
    after = bankruptcy.get("ends_game_after", "one")
    live = [p for p in g.players if not p.bankrupt]
    if after == "one" or len(live) <= 1:
        g.trigger_end("bankrupt")
