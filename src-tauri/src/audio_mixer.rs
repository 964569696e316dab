//! Music, ambience and effects: one rodio mixer, one `Player` per layer. The server never plays
//! audio; it sends `audio_control` and Studio plays the verified bytes from the cache.
//!
//! Where no sound device exists (a server, CI), the same mixer runs headless: a thread pulls its
//! samples at real-time pace and records the level, so playback is real, only silent.

use std::collections::HashMap;
use std::io::BufReader;
use std::num::NonZero;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Duration;

use rodio::mixer::Mixer;
use rodio::{Decoder, Player};

/// A layer's command, already resolved to a verified file (opened by the cache, never by name).
#[derive(Debug)]
pub enum AudioCommand {
    Play {
        layer: String,
        file: std::fs::File,
        looped: bool,
        volume: f32,
    },
    Stop {
        layer: String,
    },
    Pause {
        layer: String,
    },
    Resume {
        layer: String,
    },
    Volume {
        layer: String,
        volume: f32,
    },
}

/// What the headless output has heard: for tests and diagnostics.
#[derive(Debug, Default)]
pub struct Meter {
    /// Samples pulled from the mixer so far.
    pub samples: AtomicU64,
    /// The loudest absolute sample in the last pulled block, as f32 bits.
    peak_bits: AtomicU32,
}

impl Meter {
    #[cfg(test)]
    pub fn peak(&self) -> f32 {
        f32::from_bits(self.peak_bits.load(Ordering::Relaxed))
    }
}

/// Cheap to clone; commands go to the audio thread, which owns the device.
#[derive(Clone)]
pub struct AudioMixer {
    commands: mpsc::Sender<AudioCommand>,
    #[cfg(test)]
    pub meter: Arc<Meter>,
}

impl AudioMixer {
    /// The default device, or the headless mixer when there is none (or `headless` is asked).
    pub fn start(headless: bool) -> Self {
        let (tx, rx) = mpsc::channel();
        let meter = Arc::new(Meter::default());
        #[cfg(test)]
        let thread_meter = meter.clone();
        #[cfg(not(test))]
        let thread_meter = meter;
        std::thread::Builder::new()
            .name("audio".into())
            .spawn(move || run(rx, headless, thread_meter))
            .expect("the audio thread starts");
        AudioMixer {
            commands: tx,
            #[cfg(test)]
            meter,
        }
    }

    pub fn send(&self, command: AudioCommand) {
        let _ = self.commands.send(command);
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
        None => headless_mixer(meter),
    };
    let mut layers: HashMap<String, Player> = HashMap::new();
    for command in commands {
        apply(&mixer, &mut layers, command);
    }
}

/// A mixer whose output a thread pulls at real-time pace, recording the level.
fn headless_mixer(meter: Arc<Meter>) -> Mixer {
    const RATE: u32 = 44_100;
    let (mixer, mut source) = rodio::mixer::mixer(
        NonZero::new(2).expect("two channels"),
        NonZero::new(RATE).expect("a sample rate"),
    );
    std::thread::Builder::new()
        .name("audio-headless".into())
        .spawn(move || {
            // 20 ms blocks of stereo samples.
            let block = (RATE as usize / 50) * 2;
            loop {
                let mut peak = 0f32;
                for _ in 0..block {
                    let Some(s) = source.next() else { break };
                    peak = peak.max(s.abs());
                    meter.samples.fetch_add(1, Ordering::Relaxed);
                }
                meter.peak_bits.store(peak.to_bits(), Ordering::Relaxed);
                std::thread::sleep(Duration::from_millis(20));
            }
        })
        .expect("the headless audio thread starts");
    mixer
}

fn apply(mixer: &Mixer, layers: &mut HashMap<String, Player>, command: AudioCommand) {
    match command {
        AudioCommand::Play {
            layer,
            file,
            looped,
            volume,
        } => {
            let reader = BufReader::new(file);
            // Effects overlap; music and ambience replace what their layer was playing.
            let player = if layer == "sfx" {
                layers
                    .entry(layer.clone())
                    .or_insert_with(|| Player::connect_new(mixer))
            } else {
                let fresh = Player::connect_new(mixer);
                if let Some(old) = layers.insert(layer.clone(), fresh) {
                    old.stop();
                }
                layers.get_mut(&layer).expect("just inserted")
            };
            player.set_volume(volume.clamp(0.0, 1.0) as _);
            let appended = if looped {
                Decoder::new_looped(reader).map(|d| player.append(d))
            } else {
                Decoder::new(reader).map(|d| player.append(d))
            };
            if let Err(e) = appended {
                tracing::warn!("audio on {layer} could not be decoded: {e}");
            }
            player.play();
        }
        AudioCommand::Stop { layer } => {
            if let Some(p) = layers.remove(&layer) {
                p.stop();
            }
        }
        AudioCommand::Pause { layer } => {
            if let Some(p) = layers.get(&layer) {
                p.pause();
            }
        }
        AudioCommand::Resume { layer } => {
            if let Some(p) = layers.get(&layer) {
                p.play();
            }
        }
        AudioCommand::Volume { layer, volume } => {
            if let Some(p) = layers.get(&layer) {
                p.set_volume(volume.clamp(0.0, 1.0) as _);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A one-second 440 Hz mono WAV, written by hand (16-bit PCM).
    fn sine_wav(path: &std::path::Path) {
        let rate = 22_050u32;
        let samples: Vec<i16> = (0..rate)
            .map(|i| {
                ((i as f32 * 440.0 * std::f32::consts::TAU / rate as f32).sin() * 16_000.0) as i16
            })
            .collect();
        let data_len = (samples.len() * 2) as u32;
        let mut bytes = Vec::new();
        bytes.extend_from_slice(b"RIFF");
        bytes.extend_from_slice(&(36 + data_len).to_le_bytes());
        bytes.extend_from_slice(b"WAVEfmt ");
        bytes.extend_from_slice(&16u32.to_le_bytes());
        bytes.extend_from_slice(&1u16.to_le_bytes());
        bytes.extend_from_slice(&1u16.to_le_bytes());
        bytes.extend_from_slice(&rate.to_le_bytes());
        bytes.extend_from_slice(&(rate * 2).to_le_bytes());
        bytes.extend_from_slice(&2u16.to_le_bytes());
        bytes.extend_from_slice(&16u16.to_le_bytes());
        bytes.extend_from_slice(b"data");
        bytes.extend_from_slice(&data_len.to_le_bytes());
        for s in samples {
            bytes.extend_from_slice(&s.to_le_bytes());
        }
        std::fs::write(path, bytes).expect("writing the wav");
    }

    fn wait_peak(meter: &Meter, loud: bool) -> bool {
        (0..100).any(|_| {
            std::thread::sleep(Duration::from_millis(20));
            if loud {
                meter.peak() > 0.1
            } else {
                meter.peak() < 0.001
            }
        })
    }

    #[test]
    fn the_real_mixer_plays_pauses_and_stops_a_layer_headless() {
        let path = std::env::temp_dir().join(format!("studio-audio-{}.wav", std::process::id()));
        sine_wav(&path);
        let audio = AudioMixer::start(true);
        assert!(
            wait_peak(&audio.meter, false),
            "silent before anything plays"
        );
        audio.send(AudioCommand::Play {
            layer: "bgm".into(),
            file: std::fs::File::open(&path).expect("the wav"),
            looped: true,
            volume: 0.8,
        });
        assert!(wait_peak(&audio.meter, true), "the loop is heard");
        audio.send(AudioCommand::Pause {
            layer: "bgm".into(),
        });
        assert!(wait_peak(&audio.meter, false), "paused is silent");
        audio.send(AudioCommand::Resume {
            layer: "bgm".into(),
        });
        assert!(wait_peak(&audio.meter, true), "resumed is heard again");
        audio.send(AudioCommand::Stop {
            layer: "bgm".into(),
        });
        assert!(wait_peak(&audio.meter, false), "stopped is silent");
        assert!(audio.meter.samples.load(Ordering::Relaxed) > 0);
        let _ = std::fs::remove_file(path);
    }
}
