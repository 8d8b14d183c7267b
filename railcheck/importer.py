"""Read games exported from 18xx.games (JSON) into a GameRecord.

The export's own semantics are followed: ``undo`` (the last action, or back
to just after ``action_id``) and ``redo`` remove and restore actions,
``message`` is chat, ``program_*`` entries are standing orders (no move),
and ``auto_actions`` nested in an action happen right after it.  Shares
(``PRR_2``), trains (``2-0``) and cities (``57-0-0``) are named by the
export's ids; they are mapped to our names here, the ids being kept on the
actions for the engine to resolve.
"""

from __future__ import annotations

import json
import re
from typing import Optional

from . import actions as A
from .findings import WARNING, Finding, FindingList, InputError, NotAGame

HEX_RE = re.compile(r"^[A-Za-z]{1,2}-?\d+$")
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")

IGNORED_TYPES = {"message", "program_buy_shares", "program_share_pass", "program_auction_bid",
                 "program_disable", "program_merger_pass", "program_harzbahn_draft_pass",
                 "program_independent_mines", "program_close_pass", "program_buy_train",
                 "end_game", "log"}


def _what_json_is(data: dict) -> str:
    """What a JSON object with no 'actions' is, for the line that skips it."""
    if "schema_version" in data and "files" in data:
        return "not a game record: a railcheck report (validate --format json)"
    if "states" in data and "fixture" in data:
        return "not a game record: a trace of the 18xx.games engine (no 'actions')"
    return "not a game record: a JSON object with no 'actions'"


def load_export_text(text: str, path: str) -> dict:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"not valid JSON: {exc.msg}", path=path, line=exc.lineno,
                         column=exc.colno) from None
    except RecursionError:
        raise InputError("not valid JSON: nested too deeply", path=path) from None
    if _SURROGATE_ESCAPE.search(text):  # a lone \udXXX cannot be printed or written: '?'
        data = json.loads(json.dumps(data, ensure_ascii=False).encode("utf-8", "replace"))
    if not isinstance(data, dict):
        raise InputError("an 18xx.games export is a JSON object with 'title', 'players' and "
                         "'actions'", path=path, line=1, column=1)
    if "actions" not in data:
        raise NotAGame(_what_json_is(data), path=path)
    for key, typ in (("title", str), ("players", list), ("actions", list)):
        if not isinstance(data.get(key), typ):
            raise InputError(f"an 18xx.games export needs '{key}' "
                             f"({'text' if typ is str else 'a list'})", path=path, line=1,
                             column=1)
    return data


def filter_actions(raw: list) -> list:
    """The actions that count, after undo/redo, in order (messages dropped)."""
    kept: list = []
    stack: list = []
    index_of_id: dict = {}
    for item in raw:
        if not isinstance(item, dict):
            kept.append(None)
            continue
        t = item.get("type")
        if t == "undo":
            target = item.get("action_id")
            if target is None:
                j = len(kept) - 1
                while j >= 0 and (kept[j] is None or kept[j].get("type") == "message"):
                    j -= 1
                start = j
            elif target == 0:
                start = 0
            else:
                start = index_of_id.get(target, len(kept) - 1) + 1
            group = []
            for j in range(max(start, 0), len(kept)):
                if kept[j] is not None and kept[j].get("type") != "message":
                    group.append((j, kept[j]))
                    kept[j] = None
            stack.append(group)
            kept.append(None)
        elif t == "redo":
            if stack:
                for j, act in stack.pop():
                    kept[j] = act
            kept.append(None)
        else:
            if t != "message" and stack:
                stack = []
            kept.append(item)
        iid = item.get("id")
        if iid is not None:
            index_of_id[iid] = len(kept) - 1
    out = []
    for item in kept:
        if item is None or item.get("type") == "message":
            continue
        out.append(item)
        autos = item.get("auto_actions")
        for sub in autos or ():
            if isinstance(sub, dict):
                sub = dict(sub)
                sub.setdefault("id", item.get("id"))
                out.append(sub)
    return out


class _Converter:
    def __init__(self, data: dict, path: str):
        self.path = path
        self.players = {}
        for p in data["players"]:
            if not isinstance(p, dict) or "name" not in p:
                raise InputError("each player of an export needs a 'name'", path=path)
            if not isinstance(p.get("id"), (int, str, type(None))):
                raise InputError(f"player {p['name']!r} of the export has an 'id' that is "
                                 f"neither a number nor text: {p.get('id')!r}", path=path)
            self.players[p.get("id")] = str(p["name"])
            self.players[str(p.get("id"))] = str(p["name"])
        self.tile_hex: dict[str, str] = {}
        self.findings: list[Finding] = FindingList()
        self._names: dict = {}
        from .titles import title_class
        cls = title_class(str(data.get("title", "")))
        self.place_numbers = cls is None or cls.site_place_numbers
        self.title = cls
        self._stop_hexes: Optional[frozenset] = None
        #: the export is of 2020: no run in it gives its connections, so a
        #: run's ``hexes`` are its stretches' hexes (see stops_from_hexes),
        #: not its stops as in a later export
        self.legacy_runs = _legacy_runs(data.get("actions"))

    def name(self, item: dict) -> str:
        ent = item.get("entity")
        is_player = item.get("entity_type") == "player"
        key = (ent.__class__, ent, is_player)   # unhashable: TypeError, as below
        known = self._names.get(key)
        if known is None:
            if is_player or ent in self.players:
                known = self.players.get(ent, self.players.get(str(ent), str(ent)))
            else:
                known = str(ent)
            self._names[key] = known
        return known

    def convert(self, item: dict) -> Optional[A.Action]:
        t = item.get("type")
        actor = self.name(item)
        make = _MAKERS.get(t)
        if make is not None:
            act = make(self, item, actor, item.get("id"))
            if act is not None:
                return act
        elif t in IGNORED_TYPES or (isinstance(t, str) and t.startswith("program_")):
            return None
        self.findings.append(Finding(
            severity=WARNING, rule="import.unsupported",
            message=f"action type '{t}' is not supported by railcheck yet; skipped",
            action_id=item.get("id")))
        return None

    def city(self, city_id: str) -> tuple[str, Optional[int]]:
        parts = city_id.split("-")
        if len(parts) < 3:
            return city_id, None
        tile_id = "-".join(parts[:-1])
        idx = int(parts[-1]) if parts[-1].isdigit() else None
        idx = self.site_city(tile_id.rsplit("-", 1)[0], idx)
        if tile_id in self.tile_hex:
            return self.tile_hex[tile_id], idx
        head = parts[0]
        if HEX_RE.match(head):
            return head, idx
        return tile_id, idx

    def site_city(self, tile: str, number: Optional[int]) -> Optional[int]:
        """Our number of the city that the site's place ``number`` names on
        ``tile`` (a tile's name, or a printed hex's coordinate).  18xx.games
        numbers a tile's places by their place in its code, ours go cities
        first (the two differ where board.yaml gives a ``node_order``:
        18Ireland's Dundalk tile IR2, a town then a city, whose city the site
        calls IR2-0-1): the site's number of a place that is no city names
        no city (ValueError: the action is malformed, as the site finds no
        such city); with no ``node_order`` the numbers are the same."""
        if number is None or not self.place_numbers or self.title is None \
                or self.title.uses_components or self.title.folder is None:
            return number
        from .board.site_runs import node_orders
        order = node_orders(str(self.title.folder)).get(tile)
        if not order:
            return number
        name = order[number] if number < len(order) else None
        if name is None or not name.startswith("c"):
            raise ValueError(f"the site's place {number} of {tile} is "
                             f"{'its ' + _PLACE_KINDS.get(name[0], 'place') if name else 'no place'}"
                             f", not a city")
        return int(name[1:])

    def stop_hexes(self) -> frozenset:
        """The hexes of the title's map that have a place to stop at (a city,
        town or off-board area printed on them); empty without a map."""
        if self._stop_hexes is None:
            hexes: dict = {}
            if self.title is not None and not self.title.uses_components:
                from .ruleset import load_ruleset
                try:
                    hexes = (load_ruleset(self.title.id).board or {}).get("hexes") or {}
                except InputError:
                    hexes = {}
            self._stop_hexes = frozenset(
                h for h, spec in hexes.items() if isinstance(spec, dict)
                and any(spec.get(k) for k in ("cities", "towns", "offboard", "offboards",
                                              "halts")))
        return self._stop_hexes

    def stops_from_hexes(self, hexes: list[str]) -> list[str]:
        """The stops of a run that an export of 2020 gives only by ``hexes``
        (no ``connections``, no ``nodes``): the site then wrote the hexes of
        each stretch between two stops one after the other, a stretch from
        either end, and the hexes with a place to stop are the run's stops
        (a run may skip none).  Read so: the hexes of the map with a place to
        stop, in the order written; where one repeats, they are pairs (the
        stretches' ends) chained into one walk.  Empty when the map is not
        known (the hexes are then taken as the stops)."""
        stops = self.stop_hexes()
        if not stops:
            return []
        seq = [h for h in hexes if h in stops]
        if len(set(seq)) == len(seq) or len(seq) % 2:
            return seq
        walk = _chain([seq[i:i + 2] for i in range(0, len(seq), 2)])
        return [walk[0][0]] + [pair[-1] for pair in walk]

    def route(self, r: dict) -> A.Route:
        tid = str(r.get("train", "?"))
        # an empty segment joins nothing (a damaged export): left out, and the
        # board's check of the run says what is missing
        conns = [list(map(str, seg)) for seg in r.get("connections") or [] if seg]
        legacy = self.legacy_runs and not conns and r.get("hexes") and not r.get("nodes")
        # a one-element segment "F2 0.1" joins two places of one hex (1860's
        # halts and towns beside a city): the hex, and which places it joins
        inner = [_inner_link(seg) if len(seg) == 1 else None for seg in conns]
        has_inner = any(inner)
        path = _chain([[link[0]] if link else seg for seg, link in zip(conns, inner)]
                      if has_inner else conns)
        hexes = list(map(str, r.get("hexes") or []))
        if path:
            stop_hexes = [path[0][0]] + [seg[-1] for seg in path]
        else:
            stop_hexes = (self.stops_from_hexes(hexes) if legacy else []) or hexes
        nodes = list(map(str, r.get("nodes") or []))
        by_hex: dict[str, list[int]] = {}
        for n in nodes:
            h, _, i = n.rpartition("-")
            if i.isdigit():
                by_hex.setdefault(h, []).append(int(i))
        if not self.place_numbers:
            # the site numbers a hex's places its own way (1860: cities, towns
            # and halts together, tile by tile): the stops go without the
            # number, and the track decides (the places are still read above:
            # a malformed one is reported the same way)
            stops = [A.Stop(hex=h, city=None) for h in stop_hexes]
            known = None
        else:
            known = _inner_cities(stop_hexes, inner, nodes) if has_inner and path else {}
            if path and len(path) == len(conns):
                for i, seg in enumerate(conns):
                    if len(seg) == 1 and i + 1 < len(stop_hexes):
                        # two places of one hex ("H4", "F2 0.1"): see below
                        known.setdefault(i, (stop_hexes[i], None))
                        known.setdefault(i + 1, (stop_hexes[i + 1], None))
            for h, i in known.values():
                if i in by_hex.get(h, []):
                    by_hex[h].remove(i)
            stops = []
        for k, h in enumerate(stop_hexes) if known is not None else ():
            if k in known:
                # the site numbers a hex's places its own way (cities, towns and
                # halts together): written without the number, the track decides
                stops.append(A.Stop(hex=h, city=None))
                continue
            cands = by_hex.get(h)
            city = cands.pop(0) if cands else None
            stops.append(A.Stop(hex=h, city=city))
        rev = r.get("revenue")
        return A.Route(train=tid.rsplit("-", 1)[0], train_id=tid, stops=stops,
                       path=path or None, revenue=_opt_int(rev),
                       halts=_opt_int(r.get("halts")), subsidy=_opt_int(r.get("subsidy")),
                       connections=conns or None)


# --- one maker per export action type: (converter, item, actor, id) -> an
# action, or None when the type's variant is not supported ------------------

def _pass(conv, item, actor, aid):
    return A.Pass(actor=actor, action_id=aid)


def _bid(conv, item, actor, aid):
    if item.get("company") is None:
        if item.get("corporation") is not None:
            # a bid on a company's auction in a stock round (18Ireland's minors)
            return A.Bid(company=str(item["corporation"]), price=int(item["price"]),
                         actor=actor, action_id=aid)
        return A.BidForTurn(price=int(item["price"]), actor=actor, action_id=aid)
    return A.Bid(company=str(item["company"]), price=int(item["price"]), actor=actor,
                 action_id=aid)


def _par(conv, item, actor, aid):
    price = int(str(item["share_price"]).split(",")[0])
    return A.Par(corporation=str(item["corporation"]), price=price, actor=actor, action_id=aid)


def _buy_shares(conv, item, actor, aid):
    corp, certs = _certs(item["shares"])
    if item.get("entity_type") == "company":
        return A.Exchange(corporation=corp, certs=certs, actor=actor, action_id=aid)
    return A.BuyShares(corporation=corp, percent=_opt_int(item.get("percent")), certs=certs,
                       count=len(certs) or 1, actor=actor, action_id=aid)


def _sell_shares(conv, item, actor, aid):
    corp, certs = _certs(item["shares"])
    return A.SellShares(sales=[A.Sale(corporation=corp, percent=_opt_int(item.get("percent")),
                                      certs=certs, count=len(certs))], actor=actor, action_id=aid)


def _lay_tile(conv, item, actor, aid):
    tile_id = str(item["tile"])
    hex_ = str(item["hex"])
    conv.tile_hex[tile_id] = hex_
    return A.LayTile(tile=tile_id.rsplit("-", 1)[0], hex=hex_, rotation=int(item["rotation"]),
                     tile_copy=tile_id, actor=actor, action_id=aid)


#: the kinds of place in a board's ``node_order`` (``c0``, ``t0``, ...)
_PLACE_KINDS = {"c": "city", "t": "town", "o": "off-board area", "h": "halt"}


def _place_token(conv, item, actor, aid):
    city_id = str(item["city"])
    try:
        hex_, city = conv.city(city_id)
    except ValueError as exc:
        if "not a city" not in str(exc):
            raise
        # the site's place of that number on the tile is no city (a town):
        # a station written on the tile's hex, at no city — the round
        # refuses it there (token.city), and the record-following layer
        # reads it as the record's next lines go on (another city)
        hex_, _ = conv.city("-".join(city_id.split("-")[:-1]) + "-x")
        city = str(exc)
    corp = item.get("tokener") if item.get("entity_type") == "company" else None
    copy = "-".join(city_id.split("-")[:-1])
    named = copy in conv.tile_hex
    if not named and copy.count("-") == 1 and conv.stop_hexes() \
            and hex_ not in conv.stop_hexes():
        # a copy no lay of the export names ("IR1-1" of "IR1-1-0", whose
        # tile's name looks like a hex): kept, for the copy a lay read as
        # another tile got (following/record.py, ``as_laid``)
        named = True
    return A.PlaceToken(hex=hex_, city=city, corporation=corp,
                        tile_copy=copy if named else None, actor=actor,
                        action_id=aid)


def _run_routes(conv, item, actor, aid):
    routes = [conv.route(r) for r in item.get("routes") or []]
    total = None
    if routes and all(r.revenue is not None for r in routes):
        total = sum(r.revenue for r in routes) + int(item.get("extra_revenue") or 0)
    elif not routes:
        total = 0
    return A.RunRoutes(routes=routes, revenue=total, actor=actor, action_id=aid)


def _dividend(conv, item, actor, aid):
    return A.Dividend(kind=str(item["kind"]), actor=actor, action_id=aid)


def _buy_train(conv, item, actor, aid):
    tid = str(item["train"])
    ex = item.get("exchange")
    return A.BuyTrain(train=tid.rsplit("-", 1)[0], train_id=tid,
                      price=int(item["price"]) if item.get("price") is not None else None,
                      exchange=str(ex).rsplit("-", 1)[0] if ex else None,
                      exchange_id=str(ex) if ex else None, actor=actor, action_id=aid)


def _discard_train(conv, item, actor, aid):
    tid = str(item["train"])
    return A.DiscardTrain(train=tid.rsplit("-", 1)[0], train_id=tid, actor=actor, action_id=aid)


def _buy_company(conv, item, actor, aid):
    return A.BuyCompany(company=str(item["company"]), price=int(item["price"]), actor=actor,
                        action_id=aid)


def _sell_company(conv, item, actor, aid):
    return A.SellCompany(company=str(item["company"]), price=int(item["price"]), actor=actor,
                         action_id=aid)


def _bankrupt(conv, item, actor, aid):
    return A.Bankrupt(actor=actor, action_id=aid)


def _assign(conv, item, actor, aid):
    return A.Assign(target=str(item["target"]), actor=actor, action_id=aid)


def _merge(conv, item, actor, aid):
    return A.Propose(corporation=str(item["corporation"]), actor=actor, action_id=aid)


def _choose(conv, item, actor, aid):
    if str(item.get("choice")) in ("for", "against"):
        return A.Vote(choice=str(item["choice"]), actor=actor, action_id=aid)
    return None


_MAKERS = {"pass": _pass, "bid": _bid, "par": _par, "buy_shares": _buy_shares,
           "sell_shares": _sell_shares, "lay_tile": _lay_tile, "place_token": _place_token,
           "run_routes": _run_routes, "dividend": _dividend, "buy_train": _buy_train,
           "discard_train": _discard_train, "buy_company": _buy_company,
           "sell_company": _sell_company, "bankrupt": _bankrupt, "assign": _assign,
           "merge": _merge, "choose": _choose}


_INNER_RE = re.compile(r"^([A-Za-z]+-?\d+) (\d+)\.(\d+)$")


def _inner_link(seg: list) -> Optional[tuple[str, int, int]]:
    """("F2", 0, 1) for the segment ["F2 0.1"] (a link inside hex F2 from
    its place 0 to its place 1), else None."""
    if len(seg) != 1:
        return None
    m = _INNER_RE.match(seg[0])
    return (m.group(1), int(m.group(2)), int(m.group(3))) if m else None


def _inner_cities(stop_hexes: list, inner: list, nodes: list) -> dict:
    """Stop index -> (hex, place) for the stops the in-hex links fix: the
    i-th segment joins stop i and stop i + 1; a link is read in the direction
    that meets the place the link before it ended on, else in the order the
    export lists the hex's places among the run's nodes (the order they were
    visited: 1860 "F2 1.2" after arriving on F2's place 2 is read 2 to 1)."""
    order: dict = {}
    for n in nodes:
        h, _, i = n.rpartition("-")
        if i.isdigit():
            order.setdefault(h, []).append(int(i))
    known: dict = {}
    for i, link in enumerate(inner):
        if link is None or i + 1 >= len(stop_hexes):
            continue
        h, a, b = link
        before = known.get(i)
        seen = order.get(h, [])
        if before is not None:
            if before[1] == b:
                a, b = b, a
        elif a in seen and b in seen and seen.index(b) < seen.index(a):
            a, b = b, a
        known[i] = (h, a)
        known[i + 1] = (h, b)
    return known


def _chain(segments: list[list[str]]) -> list[list[str]]:
    """Orient track segments into one walk (an export lists each segment
    between two stops, not always in the direction of travel)."""
    if not segments:
        return []
    if len(segments) == 1:
        return [list(segments[0])]
    segs = [list(s) for s in segments]
    first, second = segs[0], segs[1]
    if first[0] in (second[0], second[-1]) and first[-1] not in (second[0], second[-1]):
        first = first[::-1]
    out = [first]
    for seg in segs[1:]:
        end = out[-1][-1]
        if seg[0] == end:
            out.append(seg)
        elif seg[-1] == end:
            out.append(seg[::-1])
        else:
            out.append(seg)   # not a walk; the board check will say so
    return out


def _opt_int(value) -> Optional[int]:
    """None, or a whole number (a malformed value raises TypeError/ValueError)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise TypeError(f"expected a number, got {value!r}")
    if isinstance(value, float) and value != value or value in (float("inf"), float("-inf")):
        raise ValueError(f"expected a number, got {value!r}")   # int() would overflow
    return int(value)


def _well_formed(raw: list, findings: list) -> list:
    """The entries of 'actions' that filter_actions can handle; each other
    one is an error finding (its position in the list, or its id, says which)."""
    out = []
    for n, item in enumerate(raw):
        # the common case at once: an object with a numbered id, a type and
        # no action_id or auto_actions of another kind
        if type(item) is dict and type(item.get("id")) is int \
                and type(item.get("type")) is str and item.get("action_id") is None \
                and not item.get("auto_actions"):
            out.append(item)
            continue
        problem = None
        if not isinstance(item, dict):
            problem = f"is {type(item).__name__} {item!r:.40}, not an object"
        elif item.get("id") is None:
            problem = "has no 'id' (every action of an export is numbered)"
        elif not isinstance(item.get("id"), (int, str)) or isinstance(item.get("id"), bool):
            problem = f"has an 'id' that is not a number: {item.get('id')!r:.40}"
        elif not isinstance(item.get("action_id"), (int, str, type(None))):
            problem = f"has an 'action_id' that is not a number: {item.get('action_id')!r:.40}"
        elif not isinstance(item.get("auto_actions") or [], list):
            problem = "has 'auto_actions' that are not a list"
        elif not isinstance(item.get("type"), str):
            problem = ("has no 'type'" if item.get("type") is None
                       else f"has a 'type' that is not text: {item.get('type')!r:.40}")
        if problem is None:
            out.append(item)
            continue
        aid = item.get("id") if isinstance(item, dict) else None
        findings.append(Finding(
            severity="error", rule="import.malformed",
            message=f"entry {n + 1} of the export's actions {problem}; skipped",
            action_id=aid if isinstance(aid, int) and not isinstance(aid, bool) else None))
    return out


def _certs(shares) -> tuple[str, tuple[int, ...]]:
    corp = None
    idx = []
    for s in shares or []:
        c, _, i = str(s).rpartition("_")
        corp = corp or c
        if i.isdigit():
            idx.append(int(i))
    return corp or "?", tuple(idx)


def _legacy_runs(actions) -> bool:
    """Runs written as 18xx.games wrote them in 2020: some run gives
    ``hexes`` and none gives ``connections``."""
    hexes = False
    for item in actions if isinstance(actions, list) else ():
        if not isinstance(item, dict) or item.get("type") != "run_routes":
            continue
        for r in item.get("routes") or ():
            if not isinstance(r, dict):
                continue
            if r.get("connections"):
                return False
            hexes = hexes or bool(r.get("hexes"))
    return hexes


def import_export(text: str, path: str) -> tuple[A.GameRecord, list[Finding]]:
    data = load_export_text(text, path)
    conv = _Converter(data, path)
    settings = data.get("settings") or {}
    if not isinstance(settings, dict) or not isinstance(settings.get("optional_rules") or [], list):
        raise InputError("an 18xx.games export's 'settings' must be an object whose "
                         "'optional_rules' is a list", path=path, line=1, column=1)
    options = [str(o) for o in (settings.get("optional_rules") or [])]
    record = A.GameRecord(path=path, title=str(data["title"]),
                          players=[str(p["name"]) for p in data["players"]],
                          options=options, from_export=True)
    record.tags["title"] = record.title
    if settings.get("seed") not in (None, ""):
        record.tags["seed"] = str(settings.get("seed"))
    if data.get("id") is not None:
        record.tags["site"] = f"18xx.games #{data.get('id')}"
    raw = data["actions"]
    from .findings import MAX_ACTIONS
    if len(raw) > MAX_ACTIONS:
        # as for a notation file: the first entries are read, the rest counted
        more = len(raw) - MAX_ACTIONS
        aid = raw[MAX_ACTIONS].get("id") if isinstance(raw[MAX_ACTIONS], dict) else None
        list.append(conv.findings, Finding(
            severity="error", rule="record.too_long",
            action_id=aid if isinstance(aid, int) and not isinstance(aid, bool) else None,
            message=f"the export goes on for {more:,} more entr{'ies' if more != 1 else 'y'} "
                    f"of its actions; railcheck reads at most the first {MAX_ACTIONS:,} of a "
                    f"file (a game of 18xx has a few thousand): these were counted, not "
                    f"checked"))
        raw = raw[:MAX_ACTIONS]
    for item in filter_actions(_well_formed(raw, conv.findings)):
        try:
            act = conv.convert(item)
            if act is not None:
                # described when a finding reads it; a 'shares' that cannot be
                # described is malformed at once, as when described here
                if item.get("shares") and item.get("type") not in _SHARE_TYPES:
                    _describe(item, act.actor)
                act.text = (_describe, item, act.actor)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            conv.findings.append(Finding(
                severity="error", rule="import.malformed",
                message=f"malformed '{item.get('type')}' action: {exc!r}",
                action_id=item.get("id")))
            continue
        if act is None:
            continue
        record.actions.append(act)
    result = data.get("result")
    if isinstance(result, dict) and result:
        record.expected_result = {}
        for pid, worth in result.items():
            name = conv.players.get(pid, conv.players.get(str(pid)))
            if name is not None and isinstance(worth, (int, float)):
                record.expected_result[name] = int(worth)
    record.expected_end_reason = data.get("game_end_reason")
    status = data.get("status")
    record.in_progress = isinstance(status, str) and status != "finished"
    return record, conv.findings


_SHARE_TYPES = ("buy_shares", "sell_shares")
_DESCRIBED = ("company", "corporation", "share_price", "price", "hex", "tile", "rotation",
              "city", "train", "exchange", "kind")


def _describe(item: dict, who: str) -> str:
    """A short, readable form of an export action for reports (``who``: its
    actor, as the converter named it)."""
    t = item.get("type")
    bits = [f"#{item.get('id')}", who, t]
    get = item.get
    for key in _DESCRIBED:
        value = get(key)
        if value is not None and value != "":
            bits.append(f"{key}={value}")
    if item.get("shares"):
        bits.append("shares=" + ",".join(map(str, item["shares"])))
    if t == "run_routes":
        try:
            bits.append("revenue=" + str(sum(int(r.get("revenue") or 0)
                                             for r in item.get("routes") or [])))
        except (TypeError, ValueError, OverflowError, AttributeError):
            bits.append("revenue=?")
    return " ".join(bits)
