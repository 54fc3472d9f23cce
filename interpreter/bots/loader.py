"""Bots by name: the builtin registry (imported lazily) and ``module:object`` plug-ins.

A builtin bot that takes options is named with them: ``expert:playouts=200`` (options
separated by ``:``); the bot's ``parse_options(text)`` checks them.

A plug-in is ``module:object`` (``mybots:Cautious``) or ``path/to/file.py:object``:
a class is constructed as ``object(seat, rng)``; a plain function
``object(obs, legal) -> Action`` is wrapped as a bot. Bad specs raise a
``DiagnosticError`` with code ``bot`` and one line saying what to fix.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import os
import random
import sys
from typing import Any

from ..diagnostics import Diagnostic, DiagnosticError, did_you_mean
from ..files import check_path
from .base import FunctionBot
from .guard import BOT_ERRORS, construct

# name -> "module:object"; imported only when asked for
REGISTRY: dict[str, str] = {
    "random": "dominorules.bots.random_bot:RandomBot",
    "greedy": "dominorules.bots.greedy:GreedyBot",
    "drawer": "dominorules.bots.drawer:DrawerBot",
    "strategist": "dominorules.bots.strategist:StrategistBot",
    "expert": "dominorules.bots.expert:ExpertBot",
}


def _fail(message: str, hint: str = "") -> DiagnosticError:
    return DiagnosticError([Diagnostic("bot", message, hint=hint)])


_RESOLVED: dict[str, Any] = {}


def resolve(spec: str) -> Any:
    """The class or function a bot spec names (no instance yet); remembered once found."""
    found = _RESOLVED.get(spec)
    if found is None:
        found = _RESOLVED[spec] = _resolve(spec)
    return found


class Configured:
    """A builtin bot with options (``expert:playouts=200``), built as ``cls(seat, rng,
    **options)``: a plain value, so a bot list with options pickles to compare's workers."""

    def __init__(self, cls: type, options: dict):
        self.cls = cls
        self.options = options
        self.__qualname__ = cls.__qualname__

    def __call__(self, seat: int, rng: random.Random) -> Any:
        return self.cls(seat, rng, **self.options)


def _resolve(spec: str) -> Any:
    name, colon, options = spec.partition(":")
    if colon and name.strip() in REGISTRY:
        cls = resolve(name.strip())
        parse = getattr(cls, "parse_options", None)
        if parse is None:
            raise _fail(f"bot '{name.strip()}' takes no options, so '{spec}' names no bot")
        return Configured(cls, parse(options))
    if spec in REGISTRY:
        target = REGISTRY[spec]
    elif ":" in spec:
        target = spec
    else:
        raise _fail(f"unknown bot '{spec}'",
                    did_you_mean(spec, REGISTRY) + " (or name your own as module:object)")
    module_name, _, attr = target.rpartition(":")
    if not module_name or not attr:
        raise _fail(f"bad bot '{spec}': write it as module:object")
    module = _import(spec, module_name)
    obj = module
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise _fail(f"bot '{spec}': module {module_name} has no '{attr}'")
        obj = getattr(obj, part)
    if not callable(obj):
        raise _fail(f"bot '{spec}': {attr} is neither a class nor a function")
    return obj


def _import(spec: str, module_name: str):
    try:
        if module_name.endswith(".py") or os.sep in module_name:
            path = os.path.abspath(module_name)
            problem = check_path(path, "bot")
            if problem is not None:
                raise _fail(f"bot '{spec}': {problem.message}")
            name = "dominorules_bot_" + os.path.splitext(os.path.basename(path))[0]
            loader_spec = importlib.util.spec_from_file_location(name, path)
            module = importlib.util.module_from_spec(loader_spec)
            sys.modules[name] = module
            loader_spec.loader.exec_module(module)
            return module
        return importlib.import_module(module_name)
    except DiagnosticError:
        raise
    except ImportError as exc:
        raise _fail(f"bot '{spec}': cannot import {module_name} ({exc})") from None
    except BOT_ERRORS as exc:  # a plug-in's own bug (or its sys.exit), reported in one line
        raise _fail(f"bot '{spec}': importing {module_name} failed: "
                    f"{type(exc).__name__}: {exc}") from None


def make_bot(spec: Any, seat: int, rng: random.Random):
    """A bot for ``seat``: from a name/spec string, a class, a function, or a bot object."""
    if isinstance(spec, str):
        label = spec.strip()
        spec = resolve(label)
        if isinstance(spec, (type, Configured)):
            return construct(spec, seat, rng, label)
        return FunctionBot(spec, seat, rng)
    if inspect.isclass(spec):
        return construct(spec, seat, rng, spec.__qualname__)
    if hasattr(spec, "choose"):
        return spec
    if callable(spec):
        return FunctionBot(spec, seat, rng)
    raise _fail(f"{spec!r} is not a bot: give a name, a class or a function")
