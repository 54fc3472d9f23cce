"""The general loop's own source, specialised to one ruleset: the kernel of a ruleset with a
spinner and placement restrictions (``kernel.python_kernel``, specialised the same way by
``specialise_kernel``, plays the rulesets ``generate.covers``).

``GeneralLoop.run`` is a generator with a branch for every mechanism. Here its syntax tree
is partially evaluated for a ruleset and a table of bots: the switches the ruleset fixes
(``spinner``, ``restrictions``, each kind of event, records on or off, the draw rules...)
become constants, every decision a builtin bot makes in the loop (``pols[p] is None`` is
false) loses its ``yield``, and the branches that can no longer run are cut. What is left
is one plain function with no test on a mechanism the ruleset lacks, compiled once per
distinct specialisation and run on a ``GeneralLoop`` object as its ``run``. Nothing is
written twice: the mechanisms' code is the loop's, and ``tests/test_kernel.py`` plays
every ruleset through both.
"""

from __future__ import annotations

import ast
import copy
import inspect
import textwrap
from collections.abc import Callable
from typing import Any

from ..engine.general_loop import RoundEnd, plain_turn_of
from ..engine.results import ONE_STEP, RoundStats, one_step_source
from ..generated import compile_named, label

# the named tuples the loop builds by name once a round, made in one step in the kernel
ONE_STEP_CLASSES = {"RoundStats": RoundStats, "RoundEnd": RoundEnd}


class _Specialiser(ast.NodeTransformer):
    """Constant truth values in tests, ``pols[p] is None`` false, dead branches cut."""

    def __init__(self, truths: dict[str, bool], equal: dict[str, int]):
        self.truths = truths      # name -> its truth value wherever it is tested
        self.equal = equal        # name -> its constant value in ``name == k`` tests

    def visit_Call(self, node: ast.Call) -> ast.expr:
        """``RoundStats(field=value, ...)`` and ``RoundEnd(...)``, built by name in the
        loop, made in one step here (``one_step_source``)."""
        node = self.generic_visit(node)
        cls = isinstance(node.func, ast.Name) and ONE_STEP_CLASSES.get(node.func.id)
        if cls and not node.args and all(k.arg is not None for k in node.keywords):
            text = one_step_source(cls, {k.arg: ast.unparse(k.value) for k in node.keywords})
            return ast.parse(text, mode="eval").body
        return node

    # -- what becomes constant -----------------------------------------------------------
    def _truth(self, node: ast.expr) -> ast.expr:
        if isinstance(node, ast.Name) and node.id in self.truths:
            return ast.Constant(self.truths[node.id])
        return node

    def visit_Compare(self, node: ast.Compare) -> ast.expr:
        node = self.generic_visit(node)
        if len(node.ops) == 1 and isinstance(node.comparators[0], ast.Constant):
            left, op, right = node.left, node.ops[0], node.comparators[0].value
            if isinstance(op, ast.Is) and right is None and _seat_policy(left):
                return ast.Constant(False)          # a builtin bot decides: never yields
            if isinstance(op, (ast.Eq, ast.NotEq)) and isinstance(left, ast.Name) \
                    and left.id in self.equal:
                same = self.equal[left.id] == right
                return ast.Constant(same if isinstance(op, ast.Eq) else not same)
        return node

    # -- folding ---------------------------------------------------------------------------
    def visit_BoolOp(self, node: ast.BoolOp) -> ast.expr:
        node = self.generic_visit(node)
        values = [self._truth(v) for v in node.values]
        kept: list[ast.expr] = []
        is_and = isinstance(node.op, ast.And)
        for i, v in enumerate(values):
            if isinstance(v, ast.Constant) and isinstance(v.value, bool):
                if v.value == (not is_and):       # True in an or, False in an and: decided
                    if not kept:
                        return v
                    kept.append(v)
                    break
                if i == len(values) - 1:          # the last operand is the value itself
                    kept.append(v)
                continue                          # True in an and, False in an or: no effect
            kept.append(v)
        if len(kept) == 1:
            return kept[0]
        node.values = kept
        return node

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.expr:
        node = self.generic_visit(node)
        operand = self._truth(node.operand)
        if isinstance(node.op, ast.Not) and isinstance(operand, ast.Constant):
            return ast.Constant(not operand.value)
        return node

    def visit_IfExp(self, node: ast.IfExp) -> ast.expr:
        node = self.generic_visit(node)
        test = self._truth(node.test)
        if isinstance(test, ast.Constant):
            return node.body if test.value else node.orelse
        return node

    def visit_If(self, node: ast.If) -> Any:
        node = self.generic_visit(node)
        test = self._truth(node.test)
        if isinstance(test, ast.Constant):
            branch = node.body if test.value else node.orelse
            return branch or [ast.Pass()]
        node.test = test
        return node


def _seat_policy(node: ast.expr) -> bool:
    """``pols[p]`` or ``pol``: the seat's policy (None: the seat yields its decision)."""
    if isinstance(node, ast.Name):
        return node.id == "pol"
    return (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name)
            and node.value.id == "pols")


class _InlineFits(ast.NodeTransformer):
    """The loop's ``... = fits_of(p, h, pos, rnd_no, queued)`` replaced by the body of
    ``GeneralLoop._fits`` (its parameters renamed to the arguments, its docstring and
    final ``return`` dropped), so the switches it reads fold here too and a turn pays no
    call: the one truth of a turn's fits, written once, costs the kernel nothing."""

    def __init__(self, fits: ast.FunctionDef):
        params = [a.arg for a in fits.args.args[1:]]   # past self
        body = [st for st in fits.body
                if not (isinstance(st, ast.Expr) and isinstance(st.value, ast.Constant))]
        last = body[-1]
        if not (isinstance(last, ast.Return) and isinstance(last.value, ast.Tuple)):
            raise ValueError("GeneralLoop._fits must end in one return of a tuple of names")
        self.returns = [n.id for n in last.value.elts if isinstance(n, ast.Name)]
        self.params, self.body = params, body[:-1]

    def visit_Assign(self, node: ast.Assign) -> Any:
        call = node.value
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name)
                and call.func.id == "fits_of"):
            return node
        targets = node.targets[0]
        names = [n.id for n in targets.elts] if isinstance(targets, ast.Tuple) else []
        args = [a.id for a in call.args if isinstance(a, ast.Name)]
        if names != self.returns or len(args) != len(self.params):
            raise ValueError("the loop's fits_of(...) must take _fits' results by its names")
        rename = dict(zip(self.params, args, strict=True))

        class Rename(ast.NodeTransformer):
            def visit_Name(self, name: ast.Name) -> ast.Name:
                return ast.Name(rename.get(name.id, name.id), name.ctx)

        return [Rename().visit(copy.deepcopy(st)) for st in self.body]


def specialised_run(loop_class: type, truths: dict[str, bool], equal: dict[str, int],
                    what: str = "loop") -> Callable[[Any], None]:
    """``loop_class.run`` specialised (a plain function of the loop object), or raise
    ``ValueError`` when a ``yield`` survives (a seat left to decide outside the loop).
    ``what`` names the code in tracebacks (``generated.compile_named``)."""
    source = textwrap.dedent(inspect.getsource(loop_class.run))
    tree = ast.parse(source)
    func = tree.body[0]
    fits = ast.parse(textwrap.dedent(inspect.getsource(loop_class._fits))).body[0]
    func = _InlineFits(fits).visit(func)   # before the folding: its switches fold too
    func = _Specialiser(truths, equal).visit(func)
    if any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in ast.walk(func)):
        raise ValueError("a yield is left: some seat decides outside the loop")
    module = ast.Module(body=[func], type_ignores=[])
    ast.fix_missing_locations(module)
    text = ast.unparse(module)
    code = compile_named(text, what)
    namespace = dict(inspect.getmodule(loop_class).__dict__)
    namespace.update(ONE_STEP=ONE_STEP, **ONE_STEP_CLASSES)
    exec(code, namespace)  # noqa: S102 - the loop's own source, specialised
    run = namespace[func.name]
    run.source = text       # what was compiled, to read (and for the tests)
    return run


def general_kernel(game: Any, players: int, record: bool) -> Callable[[Any], None]:
    """The general loop's ``run`` specialised for ``game`` at ``players`` (kept per game)."""
    from ..engine.general_loop import GeneralLoop

    kernels = game.__dict__.setdefault("_general_kernels", {})
    key = (players, record)
    found = kernels.get(key)
    if found is None:
        truths = loop_truths(game, players, record)
        equal = {} if truths["spinner"] else {"count": 2}   # no spinner: two ends, always
        what = label("kernel loop", game.rules.name, f"{players}p")
        found = kernels[key] = specialised_run(GeneralLoop, truths, equal, what)
    return found


def loop_truths(game: Any, players: int, record: bool) -> dict[str, bool]:
    """The switches of ``GeneralLoop.run`` this ruleset fixes, by the loop's local names."""
    from .settle import match_over_for, settlement_for

    rules, setup = game.rules, game.setup(players)
    events = rules.events
    return {
        "recording": record,
        "spinner": rules.spinner == "first_double",
        "fit_rule": rules.fit is not None,
        "shaped": rules.layout is not None,   # never true here: no kernel plays board.layout
        "marking": False,                    # trains' markers: board.layout, as shaped
        "restrictions": bool(rules.restrictions),
        "restricted": bool(rules.restrictions),   # its name in GeneralLoop._fits, inlined
        "events": bool(events),
        "ev_place": any(e.after == "place" for e in events),
        "ev_draw": any(e.after == "draw" for e in events),
        "ev_pass": any(e.after == "pass" for e in events),
        "waive": rules.if_none_allowed == "waive",
        "pass_if_forbidden": rules.if_none_allowed == "pass",
        "vol": setup.voluntary,
        "stuck_draw": setup.stuck_draws,
        # what a turn may hold (engine.mechanisms.turn_options)
        "at_will": rules.passing == "at_will",
        "ends_turn": bool(rules.draw_ends_turn),
        "exactly": bool(rules.draw_exactly),
        # declarations and the showdown (engine.mechanisms.declarations)
        "declare_start": any(d.when == "round_start" for d in rules.declarations),
        "declare_place": any(d.when == "after_place" for d in rules.declarations),
        "showdown": rules.showdown is not None,
        "several_on": rules.several is not None,   # never true here: no kernel plays it
        "turn_up": bool(rules.turn_up),   # deal.turn_up (engine.mechanisms.turn_up)
        "blind": bool(rules.blind),       # deal.blind (engine.mechanisms.blind)
        "leftover_on": rules.leftover != "boneyard",   # deal.leftover (mechanisms.leftover)
        "side_out_on": rules.play_until == "side_out",   # play.until (mechanisms.side_out)
        "dup": game.tileset.copies > 1,   # set.copies: two sets shuffled together
        "plain_turn": plain_turn_of(game),   # the fits inline, else GeneralLoop._fits
        # the settlement and match end written out (kernel.settle), when they can be
        "written_settle": settlement_for(game, players) is not None,
        "written_match_over": match_over_for(game, players) is not None,
    }
