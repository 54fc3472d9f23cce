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

# engine.game.Setup: the loops unpack it by position in one line
_.voluntary
_.stuck_draws

# the JIT kernel's source (kernel/jit_template.SOURCE, a string written to a file and
# imported) calls these by name
from dominorules.kernel import jit_support
jit_support.low_index
jit_support.lead_stream
jit_support.lead_random
jit_support._floordiv
jit_support._mod
jit_support._sum
jit_support._sum_at
jit_support._min_at
jit_support._max_at
from dominorules.kernel import jit_strategist
jit_strategist.KNOW_ROWS
jit_strategist.know_deal
jit_strategist.know_open
jit_strategist.know_place
jit_strategist.know_lack
# and what it logs for a record (kernel/jit_record.py)
from dominorules.kernel import jit_record
jit_record.place_token
jit_record.draw_token
jit_record.pass_token
jit_record.dynamic
jit_record.start_item
jit_record.deal_item
jit_record.round_end_item
jit_record.match_end_item
jit_record.skip_token
jit_record.arm_token
jit_record.meets_token
jit_record.shown_token
jit_record.turn_up_token
jit_record.deal_item_words
jit_record.event_lines
jit_record.out_line
jit_record.part_item        # (a move of several tiles' part, declarations' lines)
jit_record.declared_lines
jit_record.at_item
# and its GEN lines (a house ruleset's kernel) these
from dominorules.kernel import jit_events, jit_opening, jit_settle
jit_opening.open_round
jit_settle.hand_rank
jit_settle.best_sides
jit_events.end_total
jit_events.arms_total
jit_events.event_facts
jit_events.may_fire
jit_events.pass_events
from dominorules.kernel import jit_deal   # (the deal's: deal.turn_up, the strategist)
jit_deal.know_turn_up
from dominorules.kernel import jit_declare   # (declarations' moments, the showdown)
jit_declare.round_start
jit_declare.after_place
jit_declare.penalties
from dominorules.kernel import jit_strategist_layout   # (the strategist on board.layout)
jit_strategist_layout.choose_layout
jit_strategist_layout.open_layout

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
