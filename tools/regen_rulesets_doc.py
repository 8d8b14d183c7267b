#!/usr/bin/env python3
"""Write the schema reference (``python -m railcheck.schema``) into docs/rulesets.md, in
place of the one there (from its "### Top-level keys" to the end)."""

from pathlib import Path

from railcheck.schema import schema_reference

DOC = Path(__file__).resolve().parent.parent / "docs" / "rulesets.md"


def main() -> None:
    text = DOC.read_text()
    start = text.index("### Top-level keys")
    DOC.write_text(text[:start] + schema_reference())


if __name__ == "__main__":
    main()
