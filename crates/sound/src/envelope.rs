//! A click-free gain ramp.

/// A gain moving linearly to its target, one step per audio frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Envelope {
    gain: f32,
    from: f32,
    target: f32,
    frames: u64,
    done: u64,
}

impl Envelope {
    /// Still at `gain`.
    pub fn at(gain: f32) -> Self {
        Envelope {
            gain,
            from: gain,
            target: gain,
            frames: 0,
            done: 0,
        }
    }

    pub fn gain(&self) -> f32 {
        self.gain
    }

    pub fn target(&self) -> f32 {
        self.target
    }

    /// The ramp has arrived.
    pub fn settled(&self) -> bool {
        self.done >= self.frames
    }

    /// Moves from where it is now to `target` over `frames` frames (0: at once).
    pub fn ramp_to(&mut self, target: f32, frames: u64) {
        self.from = self.gain;
        self.target = target;
        self.frames = frames;
        self.done = 0;
        if frames == 0 {
            self.gain = target;
        }
    }

    /// The gain for the next frame. Computed from the ramp's ends, not summed step by step,
    /// so a long fade does not drift and lands exactly on its target.
    #[inline]
    pub fn next_gain(&mut self) -> f32 {
        if self.done < self.frames {
            self.done += 1;
            self.gain = if self.done == self.frames {
                self.target
            } else {
                let t = self.done as f64 / self.frames as f64;
                (f64::from(self.from) + (f64::from(self.target) - f64::from(self.from)) * t) as f32
            };
        }
        self.gain
    }
}

/// Frames in `ms` milliseconds at `rate` frames per second.
pub fn frames_for(ms: u64, rate: u32) -> u64 {
    ms * u64::from(rate) / 1000
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ramp_is_linear_small_stepped_and_lands_on_its_target() {
        let mut e = Envelope::at(0.0);
        let frames = frames_for(1000, 44_100);
        e.ramp_to(0.8, frames);
        let mut last = 0.0f32;
        let mut max_step = 0.0f32;
        for i in 1..=frames {
            let g = e.next_gain();
            max_step = max_step.max((g - last).abs());
            last = g;
            if i == frames / 2 {
                assert!((g - 0.4).abs() < 1e-3, "half way: {g}");
            }
        }
        assert_eq!(last, 0.8);
        assert!(e.settled());
        // No click: each step is the change spread over the whole fade.
        assert!(max_step <= 0.8 / frames as f32 * 1.01, "{max_step}");
        assert_eq!(e.next_gain(), 0.8, "settled gains stay");
    }

    #[test]
    fn a_new_ramp_starts_where_the_old_one_is() {
        let mut e = Envelope::at(1.0);
        e.ramp_to(0.0, 100);
        for _ in 0..50 {
            e.next_gain();
        }
        let mid = e.gain();
        e.ramp_to(1.0, 10);
        let next = e.next_gain();
        assert!((next - (mid + (1.0 - mid) / 10.0)).abs() < 1e-6);
        e.ramp_to(0.3, 0);
        assert_eq!(e.next_gain(), 0.3);
    }
}
