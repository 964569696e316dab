"""What the real engine makes of card files: read by the engine's own parsers and importer.

stdin: a JSON list of {"kind": "card" | "lorecard", "path": ...}; stdout: one summary each.
Run with the engine's Python, the engine's folder on sys.path (as `cargo test` does)."""

import json
import sys

from core.card_split import detect_world_payloads
from core.charcard import parse_card_bytes
from core.lorecard import parse_lorecard_bytes
from core.mvu_compat import is_initvar_entry, parse_initvar
from core.worldbook import _normalize_import_entry


def summary(card, extra):
    entries, imported = [], []
    for index, entry in enumerate(card.character_book):
        keys = ("comment", "content", "keys", "secondary_keys", "constant", "enabled", "position")
        entries.append({key: entry.get(key) for key in keys})
        lore = _normalize_import_entry(entry, source="", index=index, is_keeper=True)
        if lore is not None:
            lore = lore.to_dict()
            lore.pop("id", None)
            imported.append(lore)
    initvar = [
        parse_initvar(entry.get("content") or "")
        for entry in card.character_book
        if is_initvar_entry(str(entry.get("comment") or ""))
    ]
    payloads = detect_world_payloads(card)
    fields = ("name", "description", "personality", "scenario", "first_mes", "mes_example")
    return {
        **{field: getattr(card, field) for field in fields},
        "creator_notes": card.creator_notes,
        "tags": card.tags,
        "entries": entries,
        "imported": imported,
        "initvar": initvar,
        "payloads": {
            key: getattr(payloads, key)
            for key in ("hooks", "initvar_entries", "ejs_blocks", "secret_entries")
        },
        **extra,
    }


out = []
for item in json.load(sys.stdin):
    data = open(item["path"], "rb").read()
    if item["kind"] == "lorecard":
        parsed = parse_lorecard_bytes(data, item["path"])
        out.append(
            summary(
                parsed.card,
                {
                    "alternate": list(parsed.alternate_greetings),
                    "variables": list(parsed.variable_specs),
                    "hooks": list(parsed.hooks),
                    "pregens": list(parsed.pregens),
                    "warnings": list(parsed.warnings),
                },
            )
        )
    else:
        card = parse_card_bytes(data, item["path"])
        body = card.raw.get("data", card.raw)
        out.append(summary(card, {"alternate": body.get("alternate_greetings")}))
print(json.dumps(out, ensure_ascii=False))
