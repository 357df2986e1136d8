"""Computer players. A :class:`Player` chooses a move for the player on turn and
decides whether to challenge the last play.

>>> from lexiko.bots import GreedyBot
>>> GreedyBot.__name__
'GreedyBot'
"""

from lexiko.bots.base import Player
from lexiko.bots.greedy import GreedyBot

__all__ = ["Player", "GreedyBot"]
