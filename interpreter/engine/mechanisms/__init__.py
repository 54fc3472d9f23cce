"""The rulebook's mechanisms: each rule of the game written once, plainly, from the docs.

One module per mechanism, each a few small functions over ``position.Position``:
``deal`` (hand sizes, redeals), ``lead`` (who leads), ``opening`` (the first tile of
a round), ``matching`` (does a half fit an end), ``board`` (the line of play and the
spinner), ``layout`` (a board of any shape, ``board.layout``: the one rule the general
match loop places through as well), ``turn`` (what a turn may be), ``events`` (play-time
rules), ``settle`` (a round's points), ``match`` (when the match ends, who wins it),
``leftover`` (the tiles the hands leave, to a named seat), ``side_out`` (a player out,
the round going on until a whole side is out) and ``set_tiles`` (which tiles are in
play: the engine's tile tables read it too, the third edition's one truth).
``environment`` builds every formula's names, for the rulebook and the match loop alike.

They are deliberately simple and slow: they are the reference reading that
``engine/rulebook.py`` checks records against, and the seed of the engine's third
edition (issue 18). They never import the match loops or the kernels.
"""
