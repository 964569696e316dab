//! One sound on one layer: its decoder behind a gain the mixer thread ramps while it plays.
//! The ramp itself is `sound::envelope` (pure, tested there); this only applies it per frame.

use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rodio::source::SeekError;
use rodio::{ChannelCount, Sample, SampleRate, Source};
use sound::envelope::{frames_for, Envelope};

/// The mixer thread's handle on a playing sound's gain.
#[derive(Debug)]
pub struct Gain {
    pending: AtomicBool,
    ramp: Mutex<(f32, u64)>,
    now_bits: AtomicU32,
}

impl Gain {
    pub fn new(start: f32) -> Arc<Self> {
        Arc::new(Gain {
            pending: AtomicBool::new(false),
            ramp: Mutex::new((start, 0)),
            now_bits: AtomicU32::new(start.to_bits()),
        })
    }

    /// From wherever it is now to `target` over `ms` milliseconds of audio.
    pub fn ramp(&self, target: f32, ms: u64) {
        *self.ramp.lock().unwrap_or_else(|e| e.into_inner()) = (target, ms);
        self.pending.store(true, Ordering::Release);
    }

    /// The gain of the last frame played.
    pub fn current(&self) -> f32 {
        f32::from_bits(self.now_bits.load(Ordering::Relaxed))
    }
}

/// A source with a rampable gain.
pub struct Faded<S> {
    inner: S,
    env: Envelope,
    gain: Arc<Gain>,
    channels: u16,
    rate: u32,
    in_frame: u16,
    current: f32,
}

impl<S: Source> Faded<S> {
    pub fn new(inner: S, gain: Arc<Gain>) -> Self {
        let start = gain.current();
        Faded {
            channels: inner.channels().get(),
            rate: inner.sample_rate().get(),
            inner,
            env: Envelope::at(start),
            gain,
            in_frame: 0,
            current: start,
        }
    }
}

impl<S: Source> Iterator for Faded<S> {
    type Item = Sample;

    #[inline]
    fn next(&mut self) -> Option<Sample> {
        let s = self.inner.next()?;
        if self.in_frame == 0 {
            if self.gain.pending.load(Ordering::Acquire)
                && self.gain.pending.swap(false, Ordering::AcqRel)
            {
                let (target, ms) = *self.gain.ramp.lock().unwrap_or_else(|e| e.into_inner());
                self.env.ramp_to(target, frames_for(ms, self.rate));
            }
            self.current = self.env.next_gain();
            self.gain
                .now_bits
                .store(self.current.to_bits(), Ordering::Relaxed);
        }
        self.in_frame = (self.in_frame + 1) % self.channels.max(1);
        Some(s * self.current as Sample)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.inner.size_hint()
    }
}

impl<S: Source> Source for Faded<S> {
    fn current_span_len(&self) -> Option<usize> {
        self.inner.current_span_len()
    }

    fn channels(&self) -> ChannelCount {
        self.inner.channels()
    }

    fn sample_rate(&self) -> SampleRate {
        self.inner.sample_rate()
    }

    fn total_duration(&self) -> Option<Duration> {
        self.inner.total_duration()
    }

    fn try_seek(&mut self, pos: Duration) -> Result<(), SeekError> {
        self.inner.try_seek(pos)
    }
}
