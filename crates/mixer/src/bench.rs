//! Figures for `cargo xtask bench`: how long from a play command to the first sound out of the
//! real (headless) output, and how closely a fade follows its straight line.

use std::collections::HashMap;
use std::num::NonZero;
use std::time::{Duration, Instant};

use sound::plan::Action;

use super::{AudioCommand, AudioMixer, Desk, Levels};

const RATE: u32 = 44_100;

/// A mono 16-bit WAV at 44.1 kHz whose sample `i` of `n` is `f(i, n)` (in -1..1).
pub fn write_wav(
    path: &std::path::Path,
    seconds: f32,
    f: impl Fn(u32, u32) -> f32,
) -> std::io::Result<()> {
    let n = (RATE as f32 * seconds) as u32;
    let data_len = n * 2;
    let mut bytes = Vec::with_capacity(44 + data_len as usize);
    bytes.extend_from_slice(b"RIFF");
    bytes.extend_from_slice(&(36 + data_len).to_le_bytes());
    bytes.extend_from_slice(b"WAVEfmt ");
    bytes.extend_from_slice(&16u32.to_le_bytes());
    bytes.extend_from_slice(&1u16.to_le_bytes());
    bytes.extend_from_slice(&1u16.to_le_bytes());
    bytes.extend_from_slice(&RATE.to_le_bytes());
    bytes.extend_from_slice(&(RATE * 2).to_le_bytes());
    bytes.extend_from_slice(&2u16.to_le_bytes());
    bytes.extend_from_slice(&16u16.to_le_bytes());
    bytes.extend_from_slice(b"data");
    bytes.extend_from_slice(&data_len.to_le_bytes());
    for i in 0..n {
        let v = (f(i, n).clamp(-1.0, 1.0) * 32_767.0) as i16;
        bytes.extend_from_slice(&v.to_le_bytes());
    }
    std::fs::write(path, bytes)
}

fn wait(until: impl Fn() -> bool, limit: Duration) -> bool {
    let end = Instant::now() + limit;
    while Instant::now() < end {
        if until() {
            return true;
        }
        std::thread::sleep(Duration::from_micros(500));
    }
    false
}

/// `runs` times: a play command for a file already on disk (a cached blob) → the first block
/// of the real-time headless output that is not silent.
pub fn play_latency(dir: &std::path::Path, runs: usize) -> Result<Vec<Duration>, String> {
    let path = dir.join("latency-tone.wav");
    write_wav(&path, 2.0, |i, _| {
        (i as f32 * 440.0 * std::f32::consts::TAU / RATE as f32).sin() * 0.5
    })
    .map_err(|e| e.to_string())?;
    let audio = AudioMixer::start(true);
    let mut out = Vec::with_capacity(runs);
    for _ in 0..runs {
        audio.send(AudioCommand::Layer(Action::Stop {
            layer: "bgm".into(),
            fade_ms: 0,
        }));
        if !wait(|| audio.meter.peak() < 1e-3, Duration::from_secs(3)) {
            return Err("the output did not go silent after a stop".into());
        }
        let file = std::fs::File::open(&path).map_err(|e| e.to_string())?;
        let t0 = Instant::now();
        audio.send(AudioCommand::Play {
            layer: "bgm".into(),
            file,
            looped: true,
            volume: 1.0,
            fade_ms: 0,
            start: None,
        });
        if !wait(|| audio.meter.peak() > 0.01, Duration::from_secs(3)) {
            return Err("nothing was heard after a play".into());
        }
        out.push(t0.elapsed());
    }
    Ok(out)
}

/// The largest distance, as a share of the full level, between a `fade_ms` fade-in read from
/// the mixer's output (10 ms windows) and its straight line.
pub fn fade_error(dir: &std::path::Path, fade_ms: u32) -> Result<f32, String> {
    let path = dir.join("fade-dc.wav");
    write_wav(&path, 3.0, |_, _| 0.5).map_err(|e| e.to_string())?;
    let (mixer, mut output) = rodio::mixer::mixer(
        NonZero::new(2).expect("2"),
        NonZero::new(RATE).expect("rate"),
    );
    let mut desk = Desk {
        mixer,
        layers: HashMap::new(),
        levels: Levels::default(),
    };
    desk.apply(AudioCommand::Play {
        layer: "bgm".into(),
        file: std::fs::File::open(&path).map_err(|e| e.to_string())?,
        looped: true,
        volume: 1.0,
        fade_ms: u64::from(fade_ms),
        start: None,
    });
    let window = RATE / 100;
    let windows = fade_ms / 10;
    let mut worst = 0f32;
    for w in 0..windows {
        let mut sum = 0f64;
        for _ in 0..window {
            sum += f64::from(output.next().unwrap_or(0.0));
            let _ = output.next();
        }
        let got = (sum / f64::from(window)) as f32 / 0.5;
        let ideal = (w as f32 + 0.5) / windows as f32;
        worst = worst.max((got - ideal).abs());
    }
    Ok(worst)
}
