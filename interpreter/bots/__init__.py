"""Bots: ``random``, ``greedy``, ``strategist``, ``expert`` and plug-ins named ``module:object``.

Every bot sees only an ``Observation`` and the legal actions (``base.Bot``).
"""

from .base import Bot, FunctionBot
from .loader import REGISTRY, make_bot, resolve

__all__ = ["REGISTRY", "Bot", "FunctionBot", "make_bot", "resolve"]
