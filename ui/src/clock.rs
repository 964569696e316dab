//! Clocks that tick only while something on screen needs them.
//!
//! Every timer that fires wakes the web process and runs our script, and the garbage each
//! tick leaves brings JSC's collector round: a 1 Hz clock kept running for an uptime that was
//! not shown was the web process's busiest wakeup at an idle table (#30 item 3). A clock
//! here runs while `needed` reads true and is cleared the moment it reads false, and when
//! its owner goes.

use std::time::Duration;

use leptos::prelude::*;

/// Calls `tick` every `every` while `needed()` is true (and once at each start, so what it
/// shows is fresh from the first frame). `needed` is tracked: the clock starts and stops as
/// the signals it reads change.
pub fn tick_while(
    needed: impl Fn() -> bool + 'static,
    every: Duration,
    tick: impl Fn() + Clone + 'static,
) {
    let running = StoredValue::new(None::<IntervalHandle>);
    let stop = move || {
        if let Some(h) = running.try_update_value(Option::take).flatten() {
            h.clear();
        }
    };
    Effect::new(move |_| {
        let on = needed();
        let idle = running.with_value(Option::is_none);
        if on && idle {
            untrack(&tick);
            running.set_value(set_interval_with_handle(tick.clone(), every).ok());
        } else if !on {
            stop();
        }
    });
    on_cleanup(stop);
}
