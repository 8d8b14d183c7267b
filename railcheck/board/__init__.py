"""The map of an 18xx game: tiles, station markers, track and train runs.

``Board`` is driven by the replay engine (see docs/board.md)."""

from .board import Board, load_board_yaml
from .tiles import BoardDataError, COLOR_ORDER, PHASE_ORDER, revenue_for_phase

__all__ = ["Board", "load_board_yaml", "BoardDataError", "COLOR_ORDER", "PHASE_ORDER",
           "revenue_for_phase"]
