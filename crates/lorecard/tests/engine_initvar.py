"""What the real engine makes of [InitVar] trees and of the variables Studio offers for them.

stdin: a JSON list of {"text": ..., "variables": [spec, ...]}; stdout: for each, the engine's
flattened leaves of `parse_initvar(text)` (null when it gives no tree) and `normalize_spec` of
each variable (null when the engine would drop it)."""

import json
import sys

from core.modvars import normalize_spec
from core.mvu_compat import flatten_leaves, parse_initvar

out = []
for item in json.load(sys.stdin):
    tree = parse_initvar(item["text"])
    out.append(
        {
            "leaves": None if tree is None else flatten_leaves(tree),
            "specs": [normalize_spec(v.get("id"), v) for v in item["variables"]],
        }
    )
json.dump(out, sys.stdout, ensure_ascii=False)
