#!/usr/bin/env python3
"""Run railcheck or its tests from this checkout, in a virtual environment of
its own (``.venv`` beside this file), made and brought up to date first.

    python3 dev.py validate examples/1830/game.18xx    # any railcheck command
    python3 dev.py test [PYTEST ARGS]                    # the test suite

Works with nothing but Python 3.11+: also on a Python that refuses
``pip install`` outside a virtual environment (Debian's and Ubuntu's
"externally-managed-environment"), and on one whose ``venv`` cannot install
pip into a new environment (Debian without python3-venv: the environment is
made without pip, and this Python's own pip installs into it).  The
environment is installed again only when pyproject.toml changes (the
project is installed editable, so the code itself is always this
checkout's).  ``RAILCHECK_VENV`` names another folder for it.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
VENV = Path(os.environ.get("RAILCHECK_VENV") or HERE / ".venv")
STAMP = VENV / ".railcheck-installed"


def fail(message: str) -> None:
    sys.stderr.write(f"dev.py: {message}\n")
    sys.exit(2)


def venv_python() -> Path:
    if os.name == "nt":
        return VENV / "Scripts" / "python.exe"
    return VENV / "bin" / "python"


def has_pip(python) -> bool:
    return subprocess.run([str(python), "-m", "pip", "--version"], stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL).returncode == 0


def make_venv() -> None:
    import venv
    # DEV_PY_WITHOUT_PIP=1 takes the path of a Python without ensurepip (to try it)
    if not os.environ.get("DEV_PY_WITHOUT_PIP"):
        try:
            venv.EnvBuilder(with_pip=True).create(VENV)
            return
        except (subprocess.CalledProcessError, OSError):
            pass
    # no ensurepip (Debian's python3 without python3-venv): an environment
    # without pip, into which this Python's pip installs
    venv.EnvBuilder(with_pip=False, clear=True).create(VENV)


def pip_command() -> list[str]:
    """How to run pip for the environment: its own, or this Python's pointed at it."""
    py = venv_python()
    if has_pip(py):
        return [str(py), "-m", "pip"]
    if has_pip(sys.executable):
        return [sys.executable, "-m", "pip", "--python", str(py)]
    fail(f"the environment {VENV} has no pip and neither has {sys.executable}; install "
         f"pip or the venv module (Debian, Ubuntu: apt install python3-venv) and run again")


def ensure(extras: str) -> Path:
    """The environment's Python, with railcheck (and ``extras``) installed."""
    if sys.version_info < (3, 11):
        fail(f"railcheck needs Python 3.11 or newer; this is {sys.version.split()[0]}")
    digest = hashlib.sha256((HERE / "pyproject.toml").read_bytes()).hexdigest()[:16]
    installed = installed_extras(digest)
    if venv_python().exists() and installed is not None and (not extras or extras in installed):
        return venv_python()
    if not venv_python().exists():
        sys.stderr.write(f"dev.py: making the virtual environment {VENV}\n")
        make_venv()
    target = f"{HERE}[{extras}]" if extras else str(HERE)
    sys.stderr.write(f"dev.py: installing railcheck{f'[{extras}]' if extras else ''} "
                     f"into {VENV}\n")
    code = subprocess.run([*pip_command(), "install", "--quiet", "--disable-pip-version-check",
                           "-e", target]).returncode
    if code:
        fail(f"pip could not install railcheck into {VENV} (exit {code})")
    STAMP.write_text(f"{digest} {extras or '-'}\n")
    return venv_python()


def installed_extras(digest: str):
    """The extras installed for this pyproject.toml (a set), or None."""
    try:
        stamp, extras = STAMP.read_text().split()
    except (OSError, ValueError):
        return None
    return set(extras.split(",")) - {"-"} if stamp == digest else None


def main(argv: list[str]) -> int:
    if argv[:1] == ["test"]:
        py = ensure("test")
        # one process per CPU (pytest-xdist), the long tests handed out first
        # as they come free; "-n 0" among the arguments runs in this one.
        # Bytecode is written (as tests/conftest.py keeps it for railcheck):
        # where the environment says PYTHONDONTWRITEBYTECODE, pytest would
        # otherwise rewrite the asserts of its plugins' 45 modules (xdist,
        # anyio, hypothesis ...) again in each of its processes, 1.5 s of CPU
        # each
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        return subprocess.run([str(py), "-m", "pytest", "-q", "-n", "auto", "--dist",
                               "worksteal", *argv[1:]], cwd=HERE, env=env).returncode
    if argv[:1] in (["-h"], ["--help"], []):
        print(__doc__.strip())
        return 0
    py = ensure("")
    return subprocess.run([str(py), "-m", "railcheck", *argv]).returncode


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except KeyboardInterrupt:
        sys.exit(130)
