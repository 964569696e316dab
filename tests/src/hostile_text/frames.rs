//! The frames that carry every payload through every text field Studio renders, each value
//! tagged and recorded in the [`Probe`].

use serde_json::{json, Map, Value};

use super::{Probe, PLAIN};

// Where each kind of line and block is drawn (ui/src/play, ui/src/templates, ui/src/panels).
const KP: &str = ".transcript .entry.narrative[data-speaker='kp']:not(.draft)";
const NPC: &str = ".transcript .entry.narrative[data-speaker='npc']";
const PLAYER: &str = ".transcript .entry.narrative[data-speaker='player']";
const SYSLINE: &str = ".transcript .entry.narrative[data-speaker='system']";
const DRAFT: &str = ".transcript .entry.narrative.draft";
const DICE: &str = ".transcript .entry.dice:not(.opposed)";
const OPPOSED: &str = ".transcript .entry.dice.opposed";
const SYSTEM: &str = ".transcript p.entry.system";
const ERROR: &str = ".transcript .entry.error";
const TITLE_LINE: &str = ".transcript .entry.title-line";
const INLINE: &str = ".transcript .entry.ui-inline";
const REGION: &str = ".sidebar .ui-region";
const PANEL: &str = ".sidebar-panels .lw-panel";
const VAR_LABEL: &str = "#variables .variable .meter-head > span:not(.value)";
/// One element per block of each kind (a `title_card` leaves the inline frame: see below).
const BLOCK_KINDS: [&str; 12] = [
    ".lw-meter",
    ".lw-stat",
    ".lw-badge",
    "p.lw-text",
    ".lw-text.lw-quote",
    ".lw-text.lw-warning",
    ".lw-divider",
    ".lw-choices",
    ".lw-image",
    ".lw-letter",
    ".lw-clipping",
    ".lw-map",
];
/// Pictures and sounds no peer serves: they fail to load, which is fine for text.
const PICTURE: &str = "5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e";
const SOUND: &str = "a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0";
/// The name of the picture that carries every sender (`media.from`).
pub const SENDERS: &str = "every sender";
/// The last line the peer sends: once it shows, every frame before it has been applied.
pub const SENTINEL: &str = "END·OF·HOSTILE·FRAMES";

/// The second welcome: room, my name, server and version carry every payload. The status bar
/// shows each cut to one line (its first characters as text, the whole as the tooltip): short
/// field names, so the characters shown reach into the payload.
pub fn welcome(p: &mut Probe, corpus: &[String]) -> Value {
    let version = ".status-bar .status-version";
    let room = p.joined(corpus, "room", "#room strong", Some("title"));
    p.clipped("room", "#room strong", &room, 24);
    let name = p.joined(corpus, "name", ".status-bar .status-role", Some("title"));
    p.clipped("name", ".status-bar .status-role", &name, 20);
    let server = p.joined(corpus, "srv", version, Some("title"));
    p.clipped("srv", version, &server, 16);
    let build = p.joined(corpus, "ver", version, Some("title"));
    p.clipped("ver", version, &build, 16);
    json!({"type":"welcome","protocol":protocol::PROTOCOL_VERSION,"features":["media","audio"],
        "room":room,"you":{"id":"tui:00000001","role":"keeper","name":name},"locale":"en",
        "server":server,"version":build})
}

/// Every block kind with payload `x` in every text field; `inline` in the transcript, else a
/// sidebar region.
fn blocks(p: &mut Probe, i: usize, x: &str, inline: bool) -> Vec<Value> {
    let (scope, root) = if inline {
        ("in", INLINE)
    } else {
        ("side", REGION)
    };
    let f = |name: &str| format!("{scope}.{name}");
    let s = |css: &str| format!("{root} {css}");
    // A pin's label shows in its bubble and in the caption under the map.
    let pin = p.text(i, &f("pin.label"), &s(".lw-pin-label"), x);
    p.check(i, &f("pin.label"), &s(".lw-map-caption"), None, PLAIN);
    let card = if inline {
        // An inline card leaves the frame for a transcript line of its own, `— act · title —`
        // (the subtitle is not in it), and plays as the live act card once.
        json!({"kind":"title_card","subtitle":x,
            "title":p.text(i, &f("card.title"), TITLE_LINE, x),
            "act":p.text(i, &f("card.act"), TITLE_LINE, x)})
    } else {
        json!({"kind":"title_card",
            "title":p.text(i, &f("card.title"), &s(".lw-act-line-title"), x),
            "subtitle":p.text(i, &f("card.subtitle"), &s(".lw-act-line-sub"), x),
            "act":p.text(i, &f("card.act"), &s(".lw-act-line-act"), x)})
    };
    vec![
        json!({"kind":"meter","label":p.text(i, &f("meter.label"), &s(".lw-meter-label"), x),
            "value":1,"min":0,"max":2}),
        json!({"kind":"stat","label":p.text(i, &f("stat.label"), &s(".lw-stat-label"), x),
            "value":p.text(i, &f("stat.value"), &s(".lw-stat-value"), x)}),
        json!({"kind":"badge","label":p.text(i, &f("badge.label"), &s(".lw-badge"), x),"tone":"warn"}),
        json!({"kind":"text","text":p.text(i, &f("text.plain"), &s("p.lw-text"), x)}),
        json!({"kind":"text","style":"quote",
            "text":p.text(i, &f("text.quote"), &s(".lw-text.lw-quote"), x)}),
        json!({"kind":"text","style":"warning",
            "text":p.text(i, &f("text.warning"), &s(".lw-text.lw-warning"), x)}),
        json!({"kind":"divider"}),
        json!({"kind":"choices",
            "prompt":p.text(i, &f("choices.prompt"), &s(".lw-choices-prompt"), x),
            "options":[{"id":x,
                "label":p.text(i, &f("choice.label"), &s(".lw-choice-label"), x),
                // The words an option sends show in its tooltip.
                "input":p.attr(i, &f("choice.input"), &s(".lw-choice"), "title", x)}]}),
        json!({"kind":"image","hash":PICTURE,"mime":"image/png","size":1,
            "caption":p.text(i, &f("image.caption"), &s(".lw-image-caption"), x),
            "alt":p.attr(i, &f("image.alt"), &s(".lw-image img"), "alt", x)}),
        json!({"kind":"letter",
            "body":p.text(i, &f("letter.body"), &s(".lw-letter-body"), x),
            "from":p.text(i, &f("letter.from"), &s(".lw-letter-from"), x),
            "to":p.text(i, &f("letter.to"), &s(".lw-letter-to"), x),
            "date":p.text(i, &f("letter.date"), &s(".lw-letter-date"), x)}),
        json!({"kind":"clipping",
            "headline":p.text(i, &f("clipping.headline"), &s(".lw-clip-headline"), x),
            "body":p.text(i, &f("clipping.body"), &s(".lw-clip-body"), x),
            "source":p.text(i, &f("clipping.source"), &s(".lw-clip-source"), x),
            "date":p.text(i, &f("clipping.date"), &s(".lw-clip-date"), x)}),
        json!({"kind":"map_pin","hash":PICTURE,"mime":"image/png","size":1,"x":0.5,"y":0.5,
            "label":pin,"note":p.text(i, &f("pin.note"), &s(".lw-pin-note"), x)}),
        card,
    ]
}

/// A graded outcome shown as `label` (its `id` is the rule system's word, never shown).
fn outcome(id: &str, label: String, success: bool) -> Value {
    json!({"id":id,"label":label,"success":success,"critical":false,"fumble":false,"tier":1})
}

/// Frames that carry payload `x` in every text field of the transcript, and a sidebar region.
pub fn frames(p: &mut Probe, i: usize, x: &str) -> Vec<Value> {
    let chip = format!("{DICE} .chips .chip");
    let mut detail = Map::new();
    detail.insert(
        p.detail_key(i, "dice.detailkey", &chip, x),
        Value::String(p.text(i, "dice.detailvalue", &chip, x)),
    );
    let side = format!("{OPPOSED} .side");
    let dice_label = p.text(i, "dice.outcome", &format!("{DICE} .outcome"), x);
    let left_label = p.text(i, "opposed.leftlabel", &format!("{side} .outcome"), x);
    let right_label = p.text(i, "opposed.rightlabel", &format!("{side} .outcome"), x);
    vec![
        json!({"type":"narrative","id":format!("kp{i}"),"speaker":"kp","format":"markdown",
            "name":p.text(i, "kp.name", &format!("{KP} .speaker"), x),
            "text":p.markdown(i, "kp.text", &format!("{KP} .body"), x)}),
        json!({"type":"narrative","id":format!("npc{i}"),"speaker":"npc","format":"markdown",
            "name":p.text(i, "npc.name", &format!("{NPC} .speaker"), x),
            "text":p.markdown(i, "npc.text", &format!("{NPC} .body"), x)}),
        json!({"type":"narrative","id":format!("pl{i}"),"speaker":"player","format":"plain",
            "name":p.text(i, "player.name", &format!("{PLAYER} .speaker"), x),
            "text":p.text(i, "player.text", &format!("{PLAYER} .body"), x)}),
        json!({"type":"narrative","id":format!("sy{i}"),"speaker":"system","format":"plain",
            "text":p.text(i, "sysline.text", &format!("{SYSLINE} .body"), x)}),
        // A draft that never closes: it stays a draft, drawn as markdown.
        json!({"type":"narrative_delta","id":format!("d{i}"),"speaker":"kp",
            "name":p.text(i, "delta.name", &format!("{DRAFT} .speaker"), x),
            "text":p.markdown(i, "delta.text", &format!("{DRAFT} .body"), x)}),
        json!({"type":"dice","kind":"subsystem","rolls":[1],"total":1,"target":50,
            "actor":p.text(i, "dice.actor", &format!("{DICE} .actor"), x),
            "subsystem":p.text(i, "dice.subsystem", &format!("{DICE} .subsystem"), x),
            "expr":p.text(i, "dice.expr", &format!("{DICE} .expr"), x),
            "outcome":outcome(x, dice_label, true),"detail":detail}),
        json!({"type":"dice","kind":"opposed","actor":x,"rolls":[1,2],"total":0,
            "expr":p.text(i, "opposed.expr", &format!("{OPPOSED} .expr"), x),
            "detail":{"winner":"left",
                "left":{"name":p.text(i, "opposed.left", &format!("{side} .actor"), x),
                    "total":1,"outcome":outcome(x, left_label, true)},
                "right":{"name":p.text(i, "opposed.right", &format!("{side} .actor"), x),
                    "total":2,"outcome":outcome(x, right_label, false)}}}),
        json!({"type":"system","level":"info","text":p.text(i, "system.text", SYSTEM, x)}),
        json!({"type":"error","code":"server_error",
            "message":p.text(i, "error.message", ERROR, x)}),
        json!({"type":"ui","panel":"inline","blocks":blocks(p, i, x, true)}),
        json!({"type":"ui","panel":"sidebar","id":format!("side{i}"),"blocks":blocks(p, i, x, false)}),
    ]
}

/// The sidebar's frames (state, panels, presence, media, sound) and the turn indicator.
pub fn snapshot(p: &mut Probe, corpus: &[String]) -> Vec<Value> {
    let n = corpus.len();
    let (mut resources, mut effects, mut party, mut initiative) = (vec![], vec![], vec![], vec![]);
    let (mut variables, mut pregens, mut players, mut panels) = (vec![], vec![], vec![], vec![]);
    let (mut media, mut sounds) = (vec![], vec![]);
    let mut attributes = Map::new();
    let res = "#character .meter.resource";
    for (i, x) in corpus.iter().enumerate() {
        let x = x.as_str();
        resources.push(json!({"value":1,"max":2,
            "id":p.attr(i, "char.res.id", res, "data-id", x),
            "label":p.text(i, "char.res.label", &format!("{res} .meter-head > span:not(.value)"), x)}));
        attributes.insert(
            p.text(i, "char.attr.key", "#character .attributes dt", x),
            Value::String(p.text(i, "char.attr.value", "#character .attributes dd", x)),
        );
        effects.push(Value::String(p.text(
            i,
            "char.effect",
            "#character .effects .chip",
            x,
        )));
        party.push(json!({"online":true,"active":(i == 0),
            "name":p.text(i, "party.name", "#party .member .name", x),
            "resources":[{"id":"hp","value":1,"max":2,
                "label":p.text(i, "party.res.label", "#party .member .meter-head > span:not(.value)", x)}]}));
        initiative.push(json!({"value":i,"current":(i == 0),
            "name":p.text(i, "init.name", ".card.initiative li > span:not(.value)", x)}));
        variables.push(json!({"id":format!("vt{i}"),"kind":"text",
            "label":p.text(i, "var.text.label", VAR_LABEL, x),
            "value":p.text(i, "var.text.value", "#variables .variable .meter-head > .value", x)}));
        variables.push(json!({"id":format!("vb{i}"),"kind":"bool","value":true,
            "label":p.text(i, "var.bool.label", "#variables .variable label.var-bool", x)}));
        variables.push(
            json!({"id":format!("vn{i}"),"kind":"number","value":1,"min":0,"max":2,
                "label":p.text(i, "var.meter.label", VAR_LABEL, x)}),
        );
        pregens.push(json!({"claimed_by":"",
            "name":p.text(i, "pregen.name", ".card.pregens .pregen > span", x)}));
        players.push(json!({"id":format!("p{i}"),"online":true,
            "name":p.text(i, "presence.name", ".card.presence .member", x)}));
        // A tier-1 panel: its title, a text block, and a stat bound to this payload's variable
        // (the template resolver's path: the variable's hostile value must show as text too).
        p.check(
            i,
            "var.text.value",
            &format!("{PANEL} .lw-stat-value"),
            None,
            PLAIN,
        );
        panels.push(
            json!({"id":format!("hostile/p{i}"),"slot":"sidebar","tier":1,
                "title":{"en":p.text(i, "panel.title", &format!("{PANEL} .panel-title"), x)},
                "blocks":[
                    {"kind":"text","text":p.text(i, "panel.text", &format!("{PANEL} p.lw-text"), x)},
                    {"kind":"stat","value":{"$var":format!("vt{i}")},
                        "label":p.text(i, "panel.stat", &format!("{PANEL} .lw-stat-label"), x)}]}),
        );
        // The gallery's grid shows every picture's name (the sidebar only the newest nine).
        media.push(
            json!({"type":"media","id":format!("m{i}"),"hash":PICTURE,"mime":"image/png",
                "size":1,"from":"peer","ts":i,
                "name":p.text(i, "media.name", "#gallery .gallery-item span", x)}),
        );
        // A sound is listed by its title, or by its file name when it has none.
        sounds.push(
            json!({"type":"audio_library_item","id":format!("a{i}"),"hash":SOUND,
                "mime":"audio/ogg","size":1,"name":"a.ogg","from":x,"ts":i,
                "license":x,"source":x,"tags":[x],
                "title":p.text(i, "audio.title", "#shared .shared-audio li", x)}),
        );
        sounds.push(
            json!({"type":"audio_library_item","id":format!("an{i}"),"hash":SOUND,
                "mime":"audio/ogg","size":1,"from":x,"ts":(n + i),
                "name":p.text(i, "audio.name", "#shared .shared-audio li", x)}),
        );
    }
    // Who shared a picture shows in the sidebar thumbnails' titles (the newest nine only), and
    // as text in the viewer (the test opens it on this picture): the newest picture carries
    // every sender.
    let from = p.joined(corpus, "media.from", "#shared .thumb img", Some("title"));
    p.also(n, "media.from", "#viewer .viewer-name", None);
    media.push(
        json!({"type":"media","id":"m-from","hash":PICTURE,"mime":"image/png","size":1,
            "name":SENDERS,"ts":n,"from":from}),
    );
    let state = json!({"type":"state","online":n,
        "character":{"resources":resources,"attributes":attributes,"status_effects":effects,
            "name":p.joined(corpus, "char.name", "#character .char-head h3", None),
            "system":p.joined(corpus, "char.system", "#character .char-head .system", None)},
        "party":party,"initiative":initiative,"variables":variables,"pregens":pregens,
        "scene":{"name":p.joined(corpus, "scene.name", ".card.scene h3", None),
            "focus":p.joined(corpus, "scene.focus", ".card.scene .focus", None)},
        "clock":{"round":2,"time":p.joined(corpus, "clock.time", ".card.scene .clock", None)}});
    let mut out = vec![
        state,
        json!({"type":"ui_manifest","panels":panels}),
        json!({"type":"presence","players":players,"online":n}),
    ];
    out.extend(media);
    out.extend(sounds);
    // What each layer plays: cut to one line on the sound button (the whole as its tooltip),
    // whole as text in the sound menu (the test opens it).
    let mut now_playing = |layer: &str, field: &str| {
        let button = format!("#now-playing .layer[data-layer='{layer}']");
        let title = p.joined(corpus, field, &button, Some("title"));
        p.clipped(field, &button, &title, 24);
        let menu = format!("#sound-popover .sound-row[data-layer='{layer}'] .sound-title");
        p.also(n, field, &menu, None);
        title
    };
    let bgm = now_playing("bgm", "audio.state.title");
    let ambience = now_playing("ambience", "audio.control.title");
    out.push(
        json!({"type":"audio_state","layers":[{"layer":"bgm","hash":SOUND,
        "mime":"audio/ogg","name":"bgm.ogg","playing":true,"volume":0.5,"loop":true,
        "title":bgm}]}),
    );
    out.push(
        json!({"type":"audio_control","id":"ac1","action":"play","layer":"ambience",
        "hash":SOUND,"mime":"audio/ogg","name":"amb.ogg","loop":true,"volume":0.5,
        "title":ambience}),
    );
    // An activity Studio has no word for is shown as the engine named it.
    out.push(json!({"type":"turn_status","status":"busy","round":2,
        "actor":p.joined(corpus, "turn.actor", "#turn", None),
        "activity":p.joined(corpus, "turn.activity", "#turn", None)}));
    out
}

/// How many elements of each kind the page must hold once everything is drawn.
pub fn expected_counts(n: usize) -> Vec<(String, usize)> {
    let mut c: Vec<(String, usize)> = vec![
        // Per payload 11 lines (kp, npc, player, system narrative, draft, dice, opposed,
        // system, error, title line, inline ui), then the deep quote and the sentinel.
        (".transcript .entry".into(), 11 * n + 2),
        (KP.into(), n + 1),
        (NPC.into(), n),
        (PLAYER.into(), n),
        (SYSLINE.into(), n),
        (DRAFT.into(), n),
        (DICE.into(), n),
        (OPPOSED.into(), n),
        (SYSTEM.into(), n + 1),
        (ERROR.into(), n),
        (TITLE_LINE.into(), n),
        (INLINE.into(), n),
        (REGION.into(), n),
        (format!("{REGION} .lw-act-line"), n),
        (PANEL.into(), n),
        (format!("{PANEL} p.lw-text"), n),
        (format!("{PANEL} .lw-stat"), n),
        ("#character .meter.resource".into(), n),
        ("#character .attributes > div".into(), n),
        ("#character .effects .chip".into(), n),
        ("#party .member".into(), n),
        (".card.initiative li".into(), n),
        ("#variables .variable-row".into(), 3 * n),
        (".card.pregens .pregen".into(), n),
        (".card.presence .member".into(), n),
        ("#shared .shared-audio li".into(), 2 * n),
        ("#gallery .gallery-item".into(), n + 1),
    ];
    for root in [INLINE, REGION] {
        for kind in BLOCK_KINDS {
            c.push((format!("{root} {kind}"), n));
        }
    }
    c
}
