"""dominorules: a rules-as-data engine for the domino game Draw.

The pipeline, one stage a subpackage: ``rules`` (YAML -> checked, compiled
``engine.Rules``), ``expr`` (the formula language), ``engine`` (plays any
compiled ruleset), ``bots``, ``records`` (game records), ``explore``
(``compare``) and ``play`` (the terminal table). ``api`` is the public face.
"""

__version__ = "0.1.0"
