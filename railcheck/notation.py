"""The railcheck game notation (``*.18xx`` files): parser, binder and writer.

Parsing happens in two stages:

1. every line (comment cut off) is parsed with the Lark grammar
   ``railcheck/grammar/notation.lark`` plus the rules made from the verb table
   (:mod:`railcheck.verbs`; LALR, contextual lexer, an inline transformer
   that turns the parse into nested tuples whose leaves are the tokens,
   ``(text, column, type)``).  Lark is slow per token, so its parse of a
   line is reused for later lines of the same skeleton (see _Template) and
   the routes of ``run`` lines are read by regexes made of the grammar's
   terminals (see _parse_run); results are also cached by line text, since
   games repeat many lines (``Alice pass``, ``PRR payout``).
2. the binder turns those tuples into :mod:`railcheck.actions` values (each
   verb's ``bind`` of the table) and resolves names with :class:`Names`
   (what the title's ruleset knows).

A line that cannot be read is a ``notation.syntax`` finding, located, with
a suggestion where one is found (a misspelt keyword, a missing train type);
the line is skipped and the rest of the game read.  Unknown names are
``notation.unknown_name`` findings (the action dropped).  Only what leaves
the whole game unreadable (no title or players, a malformed header, not
text) raises :class:`~railcheck.findings.InputError`, with the line and a
caret.  The writer writes each action with its verb's ``write``.

The notation itself is described in ``docs/notation.md``.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from itertools import accumulate
from pathlib import Path
from typing import Iterable, Optional

from .actions import Action, Checkpoint, GameRecord, RoundMarker, Route, Stop
from .findings import ERROR, Finding, FindingList, InputError, did_you_mean
from .findings import MAX_ACTIONS as _MAX_ACTIONS
from . import verbs as _verbs
from .verbs import PLAYER as _PLAYER, SUBJECT as _SUBJECT, TRAIN as _TRAIN

__all__ = ["Names", "parse_header", "parse_game", "write_game", "MAX_LINE_LENGTH"]

#: longer lines are refused (an InputError), whatever they contain
MAX_LINE_LENGTH = 10_000
#: the lines of one file that are read and checked (header, markers and
#: actions; blank lines and comments aside): a game of 18xx has a few
#: thousand; past this many the lines are counted (one finding,
#: ``record.too_long``), so that memory and time stay bounded whatever the input
MAX_ACTIONS = _MAX_ACTIONS

_GRAMMAR_PACKAGE = "railcheck.grammar"
_GRAMMAR_FILE = "notation.lark"

MONEY_FIELDS = ("cash", "treasury", "price", "worth")
CHECK_FIELDS = MONEY_FIELDS + ("trains", "president")

#: the rule id of a line that cannot be read (a syntax error, a value out of
#: range, a header line among the actions): the line is skipped
SYNTAX_RULE = "notation.syntax"

_NAME_RE = re.compile(r"[\w.'&\-]+")
#: a quoted name; a `"` inside is written twice
_QUOTED_RE = '"(?:[^"\n]|"")*"'

_HEADER_KEY_RE = re.compile(r"[a-z][a-z0-9_\-]*")


# --------------------------------------------------------------------------
# names known to the binder

class Names:
    """What the binder needs from a ruleset: the names of the title's
    players (usually empty: the header lists them), corporations, privates
    (``companies``), train types and, optionally, tiles (None: any tile)."""

    def __init__(self, players: list[str], corporations: list[str],
                 companies: list[str], trains: list[str],
                 tiles: Optional[list[str]] = None):
        self.players = list(players)
        self.corporations = list(corporations)
        self.companies = list(companies)
        self.trains = list(trains)
        self.tiles = None if tiles is None else list(tiles)

    def __repr__(self) -> str:
        return (f"Names(players={self.players!r}, corporations={self.corporations!r}, "
                f"companies={self.companies!r}, trains={self.trains!r}, tiles={self.tiles!r})")


_KIND_WORDS = {
    "player": "player", "corporation": "corporation", "company": "private",
    "train": "train type", "tile": "tile",
}


def _kinds_phrase(kinds: tuple[str, ...]) -> str:
    words = [_KIND_WORDS[k] for k in kinds]
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + " or " + words[-1]


class _Resolver:
    """Looks names up: exact first, then a unique case-insensitive match
    (which gives the canonical spelling).  Without a ruleset (``names`` None)
    only players are known and every other name is accepted as written."""

    def __init__(self, header_players: list[str], names: Optional[Names]):
        self.strict = names is not None
        players = list(header_players)
        if names is not None:
            players += [p for p in names.players if p not in players]
        lists: dict[str, Optional[list[str]]] = {"player": players}
        if names is not None:
            lists["corporation"] = names.corporations
            lists["company"] = names.companies
            lists["train"] = names.trains
            lists["tile"] = names.tiles
        self.lists = lists
        self.exact = {k: set(v) for k, v in lists.items() if v is not None}
        self.lower: dict[str, dict[str, list[str]]] = {}
        for kind, values in lists.items():
            if values is None:
                continue
            table: dict[str, list[str]] = {}
            for v in values:
                table.setdefault(v.lower(), []).append(v)
            self.lower[kind] = table

    def known(self, kind: str) -> bool:
        """Whether names of this kind are checked at all."""
        return kind in self.exact

    def lookup(self, text: str, kinds: Iterable[str]) -> tuple[Optional[str], Optional[str]]:
        """(canonical name, its kind) or (None, None)."""
        kinds = [k for k in kinds if k in self.exact]
        for kind in kinds:
            if text in self.exact[kind]:
                return text, kind
        hits = []
        for kind in kinds:
            for value in self.lower[kind].get(text.lower(), ()):
                hits.append((value, kind))
        if len(hits) == 1:
            return hits[0]
        return None, None

    def candidates(self, kinds: Iterable[str]) -> list[str]:
        out: list[str] = []
        for kind in kinds:
            for v in self.lists.get(kind) or ():
                if v not in out:
                    out.append(v)
        return out


# --------------------------------------------------------------------------
# stage 1: the Lark parser

_PARSER = None
_LINE_CACHE: dict[str, object] = {}
_LINE_CACHE_MAX = 50_000


def _grammar_text() -> str:
    """The grammar: railcheck/grammar/notation.lark and the rules of the verb table."""
    base = _base_grammar_text()
    return base + _verb_grammar(base)


_DEFINED_TERMINAL = re.compile(r"^([A-Z][A-Z0-9_]*)(?:\.\d+)?\s*:", re.M)
_UPPER_WORD = re.compile(r'"[^"]*"|/[^/]*/|\b([A-Z][A-Z0-9_]*)\b')
_KEYWORD_PATTERN = "/(?i:{word})(?![\\w.'&+\\-])/"


def _verb_grammar(base: str) -> str:
    """Lark text for the verb table: the rule ``verb`` (one alternative per
    syntax, aliased to the verb's key), the verbs' extra rules and a
    keyword terminal for each upper-case word the base does not define."""
    defined = set(_DEFINED_TERMINAL.findall(base))
    for verb in _verbs.VERBS:  # a verb may define a terminal of its own
        defined.update(_DEFINED_TERMINAL.findall(verb.rules))
    alternatives: list[str] = []
    rules: list[str] = []
    keywords: list[str] = []
    for verb in _verbs.VERBS:
        alternatives += [f"{syntax} -> {verb.key}" for syntax in verb.syntax]
        if verb.rules.strip() and verb.rules.strip() not in rules:
            rules.append(verb.rules.strip())
        for text in (*verb.syntax, verb.rules):
            for m in _UPPER_WORD.finditer(text):
                word = m.group(1)
                if word and word not in defined and word not in keywords:
                    keywords.append(word)
    out = ["", "// ---- made from the verb table (railcheck/verbs.py)",
           "?verb: " + "\n     | ".join(alternatives), *rules]
    out += [f"{w}.3: " + _KEYWORD_PATTERN.format(word=w.lower()) for w in keywords]
    return "\n".join(out) + "\n"


def _keywords() -> frozenset:
    """Every keyword of the grammar, lower case (from its terminals)."""
    try:
        text = _grammar_text()
    except InputError:  # pragma: no cover - no grammar: the table's words
        text = _verb_grammar("")
    return frozenset(m.group(1) for m in re.finditer(
        r"^[A-Z][A-Z0-9_]*\.3:\s*/\(\?i:([a-z]+)\)", text, re.M))


def _base_grammar_text() -> str:
    # the file beside this module first (an installed package, the development
    # tree): a plain read, without importing importlib.resources (with zipfile
    # and tempfile, a few milliseconds of every command's start); the package's
    # resources where it is not a file (a zipped install)
    errors = []
    path = Path(__file__).resolve().parent / "grammar" / _GRAMMAR_FILE
    try:
        return path.read_text("utf-8")
    except Exception as exc:
        errors.append(exc)
    try:
        from importlib import resources
        return resources.files(_GRAMMAR_PACKAGE).joinpath(_GRAMMAR_FILE).read_text("utf-8")
    except Exception as exc:
        errors.append(exc)
    raise InputError(f"cannot load the notation grammar ({errors[-1]})", path=str(path))


#: every keyword of the grammar (lower case); names equal to one are quoted
#: by the writer
KEYWORDS = _keywords()
#: a name the lexer reads as a keyword (as the grammar's keyword terminals
#: match: case-insensitive, so `paſs` is `pass`)
_KEYWORD_RE = re.compile("(?i:" + "|".join(sorted(KEYWORDS)) + ")")


class _Leaf(tuple):
    """A token of a parsed line: ``(text, column, terminal type)``.  Parse
    results are nested tuples whose leaves are these (or plain 3-tuples when
    built from a template, see :class:`_Template`)."""

    __slots__ = ()


def _leaf(token) -> _Leaf:
    return _Leaf((token.value, token.column, token.type))


def _make_transformer():
    from lark import Transformer

    class ToTuples(Transformer):
        """Inline transformer: a line becomes nested tuples of leaves.

        Pure: the result depends on the tokens' types for its shape and
        holds the tokens themselves unchanged (unquoting, lower-casing and
        such are the binder's job), which is what lets :class:`_Template`
        rebuild it for other lines of the same shape."""

        def name(self, c):
            return _leaf(c[0])

        # --- lines
        def header(self, c):
            return ("header", _leaf(c[0]), _leaf(c[1]) if len(c) > 1 else None)

        def round(self, c):
            return ("round", _leaf(c[0]), _leaf(c[1]) if len(c) > 1 else None)

        def action(self, c):
            return ("action", c[0], c[1])

        # --- verbs: made from the table (_generic_callback); shared arguments
        def route(self, c):
            nodes = [_leaf(c[1])]
            seps = []
            revenue = halts = None
            rest = c[2:]
            i = 0
            while i < len(rest):
                t = rest[i]
                if t.type in ("DASH", "TILDE"):
                    seps.append("-" if t.type == "DASH" else "~")
                    nodes.append(_leaf(rest[i + 1]))
                    i += 2
                elif t.type in ("HALT", "HALTS"):
                    i += 1
                elif i + 1 < len(rest) and rest[i + 1].type in ("HALT", "HALTS"):
                    halts = _leaf(t)    # "(90; 2 halts)": the halts the train counts (1860)
                    i += 1
                else:
                    revenue = _leaf(t)
                    i += 1
            return ("route", _leaf(c[0]), tuple(nodes), tuple(seps), revenue, halts)

        def total(self, c):
            return ("total", _leaf(c[0]))

        # --- checkpoints: ("check", keyword, subject, field, value)
        def check_money(self, c):
            return ("check", _leaf(c[0]), c[1], _leaf(c[2]), _leaf(c[3]))

        def check_trains(self, c):
            return ("check", _leaf(c[0]), c[1], _leaf(c[2]), c[3])

        def check_president(self, c):
            return ("check", _leaf(c[0]), c[1], _leaf(c[2]), c[3])

        def train_list(self, c):
            if len(c) == 1 and c[0].type == "NONE":
                return ()
            return tuple(_leaf(t) for t in c)

    transformer = ToTuples()
    for name in _verb_rule_names():
        setattr(transformer, name, _generic_callback(name))
    return transformer


def _verb_rule_names() -> list[str]:
    """The rules (and aliases) of the verb table: verb keys and the rules
    of their ``rules`` text."""
    names = [v.key for v in _verbs.VERBS]
    for v in _verbs.VERBS:
        for m in re.finditer(r"^\s*\??(\w+)\s*:|->\s*(\w+)", v.rules, re.M):
            name = m.group(1) or m.group(2)
            if name not in names:
                names.append(name)
    return names


def _generic_callback(name: str):
    """The transformer's callback for a rule of the verb table: ``(rule,
    *children)``, tokens as leaves, sub-rules as they were made."""
    from lark import Token

    def callback(children):
        return (name, *[_leaf(c) if isinstance(c, Token) else c for c in children])
    return callback


#: lines parsed once when the parser is built: Lark compiles the lexer of
#: each parser state on first use, and these give templates for the common
#: line shapes (see _TEMPLATES); the verbs' own examples are added
_WARMUP = """\
title: x
auction
auction 1
SR 1
OR 1.1
MR 1.1
"A B" pass
check A cash 1
check A price 1
check A trains 2,3
check A trains none
check A president B
"""


def _warmup_lines() -> list[str]:
    return _WARMUP.splitlines() + [f"A {example}" for v in _verbs.VERBS for example in v.examples]


def reset_parser() -> None:
    """Forget the parser and all it has taught the fast paths: call it after
    changing the verb table (``railcheck.verbs.VERBS``) at run time."""
    global _PARSER, _LITERAL_RUNS, _RUN_FAST, KEYWORDS, _KEYWORD_RE
    _PARSER = _LITERAL_RUNS = _RUN_FAST = None
    for cache in (_LINE_CACHE, _TEMPLATES, _RUN_CLASS, _ACCEPTS):
        cache.clear()
    KEYWORDS = _keywords()
    _KEYWORD_RE = re.compile("(?i:" + "|".join(sorted(KEYWORDS)) + ")")


def _lark_cache():
    """Where Lark keeps its analysis of the grammar (about 40 ms to make,
    5 ms to read back): a file in railcheck's cache folder (ruleset.cache_dir),
    used by Lark only for the same grammar, Lark and Python; False (no cache)
    when the cache is off or its folder cannot be made."""
    from .ruleset import cache_dir
    folder = cache_dir()
    if folder is None:
        return False
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return False
    return str(folder / "lark-notation.pickle")


def _parser():
    global _PARSER
    if _PARSER is None:
        from lark import Lark
        parser = Lark(_grammar_text(), parser="lalr", lexer="contextual",
                      transformer=_make_transformer(), maybe_placeholders=False,
                      cache=_lark_cache())
        _PARSER = parser
        try:
            for line in _warmup_lines():
                _parse_content(line, "<warm-up>", 1)
        except Exception:  # pragma: no cover - the warm-up lines are valid
            pass
    return _PARSER


# --------------------------------------------------------------------------
# templates: Lark's parse of one line, reused for lines of the same skeleton
#
# Lark's LALR parser costs several microseconds a token in Python, and a
# 1,500-line game has ~10,000 tokens.  Most lines differ from an earlier one
# only in their numbers and names: `PRR lay 57 H10 r2`, `NYC lay 9 G7 r0`.
# The *skeleton* of a line is the line with every maximal run of ASCII
# digits and every maximal run of ASCII letters abstracted -- except the
# runs that are keywords of the grammar (and `r`/`R`, the rotation prefix),
# which stay as written.  Every terminal of the grammar treats all ASCII
# letters alike and all ASCII digits alike, with unbounded repetition, and
# never ends a token inside such a run (see _UNIFORM below, checked when the
# parser is built); so two lines with the same skeleton are split into
# tokens of the same types at the same runs, and parse the same.  The first
# line of a skeleton is parsed by Lark; the template then rebuilds the
# transformer's result for any other line of that skeleton from slices of
# the line.  Anything Lark rejects is never a template, so every syntax
# error still comes from Lark.

class _NoTemplate(Exception):
    pass


#: terminal regexes known to treat ASCII letters and digits uniformly (a
#: grammar change that adds anything else disables templates, see
#: _templates_enabled; keywords `(?i:word)` + boundary are handled apart)
_UNIFORM = {
    r"[\w.'&\-]+", r'"(?:[^"\n]|"")*"', r"\d+%", r"\d+(?![\w.'&+\-])", r"[\w.\-]+",
    r"[A-Za-z]+-?\d+", r"[A-Za-z]+-?\d+(?:\.\d+)?", r"[0-9A-Za-z]+(?:\+[0-9A-Za-z]+)?'?",
    r"\d+(?:\.\d+)*", r"[^\n]+", r"#[^\n]*", r"[ \t\f\v\u00a0]+",
    # as Lark hands them back, with some escapes already decoded
'"(?:[^"\n]|"")*"', "[^\n]+", "#[^\n]*", "[ \t\x0c\\v\xa0]+",
}
#: regexes that single out one letter: the run made of it stays literal
_LETTER_SPECIFIC = {r"[rR]\d+": ("r", "R")}
_KEYWORD_FORM = re.compile(r"\(\?i:([a-z]+)\)\(\?!\[\\w\.'&\+\\-\]\)\Z")
_RUNS = re.compile(f'({_QUOTED_RE}|[A-Za-z]+|[0-9]+)')
#: characters that case-insensitive keywords match as if they were ASCII
#: letters (Python's re: İ ı ſ K), and line breaks: lines with any of them
#: always go to Lark
_NO_TEMPLATE_CHARS = re.compile("[\u0130\u0131\u017f\u212a\n\r]")
_LITERAL_RUNS: Optional[frozenset] = None   # None: not checked yet; empty: disabled
_TEMPLATES: dict[tuple, "_Template"] = {}
_TEMPLATES_MAX = 4_000
_USE_TEMPLATES = True


def _templates_enabled() -> bool:
    """Check the grammar's terminals once; compute the runs kept literal."""
    global _LITERAL_RUNS
    if _LITERAL_RUNS is None:
        literal: set[str] = set()
        ok = True
        try:
            from lark.lexer import PatternStr
            for t in _parser().terminals:
                regex = t.pattern.to_regexp()
                if isinstance(t.pattern, PatternStr):
                    if re.search(r"[A-Za-z0-9]", t.pattern.value):
                        ok = False
                    continue
                m = _KEYWORD_FORM.match(regex)
                if m:
                    literal.add(m.group(1))
                elif regex in _LETTER_SPECIFIC:
                    literal.update(_LETTER_SPECIFIC[regex])
                elif regex not in _UNIFORM:
                    ok = False
        except Exception:
            ok = False
        _LITERAL_RUNS = frozenset(literal) if ok else frozenset()
    return bool(_LITERAL_RUNS)


_RUN_CLASS: dict[str, str] = {}


def _run_class(run: str) -> str:
    if run[0] == '"':
        return "q"  # a quoted name is one token whatever it holds
    if run[0].isdigit():
        cls = "#"
    elif run.lower() in _LITERAL_RUNS or run in _LITERAL_RUNS:
        cls = run
    else:
        cls = "a"
    if len(_RUN_CLASS) < 100_000:
        _RUN_CLASS[run] = cls
    return cls


def _skeleton(content: str):
    """(key, parts) of a line: parts alternate other text and runs."""
    parts = _RUNS.split(content)
    get = _RUN_CLASS.get
    runs = tuple([get(r) or _run_class(r) for r in parts[1::2]])
    return (tuple(parts[0::2]), runs), parts


def _offsets(parts) -> list[int]:
    return [0, *accumulate(map(len, parts))]


def _boundary(x: int, offsets: list[int]) -> tuple[int, int]:
    """Position ``x`` of the template line as (part index, offset in that
    part): the same place in any line of the skeleton is ``s[k] + d``."""
    k = bisect_right(offsets, x) - 1
    if k >= len(offsets) - 1:  # the end of the line
        k = len(offsets) - 1
        if x != offsets[k]:
            raise _NoTemplate
        return k, 0
    delta = x - offsets[k]
    if delta and k % 2 == 1:  # inside a run: never happens with uniform terminals
        raise _NoTemplate
    return k, delta


_LEAF, _TUPLE, _CONST = 0, 1, 2


def _plan(result, offsets):
    """How to rebuild ``result`` from another line of the same skeleton."""
    if isinstance(result, _Leaf):
        start = result[1] - 1
        a, da = _boundary(start, offsets)
        b, db = _boundary(start + len(result[0]), offsets)
        return (_LEAF, a, da, b, db, result[2])
    if type(result) is tuple:
        return (_TUPLE, tuple(_plan(x, offsets) for x in result))
    if result is None or type(result) is str:
        return (_CONST, result)
    raise _NoTemplate


def _follow(plan, L, s):
    tag = plan[0]
    if tag == _LEAF:
        a = s[plan[1]] + plan[2]
        return (L[a:s[plan[3]] + plan[4]], a + 1, plan[5])
    if tag == _TUPLE:
        return tuple([_follow(p, L, s) for p in plan[1]])
    return plan[1]


def _source(plan) -> str:
    tag = plan[0]
    if tag == _LEAF:
        _, a, da, b, db, kind = plan
        start = f"s[{a}]+{da}" if da else f"s[{a}]"
        end = f"s[{b}]+{db}" if db else f"s[{b}]"
        return f"(L[{start}:{end}], {start}+1, {kind!r})"
    if tag == _TUPLE:
        return "(" + "".join(_source(p) + ", " for p in plan[1]) + ")"
    return repr(plan[1])


class _Template:
    """Rebuilds a parse for a line of one skeleton: ``template(line,
    offsets)``.  Interprets its plan at first; compiled to a function once
    it has been used a few times (compiling costs as much as ~50 uses)."""

    __slots__ = ("plan", "uses", "code")
    COMPILE_AFTER = 4

    def __init__(self, plan):
        self.plan = plan
        self.uses = 0
        self.code = None

    def __call__(self, L: str, s: list[int]):
        code = self.code
        if code is not None:
            return code(L, s)
        self.uses += 1
        result = _follow(self.plan, L, s)
        if self.uses >= self.COMPILE_AFTER:
            try:
                code = eval("lambda L, s: " + _source(self.plan), {"__builtins__": {}})
                if code(L, s) == result:
                    self.code = code
                else:  # pragma: no cover - keep interpreting
                    self.uses = -10**9
            except Exception:  # pragma: no cover - keep interpreting
                self.uses = -10**9
        return result


def _make_template(content: str, parts, result):
    """A _Template for the skeleton of ``content``, or None."""
    try:
        offsets = _offsets(parts)
        plan = _plan(result, offsets)
        if _follow(plan, content, offsets) != result:  # must give back what Lark gave
            return None
        return _Template(plan)
    except Exception:
        return None


#: syntax errors are explained (what was expected, the keyword meant); off
#: where the finding is only counted (past a file's first findings, or a
#: header read only for its tags), which spares most of a bad line's cost
_EXPLAIN = [True]


def _explain_while(findings) -> None:
    """Explain syntax errors while ``findings`` keeps what it is given."""
    _EXPLAIN[0] = len(findings) < getattr(findings, "limit", len(findings) + 1)


def _lark_parse(content: str, path: str, lineno: int):
    """Parse one line with Lark (syntax errors become InputError)."""
    from lark.exceptions import UnexpectedInput
    try:
        return _parser().parse(content)
    except UnexpectedInput as exc:
        if not _EXPLAIN[0]:
            column = getattr(exc, "column", 1)
            raise _error(path, lineno, content, column if isinstance(column, int) else 1,
                         "cannot be read as a line of the notation") from None
        raise _syntax_error(exc, path, lineno, content) from None


# --------------------------------------------------------------------------
# syntax errors in plain words

_TERMINAL_WORDS = {
    "NAME": "a name", "QUOTED": "a name", "INT": "a number",
    "PERCENT": "a percentage (like 20%)", "TILE": "a tile number (like 57)",
    "HEX": "a hex (like H10)", "NODE": "a hex (like H10 or H10.1)",
    "ROTATION": "a rotation (r0 to r5)", "TRAIN_TYPE": "a train type (like 2, 3 or D)",
    "ROUND_NUM": "a round number (like 1 or 2.1)", "VALUE": "a value",
    "DASH": "'-'", "TILDE": "'~'", "COLON": "':'", "COMMA": "','", "LPAR": "'('",
    "RPAR": "')'", "EQUAL": "'='", "$END": "the end of the line",
    "<END-OF-FILE>": "the end of the line",
}
def _verb_words() -> tuple:
    """The first word of each verb (terminal names), in the table's order."""
    return tuple(dict.fromkeys(syntax.split()[0] for v in _verbs.VERBS for syntax in v.syntax))
_FIELDS = ("CASH", "TREASURY", "PRICE", "WORTH", "TRAINS", "PRESIDENT")

def _name_by_previous() -> dict:
    """What a name is, by the word before it (the verbs' hints, and
    checkpoints)."""
    return {**{word: what for v in _verbs.VERBS for word, what in v.hints.items()},
            "check": "a player or corporation", "president": "a player"}

_PREVIOUS_WORD = re.compile(f"""({_QUOTED_RE}|[\\w.'&+%\\-]+|\\S)\\s*$""")
_FOUND_WORD = re.compile(f"""\\s*({_QUOTED_RE}|[\\w.'&+%\\-]+|\\S)""")


def _show(text: str) -> str:
    """A line made safe to print, one character per character (so a caret
    below stays aligned)."""
    return "".join(ch if ch.isprintable() else (" " if ch == "\t" else "?") for ch in text)


def _context(lineno: int, text: str, column: int) -> str:
    """The line, and a caret under ``column`` (1-based).  Long lines are cut
    to a window around the column."""
    start = 0
    shown = text
    if len(text) > 100:
        start = max(0, column - 1 - 50)
        shown = text[start:start + 100]
    prefix = "..." if start > 0 else ""
    suffix = "..." if start + len(shown) < len(text) else ""
    gutter = f"{lineno:>5} | "
    caret = " " * (len(gutter) - 2) + "| " + " " * (len(prefix) + column - 1 - start) + "^"
    return gutter + prefix + _show(shown) + suffix + "\n" + caret


def _error(path: str, lineno: int, text: str, column: int, message: str) -> InputError:
    column = max(1, min(column, len(text) + 1))
    return InputError(message, path=path, line=lineno, column=column,
                      context=_context(lineno, text, column))


def _clip(word: str, limit: int = 30) -> str:
    word = _show(word)
    return word if len(word) <= limit else word[:limit - 3] + "..."


def _describe_expected(expected: set[str], previous: Optional[str], at_start: bool) -> str:
    expected = set(expected)
    prev = (previous or "").lower()
    if at_start:
        return ("a player, corporation or private followed by a verb, a round marker "
                "(auction, SR 1, OR 1.1), a checkpoint ('check ...') or a header line 'key: value'")
    parts: list[str] = []
    verb_words = _verb_words()
    verbs = expected & set(verb_words)
    if len(verbs) > 3:
        parts.append("a verb (" + ", ".join(v.lower() for v in verb_words) + ")")
        expected -= verbs
        expected.discard("COLON")
    fields = expected & set(_FIELDS)
    if len(fields) > 2:
        parts.append("a field (" + ", ".join(f.lower() for f in _FIELDS) + ")")
        expected -= fields
    if expected & {"NAME", "QUOTED"}:
        if prev.isdigit() or prev.endswith("%"):
            phrase = "a corporation"
        elif prev == "from":
            phrase = ("a corporation, 'depot' or 'pool'" if expected & {"DEPOT", "POOL"}
                      else "a player (the seller)")
            expected -= {"DEPOT", "POOL"}
        else:
            phrase = _name_by_previous().get(prev, "a name")
        if expected & {"INT", "PERCENT"} and prev in ("buy", "sell", ","):
            phrase += ", a number of shares" if prev == "buy" else " or a number of shares"
            expected -= {"INT", "PERCENT"}
        if "TRAIN" in expected and "PRIVATE" in expected:
            phrase += ", 'train' or 'private'"
            expected -= {"TRAIN", "PRIVATE"}
        parts.append(phrase)
        expected -= {"NAME", "QUOTED"}
    if "INT" in expected and prev in {"for", "=", "("} | {f.lower() for f in _FIELDS}:
        parts.append("an amount of money" if prev != "(" else "the train's revenue")
        expected.discard("INT")
    elif "INT" in expected:
        parts.append("a price" if prev not in ("sell", ",") else "a number")
        expected.discard("INT")
    order = sorted(expected, key=lambda t: (t in ("$END", "<END-OF-FILE>"), t))
    for t in order:
        word = _TERMINAL_WORDS.get(t)
        if word is None:
            word = "'" + (t if t in ("SR", "OR", "MR") else t.lower()) + "'"
        if word not in parts:
            parts.append(word)
    if not parts:
        return "something else"
    if len(parts) == 1:
        return parts[0]
    return ", ".join(parts[:-1]) + " or " + parts[-1]


_ACCEPTS: dict[tuple, frozenset] = {}


def _accepts(interactive) -> frozenset:
    """The terminals the parser takes in its state (memoized by the stack
    of LALR states, which decides it)."""
    key = tuple(interactive.parser_state.state_stack)
    found = _ACCEPTS.get(key)
    if found is None:
        found = frozenset(interactive.accepts())
        if len(_ACCEPTS) < 10_000:
            _ACCEPTS[key] = found
    return found


def _syntax_error(exc, path: str, lineno: int, content: str) -> InputError:
    from lark.exceptions import UnexpectedCharacters, UnexpectedToken

    end_of_line = False
    if isinstance(exc, UnexpectedToken):
        expected = set(exc.expected or ())
        if exc.token.type == "$END":
            column = len(content) + 1
            end_of_line = True
        else:
            column = exc.token.column
    elif isinstance(exc, UnexpectedCharacters):
        expected = set(exc.allowed or ())
        column = exc.column
    else:
        expected = set()
        column = getattr(exc, "column", 1)
        if not isinstance(column, int):
            column = 1
    column = max(1, column)
    # what the parser would take here (the exception's own set is that of an
    # LALR state, whose merged lookaheads may hold more)
    try:
        expected = _accepts(exc.interactive_parser) or expected
    except Exception:
        pass
    before = content[:column - 1]
    at_start = not before.strip()
    m = _PREVIOUS_WORD.search(before[-200:])  # bounded: no quadratic search
    previous = m.group(1) if m else None
    if previous and previous.startswith('"'):
        previous = None if at_start else previous
    want = _describe_expected(expected, previous, at_start)
    message = f"expected {want}"
    if previous and not at_start:
        message += f" after '{_clip(previous)}'"
    if end_of_line:
        message += ", but the line ends"
    else:
        found = _FOUND_WORD.match(content, column - 1)
        if found and found.group(1) == '"':
            message = "unclosed quote: a quoted name needs a closing '\"'"
        elif found:
            message += f", found '{_clip(found.group(1))}'"
    if previous and previous[0] == '"' and len(previous) > 1 and before.endswith(previous) \
            and not end_of_line:  # `"Al "X" Y"`: a quote inside a name, not doubled
        message += " (a '\"' inside a quoted name is written twice, like \"Al \"\"X\"\" Y\")"
        # a misspelt keyword: at the error, or earlier (read as a name there)
    respelt = _respell(content, column)
    if respelt is not None:
        word_column, word, keywords = respelt
        hint = f" (did you mean {' or '.join(keywords)}?)"
        if word_column == column:
            return _error(path, lineno, content, column, message + hint)
        return _error(path, lineno, content, word_column, f"unknown word '{_clip(word)}'{hint}")
    # a missing argument: the next word was taken for it (`run I15-J14`)
    missing = _missing_argument(content, column)
    if missing is not None:
        return _error(path, lineno, content, missing[0], missing[1])
    # frequent slips the verbs know of (`buy 3` for a train)
    low = content.lower().split()
    for verb in _verbs.VERBS:
        advice = verb.advice(low) if verb.advice else None
        if advice:
            message += f" ({advice})"
            break
    return _error(path, lineno, content, column, message)


#: the words of a line (a quoted name is one)
_WORD_OR_QUOTED = re.compile(f"{_QUOTED_RE}|[\\w.'&+%\\-]+")
#: how many words before a syntax error are looked at for a fix
_FIX_WORDS = 4


def _parses(line: str):
    """Lark's parse of ``line``, or None."""
    try:
        return _parser().parse(line)
    except Exception:
        return None


def _words_before(content: str, column: int) -> list:
    """The words starting at or before ``column`` (1-based), nearest first."""
    words = []
    for m in _WORD_OR_QUOTED.finditer(content[:column - 1 + 200]):
        if m.start() > column - 1:
            break
        words.append(m)
    return words[::-1][:_FIX_WORDS]


def _respell(content: str, column: int):
    """(column, word, keywords) when replacing a word at or before the error
    with a keyword close to it makes the line parse; the nearest such word."""
    import difflib

    keywords = sorted(KEYWORDS)
    for m in _words_before(content, column):
        word = m.group()
        if not word.isalpha() or word.lower() in KEYWORDS:
            continue
        fixes = [k for k in difflib.get_close_matches(word.lower(), keywords, n=3, cutoff=0.6)
                 if _parses(content[:m.start()] + k + content[m.end():]) is not None]
        if fixes:
            return m.start() + 1, word, fixes
    return None


def _retyped(binder, line: tuple, exc: InputError, findings: list):
    """A line that does not parse is a finding.  When it is one keyword
    misspelt (a plain typo, :func:`_one_near`, of the only keyword that makes
    the line parse: `payot`), the line stands with that keyword and the
    action is returned; otherwise the line is skipped (None)."""
    content = line[_CONTENT]
    fix = _respell(content, exc.column) if exc.line == line[_NUMBER] and exc.column else None
    if fix is None or len(fix[2]) != 1:
        findings.append(_syntax_finding(exc, content, line[_ID]))
        return None
    # the line read with the one keyword that makes it parse
    start, word, keyword = fix[0] - 1, fix[1], fix[2][0]
    fixed = content[:start] + keyword + content[start + len(word):]
    n = len(findings)
    try:
        action = binder.bind((line[_NUMBER], line[_RAW], fixed, line[_ID]),
                             _parse_content(fixed, exc.path, line[_NUMBER]))
    except InputError:
        del findings[n:]
        action = None
    if _one_near(word, fix[2]) is None:
        # not a plain typo (`pra` for `par`), but the only keyword that makes
        # the line parse: the line is read with it, tentatively; the replay
        # takes it when its action is legal there, and says so in the
        # finding (``railcheck.following.record.Following.tentative``),
        # else drops it, as any line that cannot be read
        del findings[n:]
        finding = _syntax_finding(exc, content, line[_ID])
        findings.append(finding)
        if action is not None:
            action.text = content.strip()
            action.tentative = (finding, word, keyword)
        return action
    if action is not None:
        action.text = content.strip()
        findings.insert(n, _syntax_finding(
            InputError(f"{exc.bare}; taken as {keyword}", path=exc.path, line=exc.line,
                       column=exc.column), content, line[_ID]))
        return action
    findings.insert(n, _syntax_finding(exc, content, line[_ID]))
    return None


#: arguments whose absence the parser notices only later, because the next
#: word can be read as one (`run I15-J14`: I15 is taken for the train)
_MISSING_WORDS = {"TRAIN_TYPE": ("a train type", "2"), "TILE": ("a tile number", "57")}


def _leaf_at(result, column: int):
    """The leaf of a parse that starts at ``column``, or None."""
    if isinstance(result, tuple):
        if len(result) == 3 and isinstance(result[1], int) and isinstance(result[0], str):
            return result if result[1] == column else None
        for x in result:
            found = _leaf_at(x, column)
            if found is not None:
                return found
    return None


def _missing_argument(content: str, column: int):
    """(column, message) when writing an argument before a word at or
    before the error makes the line parse, and that argument is one the
    parser cannot see missing (a train type, a tile)."""
    for m in _words_before(content, column):
        fixed = content[:m.start()] + "2 " + content[m.start():]
        leaf = _leaf_at(_parses(fixed), m.start() + 1)
        if leaf is not None and leaf[2] in _MISSING_WORDS:
            what, sample = _MISSING_WORDS[leaf[2]]
            example = content[:m.start()] + sample + " " + content[m.start():]
            return m.start() + 1, (f"missing {what} before '{_clip(m.group())}' "
                                   f"(like '{_clip(example.strip(), 60)}')")
    return None


# --------------------------------------------------------------------------
# `run` lines: routes vary too much for line templates (every number of
# trains, stops and `~` makes a skeleton), so the route list is read with
# regular expressions built from the grammar's own terminals, mirroring
#     RUN route ("," route)* total?
#     route: TRAIN_TYPE NODE (separator NODE)+ ("(" INT ")")?
# (in each parser state there, the candidates are disjoint: TRAIN_TYPE, or
# NONE first; NODE; - ~ ( , = end; INT; `)`), and the actor and `run` come
# from the template of the line `ACTOR run none`.  The result has the shape
# the verb table's rule gives: ("run", RUN, route..., total?).  Anything unusual falls
# back to Lark; the tests compare both on random lines.

_RUN_FAST = None
_RUN_WORD = re.compile("(?i:run)")


def _run_regexes():
    global _RUN_FAST
    if _RUN_FAST is None:
        try:
            terms = {t.name: t.pattern.to_regexp() for t in _parser().terminals}
            ws = "(?:" + terms["WS"] + ")*"
            node = "(?>" + terms["NODE"] + ")"
            train = "(?>" + terms["TRAIN_TYPE"] + ")"
            integer = "(?>" + terms["INT"] + ")"
            route = (f"{ws}(?P<t>{train}){ws}(?P<n>{node}(?:{ws}[-~]{ws}{node})+)"
                     f"(?:{ws}\\({ws}(?P<r>{integer}){ws}\\))?{ws}")
            _RUN_FAST = (
                re.compile(f"{ws}(?:{_QUOTED_RE}|[^ \t\f\v\xa0\"#]+)(?:{terms['WS']})+"
                           f"(?i:run)(?:{terms['WS']})+"),
                re.compile(f"{ws}(?!{terms['NONE']})" + route[len(ws):]),
                re.compile(route),
                re.compile(node),
                re.compile("[-~]"),
                re.compile(f"{ws},"),
                re.compile(f"{ws}={ws}(?P<v>{integer}){ws}\\Z"),
                re.compile(f"{ws}\\Z"),
            )
        except Exception:  # pragma: no cover - the grammar lost a terminal
            _RUN_FAST = False
    return _RUN_FAST


def _parse_run(content: str, path: str, lineno: int):
    """The parse of a `run` line with routes, or None (then Lark decides)."""
    fast = _run_regexes()
    if not fast:
        return None
    head_re, first_re, route_re, node_re, sep_re, comma_re, total_re, end_re = fast
    m = head_re.match(content)
    if m is None:
        return None
    pos = head_end = m.end()
    routes = []
    rx = first_re
    total = None
    while True:
        m = rx.match(content, pos)
        if m is None:
            return None
        a, b = m.span("n")
        found = list(node_re.finditer(content, a, b))
        nodes = tuple([(n.group(), n.start() + 1, "NODE") for n in found])
        # the separators between the nodes (a node may hold a '-': G-1)
        seps = tuple(sep_re.search(content, x.end(), y.start()).group()
                     for x, y in zip(found, found[1:]))
        revenue = None
        if m.group("r") is not None:
            revenue = (m.group("r"), m.start("r") + 1, "INT")
        # halts: None (a route with "; N halts" is left to Lark, see route_re)
        routes.append(("route", (m.group("t"), m.start("t") + 1, "TRAIN_TYPE"),
                       nodes, seps, revenue, None))
        pos = m.end()
        c = comma_re.match(content, pos)
        if c is not None:
            pos = c.end()
            rx = route_re
            continue
        t = total_re.match(content, pos)
        if t is not None:
            total = ("total", (t.group("v"), t.start("v") + 1, "INT"))
            break
        if end_re.match(content, pos) is None:
            return None
        break
    try:
        head = _parse_content(content[:head_end] + "none", path, lineno)
    except InputError:
        return None
    # ("action", actor, ("run", RUN, NONE)): the verb table's shape of `run`
    verb = head[2] if head[0] == "action" else ()
    if len(verb) != 3 or verb[0] != "run" or verb[2][2] != "NONE":
        return None
    return ("action", head[1], ("run", verb[1], *routes) + (() if total is None else (total,)))


def _parse_content(content: str, path: str, lineno: int):
    """The parse of one line (no comment, not blank): nested tuples of
    leaves ``(text, column, type)``.  Raises InputError."""
    cached = _LINE_CACHE.get(content)
    if cached is not None:
        return cached
    try:
        result = None
        key = parts = None
        if _USE_TEMPLATES and _templates_enabled() and not _NO_TEMPLATE_CHARS.search(content):
            if _RUN_WORD.search(content):
                result = _parse_run(content, path, lineno)
            if result is None:
                key, parts = _skeleton(content)
                build = _TEMPLATES.get(key)
                if build is not None:
                    result = build(content, _offsets(parts))
        if result is None:
            result = _lark_parse(content, path, lineno)
            if key is not None and result[0] != "header":
                build = _make_template(content, parts, result)
                if build is not None:
                    if len(_TEMPLATES) >= _TEMPLATES_MAX:
                        _TEMPLATES.clear()
                    _TEMPLATES[key] = build
    except InputError:
        raise
    except Exception as exc:  # anything else: still an InputError
        raise _error(path, lineno, content, 1,
                     f"cannot parse this line ({exc.__class__.__name__})") from None
    if len(_LINE_CACHE) >= _LINE_CACHE_MAX:
        _LINE_CACHE.clear()
    _LINE_CACHE[content] = result
    return result


# --------------------------------------------------------------------------
# lines and comments

_ACTION_ID_RE = re.compile(r"#@(\d+)(?:\s|$)")
_TRAILING_ID_RE = re.compile(r"#@(\d+)\s*$")


# a line is a tuple (number, raw text, content without comment, action id)
_NUMBER, _RAW, _CONTENT, _ID = 0, 1, 2, 3


def _comment_start(line: str) -> int:
    idx = line.find("#")
    if idx < 0:
        return -1
    if '"' not in line[:idx]:
        return idx
    quoted = False
    for i, ch in enumerate(line):
        if ch == '"':
            quoted = not quoted
        elif ch == "#" and not quoted:
            return i
    return -1


def _as_text(text, path: str) -> str:
    if isinstance(text, (bytes, bytearray, memoryview)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InputError(f"not UTF-8 text (byte {exc.start})", path=path) from None
    if not isinstance(text, str):
        raise InputError(f"expected text, got {type(text).__name__}", path=path)
    if text.startswith("\ufeff"):
        text = text[1:]
    return text


#: a line ends with LF, CRLF or a lone CR (old Mac files)
_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def _syntax_finding(exc: InputError, text: str, action_id: Optional[int] = None) -> Finding:
    """A line that cannot be read, as a finding (the line is skipped)."""
    return Finding(severity=ERROR, rule=SYNTAX_RULE, message=exc.bare, line=exc.line,
                   column=exc.column, action_id=action_id, text=text.strip()[:200])


#: a malformed '#@' id comment
_BAD_ID = "expected an action id (a number)"


def _split_lines(text: str):
    """The lines of ``text`` one at a time (no list of them all: a file may
    be large), each with where the next begins."""
    start = 0
    for m in _LINE_BREAK.finditer(text):
        end = m.end()
        yield text[start:m.start()], end
        start = end
    yield text[start:], len(text)


#: a run of white space within a line; a line's run of characters
_BLANKS = re.compile(r"[^\S\r\n]++")
_LINE_RUN = re.compile(r"[^\r\n]++")


def _lines_not_blank(text: str, start: int = 0) -> int:
    """How many lines of ``text`` from ``start`` (the beginning of a line;
    split as :func:`_split_lines` splits them) hold more than white space
    (``str.strip``'s), counted without a string for each: the lines' white
    space taken out, the runs of what is left counted, a megabyte's lines
    at a time (a record of millions of lines past the limit is counted in a
    second, not in ten, in little memory)."""
    n = 0
    while start < len(text):
        cut = text.find("\n", start + (1 << 20))
        end = len(text) if cut < 0 else cut + 1
        n += _LINE_RUN.subn("", _BLANKS.sub("", text[start:end]))[1]
        start = end
    return n


def _lines(text, path: str, findings: list):
    """Yield the non-blank lines: (number, raw, content without comment, id).
    A line that cannot be a line (too long) is a finding in ``findings``
    and skipped; a malformed ``#@`` id is a finding and the line kept
    without it."""
    text = _as_text(text, path)
    limit = MAX_LINE_LENGTH
    read = 0
    split = enumerate(_split_lines(text), 1)
    for number, (raw, end) in split:
        if read >= MAX_ACTIONS and raw.strip():
            # the record has more lines than are read: the rest are counted
            more = 1 + _lines_not_blank(text, end)
            list.append(findings, Finding(      # kept, however many findings came before
                severity=ERROR, rule="record.too_long", line=number, column=1,
                message=f"the record goes on for {more:,} more line{'s' if more != 1 else ''} "
                        f"from here; railcheck reads at most the first {MAX_ACTIONS:,} lines "
                        f"of a file (a game of 18xx has a few thousand): these were counted, "
                        f"not checked"))
            return
        read += 1 if raw.strip() else 0
        if len(raw) > limit:
            findings.append(_syntax_finding(_error(
                path, number, raw[:200], 1,
                f"line too long ({len(raw)} characters, at most {limit})"), raw))
            continue
        if "#" not in raw:
            content = raw.rstrip()
            if content:
                yield (number, raw, content, None)
            continue
        cut = _comment_start(raw)
        action_id = None
        if cut >= 0:
            comment = raw[cut:]
            content = raw[:cut].rstrip()
            if comment.startswith("#@"):
                m = _ACTION_ID_RE.match(comment)
                if m:
                    action_id = int(m.group(1))
                else:
                    findings.append(_syntax_finding(_error(
                        path, number, raw, cut + 3, _BAD_ID + " after '#@'"), raw))
            elif "#@" in comment:
                m = _TRAILING_ID_RE.search(comment)
                if m:
                    action_id = int(m.group(1))
        else:
            content = raw.rstrip()
        if not content:
            if action_id is not None:
                findings.append(_syntax_finding(_error(
                    path, number, raw, cut + 1, "an action id '#@N' must follow an action"),
                    raw, action_id))
            continue
        yield (number, raw, content, action_id)


# --------------------------------------------------------------------------
# header

def _split_names(value: str, column: int, path: str, lineno: int, content: str,
                 what: str) -> list[tuple[str, int]]:
    """Parse ``a, "b c", d`` into names with their columns."""
    out: list[tuple[str, int]] = []
    i, n = 0, len(value)
    while i <= n:
        while i < n and value[i] in " \t":
            i += 1
        start = i
        if i < n and value[i] == '"':
            j = value.find('"', i + 1)
            while 0 <= j < n - 1 and value[j + 1] == '"':  # a doubled quote inside
                j = value.find('"', j + 2)
            if j < 0:
                raise _error(path, lineno, content, column + i, f"unclosed quote in the {what} list")
            name = value[i + 1:j].replace('""', '"')
            i = j + 1
            if not name.strip():
                raise _error(path, lineno, content, column + start, f"empty name in the {what} list")
        else:
            j = value.find(",", i)
            j = n if j < 0 else j
            name = value[i:j].strip()
            i = i + len(value[i:j].rstrip())
            if not name:
                raise _error(path, lineno, content, column + start, f"empty name in the {what} list")
            if not _NAME_RE.fullmatch(name):
                quoted = '"' + name.replace('"', '""') + '"'
                if '"' in name:
                    hint = f": quote it and write each '\"' inside twice, {quoted}"
                elif " " in name:
                    hint = f": quote names with spaces, {quoted}"
                else:
                    hint = (": names are letters, digits and _ - . ' &; quote any other, "
                            f"{quoted}")
                raise _error(path, lineno, content, column + start, f"bad name '{_clip(name)}' in the {what} list{hint}")  # noqa: E501
        out.append((name, column + start))
        while i < n and value[i] in " \t":
            i += 1
        if i >= n:
            break
        if value[i] != ",":
            hint = ""
            seg = value[start:].split(",", 1)[0].strip()
            if seg[:1] == '"' and seg[-1:] == '"' and len(seg) > 2:  # `"Al "X" Y"`
                hint = (" (a '\"' inside a quoted name is written twice: "
                        + '"' + seg[1:-1].replace('"', '""') + '")')
            raise _error(path, lineno, content, column + i,
                         f"expected ',' between names in the {what} list{hint}")
        i += 1
        if i >= n:
            raise _error(path, lineno, content, column + i, f"expected a name after ',' in the {what} list")
    return out


def _unquote_value(value: str) -> str:
    """A header value in double quotes, without them (a `"` inside doubled)."""
    if len(value) >= 2 and value[0] == '"' and value[-1] == '"':
        return value[1:-1].replace('""', '"')
    return value


_RESULT_ITEM = re.compile(r"""\s*("((?:[^"\n]|"")*)"|[\w.'&\-]+?)\s*[:=]?\s*(-?\d+)\s*(?:,|$)""")


def _parse_result(value: str) -> Optional[dict[str, int]]:
    """``Alice 5432, "Player 2" 4012`` -> {name: score}; None if not of that
    form (the tag stays free text)."""
    out: dict[str, int] = {}
    pos = 0
    value = value.strip()
    if not value:
        return None
    while pos < len(value):
        m = _RESULT_ITEM.match(value, pos)
        if not m or m.end() == pos:
            return None
        name = m.group(2).replace('""', '"') if m.group(2) is not None else m.group(1)
        out[name] = int(m.group(3))
        pos = m.end()
    return out or None


class _Header:
    def __init__(self):
        self.tags: dict[str, str] = {}
        self.locations: dict[str, tuple[int, int]] = {}
        self.players: list[str] = []
        self.options: list[str] = []

    def add(self, parsed, line: tuple, path: str) -> None:
        _, key, value = parsed
        k, key_column = key[0], key[1]
        if not _HEADER_KEY_RE.fullmatch(k):
            hint = f": write '{k.lower()}:'" if _HEADER_KEY_RE.fullmatch(k.lower()) else ""
            raise _error(path, line[_NUMBER], line[_CONTENT], key_column,
                         f"header keys are lowercase letters, digits, '_' and '-'{hint}")
        if k in self.tags:
            first = self.locations[k][0]
            raise _error(path, line[_NUMBER], line[_CONTENT], key_column,
                         f"duplicate header '{k}' (first written on line {first})")
        if value is not None:
            raw = value[0]
            stripped = raw.strip()
            column = value[1] + (len(raw) - len(raw.lstrip()))
        else:
            stripped, column = "", len(line[_CONTENT]) + 1
        text = _unquote_value(stripped)
        if k == "players":
            if not stripped:
                raise _error(path, line[_NUMBER], line[_CONTENT], column,
                             "expected player names after 'players:'")
            names = _split_names(stripped, column, path, line[_NUMBER], line[_CONTENT], "players")
            seen: dict[str, int] = {}
            for name, c in names:
                if name in seen:
                    raise _error(path, line[_NUMBER], line[_CONTENT], c, f"player '{name}' listed twice")
                seen[name] = c
            self.players = [n for n, _ in names]
            text = stripped
        elif k == "options":
            self.options = [o.strip() for o in text.split(",") if o.strip()]
        elif k == "title" and not text.strip():
            raise _error(path, line[_NUMBER], line[_CONTENT], column,
                         "expected the title after 'title:' (like 1830)")
        self.tags[k] = text
        self.locations[k] = (line[_NUMBER], key_column)

    def finish(self, path: str, line: Optional[tuple], findings: list) -> None:
        """A game needs its title and players: without them it cannot be
        checked (an InputError), and the message names a likely cause (a
        misspelt key, an unreadable line in the header)."""
        import difflib

        for key, example in (("title", "title: 1830"), ("players", "players: Alice, Bob, Carol")):
            if key in self.tags:
                continue
            message = f"missing header line '{key}:'"
            if line is not None:
                message += " before the first action"
            message += f" (like '{example}')"
            close = difflib.get_close_matches(key, list(self.tags), n=1, cutoff=0.6)
            if close:
                message += (f"; '{close[0]}:' on line {self.locations[close[0]][0]} "
                            f"is not '{key}:'")
            elif findings:
                message += (f"; line {findings[0].line} could not be read: "
                            f"{findings[0].message}")
            if line is not None:
                raise _error(path, line[_NUMBER], line[_CONTENT], 1, message)
            raise InputError(message, path=path)


def _read_header(lines, path: str, findings: list):
    """Consume header lines; return the header and the first other line
    (already parsed) or None.  A line that cannot be parsed is a finding
    (in ``findings``) and skipped."""
    header = _Header()
    for line in lines:
        try:
            _explain_while(findings)
            parsed = _parse_content(line[_CONTENT], path, line[_NUMBER])
        except InputError as exc:
            findings.append(_syntax_finding(exc, line[_CONTENT], line[_ID]))
            continue
        finally:
            _EXPLAIN[0] = True
        if parsed[0] == "header":
            if line[_ID] is not None:
                findings.append(_syntax_finding(_error(
                    path, line[_NUMBER], line[_RAW], len(line[_CONTENT]) + 1,
                    "an action id '#@N' cannot follow a header line"), line[_CONTENT]))
            header.add(parsed, line, path)
            continue
        header.finish(path, line, findings)
        return header, (line, parsed)
    header.finish(path, None, findings)
    return header, None


def parse_header(text: str, path: str) -> tuple[dict[str, str], dict[str, tuple[int, int]]]:
    """The header tags (``title``, ``players``... values as written,
    stripped) and where each was written, (line, column).  Reads only up to
    the first round marker or action.  Raises InputError for a malformed
    header or a missing ``title``/``players``; never anything else."""
    try:
        findings = FindingList()        # its first lines that fail are explained (the
        # error names one), the others only counted
        header, _ = _read_header(_lines(text, path, findings), path, findings)
    except InputError:
        raise
    except RecursionError:
        raise InputError("input too deeply nested", path=path) from None
    except Exception as exc:  # never anything but InputError
        raise InputError(f"cannot read the header ({exc.__class__.__name__}: {exc})",
                         path=path) from None
    return dict(header.tags), dict(header.locations)


# --------------------------------------------------------------------------
# stage 2: the binder

_MISSING = object()
_ACTOR = ("player", "corporation", "company")


def _text(leaf) -> str:
    """The name a leaf stands for (quotes removed, a doubled `"` undone)."""
    return leaf[0][1:-1].replace('""', '"') if leaf[2] == "QUOTED" else leaf[0]


def _one_near(text: str, candidates: list) -> Optional[str]:
    """The one name ``text`` is a plain typo of (a letter missed, doubled or
    swapped: similarity at least 0.75, case aside), or None when there is no
    such name or more than one."""
    import difflib

    lowered = {c.lower(): c for c in candidates}
    near = difflib.get_close_matches(text.lower(), list(lowered), n=2, cutoff=0.75)
    return lowered[near[0]] if len(near) == 1 else None


class _Binder:
    """Turns parsed lines into actions, resolving names."""

    def __init__(self, path: str, resolver: _Resolver, findings: list):
        self.path = path
        self.r = resolver
        self.findings: list[Finding] = findings
        self.line: Optional[tuple] = None
        self.failed = False
        self.memo: dict[tuple, dict[str, Optional[str]]] = {}

    # --- helpers (the verb table's bind functions use them, see verbs.py)
    def error(self, leaf_or_column, message: str) -> InputError:
        col = leaf_or_column if isinstance(leaf_or_column, int) else leaf_or_column[1]
        return _error(self.path, self.line[_NUMBER], self.line[_CONTENT], col, message)

    def end_column(self) -> int:
        """The column just after the line's last character."""
        return len(self.line[_CONTENT]) + 1

    text = staticmethod(lambda leaf: _text(leaf))
    clip = staticmethod(lambda word: _clip(word))
    kinds_phrase = staticmethod(lambda kinds: _kinds_phrase(kinds))

    def name(self, leaf, kinds: tuple, what: Optional[str] = None) -> str:
        """Resolve a name as one of ``kinds``; unknown -> a finding."""
        text = _text(leaf)
        memo = self.memo.get(kinds)
        if memo is None:
            memo = self.memo[kinds] = {}
        value = memo.get(text, _MISSING)
        if value is _MISSING:
            r = self.r
            checked = [k for k in kinds if r.known(k)]
            if not checked:
                value = text
            else:
                value, _ = r.lookup(text, checked)
                if value is None and not r.strict and len(checked) < len(kinds):
                    value = text  # without a ruleset, only players are known
            memo[text] = value
        if value is None:
            near = self.unknown(leaf, what or _kinds_phrase(kinds),
                                self.r.candidates([k for k in kinds if self.r.known(k)]))
            return text if near is None else near
        return value

    def unknown(self, leaf, what: str, candidates: list[str], note: str = "") -> Optional[str]:
        """A finding for an unknown name.  When it is a plain typo of one
        name (:func:`_one_near`), the line stands with that name, which is
        returned; otherwise the line is dropped and None returned."""
        text = _text(leaf)
        near = None if note else _one_near(text, candidates)
        hint = note or (f" (did you mean {near}?); taken as {near}" if near
                        else did_you_mean(text, candidates))
        self.findings.append(Finding(
            severity=ERROR, rule="notation.unknown_name",
            message=f"unknown {what} '{_clip(text, 60)}'{hint}",
            line=self.line[_NUMBER], column=leaf[1],
            action_id=self.line[_ID], text=self.line[_CONTENT].strip()))
        if near is None:
            self.failed = True
        return near

    @staticmethod
    def int_(leaf) -> int:
        return int(leaf[0].rstrip("%"))

    @staticmethod
    def node(leaf) -> Stop:
        text = leaf[0]
        if "." in text:
            hex_, city = text.split(".", 1)
            return Stop(hex=hex_.upper(), city=int(city))
        return Stop(hex=text.upper())

    def amount(self, leaf) -> tuple[int, Optional[int]]:
        if leaf is None:
            return 1, None
        n = self.int_(leaf)
        if n < 1:
            raise self.error(leaf, "a number of shares must be at least 1")
        if leaf[2] == "PERCENT":
            if n > 100:
                raise self.error(leaf, "a percentage must be at most 100%")
            return 1, n
        return n, None

    def options(self, opts) -> dict:
        """Clauses ``(rule, KEYWORD, value)`` by their keyword (lower case);
        a clause given twice is an error."""
        out: dict = {}
        for _, kw, value in opts:
            key = kw[0].lower()
            if key in out:
                raise self.error(kw, f"'{kw[0].lower()}' given twice")
            out[key] = value
        return out

    # --- lines
    def bind(self, line: tuple, parsed) -> Optional[Action]:
        self.line = line
        self.failed = False
        kind = parsed[0]
        if kind == "action":
            actor_leaf, verb = parsed[1], parsed[2]
            actor = self.name(actor_leaf, _ACTOR)
            action = _verbs.BY_KEY[verb[0]].bind(self, verb[1], verb[2:])
            action.actor = actor
            action.column = actor_leaf[1]
        elif kind == "round":
            _, kw, num = parsed
            k = kw[0].lower()
            action = RoundMarker(kind="auction" if k == "auction" else k.upper(),
                                 number=tuple(int(x) for x in num[0].split(".")) if num else (),
                                 column=kw[1])
        elif kind == "check":
            action = self.bind_check(parsed)
        else:  # a header line after the first action
            raise self.error(parsed[1], f"header line '{parsed[1][0]}:' after the first round "
                             "marker or action: move it to the top of the file")
        if self.failed:
            return None
        action.line = line[_NUMBER]
        action.action_id = line[_ID]
        action.text = line[_CONTENT].strip()
        return action

    def bind_check(self, parsed) -> Action:
        _, kw, subject, field_leaf, value = parsed
        field_name = field_leaf[0].lower()
        subj = self.name(subject, _SUBJECT)
        if field_name == "trains":
            val: object = [self.name(t, _TRAIN) for t in value]
        elif field_name == "president":
            val = self.name(value, _PLAYER)
        else:
            val = self.int_(value)
        return Checkpoint(subject=subj, field=field_name, value=val, column=kw[1])

    def route(self, parsed) -> Route:
        """A ``route`` of the grammar: ("route", train, nodes, seps, revenue,
        halts)."""
        _, train, nodes, seps, revenue, halts = parsed
        if "~" not in seps:
            stops = [Stop(hex=n[0].upper()) if "." not in n[0] else self.node(n) for n in nodes]
            path = None
        else:
            node = self.node
            last = len(nodes) - 1
            stops = []
            path = []
            segment: list[str] = []
            for i, leaf in enumerate(nodes):
                stop = node(leaf)
                is_stop = i == 0 or i == last or seps[i] == "-"
                if not is_stop and stop.city is not None:
                    raise self.error(leaf, f"'{_clip(leaf[0])}' is passed through ('~' after it): "
                                     "write the hex without a city index, or '-' after it to "
                                     "stop there")
                segment.append(stop.hex)
                if is_stop:
                    stops.append(stop)
                    if i > 0:
                        if len(segment) == 2 and segment[0] == segment[1]:
                            segment = segment[:1]   # two places of one hex (F2.0-F2.1)
                        path.append(segment)
                    segment = [stop.hex]
        return Route(train=self.name(train, _TRAIN), stops=stops, path=path,
                     revenue=None if revenue is None else int(revenue[0]),
                     halts=None if halts is None else int(halts[0]))


def parse_game(text: str, path: str, names: Optional[Names] = None) -> tuple[GameRecord, list[Finding]]:
    """Parse a whole game.  Returns the record and the findings made while
    reading, in line order: unknown names (``notation.unknown_name``) and
    lines that cannot be read (``notation.syntax``); those lines are left
    out of the record.  Raises InputError only when the game cannot be read
    at all (not text, no title or players, a malformed header); never any
    other exception."""
    try:
        return _parse_game(text, path, names)
    except InputError:
        raise
    except RecursionError:
        raise InputError("input too deeply nested", path=path) from None
    except Exception as exc:  # a bug, but never let it escape as such
        raise InputError(f"cannot parse the game ({exc.__class__.__name__}: {exc})",
                         path=path) from None


def _parse_game(text, path, names):
    findings: list[Finding] = FindingList()
    lines = _lines(text, path, findings)
    header, first = _read_header(lines, path, findings)
    tags = header.tags
    record = GameRecord(path=path, title=tags.get("title"), players=list(header.players),
                        tags=dict(tags), options=list(header.options),
                        tag_locations=dict(header.locations))
    if "result" in tags:
        record.expected_result = _parse_result(tags["result"])
    if tags.get("end"):
        record.expected_end_reason = tags["end"]
    binder = _Binder(path, _Resolver(header.players, names), findings)
    actions = record.actions
    if first is not None:
        bind = binder.bind
        line, parsed = first
        while True:
            try:
                if parsed is None:
                    _explain_while(findings)
                    try:
                        parsed = _parse_content(line[_CONTENT], path, line[_NUMBER])
                    finally:
                        _EXPLAIN[0] = True
                action = bind(line, parsed)
                if action is not None:
                    actions.append(action)
            except InputError as exc:  # the line is skipped, the game goes on
                # past the findings a file keeps, a line that does not parse is
                # only counted (not respelt into the keyword it resembles)
                if len(findings) >= getattr(findings, "limit", len(findings) + 1):
                    findings.append(_syntax_finding(exc, line[_CONTENT], line[_ID]))
                    action = None
                else:
                    action = _retyped(binder, line, exc, findings)
                    if action is None:
                        # a line skipped whole: one finding, not one more for its '#@' id
                        number = line[_NUMBER]
                        findings[:] = [f for f in findings if not (
                            f.line == number and f.message.startswith(_BAD_ID))]
                if action is not None:
                    actions.append(action)
            line = next(lines, None)
            if line is None:
                break
            parsed = None
    return record, findings


# --------------------------------------------------------------------------
# writer

def _quote(name: str) -> str:
    """A name as written: bare when it reads back as itself, else in double
    quotes (a `"` inside doubled)."""
    name = str(name)
    if not name.strip() or "\n" in name or "\r" in name:
        raise ValueError(f"name {name!r} cannot be written in the notation")
    if _NAME_RE.fullmatch(name) and not _KEYWORD_RE.fullmatch(name) and not name.isdigit():
        return name
    return '"' + name.replace('"', '""') + '"'


def _header_value(value: str) -> str:
    value = str(value)
    if "\n" in value or "\r" in value:
        raise ValueError(f"header value {value!r} spans lines")
    needs = ("#" in value or value != value.strip()
             or (len(value) >= 2 and value[0] == '"' and value[-1] == '"'))
    if needs:
        return '"' + value.replace('"', '""') + '"'
    return value


def _header_key(key: str) -> str:
    k = re.sub(r"[^a-z0-9_\-]", "_", str(key).strip().lower())
    if not k or not k[0].isalpha():
        k = "x" + k
    return k


def _number(n) -> str:
    return str(int(n))


def _write_route(route: Route) -> str:
    stops = route.stops
    if not stops:
        raise ValueError("a route without stops cannot be written")
    path = route.path
    ok = (path is not None and len(path) == len(stops) - 1 and
          all((len(seg) >= 2 and seg[0] == stops[i].hex and seg[-1] == stops[i + 1].hex)
              # a link between two places of one hex (1860: F2.0-F2.1)
              or (len(seg) == 1 and seg[0] == stops[i].hex == stops[i + 1].hex)
              for i, seg in enumerate(path)))
    parts = [str(stops[0])]
    if ok:
        for i, seg in enumerate(path):
            sep = "~" if i == 0 else "-"
            for h in seg[1:-1]:
                parts.append(sep + h)
                sep = "~"
            parts.append(sep + str(stops[i + 1]))
    else:
        parts.extend("-" + str(s) for s in stops[1:])
    text = f"{route.train} {''.join(parts)}"
    halts = None if route.halts is None else \
        f"{_number(route.halts)} halt{'' if route.halts == 1 else 's'}"
    # 1860: how many halts the train counts (they pay the subsidy)
    if route.revenue is not None:
        text += f" ({_number(route.revenue)}; {halts})" if halts else \
            f" ({_number(route.revenue)})"
    elif halts:
        text += f" ({halts})"
    return text


def _amount(count: int, percent: Optional[int]) -> str:
    if percent is not None:
        if not 1 <= int(percent) <= 100:
            raise ValueError(f"a percentage of {percent} cannot be written")
        return f"{int(percent)}% "
    if int(count) < 1:
        raise ValueError(f"a count of {count} shares cannot be written")
    return f"{int(count)} " if count != 1 else ""


class _WRITER:
    """The writer's toolkit for the verb table's write functions."""

    name = staticmethod(_quote)
    number = staticmethod(_number)
    amount = staticmethod(_amount)
    route = staticmethod(_write_route)

    @staticmethod
    def stop(hex_: str, city: Optional[int]) -> str:
        return str(Stop(hex=hex_, city=city))


def _write_action(a: Action) -> str:
    if isinstance(a, RoundMarker):
        num = ".".join(str(int(n)) for n in a.number)
        kind = str(a.kind).lower()
        if kind == "auction":
            return f"auction {num}".rstrip()
        if kind not in ("sr", "or", "mr") or not num:
            raise ValueError(f"round marker {a.kind!r} {a.number!r} cannot be written")
        return f"{kind.upper()} {num}"
    if isinstance(a, Checkpoint):
        f = a.field.lower()
        if f in MONEY_FIELDS:
            value = _number(a.value)
        elif f == "trains":
            value = ",".join(str(t) for t in a.value) if a.value else "none"
        elif f == "president":
            value = _quote(a.value)
        else:
            raise ValueError(f"unknown checkpoint field {a.field!r}")
        return f"check {_quote(a.subject)} {f} {value}"
    for verb in _verbs.writers_for(type(a)):
        text = verb.write(_WRITER, a)
        if text is not None:
            return f"{_quote(a.actor)} {text}"
    raise ValueError(f"cannot write a {type(a).__name__} action")


def write_game(record: GameRecord) -> str:
    """Write a record as notation.  ``parse_game`` of the result (with the
    same names) gives the same actions, except what the notation does not
    carry: locations and text, certificate numbers and train ids of imports.
    Raises ValueError for a record that cannot be written (a name with a
    double quote, a train type with a space, an unknown action class...):
    every line written is parsed back first."""
    out: list[str] = []
    if not record.title:
        raise ValueError("a record without a title cannot be written")
    out.append(f"title: {_header_value(record.title)}")
    if not record.players:
        raise ValueError("a record without players cannot be written")
    out.append("players: " + ", ".join(_quote(p) for p in record.players))
    if record.options:
        if any("," in str(o) or not str(o).strip() for o in record.options):
            raise ValueError(f"options {record.options!r} cannot be written")
        out.append("options: " + ", ".join(_header_value(str(o).strip()) for o in record.options))
    written = {"title", "players", "options"}
    for key, value in record.tags.items():
        k = _header_key(key)
        if k in written:
            continue
        written.add(k)
        out.append(f"{k}: {_header_value(value)}")
    if record.expected_result and "result" not in written:
        out.append("result: " + ", ".join(f"{_quote(n)} {int(v)}" for n, v in record.expected_result.items()))
    if record.expected_end_reason and "end" not in written:
        out.append(f"end: {_header_value(record.expected_end_reason)}")
    for action in record.actions:
        line = _write_action(action)
        try:  # a value the notation cannot hold (a train type "2 (p)")
            _parse_content(line, "<write>", 1)
        except InputError as exc:
            raise ValueError(f"cannot write {type(action).__name__} as {line!r}: "
                             f"{exc.bare}") from None
        if isinstance(action, RoundMarker):
            out.append("")
        if action.action_id is not None:
            line += f"  #@{int(action.action_id)}"
        out.append(line)
    return "\n".join(out) + "\n"
