"""pbem: a play-by-email turn adjudicator for board wargames (see README.md and DESIGN.md)."""

__version__ = "0.1.0"
