"""What the real engine makes of a card split in two: `split_card`'s character half of the
original, the same fields of Studio's character card as the engine reads it, the kind the
packer detects for each of Studio's two cards, and `strip_ejs` of some texts.

stdin: [{"cards": [{"original", "character", "world"}: card texts], "texts": [...]}];
stdout: [{"cards": [{"engine", "ours", "kinds"}], "strip": [[text, count], ...]}]."""

import json
import sys

from core.card_split import split_card, strip_ejs
from core.lorecard import parse_lorecard_bytes
from core.pack import detect_card_kind


def fields(card):
    names = ("name", "description", "personality", "scenario", "first_mes", "mes_example", "creator_notes")
    out = {name: getattr(card, name) for name in names if name != "name"}
    out["book"] = [[e.get("comment"), e.get("content"), bool(e.get("secret"))] for e in card.character_book]
    return out


request = json.load(sys.stdin)[0]
cards = []
for item in request["cards"]:
    original = parse_lorecard_bytes(item["original"].encode()).card
    half, _payloads = split_card(original)
    ours = parse_lorecard_bytes(item["character"].encode()).card
    kinds = [
        detect_card_kind("character.lorecard.json", item["character"].encode()),
        detect_card_kind("world.lorecard.json", item["world"].encode()),
    ]
    cards.append({"engine": fields(half), "ours": fields(ours), "kinds": kinds})
json.dump([{"cards": cards, "strip": [list(strip_ejs(t)) for t in request["texts"]]}], sys.stdout, ensure_ascii=False)
