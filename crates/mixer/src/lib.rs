//! Music, ambience and effects: one rodio mixer; on bgm and ambience one sounding track per
//! layer (plus the ones fading out of a crossfade), effects overlapping. The server never plays
//! audio: it sends `audio_control` and Studio plays the verified bytes from the cache.
//!
//! What a frame means (order, position, crossfade length) is decided by the pure `sound` crate
//! (the app's director feeds it); this thread only applies it: every gain change is a ramp
//! ([`voice::Faded`]), so nothing clicks, and the person's own levels sit on top.
//!
//! Where no sound device exists (a server, CI), the same mixer runs headless: a thread pulls its
//! samples at real-time pace and records the level, so playback is real, only silent.

pub mod bench;
pub mod voice;

use std::collections::HashMap;
use std::io::BufReader;
use std::num::NonZero;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

use rodio::mixer::Mixer;
use rodio::{Decoder, Player, Source};
use serde::Serialize;
pub use sound::levels::Levels;
use sound::plan::Action;

use voice::{Faded, Gain};

/// The shortest ramp: a change "at once" still takes this long, so it does not click.
pub const MIN_FADE_MS: u64 = 10;

/// A layer's command, already resolved to a verified file (opened by the cache, never by name).
#[derive(Debug)]
pub enum AudioCommand {
    Play {
        layer: String,
        file: std::fs::File,
        looped: bool,
        volume: f32,
        fade_ms: u64,
        /// How far into the track the table is, and when that was computed.
        start: Option<(Duration, Instant)>,
    },
    /// Stop, pause, resume or volume: the plan's own action, as it is. (A Play goes as
    /// [`AudioCommand::Play`], with its file; a plan's Play here is ignored.)
    Layer(Action),
    /// The person's own levels, on top of the table's.
    Levels(Levels),
    /// What each layer sounds like right now.
    Report(mpsc::Sender<Report>),
}

/// Each layer's level now: the table's gain as the audio last played it, times the person's
/// level as the player was last told; and the headless output's measured peak.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Report {
    pub layers: Vec<(String, f32)>,
    /// Layers with a track of their own now (playing or paused; effects not counted).
    pub sounding: Vec<String>,
    /// The loudest sample of the output's last block (headless only: a device is not read).
    pub output_peak: Option<f32>,
}

/// What the headless output has heard: for tests, the bench and diagnostics.
#[derive(Debug, Default)]
pub struct Meter {
    /// Samples pulled from the mixer so far.
    pub samples: AtomicU64,
    /// The loudest absolute sample in the last pulled block, as f32 bits.
    peak_bits: AtomicU32,
    /// Rung after every command the desk applies: a headless output with nothing to play
    /// sleeps until it rings (an idle table wakes nothing 200 times a second).
    bell: (std::sync::Mutex<u64>, std::sync::Condvar),
}

impl Meter {
    pub fn peak(&self) -> f32 {
        f32::from_bits(self.peak_bits.load(Ordering::Relaxed))
    }

    fn rings(&self) -> u64 {
        *self.bell.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn ring(&self) {
        *self.bell.0.lock().unwrap_or_else(|e| e.into_inner()) += 1;
        self.bell.1.notify_all();
    }

    /// Waits until the bell rang since `seen`, or `timeout`.
    fn wait_past(&self, seen: u64, timeout: Duration) {
        let rang = self.bell.0.lock().unwrap_or_else(|e| e.into_inner());
        let _ = self
            .bell
            .1
            .wait_timeout_while(rang, timeout, |n| *n == seen);
    }
}

/// The longest a headless output with nothing to play sleeps between looks (a command wakes it
/// at once).
const HEADLESS_IDLE_WAIT: Duration = Duration::from_secs(1);

/// The headless output's rate (stereo).
pub const HEADLESS_RATE: u32 = 44_100;

/// Cheap to clone; commands go to the audio thread, which owns the device.
#[derive(Clone)]
pub struct AudioMixer {
    commands: mpsc::Sender<AudioCommand>,
    pub meter: Arc<Meter>,
}

impl AudioMixer {
    /// The default device, or the headless mixer when there is none (or `headless` is asked).
    pub fn start(headless: bool) -> Self {
        let (tx, rx) = mpsc::channel();
        let meter = Arc::new(Meter::default());
        let thread_meter = meter.clone();
        std::thread::Builder::new()
            .name("audio".into())
            .spawn(move || run(rx, headless, thread_meter))
            .expect("the audio thread starts");
        AudioMixer {
            commands: tx,
            meter,
        }
    }

    pub fn send(&self, command: AudioCommand) {
        let _ = self.commands.send(command);
    }

    /// What each layer sounds like now (waits briefly for the audio thread).
    pub fn report(&self, headless: bool) -> Report {
        let (tx, rx) = mpsc::channel();
        self.send(AudioCommand::Report(tx));
        let mut r = rx
            .recv_timeout(Duration::from_millis(500))
            .unwrap_or_default();
        if headless {
            r.output_peak = Some(self.meter.peak());
        }
        r
    }
}

fn run(commands: mpsc::Receiver<AudioCommand>, headless: bool, meter: Arc<Meter>) {
    // The device sink is not Send: it lives and dies on this thread.
    let device = if headless {
        None
    } else {
        rodio::DeviceSinkBuilder::open_default_sink().ok()
    };
    let mixer = match &device {
        Some(sink) => sink.mixer().clone(),
        None => headless_mixer(meter.clone()),
    };
    let mut desk = Desk {
        mixer,
        layers: HashMap::new(),
        levels: Levels::default(),
    };
    loop {
        // Asleep until a command comes or the desk's next deadline: an idle table (or a track
        // simply playing) wakes this thread for nothing.
        let got = match desk.next_tick(Instant::now()) {
            Some(wait) => commands.recv_timeout(wait),
            None => commands
                .recv()
                .map_err(|_| mpsc::RecvTimeoutError::Disconnected),
        };
        match got {
            Ok(c) => {
                desk.apply(c);
                meter.ring();
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => return,
        }
        desk.tick(Instant::now());
    }
}

/// A mixer whose output a thread pulls at real-time pace, recording the level.
fn headless_mixer(meter: Arc<Meter>) -> Mixer {
    let (mixer, mut source) = rodio::mixer::mixer(
        NonZero::new(2).expect("two channels"),
        NonZero::new(HEADLESS_RATE).expect("a sample rate"),
    );
    std::thread::Builder::new()
        .name("audio-headless".into())
        .spawn(move || {
            // 5 ms blocks of stereo samples, pulled on a real-time schedule.
            let block = (HEADLESS_RATE as usize / 200) * 2;
            let mut started = Instant::now();
            let (mut pulled, mut total) = (0u64, 0u64);
            loop {
                let seen = meter.rings();
                let (peak, playing) = pull_block(&mut source, block);
                total += block as u64;
                meter.samples.store(total, Ordering::Relaxed);
                meter.peak_bits.store(peak.to_bits(), Ordering::Relaxed);
                if !playing {
                    // Nothing in the mixer: asleep until the desk applies a command (a
                    // sound starts at once), then a new real-time schedule from there.
                    meter.wait_past(seen, HEADLESS_IDLE_WAIT);
                    (started, pulled) = (Instant::now(), 0);
                    continue;
                }
                pulled += block as u64;
                let due = Duration::from_secs_f64(pulled as f64 / (HEADLESS_RATE as f64 * 2.0));
                if let Some(wait) = due.checked_sub(started.elapsed()) {
                    std::thread::sleep(wait);
                }
            }
        })
        .expect("the headless audio thread starts");
    mixer
}

/// Pulls one block of `block` samples: its peak, and whether the mixer had anything in it. A
/// mixer with nothing playing ends its iterator (rodio's `MixerSource` says `None`); that block
/// is silence, and the output sleeps instead of spinning a core until a sound starts.
fn pull_block(source: &mut impl Iterator<Item = f32>, block: usize) -> (f32, bool) {
    let mut playing = false;
    let peak = (0..block)
        .map(|_| match source.next() {
            Some(v) => {
                playing = true;
                v.abs()
            }
            None => 0.0,
        })
        .fold(0.0, f32::max);
    (peak, playing)
}

struct Voice {
    player: Player,
    gain: Arc<Gain>,
}

#[derive(Default)]
struct Layer {
    /// The sounding track (bgm, ambience), with the table's volume for it.
    current: Option<(Voice, f32)>,
    /// Going quiet (a crossfade's old track, a stop with a fade): dropped at their deadline.
    fading: Vec<(Voice, Instant)>,
    /// Effects: one-shots that overlap, dropped when done.
    oneshots: Vec<Voice>,
    /// A pause that fades first: the player pauses at this moment.
    pause_at: Option<Instant>,
}

struct Desk {
    mixer: Mixer,
    layers: HashMap<String, Layer>,
    levels: Levels,
}

/// A faded voice is stopped this long after its fade's end (the fade itself runs in the
/// samples; this only frees the voice).
const FADE_GRACE: Duration = Duration::from_millis(30);
/// How often finished one-shots are looked for while some sound.
const ONESHOT_POLL: Duration = Duration::from_millis(250);

fn fade(ms: u64) -> u64 {
    ms.max(MIN_FADE_MS)
}

impl Desk {
    fn apply(&mut self, command: AudioCommand) {
        let now = Instant::now();
        match command {
            AudioCommand::Play {
                layer,
                file,
                looped,
                volume,
                fade_ms,
                start,
            } => self.play(&layer, file, looped, volume, fade_ms, start, now),
            AudioCommand::Layer(action) => self.layer(action, now),
            AudioCommand::Report(to) => self.report(to),
            AudioCommand::Levels(levels) => {
                self.levels = levels;
                for (name, l) in &self.layers {
                    let f = self.levels.factor(name);
                    let voices = l
                        .current
                        .iter()
                        .map(|(v, _)| v)
                        .chain(l.fading.iter().map(|(v, _)| v))
                        .chain(l.oneshots.iter());
                    for v in voices {
                        v.player.set_volume(f as _);
                    }
                }
            }
        }
    }

    /// Stop, pause, resume, volume on one layer.
    fn layer(&mut self, action: Action, now: Instant) {
        match action {
            Action::Stop { layer, fade_ms } => {
                let l = self.layers.entry(layer).or_default();
                l.pause_at = None;
                if let Some((v, _)) = l.current.take() {
                    v.gain.ramp(0.0, fade(fade_ms));
                    l.fading
                        .push((v, now + Duration::from_millis(fade(fade_ms))));
                }
                for v in l.oneshots.drain(..) {
                    v.gain.ramp(0.0, MIN_FADE_MS);
                    l.fading.push((v, now + Duration::from_millis(MIN_FADE_MS)));
                }
            }
            Action::Pause { layer, fade_ms } => {
                if let Some(l) = self.layers.get_mut(&layer) {
                    if let Some((v, _)) = &l.current {
                        v.gain.ramp(0.0, fade(fade_ms));
                        l.pause_at = Some(now + Duration::from_millis(fade(fade_ms)));
                    }
                }
            }
            Action::Resume { layer, fade_ms } => {
                if let Some(l) = self.layers.get_mut(&layer) {
                    l.pause_at = None;
                    if let Some((v, vol)) = &l.current {
                        v.player.play();
                        v.gain.ramp(*vol, fade(fade_ms));
                    }
                }
            }
            Action::Volume {
                layer,
                volume,
                fade_ms,
            } => {
                if let Some(l) = self.layers.get_mut(&layer) {
                    let paused = l.pause_at.is_some()
                        || l.current
                            .as_ref()
                            .is_some_and(|(v, _)| v.player.is_paused());
                    if let Some((v, vol)) = &mut l.current {
                        *vol = volume;
                        if !paused {
                            v.gain.ramp(volume, fade(fade_ms));
                        }
                    }
                }
            }
            Action::Play { .. } => {}
        }
    }

    fn report(&self, to: mpsc::Sender<Report>) {
        let layers = ["bgm", "ambience", "sfx"]
            .iter()
            .map(|name| {
                let level = self.layers.get(*name).map_or(0.0, |l| {
                    l.current
                        .iter()
                        .map(|(v, _)| v)
                        .chain(l.oneshots.iter())
                        .filter(|v| !v.player.is_paused())
                        .map(|v| v.gain.current() * v.player.volume())
                        .fold(0.0, f32::max)
                });
                (name.to_string(), level)
            })
            .collect();
        let mut sounding: Vec<String> = self
            .layers
            .iter()
            .filter(|(_, l)| l.current.is_some())
            .map(|(n, _)| n.clone())
            .collect();
        sounding.sort();
        let _ = to.send(Report {
            layers,
            sounding,
            output_peak: None,
        });
    }

    #[allow(clippy::too_many_arguments)]
    fn play(
        &mut self,
        layer: &str,
        file: std::fs::File,
        looped: bool,
        volume: f32,
        fade_ms: u64,
        start: Option<(Duration, Instant)>,
        now: Instant,
    ) {
        // A looped decoder does not know its length: read it from a plain one first.
        let length = start.and_then(|_| {
            let mut probe = file.try_clone().ok()?;
            let length = Decoder::new(BufReader::new(probe.try_clone().ok()?))
                .ok()
                .and_then(|d| d.total_duration());
            std::io::Seek::rewind(&mut probe).ok()?;
            length
        });
        let reader = BufReader::new(file);
        let decoded: Result<Box<dyn Source + Send>, _> = if looped {
            Decoder::new_looped(reader).map(|d| Box::new(d) as Box<dyn Source + Send>)
        } else {
            Decoder::new(reader).map(|d| Box::new(d) as Box<dyn Source + Send>)
        };
        let mut source = match decoded {
            Ok(s) => s,
            Err(e) => {
                tracing::warn!("audio on {layer} could not be decoded: {e}");
                return;
            }
        };
        // Where the table is in this track (a joining listener): seek, or skip decoded audio
        // where the format cannot seek. A one-shot that is already over is not played.
        if let Some((elapsed, at)) = start {
            let Some(offset) = sound::position::start_at(elapsed + at.elapsed(), length, looped)
            else {
                return;
            };
            if !offset.is_zero() && source.try_seek(offset).is_err() {
                source = Box::new(source.skip_duration(offset));
            }
        }
        let gain = Gain::new(0.0);
        gain.ramp(volume.clamp(0.0, 1.0), fade(fade_ms));
        let player = Player::connect_new(&self.mixer);
        player.set_volume(self.levels.factor(layer) as _);
        player.append(Faded::new(source, gain.clone()));
        player.play();
        let voice = Voice { player, gain };
        let l = self.layers.entry(layer.to_string()).or_default();
        if layer == "sfx" {
            l.oneshots.push(voice);
            return;
        }
        l.pause_at = None;
        // Music and ambience: the old track fades out while the new one fades in.
        if let Some((old, _)) = l.current.replace((voice, volume)) {
            old.gain.ramp(0.0, fade(fade_ms));
            l.fading
                .push((old, now + Duration::from_millis(fade(fade_ms))));
        }
    }

    /// Deadlines: fades that have ended, pauses that were fading, effects that are done.
    /// How long until [`Self::tick`] has work: the nearest end of a fade or a fading pause;
    /// a short poll while one-shots sound (each is dropped when it ends); `None`: nothing due.
    fn next_tick(&self, now: Instant) -> Option<Duration> {
        let deadlines = self.layers.values().flat_map(|l| {
            l.fading
                .iter()
                .map(|(_, end)| *end + FADE_GRACE)
                .chain(l.pause_at)
        });
        let due = deadlines.min().map(|t| t.saturating_duration_since(now));
        let oneshots = self
            .layers
            .values()
            .any(|l| !l.oneshots.is_empty())
            .then_some(ONESHOT_POLL);
        due.into_iter().chain(oneshots).min()
    }

    fn tick(&mut self, now: Instant) {
        for l in self.layers.values_mut() {
            l.fading.retain(|(v, end)| {
                let keep = *end + FADE_GRACE > now;
                if !keep {
                    v.player.stop();
                }
                keep
            });
            if l.pause_at.is_some_and(|t| t <= now) {
                l.pause_at = None;
                if let Some((v, _)) = &l.current {
                    v.player.pause();
                }
            }
            l.oneshots.retain(|v| !v.player.empty());
        }
    }
}

#[cfg(test)]
mod tests;
