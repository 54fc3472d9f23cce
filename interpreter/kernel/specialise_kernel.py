"""``python_kernel.play`` specialised for one ruleset by its syntax tree: the Python kernel.

The kernel is real Python (``kernel.python_kernel``) with every rule behind an upper-case
switch. ``specialised_source`` reads its tree and:

- puts each switch's and number's value in as a constant (an int, a bool or None: a
  checked literal, never a ruleset's text) and each writer's expression in its name's
  place (code ``kernel.events``, ``kernel.opening``, ``kernel.formulas`` and
  ``kernel.settle`` wrote from a ruleset's checked formula trees);
- puts a writer's statements where ``splice(NAME)`` stands (or nothing);
- inlines ``play``'s own helpers (the functions defined in its body, so a block the
  kernel repeats is written once): a call becomes the helper's statements, or a
  ``return``'s expression, each parameter the argument's name or expression;
- unrolls ``dealt_hands(deck)`` over the deck's slots and ``ints(values, n)`` inside an
  f-string into one ``{values[i]}`` an item;
- folds what became constant with ``specialise_loop``'s folding (the one the general
  loop's kernel uses: tests decided, dead branches cut, named tuples made in one step),
  then drops what can no longer run: statements after a ``break``, ``continue``,
  ``return`` or ``raise``, a loop that now runs once, ``pass`` beside other statements.

What is left is the source ``generate`` compiles (under a readable name, its lines in
linecache) and ``dominorules kernel`` prints.

``specialised_module`` does the same to a whole module, the JIT's (``jit_loop``): its
switches and the scoring formulas put in and folded by the same walk, its placeholder
assignments (``A = B = 0``) written with the numbers given (the array indexes), for
``jit_kernel`` to write to the kernel cache folder.
"""

from __future__ import annotations

import ast
import copy
import inspect
import textwrap
from collections.abc import Mapping
from functools import cache, lru_cache
from typing import Any

from . import python_kernel
from .specialise_loop import _Specialiser

# the calls a specialisation replaces (python_kernel's splice, dealt_hands and ints)
_MARKERS = ("splice", "dealt_hands", "ints")


@cache
def _tree() -> ast.FunctionDef:
    """``python_kernel.play``'s syntax tree, parsed once (specialising never changes it)."""
    return ast.parse(textwrap.dedent(inspect.getsource(python_kernel.play))).body[0]


@cache
def _helpers() -> dict[str, ast.FunctionDef]:
    """The helpers ``play`` defines in its body, by name: inlined where they are called."""
    return {st.name: st for st in _tree().body if isinstance(st, ast.FunctionDef)}


class _Arguments(ast.NodeTransformer):
    """A helper's body with each parameter replaced by its call's argument (a name the
    helper sets must be given a name: it sets the caller's)."""

    def __init__(self, helper: str, args: Mapping[str, ast.expr]):
        self.helper, self.args = helper, args

    def visit_Name(self, node: ast.Name) -> ast.expr:
        arg = self.args.get(node.id)
        if arg is None:
            return node
        if isinstance(node.ctx, ast.Load):
            return copy.deepcopy(arg)
        if not isinstance(arg, ast.Name):
            raise TypeError(f"kernel: {self.helper} sets {node.id}: pass it a name")
        return ast.Name(arg.id, node.ctx)


def _inlined(call: ast.Call) -> list[ast.stmt]:
    """The statements of the helper ``call`` calls, its arguments in (no docstring, no
    ``nonlocal``: inlined, the names it sets are the caller's)."""
    helper = _helpers()[call.func.id]
    params = [a.arg for a in helper.args.args]
    if call.keywords or len(call.args) != len(params):
        raise TypeError(f"kernel: {helper.name} takes {len(params)} arguments, by position")
    body = [st for st in helper.body if not isinstance(st, ast.Nonlocal)]
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]   # the docstring
    put = _Arguments(helper.name, dict(zip(params, call.args, strict=True)))
    return [put.visit(copy.deepcopy(st)) for st in body]


def _constant(name: str, value: Any) -> ast.expr:
    if isinstance(value, str):   # an expression a writer made from a checked tree
        return ast.parse(value, mode="eval").body
    if value is None or type(value) in (int, bool):   # a literal, checked: no text
        return ast.Constant(value)
    raise TypeError(f"kernel: {name} is a {type(value).__name__}, not a number")


def _bool_valued(node: ast.expr) -> bool:
    """Whether ``node`` is always True or False (so ``node and True`` is ``node``)."""
    if isinstance(node, ast.Compare):
        return True
    if isinstance(node, ast.UnaryOp):
        return isinstance(node.op, ast.Not)
    if isinstance(node, ast.Constant):
        return isinstance(node.value, bool)
    if isinstance(node, ast.BoolOp):
        return all(_bool_valued(v) for v in node.values)
    return False


def _trimmed(node: ast.expr, test: bool) -> ast.expr:
    """A ``BoolOp``'s last operand dropped where it has no effect (``x and True``,
    ``x or False``): always in a test, else when the operand before it is a bool."""
    if not isinstance(node, ast.BoolOp) or len(node.values) < 2:
        return node
    last = node.values[-1]
    idle = isinstance(node.op, ast.And)   # True changes nothing in an and, False in an or
    if isinstance(last, ast.Constant) and last.value is idle and (
            test or _bool_valued(node.values[-2])):
        rest = node.values[:-1]
        return _trimmed(rest[0], test) if len(rest) == 1 else ast.BoolOp(node.op, rest)
    return node


def _copy(node: ast.AST) -> ast.AST:
    new = node.__class__.__new__(node.__class__)
    new.__dict__.update(node.__dict__)
    return new


class _Fold(_Specialiser):
    """``specialise_loop``'s folding, with constant arithmetic and idle operands dropped.
    It never changes the tree it reads: each node it keeps is a copy (``generic_visit``),
    so the kernel's tree is parsed once and specialised many times."""

    def __init__(self) -> None:
        super().__init__({}, {})

    def _visit_list(self, items: list) -> list:
        out: list = []
        for item in items:
            if not isinstance(item, ast.AST):
                out.append(item)
                continue
            found = self.visit(item)
            if found is None:
                continue
            if isinstance(found, list):
                out.extend(found)
            else:
                out.append(found)
        return out

    def generic_visit(self, node: ast.AST) -> ast.AST:
        """``ast.NodeTransformer.generic_visit`` on a copy of ``node``."""
        new = _copy(node)
        fields = new.__dict__
        for field in node._fields:
            old = fields.get(field)
            if isinstance(old, list):
                fields[field] = self._visit_list(old)
            elif isinstance(old, ast.AST):
                found = self.visit(old)
                if found is None:
                    del fields[field]
                else:
                    fields[field] = found
        return new

    def visit_BinOp(self, node: ast.BinOp) -> ast.expr:
        node = self.generic_visit(node)
        a, b = node.left, node.right
        ops = {ast.Add: int.__add__, ast.Sub: int.__sub__, ast.Mult: int.__mul__,
               ast.BitOr: int.__or__, ast.BitAnd: int.__and__}
        if isinstance(a, ast.Constant) and isinstance(b, ast.Constant) \
                and type(a.value) is int and type(b.value) is int and type(node.op) in ops:
            return ast.Constant(ops[type(node.op)](a.value, b.value))
        return node

    def visit_BoolOp(self, node: ast.BoolOp) -> ast.expr:
        return _trimmed(super().visit_BoolOp(node), False)

    def visit_If(self, node: ast.If) -> Any:
        test = self.visit(node.test)
        if isinstance(test, ast.Constant):   # decided: only the branch taken is visited
            out: list[ast.stmt] = []
            for st in node.body if test.value else node.orelse:
                found = self.visit(st)
                out.extend(found if isinstance(found, list) else [found])
            return out or [ast.Pass()]
        new = _copy(node)
        new.test = _trimmed(test, True)
        new.body = self._visit_list(node.body) or [ast.Pass()]
        new.orelse = self._visit_list(node.orelse)
        return new

    def visit_While(self, node: ast.While) -> Any:
        node = self.generic_visit(node)
        node.test = _trimmed(node.test, True)
        return node

    def visit_IfExp(self, node: ast.IfExp) -> ast.expr:
        test = self._truth(self.visit(node.test))
        if isinstance(test, ast.Constant):   # decided: only the arm taken is visited (the
            # other may read a placeholder this specialisation has no value for, as W)
            return self.visit(node.body if test.value else node.orelse)
        found = super().visit_IfExp(node)
        if isinstance(found, ast.IfExp):
            found.test = _trimmed(found.test, True)
        return found


def _subscript(name: str, i: int) -> ast.expr:
    return ast.Subscript(ast.Name(name, ast.Load()), ast.Constant(i), ast.Load())


class _Values(_Fold):
    """Switches and numbers made constants, writers' code spliced, calls unrolled, and
    the folding done in the same walk (a decided test's dead branch is never visited)."""

    def __init__(self, values: Mapping[str, Any], blocks: Mapping[str, str],
                 players: int, hand_size: int, decided: frozenset[str] | None = None):
        super().__init__()
        self.values, self.blocks = values, blocks
        # the writers' code put in is read as it is (it may name a namespace table such as
        # EV_PLACE); in the kernel's own code every switch, number and marker must go
        # (``decided``: the names that must, python_kernel's by default)
        must = _decided() | frozenset(_MARKERS) if decided is None else decided
        self.undecided = must - set(values)
        self.left: set[str] = set()
        self.players, self.hand_size = players, hand_size

    def visit_Name(self, node: ast.Name) -> ast.expr:
        if isinstance(node.ctx, ast.Load) and node.id in self.values:
            return _constant(node.id, self.values[node.id])
        if node.id in self.undecided:   # a switch or number with no value, or a marker
            self.left.add(node.id)
        return node

    def visit_FunctionDef(self, node: ast.FunctionDef) -> Any:
        if node.name in _helpers():   # inlined where called
            return None
        return self.generic_visit(node)

    def visit_Expr(self, node: ast.Expr) -> Any:
        call = node.value
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) \
                and call.func.id == "splice":
            name = call.args[0].value
            return ast.parse(self.blocks.get(name) or "").body
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) \
                and call.func.id in _helpers():
            return self._visit_list(_inlined(call))
        return self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> ast.expr:
        if isinstance(node.func, ast.Name) and node.func.id in _helpers():
            body = _inlined(node)   # a helper of one ``return``: its expression
            if len(body) != 1 or not isinstance(body[0], ast.Return):
                raise TypeError(f"kernel: {node.func.id} is inlined in an expression: "
                                "its body must be one return")
            return self.visit(body[0].value)
        if isinstance(node.func, ast.Name) and node.func.id == "dealt_hands":
            deck = node.args[0].id
            hands = []
            for s in range(self.players):
                slots = [ast.Subscript(ast.Name("BIT", ast.Load()), _subscript(deck, i),
                                       ast.Load())
                         for i in range(s * self.hand_size, (s + 1) * self.hand_size)]
                hand = slots[0]
                for slot in slots[1:]:
                    hand = ast.BinOp(hand, ast.BitOr(), slot)
                hands.append(hand)
            return ast.List(hands, ast.Load())
        return super().visit_Call(node)

    def visit_JoinedStr(self, node: ast.JoinedStr) -> ast.expr:
        """``{ints(values, n)}`` in an f-string: ``{values[0]},{values[1]},...``."""
        parts: list[ast.expr] = []
        for part in node.values:
            call = part.value if isinstance(part, ast.FormattedValue) else None
            if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) \
                    and call.func.id == "ints":
                name, count = call.args[0].id, self.visit(call.args[1]).value
                for i in range(count):
                    if i:
                        parts.append(ast.Constant(","))
                    parts.append(ast.FormattedValue(_subscript(name, i), -1, None))
            else:
                parts.append(self.visit(part))
        merged: list[ast.expr] = []   # neighbouring text joined, as the parser makes it
        for part in parts:
            if merged and isinstance(part, ast.Constant) and isinstance(merged[-1], ast.Constant):
                merged[-1] = ast.Constant(merged[-1].value + part.value)
            else:
                merged.append(part)
        return ast.JoinedStr(merged)


_LOOPS = (ast.For, ast.While, ast.AsyncFor, ast.FunctionDef, ast.AsyncFunctionDef,
          ast.Lambda, ast.ClassDef)
_ENDS = (ast.Break, ast.Continue, ast.Return, ast.Raise)


def _leaves_loop(stmts: list[ast.stmt]) -> bool:
    """Whether a ``break`` or ``continue`` of this loop level is in ``stmts``."""
    todo: list[ast.AST] = list(stmts)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.Break, ast.Continue)):
            return True
        if not isinstance(node, _LOOPS):
            todo.extend(ast.iter_child_nodes(node))
    return False


def _tidy(stmts: list[ast.stmt]) -> list[ast.stmt]:
    """``stmts`` without what can no longer run or do anything (inner lists first)."""
    out: list[ast.stmt] = []
    for st in stmts:
        for field in ("body", "orelse", "finalbody"):
            inner = getattr(st, field, None)
            if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                inner = _tidy(inner)
                if field != "body" and isinstance(inner[0], ast.Pass):
                    inner = []   # an else of nothing
                setattr(st, field, inner)
        for handler in getattr(st, "handlers", ()):
            handler.body = _tidy(handler.body)
        if (isinstance(st, ast.While) and isinstance(st.test, ast.Constant)
                and st.test.value is True and not st.orelse and st.body
                and isinstance(st.body[-1], ast.Break) and not _leaves_loop(st.body[:-1])):
            out.extend(st.body[:-1])   # a loop that runs once: its body
        else:
            out.append(st)
        if isinstance(out[-1] if out else None, _ENDS):
            break                      # nothing after it runs
    kept = [st for st in out if not isinstance(st, ast.Pass)]
    return kept or [ast.Pass()]


def specialised_source(values: Mapping[str, Any], blocks: Mapping[str, str],
                       players: int, hand_size: int) -> str:
    """``python_kernel.play`` for these switches and numbers (``values``) and writers'
    statements (``blocks``), as source; raises ``ValueError`` when a switch, a number or
    a marker is left undecided (a name ``values`` lacks). Kept per distinct input: a
    ruleset loaded again, or another resolving to the same rules, costs a lookup."""
    for name, value in values.items():
        _constant(name, value if not isinstance(value, str) else "0")   # literals only
    return _specialised(tuple(sorted(values.items())), tuple(sorted(blocks.items())),
                        players, hand_size)


@lru_cache(maxsize=512)
def _specialised(values: tuple, blocks: tuple, players: int, hand_size: int) -> str:
    func = _tree()
    values, blocks = dict(values), dict(blocks)
    put = _Values(values, blocks, players, hand_size)
    func = put.visit(func)
    if put.left:
        raise ValueError(f"kernel: no value for {', '.join(sorted(put.left))}")
    func.body = _tidy(func.body)
    return ast.unparse(ast.Module(body=[func], type_ignores=[])) + "\n"   # no lines needed


class _Module(_Values):
    """A whole module's placeholders (``specialised_module``): its switches and expressions
    put in where read, and each placeholder assignment (``A = B = 0`` of placeholders)
    written as ``A = number`` for the numbers given, dropped for the rest."""

    def __init__(self, values: Mapping[str, Any], numbers: Mapping[str, int],
                 placeholders: frozenset[str]):
        super().__init__(values, {}, 0, 0, placeholders - set(numbers))
        self.numbers, self.placeholders = numbers, placeholders

    def visit_Assign(self, node: ast.Assign) -> Any:
        names = [t.id for t in node.targets if isinstance(t, ast.Name)]
        if not (isinstance(node.value, ast.Constant) and len(names) == len(node.targets)
                and set(names) <= self.placeholders):
            return self.generic_visit(node)
        return [ast.copy_location(ast.Assign([ast.Name(n, ast.Store())],
                                             ast.Constant(self.numbers[n])), node)
                for n in names if n in self.numbers]


@cache
def _module_tree(source: str) -> ast.Module:
    """A module's syntax tree, parsed once (specialising never changes it)."""
    return ast.parse(source)


def specialised_module(source: str, values: Mapping[str, Any], numbers: Mapping[str, int],
                       placeholders: frozenset[str], doc: str) -> str:
    """The module ``source`` (``jit_loop``: the JIT kernel) specialised, as source headed
    by the docstring ``doc``: each switch and writer's expression of ``values`` put in
    where it is read and folded as ``specialised_source`` folds (dead branches cut), each
    placeholder assignment written with the ``numbers`` given (the rest dropped). Raises
    ``ValueError`` when a placeholder is read that has no value, or a value is not a
    literal or an expression."""
    for name, value in {**values, **numbers}.items():
        _constant(name, value if not isinstance(value, str) else "0")   # literals only
    put = _Module(values, numbers, placeholders)
    tree = put.visit(_module_tree(source))
    if put.left:
        raise ValueError(f"kernel: no value for {', '.join(sorted(put.left))}")
    body = tree.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]   # the template's docstring: the kernel's is ``doc``
    tree.body = [ast.Expr(ast.Constant(doc)), *_tidy(body)]
    return ast.unparse(tree) + "\n"


@cache
def _decided() -> frozenset[str]:
    """The switches and numbers of ``python_kernel`` (the names before its namespace's)."""
    source = inspect.getsource(python_kernel)
    head = source[:source.index("# -- the namespace")]
    return frozenset(n.id for n in ast.walk(ast.parse(head))
                     if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store))
