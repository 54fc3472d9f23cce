"""Names vulture cannot see being used (read by ``python -m vulture``, never imported).

Each is used by name from outside the code vulture reads: keep this list short and
say why, so a real dead function is never hidden here.
"""
# ruff: noqa
from dominorules.expr import parser

_ = None

# lark calls a Transformer's methods by the grammar's rule aliases
parser._ToAst.true
parser._ToAst.false
parser._ToAst.call
parser._ToAst.arguments
parser._ToAst.attribute
parser._ToAst.neg
parser._ToAst.not_op
parser._ToAst.conditional
parser._ToAst.and_op
parser._ToAst.or_op

# api.make_bots reads it with vars(cls).get("uniform_pick")
uniform_pick

# SeatStream is a random.Random: the stdlib reads gauss_next and calls seed(a, version)
_.gauss_next
version

# the cache key of resources._description: a file edited since is read again
mtime

# Python calls a package's __getattr__ for a name it lacks (PEP 562: engine's lazy names)
__getattr__

# pexpect reads these attributes of a spawned child
_.delaybeforesend
_.logfile_read

# pytest reads the module's marks
pytestmark

# pytest calls a conftest's hooks by name (tests/conftest.py: the default workers)
pytest_cmdline_main
pytest_configure_node
pytest_configure
pytest_xdist_make_scheduler   # (and the test files sharing a slow kernel)

# engine.game.Setup: the loops unpack it by position in one line
_.voluntary
_.stuck_draws

# the scoring formulas the JIT kernel is given as numba expressions (kernel.formulas.emit,
# put into kernel/jit_loop by kernel.specialise_kernel) call these by name
from dominorules.kernel import jit_support
jit_support._floordiv
jit_support._mod
jit_support._sum
jit_support._sum_at
jit_support._min_at
jit_support._max_at
# kernel/jit_loop.play_batch takes OPP (each side's opponents) for those formulas alone
_.OPP

# rich calls a Console's on_broken_pipe when stdout is a closed pipe; cli._stdout_console
# sets it on the instance
from rich.console import Console
Console.on_broken_pipe

# numba's Dispatcher reads its cache from ``_cache`` (what enable_caching sets); jit.py
# gives it the defensive one
_._cache

# plug-in bots the hostile-bot tests name by text (test_bots_hostile:Hollow, ...)
from tests import test_bots_hostile
test_bots_hostile.RaisesUnshowable
test_bots_hostile.Hollow
test_bots_hostile.Huge
test_bots_hostile.HugeEnd

# python_kernel.play's helper moved sets the caller's name: specialise_kernel inlines it
side_tile

# ast.NodeTransformer calls visit_<class of the node> (kernel.specialise_kernel)
_.visit_JoinedStr

# click calls a ParamType's convert on the text given for an option (cli._Seed)
_.convert
