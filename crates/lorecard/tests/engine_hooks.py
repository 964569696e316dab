"""What the real engine makes of hook scripts: each loaded alone into its HookEngine (QuickJS,
the engine's own prelude and limits), as a card's hooks are at the start of a turn.

stdin: a JSON list of script texts; stdout: for each, the engine's load warnings and the
events it registered handlers for."""

import json
import sys

from core.ejs_full import quickjs_available
from core.hooks import HookScript, create_hook_engine

if not quickjs_available():
    sys.exit("QuickJS is not installed in the engine's venv (the `ejs` extra): hooks are inert")

out = []
for code in json.load(sys.stdin):
    engine = create_hook_engine([HookScript("card", code)], flat_variables={}, tree={})
    if engine is None:
        sys.exit("the engine built no hook engine")
    events = json.loads(engine._context.eval("JSON.stringify(Object.keys(globalThis.__handlers))"))
    out.append({"warnings": engine.load_warnings, "events": events})
json.dump(out, sys.stdout, ensure_ascii=False)
