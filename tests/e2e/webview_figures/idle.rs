//! What hosting costs (Host → keeper online at the real engine, Stop → gone) and what an idle
//! window costs (#30 item 3): the share of a core and the wakeups of Studio's processes.

use std::time::Duration;

use serde_json::json;
use studio_e2e::{open_studio_with, wait_for, Studio};

use super::figure;

/// `name=<number>` in a log line.
fn field(line: &str, name: &str) -> Option<f64> {
    let at = line.find(&format!("{name}="))? + name.len() + 1;
    line[at..]
        .split(|c: char| !c.is_ascii_digit() && c != '.')
        .next()?
        .parse()
        .ok()
}

/// Hosts the real engine (this machine only) twice from a fresh profile: click → keeper
/// online, the backend's split, and Stop → process gone, each the slower of the two.
pub(super) fn hosting_figures() {
    use studio_e2e::hosting::{host_from_panel, pid, table_dir, wait_gone};
    let dir = studio_e2e::peers::fresh_dir("bench-hosting");
    let data = dir.join("studio");
    let s = open_studio_with(&[("STUDIO_DATA_DIR", data.to_str().expect("a UTF-8 path"))]);
    let table = table_dir(&data, "bench-table");
    let mut worst = [0.0f64; 5];
    for round in 1..=2 {
        // Choosing the engine (once per profile, its `--version` probe) comes before Host:
        // the figure starts at the Host button, as issue 25 defines it.
        studio_e2e::hosting::open_host_panel(&s);
        let clicked = std::time::Instant::now();
        host_from_panel(&s, "Bench Table");
        studio_e2e::play::wait_online(&s, Duration::from_secs(30));
        let joined = clicked.elapsed().as_secs_f64() * 1000.0;
        let needle = "hosting: joined the hosted table as keeper";
        let line = wait_for(
            Duration::from_secs(10),
            "the backend's hosting line",
            || {
                let lines: Vec<String> = studio_e2e::logs::files(&data)
                    .into_iter()
                    .flat_map(|(_, t)| {
                        t.lines()
                            .filter(|l| l.contains(needle))
                            .map(String::from)
                            .collect::<Vec<_>>()
                    })
                    .collect();
                (lines.len() >= round).then(|| lines[round - 1].clone())
            },
        );
        let split = ["probe_ms", "start_to_ticket_ms", "ticket_to_joined_ms"]
            .map(|n| field(&line, n).unwrap_or_else(|| panic!("no {n} in {line}")));
        let engine = pid(&table);
        s.click(&s.find("#hosting-stop").expect("Stop hosting"));
        let stopped = wait_gone(
            engine,
            Duration::from_secs(15),
            "the engine to end after Stop",
        );
        eprintln!("hosting round {round}: joined {joined:.0} ms {split:?}, stop {stopped:?}");
        let now = [
            joined,
            split[0],
            split[1],
            split[2],
            stopped.as_secs_f64() * 1000.0,
        ];
        for (w, v) in worst.iter_mut().zip(now) {
            *w = w.max(v);
        }
        wait_for(Duration::from_secs(10), "the connect screen", || {
            s.find("#join")
        });
    }
    for (name, v) in [
        "hosting_joined_ms",
        "hosting_probe_ms",
        "hosting_start_to_ticket_ms",
        "hosting_ticket_to_joined_ms",
        "hosting_stop_ms",
    ]
    .into_iter()
    .zip(worst)
    {
        figure(name, v);
    }
}

/// The app and every process under it (the web and network processes WebKit starts).
fn family(app: i32) -> Vec<i32> {
    let all: Vec<(i32, i32)> = std::fs::read_dir("/proc")
        .expect("/proc")
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
        .filter_map(|pid| Some((pid, studio_e2e::proc_stat(pid)?.2)))
        .collect();
    let mut out = vec![app];
    let mut i = 0;
    while i < out.len() {
        let parent = out[i];
        out.extend(all.iter().filter(|(_, pp)| *pp == parent).map(|(p, _)| *p));
        i += 1;
    }
    out
}

/// CPU ticks of `pids`, every thread counted (those that ended too: the process keeps them).
fn cpu_ticks(pids: &[i32]) -> u64 {
    let mut ticks = 0;
    for pid in pids {
        if let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) {
            // utime and stime: fields 14 and 15, after the `(comm)` that may hold spaces.
            let rest: Vec<&str> = stat[stat.rfind(')').unwrap_or(0) + 1..]
                .split_whitespace()
                .collect();
            let field = |i: usize| rest.get(i).and_then(|v| v.parse::<u64>().ok());
            ticks += field(11).unwrap_or(0) + field(12).unwrap_or(0);
        }
    }
    ticks
}

/// Each thread's context switches between two [`per_thread`] reads: a switch is the thread
/// going to sleep or being put off the core, so one per wakeup. Summed per thread, because a
/// sum over the processes falls when a thread ends in between (a pool thread retiring): that
/// once read as 6e17 wakeups a second. A thread that ended is not counted for the time it lived.
fn switches_between(before: &Threads, after: &Threads) -> Vec<(u64, String)> {
    after
        .iter()
        .map(|(k, (name, w))| {
            let was = before.get(k).map_or(0, |t| t.1);
            (w.saturating_sub(was), name.clone())
        })
        .collect()
}

type Threads = std::collections::HashMap<(i32, String), (String, u64)>;

/// Every thread of `pids`: `(pid, tid)` → (process and thread name, context switches).
fn per_thread(pids: &[i32]) -> Threads {
    let mut out = std::collections::HashMap::new();
    for pid in pids {
        let comm = studio_e2e::proc_stat(*pid).map(|p| p.0).unwrap_or_default();
        for task in std::fs::read_dir(format!("/proc/{pid}/task"))
            .into_iter()
            .flatten()
            .flatten()
        {
            let status = std::fs::read_to_string(task.path().join("status")).unwrap_or_default();
            let name = status
                .lines()
                .find_map(|l| l.strip_prefix("Name:"))
                .unwrap_or("?")
                .trim()
                .to_string();
            let switches = status
                .lines()
                .filter(|l| l.contains("ctxt_switches:"))
                .filter_map(|l| l.split_whitespace().last()?.parse::<u64>().ok())
                .sum::<u64>();
            let tid = task.file_name().to_string_lossy().into_owned();
            out.insert((*pid, tid), (format!("{comm}/{name}"), switches));
        }
    }
    out
}

/// How long an idle window is watched.
const IDLE_SECS: u64 = 30;

/// The window joined and nothing happening for [`IDLE_SECS`]: the share of one core Studio
/// (backend and web processes together) uses, and how often its threads wake, per second.
pub(super) fn idle_cost(s: &Studio, label: &str) {
    let pids = family(s.app_pid());
    // What still moves on the page: every running animation repaints each frame.
    let moving = s
        .execute(
            "return document.getAnimations().filter(a => a.playState === 'running').map(a => \
             (a.animationName || a.transitionProperty || 'script') + ' on ' + \
             (a.effect && a.effect.target ? a.effect.target.className || a.effect.target.tagName : '?'));",
            json!([]),
        )
        .unwrap_or_else(|e| json!([format!("(could not list: {e})")]));
    eprintln!("idle {label}: animations running: {moving}");
    // What the page's own script asks for while idle: frame callbacks and timers, counted by
    // wrapping them for 5 s (the bindings look them up on each call).
    s.execute(
        "const c = window.__idleCalls = { raf: 0, timeout: 0, interval: 0, ipc: 0 }; \
         const raf = window.requestAnimationFrame.bind(window); \
         window.requestAnimationFrame = f => { c.raf++; return raf(f); }; \
         const st = window.setTimeout.bind(window); \
         window.setTimeout = (f, t, ...a) => { c.timeout++; return st(f, t, ...a); }; \
         const si = window.setInterval.bind(window); \
         window.setInterval = (f, t, ...a) => { c.interval++; return si(f, t, ...a); }; \
         c.mutated = []; new MutationObserver(rs => rs.forEach(r => c.mutated.length < 12 && \
         c.mutated.push(Math.round(performance.now()) + ' ms ' + r.type + ' ' + (r.target.id || r.target.className || r.target.nodeName) \
         + (r.attributeName ? ' @' + r.attributeName : '')))).observe(document.body, \
         { subtree: true, childList: true, attributes: true, characterData: true }); \
         c.frames = document.querySelectorAll('iframe').length; \
         c.images = [...document.images].map(i => i.src.slice(0, 40)); \
         return 0;",
        json!([]),
    )
    .expect("counting the page's calls");
    std::thread::sleep(Duration::from_secs(5));
    let calls = s
        .execute("return window.__idleCalls;", json!([]))
        .unwrap_or_default();
    eprintln!("idle {label}: the page's calls in 5 s: {calls}");
    let hz = 100.0; // USER_HZ: the kernel reports process times in hundredths of a second.
    let t0 = cpu_ticks(&pids);
    let threads0 = per_thread(&pids);
    let started = std::time::Instant::now();
    // `STUDIO_IDLE_SECS` shortens the watch when looking into one figure.
    let watch = std::env::var("STUDIO_IDLE_SECS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(IDLE_SECS);
    std::thread::sleep(Duration::from_secs(watch));
    let t1 = cpu_ticks(&pids);
    let threads1 = per_thread(&pids);
    let secs = started.elapsed().as_secs_f64();
    let cpu = t1.saturating_sub(t0) as f64 / hz / secs * 100.0;
    let mut busiest = switches_between(&threads0, &threads1);
    // The audio output's own pull is a sound card's period (the headless output stands in for
    // one at 5 ms): counted apart, so the figure is what Studio adds to it.
    let (output, studio): (Vec<_>, Vec<_>) = busiest
        .iter()
        .partition(|(_, name)| name.ends_with("/audio-headless"));
    let sum = |v: Vec<&(u64, String)>| v.iter().map(|(w, _)| *w).sum::<u64>() as f64 / secs;
    let (output, wakeups) = (sum(output), sum(studio));
    eprintln!(
        "idle {label}: {} processes, {cpu:.2}% of a core, {wakeups:.1} wakeups/s \
         (and the audio output's {output:.1}/s)",
        pids.len()
    );
    // Who wakes: the busiest threads over the same time (a thread name per purpose, mostly).
    busiest.sort_by(|a, b| b.cmp(a));
    for (w, name) in busiest.iter().take(12) {
        eprintln!("  {:.1}/s {name}", *w as f64 / secs);
    }
    figure(&format!("idle_cpu_pct_{label}"), cpu);
    figure(&format!("idle_wakeups_per_s_{label}"), wakeups);
    figure(&format!("idle_output_wakeups_per_s_{label}"), output);
}

/// Idle cost alone (`FIGURES_ONLY=idle`), and in the whole run: joined to the demo table with
/// its track playing through the headless mixer, then left on the connect screen.
pub(super) fn idle_figures() {
    let s = open_studio_with(&[("STUDIO_DEMO_PACING", "fast")]);
    studio_e2e::play::join_demo(&s);
    // A first turn starts the story's music; its narration done, the table waits for the
    // player.
    studio_e2e::play::play_turn(&s, "I knock on the cottage door.");
    wait_for(Duration::from_secs(60), "the demo's turn", || {
        s.find("#input:not([disabled])")
    });
    // The demo's music heard in the output (the sound popover reads the mixer), then closed:
    // its meters poll while it is open.
    s.click(&s.find("#sound-button").expect("the sound button"));
    wait_for(
        Duration::from_secs(30),
        "the demo's music in the output",
        || {
            let p = s.find("#sound-popover")?;
            let peak: f32 = s.attr(&p, "data-output-peak")?.parse().ok()?;
            (peak > 0.01).then_some(())
        },
    );
    s.click(&s.find("#sound-button").expect("the sound button"));
    wait_for(Duration::from_secs(5), "the sound popover closed", || {
        s.find("#sound-popover").is_none().then_some(())
    });
    idle_cost(&s, "playing");
}
