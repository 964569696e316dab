//! Where a track the table started some time ago is now.

use std::time::Duration;

/// Seconds since the table started the track, on the table's clock: `now` is this client's
/// clock, `skew` how far ahead of the table's clock it runs (0 when unknown).
pub fn elapsed(started_at: f64, now: f64, skew: f64) -> Duration {
    let secs = now - skew - started_at;
    if secs.is_finite() && secs > 0.0 {
        Duration::from_secs_f64(secs)
    } else {
        Duration::ZERO
    }
}

/// The point inside the track to start from, `elapsed` after it began: wrapped for a loop; for
/// a one-shot past its end, `None` (it is over). An unknown length starts where it can.
pub fn start_at(elapsed: Duration, length: Option<Duration>, looped: bool) -> Option<Duration> {
    match length {
        Some(len) if !len.is_zero() => {
            if looped {
                let nanos = elapsed.as_nanos() % len.as_nanos();
                Some(Duration::from_nanos(nanos as u64))
            } else if elapsed >= len {
                None
            } else {
                Some(elapsed)
            }
        }
        _ => Some(elapsed),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_loop_wraps_and_a_one_shot_ends() {
        let len = Some(Duration::from_secs(10));
        let e = Duration::from_millis(23_500);
        assert_eq!(start_at(e, len, true), Some(Duration::from_millis(3_500)));
        assert_eq!(start_at(e, len, false), None);
        assert_eq!(
            start_at(Duration::from_secs(4), len, false),
            Some(Duration::from_secs(4))
        );
        assert_eq!(start_at(e, None, true), Some(e));
    }

    #[test]
    fn elapsed_time_follows_the_tables_clock() {
        assert_eq!(elapsed(100.0, 112.5, 0.0), Duration::from_millis(12_500));
        // This client's clock runs 2 s ahead of the table's.
        assert_eq!(elapsed(100.0, 112.5, 2.0), Duration::from_millis(10_500));
        // A start in the future (clocks apart) or nonsense: from the beginning.
        assert_eq!(elapsed(100.0, 99.0, 0.0), Duration::ZERO);
        assert_eq!(elapsed(f64::NAN, 99.0, 0.0), Duration::ZERO);
    }
}
