"""Static checks on a syntax tree: names, attributes, argument counts and types.

Runs before anything is evaluated and gathers every problem it can find. A part
that already failed gets no type (``None``) so one mistake is reported once, not
again by every operator around it. Each node's ``type`` is filled in on the way.
"""

from __future__ import annotations

from ..diagnostics import did_you_mean
from . import ast, fixes
from .errors import ExprProblem
from .fields import FIELDS, ORDERED, FieldSpec
from .types import ATTRIBUTES, BOOL, INT, TILE, Type, list_of

LIST_OF_INT = list_of(INT)
LIST_OF_BOOL = list_of(BOOL)

# The functions and what they take, in words (for messages and the docs).
SIGNATURES: dict[str, str] = {
    "abs": "one integer",
    "all": "one list of booleans",
    "any": "one list of booleans",
    "count": "one list",
    "max": "a list of integers, or two or more integers",
    "min": "a list of integers, or two or more integers",
    "sum": "one list of integers",
}

# The functions that read a list element by element (``count(hand, t -> t.is_double)``):
# what the part after ``->`` must be, and what the call gives.
EACH: dict[str, tuple[Type, Type]] = {
    "count": (BOOL, INT),   # how many elements meet the condition
    "any": (BOOL, BOOL),
    "all": (BOOL, BOOL),
    "sum": (INT, INT),      # the sum of the numbers, one per element
    "min": (INT, INT),      # 0 for an empty list, as min(xs)
    "max": (INT, INT),
}
_EACH_EXAMPLE = "count(hand, t -> t.is_double)"



def _close(word: str, choices) -> str:
    """``did you mean 'x'?`` when one choice is close; else nothing (the message lists them)."""
    hint = did_you_mean(word, choices)
    return hint if hint.startswith("did you mean") else ""


def _close_name(name: str, names: dict[str, Type]) -> str:
    """Which other field kinds offer the name (the name is right, the field is not), with
    ``did you mean 'x'?`` after it when one of this field's names is close; else that
    alone, else nothing."""
    hint = _close(name, names)
    elsewhere = sorted({f.removesuffix("_condition") for f, spec in FIELDS.items()
                        if name in spec.names})
    if not elsewhere:
        return hint
    listed = ", ".join(elsewhere[:-1]) + " and " + elsewhere[-1] if len(elsewhere) > 1 \
        else elsewhere[0]
    said = f"only {listed} formulas offer '{name}'"
    return f"{said}; {hint}" if hint else said


def _attribute_hint(attr: str, base: Type, attributes: dict[str, Type]) -> str:
    """``did you mean 'x'?``, else which other kind of value has the attribute, else
    what to pick from."""
    close = _close(attr, attributes)
    if close:
        return close
    owners = [typ.words() for typ, offered in ATTRIBUTES.items() if attr in offered]
    if owners:
        return f"'{attr}' is an attribute of {' and of '.join(owners)}, not of {base.words()}"
    return f"read one of the attributes listed, e.g. {min(attributes)}"


def _unknown_hint(field: str) -> str:
    """What to do with a name nothing offers: pick a listed one, or declare a variable
    where the field reads variables."""
    from .fields import READS_VARIABLES
    if field in READS_VARIABLES:
        return "use one of the names listed, or declare it under variables:"
    return "use one of the names listed"


def _text_of(node: ast.Node) -> str:
    """A node as canonical text, for messages."""
    from .format import format_expression
    return format_expression(node)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


class Checker:
    """Checks one tree against one field kind; ``problems`` holds what it found."""

    def __init__(self, field: str, spec: FieldSpec):
        self.field = field.removesuffix("_condition")   # an event's if/again: its kind's names
        self.spec = spec
        self.problems: list[ExprProblem] = []
        self.scope: dict[str, Type] = {}   # element names bound by ``x -> ...`` around here

    def problem(self, code: str, message: str, node: ast.Node, hint: str = "",
                offset: int | None = None, length: int | None = None) -> None:
        self.problems.append(ExprProblem(
            code, message, node.offset if offset is None else offset,
            max(1, node.length if length is None else length), hint))

    def check(self, node: ast.Node) -> Type | None:
        """The type of ``node`` (also stored on it), or ``None`` after a problem."""
        method = getattr(self, "check_" + type(node).__name__.lower())
        node.type = method(node)
        return node.type

    # atoms

    def check_int(self, node: ast.Int) -> Type:
        return INT

    def check_bool(self, node: ast.Bool) -> Type:
        return BOOL

    def check_tile(self, node: ast.Tile) -> Type:
        return TILE

    def check_name(self, node: ast.Name) -> Type | None:
        names = self.spec.names
        if node.name in self.scope:
            return self.scope[node.name]
        if node.name in names:
            return names[node.name]
        if node.name in SIGNATURES:
            hint = f"'{node.name}' is a function: call it, e.g. {node.name}(...)"
        elif node.name in ("True", "False"):
            hint = f"write {node.name.lower()} in lower case"
        else:
            hint = _close_name(node.name, names) or _unknown_hint(self.field)
        self.problem("expr-name", f"unknown name '{node.name}'; {self.field} offers: "
                     + ", ".join(sorted(names)), node, hint)
        return None

    def check_attribute(self, node: ast.Attribute) -> Type | None:
        obj = self.check(node.obj)
        if obj is None:
            return None
        depth, base = 0, obj
        while base.elem is not None:
            depth, base = depth + 1, base.elem
        where = {"offset": node.attr_offset, "length": len(node.attr)}
        attributes = ATTRIBUTES.get(base)
        if not attributes:
            self.problem("expr-attribute", f"{base.words()} has no attributes", node,
                         f"{base.words()} is read as it is: only tiles, sides and players "
                         "have attributes", **where)
            return None
        if node.attr not in attributes:
            self.problem("expr-attribute",
                         f"{base.words()} has no attribute '{node.attr}'; its attributes are: "
                         + ", ".join(sorted(attributes)), node,
                         _attribute_hint(node.attr, base, attributes), **where)
            return None
        result = attributes[node.attr]
        for _ in range(depth):
            result = list_of(result)
        return result

    def check_index(self, node: ast.Index) -> Type | None:
        """``items[at]``: an integer index into a list whose order the field defines (the
        board, the ends, the sides ...), of integers, booleans or tiles."""
        items, at = self.check(node.obj), self.check(node.at)
        if at is not None and at != INT:
            self.problem("expr-type", f"an index must be an integer, this is {at.words()}",
                         node.at, fixes.to_type(INT, at, _text_of(node.at)))
        if items is None:
            return None
        if items.elem is None:
            self.problem("expr-type", f"only a list can be indexed, this is {items.words()}",
                         node.obj, f"{fixes.shown(_text_of(node.obj))} is one value: read "
                         "it without [...]")
            return None
        if items.elem not in (INT, BOOL, TILE):
            self.problem("expr-type", f"an index reads integers, booleans or tiles, this is "
                         f"{items.words()}", node.obj,
                         f"read an attribute first, e.g. {_text_of(node.obj)}.score[0]")
            return None
        if not self._ordered(node.obj):
            self.problem("expr-type", f"{_text_of(node.obj)} has no order to index by; the "
                         "ordered lists here are: " + (", ".join(sorted(
                             n for n in self.spec.names if n in ORDERED)) or "none"),
                         node.obj, "read it whole with count, any, all, sum, min or max")
            return None
        return items.elem

    def _ordered(self, node: ast.Node) -> bool:
        """Whether a list's order is defined: a name the field offers as ordered, or an
        attribute read from every element of one (``sides.score``)."""
        if isinstance(node, ast.Name):
            return node.name not in self.scope and node.name in ORDERED
        if isinstance(node, ast.Attribute):
            return self._ordered(node.obj)
        return False

    # operators

    def check_unary(self, node: ast.Unary) -> Type | None:
        operand = self.check(node.operand)
        want = INT if node.op == "-" else BOOL
        if operand is None:
            return want
        if operand != want:
            self.problem("expr-type", f"'{node.op}' needs {want.words()}, "
                         f"its operand is {operand.words()}", node.operand,
                         fixes.to_type(want, operand, _text_of(node.operand)))
        return want

    def check_binary(self, node: ast.Binary) -> Type | None:
        left, right = self.check(node.left), self.check(node.right)
        if node.op in ast.LOGICAL:
            self._operands(node, left, right, BOOL, "booleans")
            return BOOL
        if node.op in ("==", "!="):
            return self._equality(node, left, right)
        self._operands(node, left, right, INT, "integers")
        return BOOL if node.op in ast.COMPARISONS else INT

    def _operands(self, node: ast.Binary, left: Type | None, right: Type | None,
                  want: Type, plural: str) -> None:
        verb = "compares" if node.op in ast.COMPARISONS else "needs"
        for which, operand, typ in (("left", node.left, left), ("right", node.right, right)):
            if typ is not None and typ != want:
                self.problem("expr-type", f"'{node.op}' {verb} {plural}, "
                             f"the {which} operand is {typ.words()}", operand,
                             fixes.to_type(want, typ, _text_of(operand)))

    def _equality(self, node: ast.Binary, left: Type | None, right: Type | None) -> Type:
        comparable = (INT, BOOL, TILE)
        bad = False
        for which, operand, typ in (("left", node.left, left), ("right", node.right, right)):
            if typ is not None and typ not in comparable:
                bad = True
                self.problem("expr-type", f"'{node.op}' compares integers, booleans or tiles, "
                             f"the {which} operand is {typ.words()}", operand,
                             fixes.to_type(INT, typ, _text_of(operand)))
        if not bad and left is not None and right is not None and left != right:
            self.problem("expr-type", f"'{node.op}' compares values of one type, "
                         f"this compares {left.words()} with {right.words()}", node,
                         fixes.equality(left, right, _text_of(node.left),
                                        _text_of(node.right)))
        return BOOL

    def check_conditional(self, node: ast.Conditional) -> Type | None:
        then = self.check(node.then)
        test = self.check(node.test)
        orelse = self.check(node.orelse)
        if test is not None and test != BOOL:
            self.problem("expr-type", "the condition after 'if' must be a boolean, "
                         f"this is {test.words()}", node.test,
                         fixes.to_type(BOOL, test, _text_of(node.test)))
        if then is not None and orelse is not None and then != orelse:
            self.problem("expr-type", "both branches of 'if ... else' must have one type, "
                         f"the first is {then.words()}, the second {orelse.words()}",
                         node.orelse, "make the second branch " + then.words() + " too: "
                         + fixes.to_type(then, orelse, _text_of(node.orelse)))
            return None
        return then if then is not None else orelse

    def check_each(self, node: ast.Each) -> Type | None:
        """``x -> ...`` anywhere but a list function's second argument."""
        self.problem("expr-syntax", f"'{node.var} -> ...' is only the second argument of "
                     + ", ".join(sorted(EACH)), node, f"e.g. {_EACH_EXAMPLE}")
        return None

    def _check_each_call(self, node: ast.Call, where: dict) -> Type | None:
        """``f(list, x -> body)``: the list's element bound to ``x`` while ``body`` is
        checked; the element's name may not hide a name the field offers."""
        want, result = EACH[node.func]
        each = node.args[-1]
        if len(node.args) != 2 or not isinstance(node.args[1], ast.Each):
            self.problem("expr-args", f"{node.func} with '->' takes a list and then "
                         f"'x -> ...', it was given {_plural(len(node.args), 'argument')}",
                         node, f"e.g. {_EACH_EXAMPLE}", **where)
            return None
        items = self.check(node.args[0])
        if isinstance(node.args[0], ast.Each):
            return None
        if items is not None and items.elem is None:
            self.problem("expr-type", f"{node.func} reads a list element by element, this "
                         f"is {items.words()}", node.args[0], self._list_hint(node.func))
            items = None
        var = each.var
        if var in self.spec.names or var in self.scope:
            self.problem("expr-name", f"'{var}' is already a name here; the element needs "
                         "a name of its own", each, "e.g. 't' or 'x'",
                         offset=each.var_offset, length=len(var))
            return result
        if items is None:
            return result
        self.scope[var] = items.elem
        try:
            body = self.check(each.body)
        finally:
            del self.scope[var]
        each.type = body
        if body is not None and body != want:
            what = "a condition (a boolean)" if want == BOOL else "a number for each element"
            self.problem("expr-type", f"after '->', {node.func} needs {what}, this is "
                         f"{body.words()}", each.body,
                         fixes.to_type(want, body, _text_of(each.body)))
        return result

    def check_call(self, node: ast.Call) -> Type | None:
        if node.func in EACH and any(isinstance(arg, ast.Each) for arg in node.args):
            return self._check_each_call(node, {"offset": node.offset,
                                                "length": len(node.func)})
        types = [self.check(arg) for arg in node.args]
        where = {"offset": node.offset, "length": len(node.func)}
        if node.func not in SIGNATURES:
            if node.func in self.spec.names:
                message = f"'{node.func}' is not a function; the functions are: "
                hint = f"'{node.func}' is a value: write it without (...)"
            else:
                message = f"unknown function '{node.func}'; the functions are: "
                hint = _close(node.func, SIGNATURES)
            self.problem("expr-name", message + ", ".join(sorted(SIGNATURES)), node, hint,
                         **where)
            return None
        n = len(node.args)
        if node.func in ("min", "max"):
            if n == 0:
                self._args(node, where)
            elif n == 1:
                self._arg_type(node, 0, types[0], LIST_OF_INT)
            else:
                for i, typ in enumerate(types):
                    self._arg_type(node, i, typ, INT)
            return INT
        if n != 1:
            self._args(node, where)
            return BOOL if node.func in ("any", "all") else INT
        typ = types[0]
        if node.func == "count":
            if typ is not None and typ.elem is None:
                self.problem("expr-type", f"count needs a list, this is {typ.words()}",
                             node.args[0], self._list_hint("count"))
            return INT
        want = {"sum": LIST_OF_INT, "abs": INT, "any": LIST_OF_BOOL, "all": LIST_OF_BOOL}
        self._arg_type(node, 0, typ, want[node.func])
        return BOOL if node.func in ("any", "all") else INT

    def _args(self, node: ast.Call, where: dict) -> None:
        self.problem("expr-args", f"{node.func} takes {SIGNATURES[node.func]}, "
                     f"it was given {_plural(len(node.args), 'argument')}", node,
                     f"e.g. {fixes.CALL_EXAMPLES[node.func]}", **where)

    def _arg_type(self, node: ast.Call, index: int, typ: Type | None, want: Type) -> None:
        if typ is None or typ == want:
            return
        if node.func in ("min", "max") and want == LIST_OF_INT and typ == INT:
            hint = f"{node.func} of one integer is that integer; give a list or two or more"
        else:
            hint = fixes.argument(node.func, typ, want, _text_of(node.args[index]))
        self.problem("expr-type", f"{node.func} takes {SIGNATURES[node.func]}, "
                     f"this is {typ.words()}", node.args[index], hint)

    def _list_hint(self, func: str) -> str:
        """Which list to give ``func``: one this field offers, in an example."""
        lists = sorted(n for n, t in self.spec.names.items() if t.elem is not None)
        if not lists:
            return f"{func} reads a list, and {self.field} formulas offer none"
        example = f"{func}({lists[0]})" if func == "count" else \
            f"{func}({lists[0]}, x -> ...)"
        return f"give it a list, e.g. {example}; the lists here are: " + ", ".join(lists)

    def check_result(self, node: ast.Node, typ: Type | None, source: str) -> None:
        """The whole expression must produce the field's result type."""
        want = self.spec.result
        if typ is not None and typ != want:
            hint = fixes.to_type(want, typ, _text_of(node))
            self.problems.append(ExprProblem(
                "expr-type", f"{self.field} must be {want.words()}, "
                f"this expression is {typ.words()}", 0, max(1, len(source)), hint))


def check(tree: ast.Node, field: str, spec: FieldSpec, source: str) -> list[ExprProblem]:
    """Every problem in ``tree`` as a formula for ``field``; fills each node's ``type``."""
    checker = Checker(field, spec)
    typ = checker.check(tree)
    checker.check_result(tree, typ, source)
    return checker.problems
