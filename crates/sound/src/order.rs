//! Arrival order per layer. A Play must fetch its sound first, and a fetch can be slow; the
//! frames after it must still win. Each frame takes a ticket for its layer; a fetch that
//! finishes holding anything but its layer's latest ticket is dropped.

use std::collections::HashMap;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ticket {
    layer: String,
    n: u64,
}

#[derive(Debug, Default)]
pub struct Latest {
    by_layer: HashMap<String, u64>,
}

impl Latest {
    /// A new frame arrived for `layer`: every older ticket of that layer is now stale.
    pub fn issue(&mut self, layer: &str) -> Ticket {
        let n = self.by_layer.entry(layer.to_string()).or_default();
        *n += 1;
        Ticket {
            layer: layer.to_string(),
            n: *n,
        }
    }

    /// Whether nothing arrived for the ticket's layer since it was issued.
    pub fn is_latest(&self, t: &Ticket) -> bool {
        self.by_layer.get(&t.layer) == Some(&t.n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slow_play_loses_to_what_came_after_it_on_its_layer_only() {
        let mut l = Latest::default();
        // Play(A) is fetching; Stop arrives: A's fetch lands to silence.
        let play_a = l.issue("bgm");
        let stop = l.issue("bgm");
        assert!(!l.is_latest(&play_a));
        assert!(l.is_latest(&stop));
        // Play(A) then Play(B): B.
        let a = l.issue("bgm");
        let b = l.issue("bgm");
        assert!(!l.is_latest(&a) && l.is_latest(&b));
        // Another layer's frames change nothing here.
        let amb = l.issue("ambience");
        assert!(l.is_latest(&b) && l.is_latest(&amb));
    }
}
