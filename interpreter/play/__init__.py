"""The terminal table: play any ruleset against bots or friends, and replay records.

``session.play`` plays a match, ``replay.replay`` steps through a record; both
talk to the screen only through ``terminal.Terminal``, so tests can drive them.
"""

from .replay import replay
from .session import PlaySettings, SetupError, play
from .terminal import RichTerminal, ScriptedTerminal, Terminal

__all__ = ["PlaySettings", "RichTerminal", "ScriptedTerminal", "SetupError", "Terminal", "play",
           "replay"]
