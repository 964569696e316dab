//! Hook scripts judged by Studio's check and by the engine's own QuickJS hook engine
//! (`engine_hooks.py`): the same scripts refused, at the same line, and the same handlers
//! found registered for events the engine never fires.

use serde_json::{json, Value};

use super::engine_script;

#[test]
fn hook_checks_agree_with_the_engines_quickjs() {
    let too_long = format!(
        "// {}\n",
        "x".repeat(lorecard::hooks::MAX_HOOK_SOURCE_CHARS)
    );
    let scripts: Vec<String> = [
        "on(\"turn_start\", (event) => {\n  incvar(\"turns\", 1);\n  inject(`Turn ${getvar(\"turns\")}`);\n});",
        "on('reply_ready', async (e) => { const r = e?.reply ?? ''; narrate(r.length > 10n ? 'a' : 'b'); });\nclass Meter { #n = 0; up() { return ++this.#n ** 2; } }",
        "var 世界 = { 日: 1 };\non(\"clock_advanced\", e => { setvar(\"世界.日\", 世界.日 + e.delta); });",
        "on(\"turn_start\", (event) => {\n  let n = ;\n});",
        "on(\"dice_rolled\", (e) => {\n  if (e.rolls.length) {\n    log('x');\n  \n});",
        "import x from 'y';",
        "export const a = 1;",
        "return 1;",
        "let a = 1;\nlet a = 2;",
        "break;",
        "const r = /(/;",
        "'use strict';\nwith (Math) { log(PI); }",
        "await 1;",
        "on(\"turn_end\", () => {});\non(\"tool_use\", (e) => e.tool === 'roll' ? 'no rolling' : undefined);",
        "on(\"variables_changed\", function (e) { log(e.writes.length) })\non(\"reply-ready\", () => narrate('x'))",
        &too_long,
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let input: Vec<Value> = scripts.iter().map(|s| json!(s)).collect();
    let engine = engine_script("engine_hooks.py", &input);
    let mut refused = 0;
    let mut never = 0;
    for (code, engine) in scripts.iter().zip(&engine) {
        let ours = lorecard::hooks::check(code);
        let shown = &code[..code.floor_char_boundary(60)];
        let warnings: Vec<&str> = engine["warnings"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Value::as_str)
            .collect();
        // The engine's load warning for a script that does not parse, with QuickJS's line.
        let engine_line = warnings.iter().find_map(|w| {
            w.contains("SyntaxError")
                .then(|| w.rsplit("<input>:").next()?.trim().parse::<u32>().ok())
                .flatten()
        });
        let engine_skips = warnings
            .iter()
            .any(|w| w.contains("SyntaxError") || w.contains("too large"));
        let we_skip = ours.first().is_some_and(|p| p.skipped);
        assert_eq!(
            we_skip, engine_skips,
            "{shown:?}: ours {ours:?}, the engine's {warnings:?}"
        );
        if let Some(line) = engine_line {
            assert_eq!(ours[0].line, line, "{shown:?}: the line of {ours:?}");
            refused += 1;
        }
        let unknown: Vec<String> = engine["events"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Value::as_str)
            .filter(|e| !lorecard::hooks::EVENTS.contains(e))
            .map(|e| format!("on(\"{e}\")"))
            .collect();
        let pointed: Vec<String> = ours
            .iter()
            .filter(|p| !p.skipped)
            .filter_map(|p| p.message.split_once(':').map(|(at, _)| at.to_string()))
            .collect();
        assert_eq!(pointed, unknown, "{shown:?}");
        never += unknown.len();
    }
    assert!(
        refused >= 10 && never == 2,
        "{refused} refused, {never} never fired"
    );
}
