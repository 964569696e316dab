//! `cargo xtask fresh`: the README's promise, checked where nothing was installed before.
//!
//! A minimal Debian is debootstrapped anew into `target/fresh/rootfs` (the prerequisites the
//! README names and nothing else: Debian, `cc`, and this machine's rustup toolchain and cargo
//! registry bind-mounted in), a clean clone of HEAD goes to `/work/main` inside it with
//! `../shared` beside it, and `cargo xtask test` runs there as root. It prints the wall time
//! and the closing line. Slow (a cold build), so not part of `cargo xtask test`; Debian only.

use std::path::Path;
use std::time::Instant;

use crate::cmd::{home, root, shared_dir, Cmd};
use crate::setup;

const SUITE: &str = "bookworm";
const MIRROR: &str = "http://deb.debian.org/debian";
/// What the README asks for besides rustup: a C compiler (`cc`) and its libc headers.
const PREREQUISITES: &str = "ca-certificates,gcc,libc6-dev";
/// The machine's pointers to its CA bundle, passed into the root as they are.
const CA_VARS: &[&str] = &[
    "SSL_CERT_FILE",
    "SSL_CERT_DIR",
    "CURL_CA_BUNDLE",
    "PIP_CERT",
    "REQUESTS_CA_BUNDLE",
    "GIT_SSL_CAINFO",
];

pub fn run(args: &[String]) -> Result<(), String> {
    let command = if args.is_empty() {
        "cargo xtask test".to_string()
    } else {
        args.join(" ")
    };
    setup::ensure_apt(&["debootstrap"], "debootstrap")?;
    let rootfs = root().join("target/fresh/rootfs");
    // A machine is fresh only once: whatever an earlier run installed is thrown away (after
    // anything an older, namespace-less run left mounted there is unmounted).
    unmount_below(&rootfs);
    if mounted_below(&rootfs) {
        return Err(format!(
            "{} still has mounts under it: unmount them first",
            rootfs.display()
        ));
    }
    let _ = std::fs::remove_dir_all(&rootfs);
    std::fs::create_dir_all(&rootfs).map_err(|e| e.to_string())?;
    let t0 = Instant::now();
    Cmd::new("debootstrap")
        .args([
            "--variant=minbase",
            &format!("--include={PREREQUISITES}"),
            SUITE,
        ])
        .args([&rootfs])
        .args([MIRROR])
        .run()?;
    eprintln!(
        "fresh: Debian {SUITE} bootstrapped in {:.0} s",
        t0.elapsed().as_secs_f64()
    );
    // The same package sources, name lookup and trusted CAs as this machine (a registry
    // behind a TLS proxy with its own CA is a fact of the machine, not something setup installs).
    copy("/etc/resolv.conf", &rootfs.join("etc/resolv.conf"))?;
    let local_cas = Path::new("/usr/local/share/ca-certificates");
    if let Ok(entries) = std::fs::read_dir(local_cas) {
        let to = rootfs.join("usr/local/share/ca-certificates");
        std::fs::create_dir_all(&to).map_err(|e| e.to_string())?;
        for e in entries.flatten() {
            copy(e.path(), &to.join(e.file_name()))?;
        }
    }
    let bundle = Path::new("/etc/ssl/certs/ca-certificates.crt");
    if bundle.exists() {
        copy(bundle, &rootfs.join("etc/ssl/certs/ca-certificates.crt"))?;
    }
    let sources = Path::new("/etc/apt/sources.list.d/debian.sources");
    if sources.exists() {
        copy(
            sources,
            &rootfs.join("etc/apt/sources.list.d/debian.sources"),
        )?;
        let _ = std::fs::remove_file(rootfs.join("etc/apt/sources.list"));
    }
    let work = rootfs.join("work");
    Cmd::new("git")
        .args(["clone", "--quiet"])
        .args([root(), work.join("main")])
        .run()?;
    eprintln!("fresh: running `{command}` in {}", rootfs.display());
    let log = root().join("target/fresh/run.log");
    let script = format!(
        "cd /work/main && {{ {command}; }} 2>&1 | tee /work/run.log; exit ${{PIPESTATUS[0]}}"
    );
    let t1 = Instant::now();
    let mut env = vec![
        "HOME=/root".to_string(),
        "PATH=/root/.cargo/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin".into(),
        "TERM=dumb".into(),
        "LANG=C.UTF-8".into(),
    ];
    // Where this machine tells TLS clients (cargo, pip) to find its CAs.
    for var in CA_VARS {
        if let Some(v) = std::env::var_os(var) {
            env.push(format!("{var}={}", v.to_string_lossy()));
        }
    }
    // The mounts live in a mount namespace of their own (`unshare`): they end with the run
    // however it ends (Ctrl-C included), and the host never sees ~/.cargo, ~/.rustup, /dev or
    // ../shared under target/, where a later `rm -rf target` would reach through them.
    let r = rootfs.display().to_string();
    let mounts = [
        format!("mount -t proc proc '{r}/proc'"),
        format!("mount -t sysfs sys '{r}/sys'"),
        format!("mount --bind /dev '{r}/dev'"),
        format!("mount --bind /dev/pts '{r}/dev/pts'"),
        format!("mount -t tmpfs shm '{r}/dev/shm'"),
        format!(
            "mount --bind '{}' '{r}/root/.rustup'",
            home().join(".rustup").display()
        ),
        format!(
            "mount --bind '{}' '{r}/root/.cargo'",
            home().join(".cargo").display()
        ),
        format!(
            "mount --bind '{}' '{r}/work/shared'",
            shared_dir().display()
        ),
    ];
    for dir in [
        "proc",
        "sys",
        "dev",
        "root/.rustup",
        "root/.cargo",
        "work/shared",
    ] {
        std::fs::create_dir_all(rootfs.join(dir)).map_err(|e| format!("{dir}: {e}"))?;
    }
    let quote = |s: &str| format!("'{}'", s.replace('\'', "'\\''"));
    let inner: Vec<String> = ["/usr/bin/env".to_string(), "-i".into()]
        .into_iter()
        .chain(env)
        .chain(["bash".into(), "-c".into(), script])
        .map(|a| quote(&a))
        .collect();
    let namespace = format!(
        "set -e; {}; exec chroot '{r}' {}",
        mounts.join("; "),
        inner.join(" ")
    );
    let result = Cmd::new("unshare")
        .args([
            "--mount",
            "--propagation",
            "private",
            "bash",
            "-c",
            &namespace,
        ])
        .run();
    let wall = t1.elapsed().as_secs_f64();
    let _ = copy(work.join("run.log"), &log);
    let closing = std::fs::read_to_string(&log)
        .ok()
        .and_then(|t| {
            t.lines()
                .rev()
                .find(|l| l.contains(" passed, "))
                .map(str::to_string)
        })
        .unwrap_or_else(|| "(no closing line)".into());
    println!(
        "fresh: `{command}` on a bare Debian {SUITE}: {:.0} min {:.0} s, {}; closing line: {closing}; log: {}",
        (wall / 60.0).floor(),
        wall % 60.0,
        if result.is_ok() { "exit 0" } else { "FAILED" },
        log.display()
    );
    result
}

fn copy(from: impl AsRef<Path>, to: &Path) -> Result<(), String> {
    std::fs::copy(from.as_ref(), to)
        .map(|_| ())
        .map_err(|e| format!("{} → {}: {e}", from.as_ref().display(), to.display()))
}

/// Mount points under `rootfs` (`/proc/self/mounts` escapes a space as `\040`).
fn mounts_below(rootfs: &Path) -> Vec<String> {
    let Ok(table) = std::fs::read_to_string("/proc/self/mounts") else {
        return Vec::new();
    };
    let root = std::fs::canonicalize(rootfs).unwrap_or_else(|_| rootfs.to_path_buf());
    table
        .lines()
        .filter_map(|l| l.split_whitespace().nth(1))
        .map(|m| m.replace("\\040", " "))
        .filter(|m| Path::new(m).starts_with(&root) || Path::new(m).starts_with(rootfs))
        .collect()
}

fn mounted_below(rootfs: &Path) -> bool {
    !mounts_below(rootfs).is_empty()
}

/// Anything an interrupted run left mounted under `rootfs`, deepest first.
fn unmount_below(rootfs: &Path) {
    let mut under = mounts_below(rootfs);
    under.sort_by_key(|m| std::cmp::Reverse(m.len()));
    for m in under {
        let _ = Cmd::new("umount").args(["-l", &m]).run();
    }
}
