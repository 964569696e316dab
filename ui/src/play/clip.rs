//! Cutting a table's words to fit one line (the status bar, the sound menu).

/// A table's word cut to `max` characters with an ellipsis: the status bar stays one line
/// however long a room or name is (the whole of it is the item's tooltip).
pub fn clip(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut cut: String = text.chars().take(max.saturating_sub(1)).collect();
    cut.push('…');
    cut
}

#[cfg(test)]
mod tests {
    use super::clip;

    #[test]
    fn long_words_are_cut_short_ones_kept() {
        assert_eq!(clip("demo", 24), "demo");
        assert_eq!(clip("abcdef", 4), "abc…");
        // Characters, not bytes: a name in Chinese is cut between characters.
        assert_eq!(clip("深夜的灯塔守望者", 5), "深夜的灯…");
    }
}
