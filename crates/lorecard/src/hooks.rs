//! A card's hook scripts, checked as the engine runs them (`core/hooks.py`).
//!
//! The engine evaluates each script once per turn as a **global script** (not a module) in
//! QuickJS, after its prelude has defined `on(event, handler)`. A script that does not parse
//! throws at that `eval`, and the engine only logs it ("hooks inert"): the author never sees
//! it at the table. A handler registered for an event the engine never fires is kept
//! silently and never runs. A script over [`MAX_HOOK_SOURCE_CHARS`] is skipped, and a room
//! loads at most [`MAX_SCRIPTS`]. [`check`] finds all of these before the engine does; the
//! syntax is judged by oxc's parser, which agrees with the engine's QuickJS on the cases in
//! `tests/engine.rs`.

use oxc_allocator::Allocator;
use oxc_ast::ast::{Argument, Expression, Statement};
use oxc_parser::{ParseOptions, Parser};
use oxc_semantic::SemanticBuilder;
use oxc_span::SourceType;
use serde_json::Value;

/// `core.hooks.EVENTS`: the events a handler can be registered for.
pub const EVENTS: &[&str] = &[
    "turn_start",
    "reply_ready",
    "dice_rolled",
    "variables_changed",
    "clock_advanced",
    "tool_use",
];
/// `core.hooks.MAX_HOOK_SOURCE_CHARS`: a longer script is skipped.
pub const MAX_HOOK_SOURCE_CHARS: usize = 40_000;
/// `core.hooks.MAX_SCRIPTS`: scripts a room loads (the rest are ignored).
pub const MAX_SCRIPTS: usize = 16;

/// One thing wrong with a script, at its line and column (1-based, columns in characters).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HookProblem {
    pub line: u32,
    pub column: u32,
    pub message: String,
    /// The engine does not run the script at all (it does not parse, or it is too long);
    /// otherwise the script runs but a part of it never does.
    pub skipped: bool,
}

/// The scripts among a card's `hooks` as the engine reads them (`_parse_hooks`): a code
/// string, or an object's `code`; blank ones are no script. Each with its index in the list.
pub fn codes(hooks: &[Value]) -> Vec<(usize, &str)> {
    hooks
        .iter()
        .enumerate()
        .filter_map(|(i, h)| {
            let code = match h {
                Value::String(s) => s.as_str(),
                Value::Object(o) => o.get("code")?.as_str()?,
                _ => return None,
            };
            (!code.trim().is_empty()).then_some((i, code))
        })
        .collect()
}

/// What is wrong with one script: empty when the engine would load it and every handler it
/// registers can fire.
pub fn check(code: &str) -> Vec<HookProblem> {
    let chars = code.chars().count();
    if chars > MAX_HOOK_SOURCE_CHARS {
        return vec![HookProblem {
            line: 1,
            column: 1,
            message: format!(
                "the script is {chars} characters; the engine skips a script over {MAX_HOOK_SOURCE_CHARS}"
            ),
            skipped: true,
        }];
    }
    let allocator = Allocator::default();
    // QuickJS compiles a regular expression literal with the script: a bad one is a
    // syntax error there, so it is read here too.
    let options = ParseOptions {
        parse_regular_expression: true,
        ..ParseOptions::default()
    };
    let parsed = Parser::new(&allocator, code, SourceType::script())
        .with_options(options)
        .parse();
    // The parser leaves some syntax errors to the semantic pass (a module's `import` in a
    // script, a `let` declared twice, `break` outside a loop); QuickJS throws on them all.
    let semantic = SemanticBuilder::new()
        .with_check_syntax_error(true)
        .build(&parsed.program);
    let first = parsed
        .diagnostics
        .errors()
        .chain(semantic.diagnostics.errors())
        .next();
    if let Some(error) = first {
        // The furthest label: where a one-pass reader like QuickJS stops (a name declared
        // twice is labelled at both declarations; the engine fails at the second).
        let offset = error
            .labels
            .iter()
            .map(|l| l.offset() as usize)
            .max()
            .unwrap_or(0);
        let (line, column) = position(code, offset);
        return vec![HookProblem {
            line,
            column,
            message: format!("{error}: the engine cannot load the script"),
            skipped: true,
        }];
    }
    let mut problems = Vec::new();
    for statement in &parsed.program.body {
        let Statement::ExpressionStatement(s) = statement else {
            continue;
        };
        let Expression::CallExpression(call) = &s.expression else {
            continue;
        };
        let Expression::Identifier(callee) = &call.callee else {
            continue;
        };
        if callee.name != "on" {
            continue;
        }
        if let Some(Argument::StringLiteral(event)) = call.arguments.first() {
            if !EVENTS.contains(&event.value.as_str()) {
                let (line, column) = position(code, event.span.start as usize);
                problems.push(HookProblem {
                    line,
                    column,
                    message: format!(
                        "on(\"{}\"): the engine fires no such event, so this handler never runs (it fires {})",
                        event.value,
                        EVENTS.join(", ")
                    ),
                    skipped: false,
                });
            }
        }
    }
    problems
}

/// Line and column (1-based, in characters) of the byte `offset` in `code`.
fn position(code: &str, offset: usize) -> (u32, u32) {
    let before = &code[..code.floor_char_boundary(offset.min(code.len()))];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
    (line as u32, column as u32)
}

#[cfg(test)]
mod tests;
