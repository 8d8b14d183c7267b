"""``python -m railcheck``: the same as the ``railcheck`` command."""

from .cli import main

if __name__ == "__main__":  # pragma: no cover
    main(prog_name="railcheck")
