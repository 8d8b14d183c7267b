"""Human-readable description of a ruleset (``railcheck rules show``)."""

from __future__ import annotations

from pathlib import Path

from .ruleset import _resolve, load_ruleset


def _money(r, v):
    return f"{r.currency}{v}"


def describe_ruleset(title: str, options=(), components=None) -> str:
    from tabulate import tabulate

    r = load_ruleset(title, options, components)
    if hasattr(r, "describe_text"):     # a title whose numbers come from a components file
        return r.describe_text()
    name = str(r.full_name)
    out = [name if name.startswith(str(r.title)) else f"{r.title}: {name}"]
    if r.source:
        out.append(f"ruleset file {r.source}")
    if r.extends:
        out.append(f"extends {r.extends}")
    out.append(f"players {r.min_players}-{r.max_players}, bank {_money(r, r.bank)}")
    rows = [[n, _money(r, r.starting_cash[n]), r.cert_limit.get(n, "-")]
            for n in sorted(r.starting_cash)]
    out.append(tabulate(rows, headers=["players", "starting cash", "cert limit"]))
    out.append("")
    out.append("rounds: " + r.title_class.rounds_description)
    out.append("")
    out.append(tabulate([[c.sym, c.name, c.home or "-", " ".join(_money(r, t) for t in c.tokens),
                          "/".join(str(s) for s in c.shares)] for c in r.corporations],
                        headers=["corporation", "name", "home", "stations", "certificates %"]))
    out.append("")
    if r.companies:
        # a column for the players a private needs, only in a title where one needs more
        # than the game's least (1889's SIR and UTF)
        by_players = any(c.min_players for c in r.companies)
        out.append(tabulate([[c.sym, c.name, _money(r, c.value), _money(r, c.revenue),
                              " ".join(c.blocks) or "-", ", ".join(sorted(c.special)) or "-"]
                             + ([f"{c.min_players}+" if c.min_players else "all"]
                                if by_players else [])
                             for c in r.companies],
                            headers=["private", "name", "value", "revenue", "blocks", "powers"]
                            + (["players"] if by_players else [])))
        out.append("")
    out.append(tabulate([[t.name, t.reach.describe(),
                          _money(r, t.price), "unlimited" if t.count is None else t.count,
                          t.rusts_on or "-", t.available_on or "-"] for t in r.trains],
                        headers=["train", "distance", "price", "count", "rusts on",
                                 "available on"]))
    out.append("")
    out.append(tabulate([[p.name, p.on or "-", ", ".join(p.tiles), p.train_limit,
                          p.operating_rounds, "yes" if p.company_buy else "no",
                          "yes" if p.extra.get("private_trades") else "no"]
                         for p in r.phases],
                        headers=["phase", "starts with", "tiles", "train limit", "ORs",
                                 "companies buy privates", "players trade privates"]))
    out.append("")
    pars = sorted({c.price for row in r.market_rows for c in [None] if False} |
                  {int(x.rstrip("abcdefghijklmnopqrstuvwxyz")) for row in r.market_rows
                   for x in row if x and "p" in x})
    out.append("par values: " + ", ".join(_money(r, p) for p in pars))
    out.append("the game ends: " + describe_end_rules(r.end))
    if r.option_specs:
        out.append("options: " + "; ".join(
            f"{k}: {v['description']}" for k, v in r.option_specs.items()))
    if r.extends:
        out.append("")
        out.append(f"differences from {r.extends}:")
        out.extend(f"  - {line}" for line in differences(title))
    return "\n".join(out) + "\n"


#: when the game ends, after what ends it (the ruleset's ``end:`` values)
_END_WHEN = {"immediate": "at once", "full_or": "after the current set of ORs",
             "current_or": "after the current OR", "current_round": "after the current round"}


def describe_end_rules(end: dict) -> str:
    """The ruleset's ``end:`` in words, in the words of the reports
    (``report.END_REASONS``); a reason set to null (it does not end this
    game) is left out."""
    from .report import end_reason_text
    parts = [f"{end_reason_text(k)}: {_END_WHEN.get(v, v)}" for k, v in end.items()
             if v is not None]
    return "; ".join(parts) if parts else "when the record stops (no end condition)"


def differences(title: str) -> list[str]:
    """What a derived title changes, key by key, with its own notes when the
    YAML gives them under ``differences``."""
    child, _ = _resolve(title)
    parent_title = child.get("extends")
    parent, _ = _resolve(parent_title, base_dir=Path(title).parent)
    lines = []
    notes = child.get("differences") or {}
    # the notes a ruleset inherits describe its parent against the grandparent, not
    # this ruleset against its parent: only the notes it writes itself are its own
    inherited = parent.get("differences") or {}
    for key in sorted(set(child) | set(parent)):
        if key in ("extends", "title", "full_name", "differences", "base_title"):
            continue
        if child.get(key) != parent.get(key):
            note = notes.get(key) if notes.get(key) != inherited.get(key) else None
            changes = value_changes(key, parent.get(key), child.get(key))
            values = "; ".join(changes[:_MAX_CHANGES])
            if len(changes) > _MAX_CHANGES:
                values += f"; and {len(changes) - _MAX_CHANGES} more"
            lines.append(f"{key}: {note} ({values})" if note else f"{key}: {values}")
    return lines


#: value changes listed per top-level key of ``rules show``'s differences
_MAX_CHANGES = 6


def _short(value) -> str:
    from .schema import show
    text = "(not set)" if value is _MISSING else show(value)
    return text if len(text) <= 60 else text[:57] + "..."


_MISSING = object()


def _named(items) -> bool:
    return (isinstance(items, list) and items and all(isinstance(x, dict) for x in items)
            and all(("sym" in x or "name" in x) for x in items))


def value_changes(path: str, old, new) -> list[str]:
    """Each value a derived ruleset changes, as ``path: old -> new`` (mappings
    key by key, lists of named entries name by name)."""
    if old == new:
        return []
    if isinstance(old, dict) and isinstance(new, dict):
        out = []
        for k in list(old) + [k for k in new if k not in old]:
            out += value_changes(f"{path}.{k}", old.get(k, _MISSING), new.get(k, _MISSING))
        return out
    if _named(old) and _named(new):
        def key(x):
            return str(x.get("sym", x.get("name")))
        before = {key(x): x for x in old}
        after = {key(x): x for x in new}
        out = []
        for k in list(before) + [k for k in after if k not in before]:
            out += value_changes(f"{path}[{k}]", before.get(k, _MISSING),
                                 after.get(k, _MISSING))
        return out
    return [f"{path}: {_short(old)} -> {_short(new)}"]
