//! The portable `visible_when` condition subset (protocol 2.1+).
//!
//! Every client must agree with the reference evaluator row for row
//! (`visible_when_vectors.json`), so this mirrors its semantics rather than JavaScript's:
//! `==`/`!=` coerce numeric strings, `===`/`!==` are strict (a bool never equals a
//! number), ordering is numeric when both sides read as numbers (bools and numeric
//! strings included), lexical for two other strings, and an ERROR otherwise; and `!` binds looser than a comparison (`!a == b` is `!(a == b)`).
//! Arithmetic, calls and brackets are not tokens at all, so they fail to parse.

use serde_json::{Map, Value};

use crate::jsnum::js_number_string;
use crate::jsnum::js_string_to_number;

/// Longest condition accepted, in UTF-16 units (the reference client's `length`).
pub const MAX_EXPR_LEN: usize = 500;
/// Most tokens accepted.
pub const MAX_TOKENS: usize = 200;

/// Any tokenize, parse or evaluation failure. Callers hide the gated block.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum CondError {
    #[error("expression too long ({0} > {MAX_EXPR_LEN})")]
    TooLong(usize),
    #[error("expression has more than {MAX_TOKENS} tokens")]
    TooManyTokens,
    #[error("empty expression")]
    Empty,
    #[error("unexpected character {ch:?} at position {pos}")]
    UnexpectedChar { ch: char, pos: usize },
    #[error("unterminated string literal")]
    UnterminatedString,
    #[error("syntax error: {0}")]
    Syntax(String),
    #[error("cannot order {0} and {1}")]
    Unorderable(String, String),
}

/// A comparison operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CmpOp {
    StrictEq,
    StrictNe,
    LooseEq,
    LooseNe,
    Ge,
    Le,
    Gt,
    Lt,
}

/// A parsed condition.
#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    /// A literal: number, string, `true`/`false`, or `null` (also `undefined`/`none`).
    Lit(Value),
    /// A bare dotted path, looked up as ONE variable id.
    Ref(String),
    Not(Box<Expr>),
    And(Box<Expr>, Box<Expr>),
    Or(Box<Expr>, Box<Expr>),
    Cmp(CmpOp, Box<Expr>, Box<Expr>),
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Num(f64),
    Str(String),
    Kw(Value),
    Ident(String),
    Op(&'static str),
}

// Longest first, so `===` is never read as `==` then `=`.
const OPERATORS: [&str; 14] = [
    "===", "!==", "==", "!=", ">=", "<=", "&&", "||", ">", "<", "!", "(", ")", ".",
];

fn is_space(c: char) -> bool {
    // JS `\s` also covers the BOM, which Rust's whitespace does not.
    c.is_whitespace() || c == '\u{feff}'
}

fn tokenize(text: &str) -> Result<Vec<Tok>, CondError> {
    let len = text.encode_utf16().count();
    if len > MAX_EXPR_LEN {
        return Err(CondError::TooLong(len));
    }
    let chars: Vec<char> = text.chars().collect();
    let mut toks = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let ch = chars[i];
        if is_space(ch) {
            i += 1;
            continue;
        }
        if toks.len() >= MAX_TOKENS {
            return Err(CondError::TooManyTokens);
        }
        if ch == '\'' || ch == '"' {
            let mut out = String::new();
            i += 1;
            loop {
                match chars.get(i) {
                    None => return Err(CondError::UnterminatedString),
                    // A backslash takes the next character literally (no escape table).
                    Some('\\') if i + 1 < chars.len() => {
                        out.push(chars[i + 1]);
                        i += 2;
                    }
                    Some(&c) if c == ch => {
                        i += 1;
                        break;
                    }
                    Some(&c) => {
                        out.push(c);
                        i += 1;
                    }
                }
            }
            toks.push(Tok::Str(out));
        } else if ch.is_ascii_digit() {
            let start = i;
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
            if chars.get(i) == Some(&'.') && chars.get(i + 1).is_some_and(char::is_ascii_digit) {
                i += 1;
                while i < chars.len() && chars[i].is_ascii_digit() {
                    i += 1;
                }
            }
            let raw: String = chars[start..i].iter().collect();
            let n = raw.parse::<f64>().map_err(|_| CondError::Syntax(raw))?;
            toks.push(Tok::Num(n));
        } else if ch.is_alphabetic() || ch == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            // Keywords and word operators are case-insensitive in the reference.
            toks.push(match word.to_lowercase().as_str() {
                "and" => Tok::Op("&&"),
                "or" => Tok::Op("||"),
                "not" => Tok::Op("!"),
                "true" => Tok::Kw(Value::Bool(true)),
                "false" => Tok::Kw(Value::Bool(false)),
                "null" | "undefined" | "none" => Tok::Kw(Value::Null),
                _ => Tok::Ident(word),
            });
        } else {
            let rest: String = chars[i..chars.len().min(i + 3)].iter().collect();
            let op = OPERATORS
                .iter()
                .find(|op| rest.starts_with(**op))
                .copied()
                .ok_or(CondError::UnexpectedChar { ch, pos: i })?;
            toks.push(Tok::Op(op));
            i += op.chars().count();
        }
    }
    Ok(toks)
}

struct Parser {
    toks: Vec<Tok>,
    pos: usize,
}

impl Parser {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos)
    }

    fn next(&mut self) -> Result<Tok, CondError> {
        let tok = self
            .peek()
            .cloned()
            .ok_or_else(|| CondError::Syntax("unexpected end".into()))?;
        self.pos += 1;
        Ok(tok)
    }

    fn accept(&mut self, ops: &[&str]) -> Option<&'static str> {
        match self.peek() {
            Some(Tok::Op(op)) if ops.contains(op) => {
                let op = *op;
                self.pos += 1;
                Some(op)
            }
            _ => None,
        }
    }

    fn or_expr(&mut self) -> Result<Expr, CondError> {
        let mut left = self.and_expr()?;
        while self.accept(&["||"]).is_some() {
            left = Expr::Or(Box::new(left), Box::new(self.and_expr()?));
        }
        Ok(left)
    }

    fn and_expr(&mut self) -> Result<Expr, CondError> {
        let mut left = self.not_expr()?;
        while self.accept(&["&&"]).is_some() {
            left = Expr::And(Box::new(left), Box::new(self.not_expr()?));
        }
        Ok(left)
    }

    fn not_expr(&mut self) -> Result<Expr, CondError> {
        if self.accept(&["!"]).is_some() {
            return Ok(Expr::Not(Box::new(self.not_expr()?)));
        }
        self.comparison()
    }

    fn comparison(&mut self) -> Result<Expr, CondError> {
        let left = self.primary()?;
        let op = match self.accept(&["===", "!==", "==", "!=", ">=", "<=", ">", "<"]) {
            None => return Ok(left),
            Some("===") => CmpOp::StrictEq,
            Some("!==") => CmpOp::StrictNe,
            Some("==") => CmpOp::LooseEq,
            Some("!=") => CmpOp::LooseNe,
            Some(">=") => CmpOp::Ge,
            Some("<=") => CmpOp::Le,
            Some(">") => CmpOp::Gt,
            Some(_) => CmpOp::Lt,
        };
        Ok(Expr::Cmp(op, Box::new(left), Box::new(self.primary()?)))
    }

    fn primary(&mut self) -> Result<Expr, CondError> {
        if self.accept(&["("]).is_some() {
            let inner = self.or_expr()?;
            if self.accept(&[")"]).is_none() {
                return Err(CondError::Syntax("expected )".into()));
            }
            return Ok(inner);
        }
        match self.next()? {
            Tok::Num(n) => Ok(Expr::Lit(num_value(n))),
            Tok::Str(s) => Ok(Expr::Lit(Value::String(s))),
            Tok::Kw(v) => Ok(Expr::Lit(v)),
            Tok::Ident(first) => {
                // The whole dotted path is ONE variable id (MVU leaves are `mvu.a.b`).
                let mut path = first;
                while self.accept(&["."]).is_some() {
                    match self.next()? {
                        Tok::Ident(seg) => path.push_str(&format!(".{seg}")),
                        Tok::Num(n) => path.push_str(&format!(".{}", js_number_string(n))),
                        other => {
                            return Err(CondError::Syntax(format!("bad path segment {other:?}")))
                        }
                    }
                }
                Ok(Expr::Ref(path))
            }
            Tok::Op(op) => Err(CondError::Syntax(format!("unexpected {op:?}"))),
        }
    }
}

/// Parse a condition; anything outside the portable subset is an error here.
pub fn parse(expr: &str) -> Result<Expr, CondError> {
    let toks = tokenize(expr)?;
    if toks.is_empty() {
        return Err(CondError::Empty);
    }
    let mut parser = Parser { toks, pos: 0 };
    let tree = parser.or_expr()?;
    match parser.peek() {
        None => Ok(tree),
        Some(tok) => Err(CondError::Syntax(format!("unexpected trailing {tok:?}"))),
    }
}

impl Expr {
    /// The expression's value (not yet folded through truthiness).
    pub fn eval(&self, lookup: &dyn Fn(&str) -> Option<Value>) -> Result<Value, CondError> {
        Ok(match self {
            Expr::Lit(v) => v.clone(),
            Expr::Ref(path) => lookup(path).unwrap_or(Value::Null),
            Expr::Not(inner) => Value::Bool(!truthy(&inner.eval(lookup)?)),
            Expr::And(a, b) | Expr::Or(a, b) => {
                let left = a.eval(lookup)?;
                if truthy(&left) == matches!(self, Expr::And(..)) {
                    b.eval(lookup)?
                } else {
                    // Short-circuit like the reference: the dead branch is still walked,
                    // but every reference answers the benign probe 1, so only a literal
                    // error (e.g. `'a' > 5`) can surface from it.
                    b.eval(&|_: &str| Some(Value::from(1)))?;
                    left
                }
            }
            Expr::Cmp(op, a, b) => Value::Bool(compare(*op, &a.eval(lookup)?, &b.eval(lookup)?)?),
        })
    }
}

/// Evaluate a condition against a variable lookup (absent → `null`), folded to a bool.
pub fn evaluate(expr: &str, vars: &dyn Fn(&str) -> Option<Value>) -> Result<bool, CondError> {
    Ok(truthy(&parse(expr)?.eval(vars)?))
}

/// [`evaluate`] against a `variable id → value` map.
pub fn evaluate_in(expr: &str, vars: &Map<String, Value>) -> Result<bool, CondError> {
    evaluate(expr, &|id: &str| vars.get(id).cloned())
}

/// Whether a block carrying this `visible_when` shows. Fail-CLOSED: an absent gate shows;
/// a present one that is not a string, or that errors, hides.
pub fn is_visible(condition: Option<&Value>, vars: &dyn Fn(&str) -> Option<Value>) -> bool {
    match condition {
        None => true,
        Some(Value::String(expr)) => evaluate(expr, vars).unwrap_or(false),
        Some(_) => false,
    }
}

/// JS-ish truthiness as the reference client defines it: `0`, `""`, `null`, `false` and
/// EMPTY arrays are falsy; objects are truthy.
pub fn truthy(v: &Value) -> bool {
    match v {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0 && !f.is_nan()),
        Value::String(s) => !s.is_empty(),
        Value::Array(a) => !a.is_empty(),
        Value::Object(_) => true,
    }
}

/// A value as a number when it plainly is one: bools as 0/1, numeric strings (JS
/// `Number()` rules, but a blank string is NOT 0), numbers themselves.
fn as_number(v: &Value) -> Option<f64> {
    match v {
        Value::Bool(b) => Some(if *b { 1.0 } else { 0.0 }),
        Value::Number(n) => n.as_f64().filter(|f| f.is_finite()),
        Value::String(s) => js_string_to_number(s.trim_matches(is_space)),
        _ => None,
    }
}

/// Same type and same value; numbers compare numerically (JS has one number type).
fn strict_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        _ => a == b,
    }
}

fn describe(v: &Value) -> String {
    v.to_string()
}

fn compare(op: CmpOp, a: &Value, b: &Value) -> Result<bool, CondError> {
    use std::cmp::Ordering;
    let loose =
        || strict_eq(a, b) || matches!((as_number(a), as_number(b)), (Some(x), Some(y)) if x == y);
    let ord = || -> Result<Option<Ordering>, CondError> {
        match (as_number(a), as_number(b), a, b) {
            (Some(x), Some(y), _, _) => Ok(x.partial_cmp(&y)),
            // Two strings order by UTF-16 code units, as the reference client does.
            (_, _, Value::String(x), Value::String(y)) => {
                Ok(Some(x.encode_utf16().cmp(y.encode_utf16())))
            }
            _ => Err(CondError::Unorderable(describe(a), describe(b))),
        }
    };
    Ok(match op {
        CmpOp::StrictEq => strict_eq(a, b),
        CmpOp::StrictNe => !strict_eq(a, b),
        CmpOp::LooseEq => loose(),
        CmpOp::LooseNe => !loose(),
        CmpOp::Gt => ord()? == Some(Ordering::Greater),
        CmpOp::Lt => ord()? == Some(Ordering::Less),
        CmpOp::Ge => matches!(ord()?, Some(Ordering::Greater | Ordering::Equal)),
        CmpOp::Le => matches!(ord()?, Some(Ordering::Less | Ordering::Equal)),
    })
}

/// A JSON number for a literal: an integral value stays an integer (`2`, not `2.0`).
fn num_value(n: f64) -> Value {
    if n.fract() == 0.0 && n.abs() < 9.007_199_254_740_992e15 {
        Value::from(n as i64)
    } else {
        serde_json::Number::from_f64(n).map_or(Value::Null, Value::Number)
    }
}

#[cfg(test)]
mod tests;
