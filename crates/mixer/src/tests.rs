//! The real mixer, read sample by sample: a test pulls the mixer's output itself (no device,
//! no real-time thread), so fades, crossfades and start positions are measured exactly.

use super::*;
use sound::plan::Action;

const RATE: u32 = 44_100;

fn wav(path: &std::path::Path, seconds: f32, f: impl Fn(u32, u32) -> f32) {
    super::bench::write_wav(path, seconds, f).expect("writing the wav");
}

struct Bench {
    desk: Desk,
    out: rodio::mixer::MixerSource,
    dir: tempfile::TempDir,
}

impl Bench {
    fn new() -> Self {
        let (mixer, out) =
            rodio::mixer::mixer(NonZero::new(2).unwrap(), NonZero::new(RATE).unwrap());
        Bench {
            desk: Desk {
                mixer,
                layers: HashMap::new(),
                levels: Levels::default(),
            },
            out,
            dir: tempfile::tempdir().unwrap(),
        }
    }

    /// A constant ("DC") track of `level`, 2 s, so the output is the sum of the gains × levels.
    fn dc(&self, name: &str, level: f32) -> std::fs::File {
        let p = self.dir.path().join(name);
        wav(&p, 2.0, |_, _| level);
        std::fs::File::open(p).unwrap()
    }

    fn play(&mut self, layer: &str, file: std::fs::File, volume: f32, fade_ms: u64) {
        self.desk.apply(AudioCommand::Play {
            layer: layer.into(),
            file,
            looped: true,
            volume,
            fade_ms,
            start: None,
        });
    }

    /// The mean of the left channel over the next `ms` milliseconds of output.
    fn level(&mut self, ms: u32) -> f32 {
        let frames = RATE * ms / 1000;
        let mut sum = 0.0f64;
        for _ in 0..frames {
            let l = self.out.next().unwrap_or(0.0);
            let _r = self.out.next();
            sum += f64::from(l);
        }
        (sum / f64::from(frames)) as f32
    }

    /// Levels of consecutive 10 ms windows over `ms`.
    fn curve(&mut self, ms: u32) -> Vec<f32> {
        (0..ms / 10).map(|_| self.level(10)).collect()
    }
}

fn close(a: f32, b: f32, tol: f32) -> bool {
    (a - b).abs() <= tol
}

#[test]
fn a_fade_in_ramps_linearly_without_a_jump() {
    let mut b = Bench::new();
    let f = b.dc("a.wav", 0.5);
    b.play("bgm", f, 0.8, 1000);
    let curve = b.curve(1200);
    // Full level is 0.5 × 0.8 = 0.4, reached at 1 s, linear on the way.
    for (i, v) in curve.iter().enumerate().take(100) {
        let t = (i as f32 + 0.5) / 100.0;
        assert!(
            close(*v, 0.4 * t, 0.02),
            "at {} ms: {v}, not {}",
            i * 10,
            0.4 * t
        );
    }
    assert!(close(curve[110], 0.4, 0.01), "{}", curve[110]);
    // No click: no 10 ms window is more than one window's share of the ramp above the last.
    let max_step = curve
        .windows(2)
        .map(|w| (w[1] - w[0]).abs())
        .fold(0.0f32, f32::max);
    assert!(max_step < 0.4 / 100.0 * 2.5, "a jump of {max_step}");
}

#[test]
fn a_track_change_crossfades_old_out_and_new_in() {
    let mut b = Bench::new();
    let a = b.dc("a.wav", 0.25);
    b.play("bgm", a, 1.0, 0);
    b.level(20); // past the anti-click ramp
    assert!(close(b.level(50), 0.25, 0.02));
    let n = b.dc("b.wav", 0.5);
    b.play("bgm", n, 1.0, 1500);
    let curve = b.curve(1600);
    // Old 0.25 → 0, new 0 → 0.5 over 1.5 s: the sum runs 0.25 → 0.5 in a straight line.
    let mid = curve[74];
    assert!(close(mid, 0.375, 0.02), "half way: {mid}");
    assert!(close(curve[2], 0.25, 0.02), "start: {}", curve[2]);
    assert!(close(curve[155], 0.5, 0.01), "end: {}", curve[155]);
}

#[test]
fn stop_and_pause_fade_out_and_resume_fades_back() {
    let mut b = Bench::new();
    let f = b.dc("a.wav", 0.5);
    b.play("ambience", f, 1.0, 0);
    b.level(20);
    assert!(close(b.level(50), 0.5, 0.02));
    b.desk.apply(AudioCommand::Layer(Action::Pause {
        layer: "ambience".into(),
        fade_ms: 400,
    }));
    let down = b.curve(400);
    assert!(close(down[19], 0.25, 0.03), "half way down: {}", down[19]);
    b.desk.tick(Instant::now() + Duration::from_secs(1));
    assert!(b.level(50).abs() < 1e-3, "paused is silent");
    b.desk.apply(AudioCommand::Layer(Action::Resume {
        layer: "ambience".into(),
        fade_ms: 200,
    }));
    let up = b.curve(300);
    assert!(close(up[9], 0.25, 0.04), "half way up: {}", up[9]);
    assert!(close(up[25], 0.5, 0.02), "back: {}", up[25]);
    b.desk.apply(AudioCommand::Layer(Action::Stop {
        layer: "ambience".into(),
        fade_ms: 300,
    }));
    let out = b.curve(300);
    assert!(close(out[14], 0.25, 0.03), "half way out: {}", out[14]);
    assert!(b.level(50).abs() < 1e-3, "stopped is silent");
}

#[test]
fn a_joining_listener_starts_where_the_table_is_in_a_loop() {
    let mut b = Bench::new();
    // One second whose sample value tells where in the track it is: 0.9 × position.
    let p = b.dir.path().join("saw.wav");
    wav(&p, 1.0, |i, n| 0.9 * i as f32 / n as f32);
    b.desk.apply(AudioCommand::Play {
        layer: "bgm".into(),
        file: std::fs::File::open(&p).unwrap(),
        looped: true,
        volume: 1.0,
        fade_ms: 0,
        // The table started it 2.3 s ago: 0.3 s into the third time round.
        start: Some((Duration::from_millis(2300), Instant::now())),
    });
    b.level(20); // past the 10 ms anti-click ramp
    let at = b.level(1) / 0.9;
    assert!(
        (at - 0.32).abs() < 0.25,
        "started {at:.3} s into the track, not ~0.32 s"
    );
    assert!((at - 0.32).abs() < 0.05, "{at:.3}: seeking is exact here");
}

#[test]
fn a_one_shot_already_over_is_not_played() {
    let mut b = Bench::new();
    let f = b.dc("a.wav", 0.5);
    b.desk.apply(AudioCommand::Play {
        layer: "sfx".into(),
        file: f,
        looped: false,
        volume: 1.0,
        fade_ms: 0,
        start: Some((Duration::from_secs(5), Instant::now())),
    });
    assert!(b.level(100).abs() < 1e-3);
}

#[test]
fn the_persons_levels_sit_on_top_of_the_tables() {
    let mut b = Bench::new();
    let f = b.dc("a.wav", 0.5);
    b.play("bgm", f, 0.8, 0);
    b.level(20);
    assert!(close(b.level(50), 0.4, 0.02));
    b.desk.apply(AudioCommand::Levels(Levels {
        master: 0.5,
        bgm: 0.5,
        ..Levels::default()
    }));
    b.level(20);
    assert!(close(b.level(50), 0.1, 0.01), "0.4 × 0.5 × 0.5");
    b.desk.apply(AudioCommand::Levels(Levels {
        muted_layers: vec!["bgm".into()],
        ..Levels::default()
    }));
    b.level(20);
    assert!(b.level(50).abs() < 1e-3, "muted");
}

/// The real output thread, headless: what plays is heard, paused and stopped are silent.
#[test]
fn the_headless_output_hears_the_mixer_in_real_time() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tone.wav");
    wav(&path, 1.0, |i, _| {
        (i as f32 * 440.0 * std::f32::consts::TAU / RATE as f32).sin() * 0.5
    });
    let audio = AudioMixer::start(true);
    let wait = |loud: bool| {
        (0..200).any(|_| {
            std::thread::sleep(Duration::from_millis(10));
            if loud {
                audio.meter.peak() > 0.1
            } else {
                audio.meter.peak() < 0.001
            }
        })
    };
    assert!(wait(false), "silent before anything plays");
    audio.send(AudioCommand::Play {
        layer: "bgm".into(),
        file: std::fs::File::open(&path).unwrap(),
        looped: true,
        volume: 0.8,
        fade_ms: 0,
        start: None,
    });
    assert!(wait(true), "the loop is heard");
    audio.send(AudioCommand::Layer(Action::Stop {
        layer: "bgm".into(),
        fade_ms: 0,
    }));
    assert!(wait(false), "stopped is silent");
    assert!(audio.meter.samples.load(Ordering::Relaxed) > 0);
}

/// An empty rodio mixer ends its iterator; the headless output must still count the block as
/// silence that took its time, or its real-time loop never sleeps and spins a core.
#[test]
fn an_empty_mixer_is_a_block_of_silence() {
    let (_mixer, mut source) = rodio::mixer::mixer(
        std::num::NonZero::new(2).unwrap(),
        std::num::NonZero::new(HEADLESS_RATE).unwrap(),
    );
    assert_eq!(source.next(), None, "rodio's empty mixer says None");
    let mut counted = 0;
    let mut counting = std::iter::from_fn(|| {
        counted += 1;
        source.next()
    });
    assert_eq!(pull_block(&mut counting, 480), (0.0, false));
    assert_eq!(counted, 480, "the whole block was pulled as silence");
    let mut tone = std::iter::repeat(0.5f32);
    assert_eq!(pull_block(&mut tone, 480), (0.5, true));
}

#[test]
fn the_audio_thread_sleeps_until_a_deadline_and_not_at_all_while_a_track_just_plays() {
    let mut b = Bench::new();
    let now = Instant::now();
    assert_eq!(b.desk.next_tick(now), None, "an empty desk has nothing due");
    let a = b.dc("a.wav", 0.25);
    b.play("bgm", a, 1.0, 0);
    assert_eq!(b.desk.next_tick(now), None, "a track playing needs no tick");
    // A crossfade: the old voice is freed just after its fade ends, not before.
    let n = b.dc("b.wav", 0.5);
    b.play("bgm", n, 1.0, 1500);
    let due = b
        .desk
        .next_tick(Instant::now())
        .expect("the old voice's end is due");
    assert!(
        due > Duration::from_millis(1400) && due <= Duration::from_millis(1500) + FADE_GRACE,
        "{due:?}"
    );
    // Past the deadline, the tick frees it and nothing is due any more.
    let later = Instant::now() + Duration::from_millis(1600);
    assert_eq!(b.desk.next_tick(later), Some(Duration::ZERO));
    b.desk.tick(later);
    assert_eq!(b.desk.next_tick(later), None);
}
