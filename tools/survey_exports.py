#!/usr/bin/env python3
"""Survey the 18xx.games exports of one title: which action types occur, with
which fields, in which rounds, how often, with a real example of each; and how
often the corpus shows the title's rarer events (read from the exports and
their per-action traces).  Written for 1860 (docs/research/1860-exports.md);
18Ireland's own events (mergers, votes, share issues, private powers) are
counted by :func:`ireland_events` (docs/research/18Ireland-exports.md).

    python tools/survey_exports.py 1860 [--shared ../shared] [--json out.json]
    python tools/survey_exports.py 18Ireland

Only actions that count are surveyed: an action whose id has no state in the
trace was undone (or is chat) and is counted apart as "not in trace".  The
round of an action is the round of the trace state just before it.
"""

from __future__ import annotations

import argparse
import bisect
import collections
import gzip
import json
import re
from pathlib import Path


def load_json(path: Path):
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as fh:
        return json.load(fh)


def games(shared: Path, title: str):
    """(kind, name, export, trace) for every game of the title."""
    for kind, folder, traces in (("real", shared / "corpus" / "18xx.games" / title,
                                  lambda n: shared / "corpus" / "traces" / f"{title}_{n}.trace.json"),
                                 ("random", shared / "corpus" / "random" / title,
                                  lambda n: shared / "corpus" / "random" / "traces" / f"{n}.trace.json.gz")):
        for path in sorted(folder.glob("*.json")):
            name = path.stem
            yield kind, name, load_json(path), load_json(traces(name))


def survey(shared: Path, title: str) -> dict:
    types: dict = {}
    events = collections.defaultdict(lambda: {"count": 0, "games": set(), "example": None})
    per_game = []

    def event(name, game, where, n=1):
        e = events[name]
        e["count"] += n
        e["games"].add(game)
        if e["example"] is None:
            e["example"] = f"{game} #{where}"

    for kind, name, export, trace in games(shared, title):
        states = trace["states"]
        ids = [s["id"] for s in states]
        by_id = {s["id"]: s for s in states}

        def before(aid):
            i = bisect.bisect_left(ids, aid)
            return states[i - 1] if i > 0 else None

        train_owner: dict = {}
        floated_once: set = set()
        bankrupt: set = set()
        last_sr = None
        max_or = 0
        seen_receivership: set = set()
        ireland = IrelandState()
        for action in export["actions"]:
            aid = action.get("id")
            counted = aid in by_id
            prev = before(aid) if counted else None
            rnd = (prev["round"] if prev else "Auction 1.1") if counted else "not in trace"
            rkind = rnd.split(" ")[0]
            for a, nested in [(action, False)] + [(x, True) for x in action.get("auto_actions") or []]:
                t = a["type"]
                info = types.setdefault(t, {"real": 0, "random": 0, "not_in_trace": 0,
                                            "fields": collections.Counter(),
                                            "entity_types": collections.Counter(),
                                            "rounds": collections.Counter(), "example": None,
                                            "nested": 0})
                if not counted:
                    info["not_in_trace"] += 1
                    continue
                info[kind] += 1
                info["nested"] += nested
                info["fields"].update(k for k in a if k not in ("created_at", "user"))
                info["entity_types"][a.get("entity_type")] += 1
                info["rounds"][rkind] += 1
                if info["example"] is None or (kind == "real" and info["example"][0] != "real"):
                    ex = {k: v for k, v in a.items() if k not in ("created_at", "user", "auto_actions")}
                    info["example"] = (kind, name, aid, ex)
            if not counted:
                continue
            after = by_id[aid]
            t = action["type"]
            corp = action.get("entity")
            if title == "18Ireland":
                ireland_events(ireland, action, rkind, prev, after, lambda n, k=1: event(n, name, aid, k))
            # --- events -------------------------------------------------
            if rkind == "Stock":
                last_sr = rnd
            m = re.match(r"Operating \d+\.(\d+)", rnd)
            if m:
                max_or = max(max_or, int(m.group(1)))
            if t == "buy_train":
                tid = action["train"]
                tname = tid.rsplit("-", 1)[0]
                # the seller: another corporation that owned such a train before and not after
                sellers = [c for c, v in (prev or {}).get("corporations", {}).items()
                           if c != corp and v.get("trains", []).count(tname)
                           > after["corporations"].get(c, {}).get("trains", []).count(tname)]
                if sellers:
                    event("train bought from another corporation", name, aid)
                    pc = prev["corporations"]
                    if pc[sellers[0]].get("president") != pc.get(corp, {}).get("president"):
                        event("train bought from a corporation of another president", name, aid)
                elif tid in train_owner:
                    event("train bought back from the bank pool", name, aid)
                if title == "1860" and tname == "9+5" and not any(k.startswith("9+5") for k in train_owner):
                    event("first 9+5 bought (Southern Railway forms)", name, aid)
                train_owner[tid] = corp
            if t == "discard_train":
                event("train discarded (over the limit)", name, aid)
            if t == "buy_shares" and action.get("entity_type") == "company":
                event(f"private exchanged for a share ({action['entity']})", name, aid)
            if t == "sell_company":
                event(f"private sold to the bank ({action['company']})", name, aid)
            if t == "buy_company":
                where = "from the bank" if title == "1860" else "by a corporation"
                event(f"private bought {where} ({action['company']})", name, aid)
            if t == "lay_tile" and rkind == "Stock":
                event("home track laid in a stock round (on floating)", name, aid)
            if t == "run_routes" and title != "1860":
                if not (action.get("routes") or []):
                    event("empty run_routes (no route)", name, aid)
            if t == "run_routes" and title == "1860":
                routes = action.get("routes") or []
                if any(r.get("halts") for r in routes):
                    event("run counting halts", name, aid)
                if action.get("subsidy"):
                    event("run with a halt subsidy", name, aid)
                pc = (prev or {}).get("corporations", {}).get(corp, {})
                if routes and not pc.get("trains"):
                    event("run with a leased train (insolvent corporation)", name, aid)
                if not routes:
                    event("empty run_routes (no route)", name, aid)
                if pc.get("president") == "Market" and pc.get("floated"):
                    event("run by a corporation in receivership", name, aid)
            if title != "1860":
                continue
            if t == "par" and corp is not None:
                c = action["corporation"]
                if c in bankrupt:
                    event("bankrupt corporation started again (par)", name, aid)
                    bankrupt.discard(c)
            for c, v in after["corporations"].items():
                if v.get("floated"):
                    floated_once.add(c)
                    # the trace names the bank pool ("Market") as the president of a
                    # corporation in receivership
                    if v.get("president") == "Market" and (c not in seen_receivership):
                        seen_receivership.add(c)
                        event("corporation enters receivership (floated, no president)", name, aid)
                elif c in floated_once and c not in bankrupt:
                    bankrupt.add(c)
                    floated_once.discard(c)
                    event("corporation goes bankrupt (price 0, un-floated)", name, aid)
                if v.get("president") not in (None, "Market"):
                    seen_receivership.discard(c)
        ors_after_last_sr = 0
        if last_sr:
            last_ids = [s for s in states if s["round"].startswith("Operating")]
            sr_turn = int(re.match(r"Stock (\d+)", last_sr).group(1))
            ors_after_last_sr = len({s["round"] for s in last_ids
                                     if int(re.match(r"Operating (\d+)", s["round"]).group(1)) >= sr_turn})
        if title == "1860" and max_or > 3:
            event("nationalisation (British Rail): ORs beyond 3 in a set", name, "-")
        per_game.append({"kind": kind, "game": name, "players": len(export["players"]),
                         "end": export.get("game_end_reason"),
                         "optional_rules": export.get("settings", {}).get("optional_rules") or [],
                         "actions": len(export["actions"]), "counted": len(states),
                         "max_or_in_set": max_or, "ors_after_last_sr": ors_after_last_sr})
    for e in events.values():
        e["games"] = sorted(e["games"])
    return {"types": types, "events": dict(events), "games": per_game}


class IrelandState:
    """What :func:`ireland_events` remembers across one game's actions."""

    def __init__(self):
        self.proposal: list = []     # the minors of the merger being proposed
        self.proposer = None         # who proposed it
        self.votes: list = []        # the votes cast on it


def ireland_events(st: IrelandState, action: dict, rkind: str, prev, after, event) -> None:
    """18Ireland's events: minors auctioned, majors parred, mergers proposed,
    voted and carried out, share issues and redemptions, emergency sales,
    train trade-ins, bankruptcies and the privates' powers."""
    t = action["type"]
    corps = (prev or {}).get("corporations", {})
    if t == "bid" and action.get("corporation"):
        event("bid for a minor (stock round auction)")
    if t == "par":
        event(f"major parred ({action['corporation']})")
    if t == "merge":
        target = action["corporation"]
        if target in MAJORS:
            event("merger carried out (minors become a major)")
            event(f"merger carried out with {len(st.proposal)} minors")
            st.proposal, st.votes = [], []
        else:
            # a proposal grows only by its proposer's picks before any vote
            if st.proposal and (st.votes or action["entity"] != st.proposer):
                event("merger proposal not carried out (voted down)")
                st.proposal, st.votes = [], []
            if not st.proposal:
                event("merger proposed")
                st.proposer = action["entity"]
            st.proposal.append(target)
    if t == "choose" and rkind == "Merger":
        event(f"merger vote cast ({action.get('choice')})")
        st.votes.append(action.get("choice"))
    if rkind != "Merger" and st.proposal:
        event("merger proposal not carried out (voted down)")
        st.proposal, st.votes = [], []
    if t == "sell_shares" and action.get("entity_type") == "player" and rkind == "Operating":
        event("emergency sale by a president (operating round)")
    if t == "sell_shares" and action.get("entity_type") == "corporation":
        event("corporation issues a share")
    if t == "buy_shares" and action.get("entity_type") == "corporation":
        event("corporation redeems a share")
    if t == "buy_train":
        if action.get("exchange"):
            event(f"train traded in ({action['exchange'].rsplit('-', 1)[0]} for "
                  f"{action['train'].rsplit('-', 1)[0]})")
        if "'" in action["train"]:
            event("primed train bought from the bank pool (1H', 2H', 3H')")
    if t == "bankrupt":
        event("bankruptcy (president cannot pay for a train)")
    if t in ("lay_tile", "assign") and action.get("entity_type") == "company":
        event(f"private power used: {t} ({action['entity']})")
    if t == "discard_train" and rkind == "Merger":
        event("train discarded after a merger (over the limit)")
    gone = [c for c in corps if c not in after.get("corporations", {})]
    for c in gone:
        event(f"corporation leaves the game ({'major' if c in MAJORS else 'minor'})")


#: 18Ireland's 10-share corporations (the targets of mergers)
MAJORS = ("GSWR", "GNRI", "DSER", "MGWR", "MRNCC", "WLWR", "CBSCR")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("title")
    ap.add_argument("--shared", default=str(Path(__file__).resolve().parents[1].parent / "shared"))
    ap.add_argument("--json", help="also write the survey as JSON here")
    args = ap.parse_args(argv)
    result = survey(Path(args.shared), args.title)
    for g in result["games"]:
        print(f"{g['kind']:6} {g['game']:32} {g['players']}p end={g['end']:16} actions={g['actions']:5} "
              f"counted={g['counted']:5} max_or={g['max_or_in_set']} ors_after_last_sr={g['ors_after_last_sr']} "
              f"{','.join(g['optional_rules'])}")
    print()
    for t, info in sorted(result["types"].items(), key=lambda kv: -(kv[1]["real"] + kv[1]["random"])):
        print(f"{t}: real={info['real']} random={info['random']} undone/chat={info['not_in_trace']} "
              f"nested={info['nested']} rounds={dict(info['rounds'])} entity_types={dict(info['entity_types'])}")
        print(f"   fields={dict(info['fields'])}")
        if info["example"]:
            kind, game, aid, ex = info["example"]
            print(f"   example ({kind} {game} #{aid}): {json.dumps(ex)[:400]}")
    print()
    for name, e in sorted(result["events"].items()):
        print(f"{name}: {e['count']} in {len(e['games'])} games; e.g. {e['example']}")
    if args.json:
        def plain(o):
            if isinstance(o, (set, collections.Counter)):
                return dict(o) if isinstance(o, collections.Counter) else sorted(o)
            raise TypeError(type(o))
        Path(args.json).write_text(json.dumps(result, default=plain, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
