"""At the table: what is legal now (``railcheck next``), a record re-checked
as it is saved (``railcheck watch``) or typed (``railcheck lsp``), and the
replay with snapshots they share (``incremental.py``).  The rounds' and
steps' inner workings are read in one place only, ``adapter.py``."""
