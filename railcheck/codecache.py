"""railcheck's cache folder, and the compiled code of the methods that
``dataclasses`` writes, kept there between runs.

Every ``@dataclass`` writes its ``__init__``, ``__repr__``, ``__eq__`` ... as
Python source and compiles it with ``exec`` when its module is imported: for
railcheck's 50-odd dataclasses about 200 small compilations, a tenth of the
instructions of a ``railcheck validate`` of a few games.  :func:`install`
(called by the command line before it imports the rest of railcheck) gives
the ``dataclasses`` module an ``exec`` that looks each source text up in a
table of code objects compiled from that very text, read from the cache
folder, and compiles (and remembers, written back at the end of the process)
only a text it has not met.  The methods are the same: the same text compiled
the same way (no inherited ``__future__`` flags, as ``dataclasses`` itself
has none), run with the same globals and locals.  ``RAILCHECK_NO_CACHE=1``
turns it off with the rest of the cache.
"""

from __future__ import annotations

import builtins
import os
import sys
from pathlib import Path
from typing import Optional


def cache_dir() -> Optional[Path]:
    """The folder of railcheck's cache, or None when it is turned off."""
    if os.environ.get("RAILCHECK_NO_CACHE", "") not in ("", "0"):
        return None
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):       # unset or relative: ignored, as the spec says
        try:
            base = os.path.join(os.path.expanduser("~"), ".cache")
        except Exception:
            return None
        if not os.path.isabs(base):
            return None
    return Path(base) / "railcheck"


#: the most code objects the file keeps (a text no longer met is dropped
#: when the table outgrows this)
_MAX = 2000

_codes: dict = {}       # source text -> code object
_used: set = set()
_added = False
_file: Optional[Path] = None


def _stamp() -> str:
    return "\0".join((sys.version, getattr(sys.implementation, "cache_tag", "") or "", "1"))


def _exec(source, globals=None, locals=None, /):
    """``exec`` as ``dataclasses`` calls it, with the compilation of a source
    text remembered."""
    global _added
    if type(source) is str:
        code = _codes.get(source)
        if code is None:
            code = compile(source, "<string>", "exec", dont_inherit=True)
            _codes[source] = code
            _added = True
        _used.add(source)
        source = code
    return builtins.exec(source, globals, locals)


def install() -> None:
    """Give ``dataclasses`` the remembering ``exec`` (once per process; not
    when the cache is turned off or its file cannot be placed)."""
    global _file
    if _file is not None:
        return
    folder = cache_dir()
    if folder is None:
        return
    import dataclasses
    if "exec" in vars(dataclasses):     # someone else's: leave it
        return
    import zlib
    _file = folder / f"dataclass-code-{zlib.crc32(_stamp().encode()):08x}.marshal"
    _read()
    dataclasses.exec = _exec
    import atexit
    atexit.register(_save)


def _read() -> None:
    import marshal
    try:
        with open(_file, "rb") as fh:
            blob = fh.read()
        stamp, table = marshal.loads(blob)
    except Exception:         # absent, unreadable, damaged or of another form
        return
    if stamp != _stamp() or not isinstance(table, dict):
        return
    for text, code in table.items():
        if type(text) is str and type(code) is type(_read.__code__):
            _codes[text] = code


def write_atomically(path: Path, blob: bytes) -> bool:
    """Write a cache file: to a temporary file beside it, then renamed, so
    that a reader never sees half a file.  False (and no file left behind)
    when it cannot be written: read-only, full, not ours — the caller runs
    without the cache."""
    import tempfile
    tmp = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".marshal")
        with os.fdopen(fd, "wb") as fh:
            fh.write(blob)
        os.replace(tmp, path)
        tmp = None
        return True
    except Exception:
        return False
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def _save() -> None:
    """Write the table back if a text was compiled in this process (any
    failure leaves the file as it was)."""
    if not _added or _file is None:
        return
    import marshal
    table = _codes if len(_codes) <= _MAX else {t: _codes[t] for t in _used}
    try:
        blob = marshal.dumps((_stamp(), table))
    except Exception:
        return
    write_atomically(_file, blob)
