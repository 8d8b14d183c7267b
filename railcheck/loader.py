"""Find game files and read them into GameRecords (notation or 18xx.games JSON)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterable, Optional

from .actions import GameRecord
from .findings import Finding, InputError

GAME_SUFFIXES = (".18xx", ".json")
#: a game file may be gzip-compressed (``game.json.gz``: the site's and the
#: corpus' exports are often kept so); it is read as the text it holds
GZIP_SUFFIX = ".gz"


def is_game_file_name(name: str) -> bool:
    """Whether a file found in a folder is a game log (``*.18xx``, ``*.json``,
    or either compressed: ``*.json.gz``)."""
    low = name.lower()
    if low.endswith(GZIP_SUFFIX):
        low = low[: -len(GZIP_SUFFIX)]
    return low.endswith(GAME_SUFFIXES)

#: the path that stands for standard input on the command line
STDIN = "-"
#: how a game read from standard input is named in reports
STDIN_NAME = "<stdin>"


class UnsupportedTitle(InputError):
    """An 18xx.games export of a title railcheck has no ruleset for: not a
    broken file, a game railcheck cannot judge (reported apart, see
    ``validate --skip-unsupported``)."""


def read_text(path: str) -> str:
    if path in (STDIN, STDIN_NAME):
        import sys
        data = sys.stdin.buffer.read() if hasattr(sys.stdin, "buffer") else \
            sys.stdin.read().encode("utf-8", "surrogateescape")
        return _decode(data, STDIN_NAME)
    p = Path(path)
    if p.is_dir():
        raise InputError("is a folder, not a game file", path=path)
    try:
        data = p.read_bytes()
    except FileNotFoundError:
        raise InputError("no such file", path=path) from None
    except PermissionError:
        raise InputError("permission denied", path=path) from None
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", path=path) from None
    return _decode(data, path)


def _decode(data: bytes, path: str) -> str:
    if data.startswith(b"\x1f\x8b"):      # gzip's magic number
        import gzip
        import zlib
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError, zlib.error) as exc:
            raise InputError(f"a gzip file that cannot be read ({exc})", path=path) from None
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        col = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise InputError(f"not UTF-8 text (byte 0x{data[exc.start]:02x})", path=path,
                         line=line, column=col) from None


def is_export(path: str, text: str) -> bool:
    if path.lower().endswith((".json", ".json.gz")) and path not in (STDIN, STDIN_NAME):
        return True
    return text.lstrip().startswith("{")


def load_game(path: str, text: Optional[str] = None,
              ruleset: Optional[str] = None) -> tuple[GameRecord, list[Finding]]:
    """Read a game; returns the record and findings made while reading
    (unknown names, unsupported export actions).  ``ruleset``: a user's
    ruleset file to play it with (else the header's ``ruleset:``, read next
    to the game file, or the title's own).  Raises InputError when the file
    cannot be read at all."""
    if text is None:
        text = read_text(path)
    if path == STDIN:
        path = STDIN_NAME
    if is_export(path, text):
        from .importer import import_export
        record, findings = import_export(text, path)
        _check_title(record, path)
        if ruleset is not None:
            _check_ruleset(ruleset, record.title, record.options, path, {}, "title")
            record.ruleset = ruleset
        return record, findings
    from .notation import Names, parse_game, parse_header
    tags, where = parse_header(text, path)
    title = tags.get("title")
    names = None
    if ruleset is None and tags.get("ruleset"):
        ruleset = str(Path(path).parent / tags["ruleset"])
        if not Path(ruleset).is_file():
            line, col = where["ruleset"]
            raise InputError(f"ruleset file '{tags['ruleset']}' not found (looked for "
                             f"{ruleset})", path=path, line=line, column=col)
    components = None
    if tags.get("components"):
        components = str(Path(path).parent / tags["components"])
        if not Path(components).is_file():
            # a components file the title ships (1890's scenarios: `components: hanshin`)
            from .titles import title_class
            cls = title_class(tags.get("title") or "")
            shipped = cls.shipped_components(tags["components"]) if cls is not None else None
            components = str(shipped) if shipped is not None else components
        if not Path(components).is_file():
            line, col = where["components"]
            raise InputError(f"components file '{tags['components']}' not found (looked for "
                             f"{components})", path=path, line=line, column=col)
    if title is not None:
        from .ruleset import load_ruleset
        line, col = where.get("title", (None, None))
        options = [o.strip() for o in tags.get("options", "").split(",") if o.strip()]
        try:
            _check_components(title, components, path, where)
            rules = (load_ruleset(title, options, components) if ruleset is None else
                     _check_ruleset(ruleset, title, options, path, where, "ruleset"))
        except InputError as exc:
            if exc.path is None:   # unknown title or option: locate it in the file
                key = "title" if "title" in exc.bare else "options"
                line, col = where.get(key, (line, col))
                raise InputError(exc.bare, path=path, line=line, column=col) from None
            raise
        players = [p.strip() for p in _split_players(tags.get("players", ""))]
        names = Names(players=players,
                      corporations=[c.sym for c in rules.corporations],
                      companies=[c.sym for c in rules.companies],
                      trains=[t.name for t in rules.trains],
                      tiles=list((rules.board or {}).get("tiles", {}).keys()) or None)
    record, findings = parse_game(text, path, names)
    record.ruleset = ruleset
    record.components = components
    return record, findings


def _check_components(title: str, components, path: str, where: dict) -> None:
    """A ``components:`` header is only for a title whose numbers come from
    a components file."""
    from .titles import title_class
    cls = title_class(title)
    if components is not None and cls is not None and not cls.uses_components:
        line, col = where["components"]
        raise InputError(f"{cls.id} takes no components file (its numbers are in its ruleset)",
                         path=path, line=line, column=col)


def _check_ruleset(ruleset: str, title: str, options, path: str, where: dict, tag: str):
    """A user's ruleset file, loaded, that fits the game's title: the title
    is the ruleset's own or the built-in title whose rounds play it."""
    from .ruleset import load_ruleset
    from .titles import title_class
    rules = load_ruleset(ruleset, options)
    cls = title_class(title)
    if title != rules.title and (cls is None or cls.id != rules.base_title):
        line, col = where.get(tag, (None, None))
        raise InputError(f"the ruleset {ruleset} is a variant of {rules.base_title}, but the "
                         f"game's title is {title}", path=path, line=line, column=col)
    return rules


def _split_players(value: str) -> list[str]:
    out, cur, quoted = [], "", False
    for ch in value:
        if ch == '"':
            quoted = not quoted
        elif ch == "," and not quoted:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur)
    return [x.strip() for x in out if x.strip()]


def _check_title(record: GameRecord, path: str):
    """An export names its title exactly as the site does: one railcheck does
    not know is unsupported, not a typo (no "did you mean")."""
    from .ruleset import known_titles
    titles = known_titles()
    if record.title not in titles:
        raise UnsupportedTitle(f"railcheck has no ruleset for '{record.title}' "
                               f"(known titles: {', '.join(titles)})", path=path)


def excluded(path: str, patterns) -> bool:
    """Whether ``path`` matches one of the ``--exclude`` glob patterns: the
    whole path, its name, or any of its folders' names (as ruff's and
    pytest's --exclude / --ignore-glob)."""
    from fnmatch import fnmatch
    if not patterns:
        return False
    norm = os.path.normpath(path)
    parts = Path(norm).parts
    for pat in patterns:
        pat = pat.rstrip("/") or pat
        if fnmatch(norm, pat) or fnmatch(path, pat) or any(fnmatch(p, pat) for p in parts):
            return True
    return False


def collect_paths(paths: Iterable[str], exclude=()) -> tuple[list[str], list[InputError]]:
    """Expand folders into the game files below them (sorted), leaving out
    what matches an ``exclude`` glob (:func:`excluded`); a folder without game
    files and a missing path are errors."""
    files: list[str] = []
    errors: list[InputError] = []
    for raw in paths:
        if raw == STDIN:
            files.append(raw)
            continue
        p = Path(raw)
        if p.is_dir():
            everything = sorted(str(f) for f in p.rglob("*")
                                if f.is_file() and is_game_file_name(f.name))
            found = [f for f in everything if not excluded(f, exclude)]
            if everything and not found:
                errors.append(InputError("every game log in this folder is excluded "
                                         "(--exclude)", path=raw))
                continue
            if not found:
                errors.append(InputError("folder holds no game logs (*.18xx, *.json or "
                                         "either .gz)",
                                         path=raw))
            files.extend(found)
        elif p.exists():
            files.append(raw)       # a file named on the command line is checked
        else:
            errors.append(InputError("no such file or folder", path=raw))
    seen = set()
    unique = []
    for f in files:
        key = os.path.normpath(f)
        if key not in seen:
            seen.add(key)
            unique.append(f)
    return unique, errors
