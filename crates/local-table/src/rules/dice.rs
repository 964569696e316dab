//! A real dice expression parser: `NdM`, `dM`, `d100`, `d%`, `+/-K`, any number of terms.

use rand::Rng;

/// One term of an expression: dice or a flat modifier, with its sign.
#[derive(Debug, Clone, PartialEq)]
enum Term {
    Dice { sign: i64, count: u32, sides: u32 },
    Flat(i64),
}

/// A rolled expression.
#[derive(Debug, Clone, PartialEq)]
pub struct Roll {
    /// The normalized expression, e.g. `2d6+1`.
    pub expr: String,
    /// Every die rolled, in order.
    pub rolls: Vec<i64>,
    /// The sum of the flat modifiers.
    pub modifier: i64,
    pub total: i64,
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum DiceError {
    #[error("empty dice expression")]
    Empty,
    #[error("cannot read dice expression at `{0}`")]
    Syntax(String),
    #[error("too many dice (at most 100 dice of at most 1000 sides)")]
    TooBig,
}

fn parse(expr: &str) -> Result<Vec<Term>, DiceError> {
    // Spaces may surround operators, never split a term ("1d6 2" is not "1d62").
    let words: Vec<&str> = expr.split_whitespace().collect();
    for pair in words.windows(2) {
        let left = pair[0].chars().last().unwrap_or('+');
        let right = pair[1].chars().next().unwrap_or('+');
        if !matches!(left, '+' | '-') && !matches!(right, '+' | '-') {
            return Err(DiceError::Syntax(pair[1].to_string()));
        }
    }
    let s: String = expr.chars().filter(|c| !c.is_whitespace()).collect();
    let s = s.to_ascii_lowercase();
    if s.is_empty() {
        return Err(DiceError::Empty);
    }
    let bytes = s.as_bytes();
    let mut i = 0;
    let mut terms = Vec::new();
    let mut total_dice = 0u32;
    while i < bytes.len() {
        let mut sign = 1;
        if bytes[i] == b'+' || bytes[i] == b'-' {
            sign = if bytes[i] == b'-' { -1 } else { 1 };
            i += 1;
        } else if !terms.is_empty() {
            return Err(DiceError::Syntax(s[i..].to_string()));
        }
        let start = i;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        let number = &s[start..i];
        if i < bytes.len() && bytes[i] == b'd' {
            i += 1;
            let count: u32 = if number.is_empty() {
                1
            } else {
                number.parse().map_err(|_| DiceError::TooBig)?
            };
            let sides: u32 = if i < bytes.len() && bytes[i] == b'%' {
                i += 1;
                100
            } else {
                let s2 = i;
                while i < bytes.len() && bytes[i].is_ascii_digit() {
                    i += 1;
                }
                if s2 == i {
                    // A bare `d` or `2d` defaults to the percentile die, as SealDice does.
                    100
                } else {
                    s[s2..i].parse().map_err(|_| DiceError::TooBig)?
                }
            };
            if count == 0 || sides == 0 {
                return Err(DiceError::Syntax(s[start..i].to_string()));
            }
            total_dice += count;
            if total_dice > 100 || sides > 1000 {
                return Err(DiceError::TooBig);
            }
            terms.push(Term::Dice { sign, count, sides });
        } else if !number.is_empty() {
            let k: i64 = number.parse().map_err(|_| DiceError::TooBig)?;
            if k > 1_000_000 {
                return Err(DiceError::TooBig);
            }
            terms.push(Term::Flat(sign * k));
        } else {
            return Err(DiceError::Syntax(s[start.saturating_sub(1)..].to_string()));
        }
    }
    Ok(terms)
}

fn render(terms: &[Term]) -> String {
    let mut out = String::new();
    for (n, term) in terms.iter().enumerate() {
        match term {
            Term::Dice { sign, count, sides } => {
                if *sign < 0 {
                    out.push('-');
                } else if n > 0 {
                    out.push('+');
                }
                out.push_str(&format!("{count}d{sides}"));
            }
            Term::Flat(k) => {
                if *k < 0 {
                    out.push_str(&k.to_string());
                } else {
                    if n > 0 {
                        out.push('+');
                    }
                    out.push_str(&k.to_string());
                }
            }
        }
    }
    out
}

/// Parses and rolls `expr` with `rng`.
pub fn roll_with(expr: &str, rng: &mut impl Rng) -> Result<Roll, DiceError> {
    let terms = parse(expr)?;
    let mut rolls = Vec::new();
    let mut modifier = 0;
    let mut total = 0;
    for term in &terms {
        match term {
            Term::Dice { sign, count, sides } => {
                for _ in 0..*count {
                    let r = rng.random_range(1..=*sides as i64);
                    rolls.push(r);
                    total += sign * r;
                }
            }
            Term::Flat(k) => {
                modifier += k;
                total += k;
            }
        }
    }
    Ok(Roll {
        expr: render(&terms),
        rolls,
        modifier,
        total,
    })
}

pub fn roll(expr: &str) -> Result<Roll, DiceError> {
    roll_with(expr, &mut rand::rng())
}

/// A percentile die.
pub fn d100() -> i64 {
    rand::rng().random_range(1..=100)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn parses_terms() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        let r = roll_with("2d6 + 1d4 - 2", &mut rng).unwrap();
        assert_eq!(r.expr, "2d6+1d4-2");
        assert_eq!(r.rolls.len(), 3);
        assert_eq!(r.modifier, -2);
        assert_eq!(r.total, r.rolls.iter().sum::<i64>() - 2);
        assert_eq!(roll_with("d%", &mut rng).unwrap().expr, "1d100");
        assert_eq!(roll_with("D100", &mut rng).unwrap().expr, "1d100");
        assert_eq!(roll_with("3", &mut rng).unwrap().total, 3);
        let sub = roll_with("1d6-1d6", &mut rng).unwrap();
        assert_eq!(sub.total, sub.rolls[0] - sub.rolls[1]);
    }

    #[test]
    fn rejects_garbage() {
        assert_eq!(roll("").unwrap_err(), DiceError::Empty);
        assert!(roll("2x6").is_err());
        assert!(roll("1d6 2").is_err());
        assert!(roll("0d6").is_err());
        assert_eq!(roll("1000d6").unwrap_err(), DiceError::TooBig);
        assert!(roll("+").is_err());
    }

    #[test]
    fn rolls_stay_in_range() {
        for _ in 0..200 {
            let r = roll("1d20+5").unwrap();
            assert!((6..=25).contains(&r.total));
        }
    }
}
