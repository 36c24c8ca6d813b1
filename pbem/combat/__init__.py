"""Combat machinery shared by the hex-and-counter games (Escape from Altassar, Olympica),
independent of any one game (docs/combat.md).

- :mod:`pbem.combat.odds`: the odds ladder ("1-2" = 0, "1-1" = 1, "2-1" = 2 ...) and how
  strengths are placed on it, fractions dropped in the defender's favour (Altassar 7.6);
  :func:`odds_label`, :func:`odds_position`, :func:`shift_text`.
- :mod:`pbem.combat.crt`: :class:`CombatTable`, an odds-ratio combat results table read from a
  game's data file with a source for every cell; :meth:`CombatTable.lookup` applies column
  shifts, the end-column clamp (Altassar 7.71) and die modifiers, and returns a
  :class:`Lookup` that explains itself.
- :mod:`pbem.combat.text`: :func:`format_table`, the table as plain text for ``pbem rules``.
"""

from .crt import MAX_CODE, Cell, CombatTable, CombatTableError, Lookup, TableLookupError
from .odds import (OddsError, OddsLabelError, ladder_label, ladder_position, odds_label,
                   odds_position, shift_text)
from .text import format_table, source_marks

__all__ = [
    "MAX_CODE", "Cell", "CombatTable", "CombatTableError", "Lookup", "OddsError",
    "OddsLabelError", "TableLookupError", "format_table", "ladder_label", "ladder_position",
    "odds_label", "odds_position", "shift_text", "source_marks",
]
