//! JavaScript's number <-> string conversions, where the reference client's behaviour
//! is the contract (condition coercion, text stringification).

/// JS `Number(text)` for a trimmed, non-empty string; `None` for NaN and the infinities.
pub(crate) fn js_string_to_number(t: &str) -> Option<f64> {
    if t.is_empty() {
        return None;
    }
    for (prefix, radix) in [
        ("0x", 16),
        ("0X", 16),
        ("0o", 8),
        ("0O", 8),
        ("0b", 2),
        ("0B", 2),
    ] {
        if let Some(digits) = t.strip_prefix(prefix) {
            // from_str_radix would also take a sign, which JS refuses after the prefix.
            if !digits.bytes().all(|b| b.is_ascii_alphanumeric()) {
                return None;
            }
            return u128::from_str_radix(digits, radix).ok().map(|n| n as f64);
        }
    }
    // Rust's float parser also takes "inf"/"nan", which JS reads as NaN: digits only.
    let body = t.strip_prefix(['+', '-']).unwrap_or(t);
    if !body.starts_with(|c: char| c.is_ascii_digit() || c == '.') {
        return None;
    }
    t.parse::<f64>().ok().filter(|f| f.is_finite())
}

/// JavaScript's `String(n)`: integral values print bare, exponents past 1e21 / below
/// 1e-6 print as `1e+21` / `1.5e-7`.
pub(crate) fn js_number_string(n: f64) -> String {
    if n == 0.0 {
        return "0".into();
    }
    if n.is_nan() {
        return "NaN".into();
    }
    if n.is_infinite() {
        return if n > 0.0 { "Infinity" } else { "-Infinity" }.into();
    }
    let abs = n.abs();
    if (1e-6..1e21).contains(&abs) {
        return format!("{n}");
    }
    let exp = format!("{n:e}");
    match exp.split_once('e') {
        Some((mantissa, power)) if !power.starts_with('-') => format!("{mantissa}e+{power}"),
        _ => exp,
    }
}
