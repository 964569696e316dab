//! The pack bench on the real engine (#26): a save in a pack folder mounted in the engine's dev
//! room (`.dev mount`) → the engine's fresh `ui_manifest` at a keeper's connection, beside the
//! offline table's figure (d); and the engine's packer building the fixture pack. The engine
//! runs through Studio's loopback launcher (no relays, 127.0.0.1 only), as the bench runs it.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use protocol::{ClientFrame, ServerFrame};
use transport::endpoint::{bind, NetworkMode};
use transport::session::{JoinParams, Session, SessionEvent};

use crate::bench_pack::{copy_dir, fixture, median_of_saves};

/// The engine's dev room polls the folder every 1.5 s; a save is followed within a poll and a
/// reload (issue #26 item 1: "within the engine's polling time").
pub const POLL_MS: f64 = 1500.0;
pub const SAVE_TARGET_MS: f64 = 2000.0;
/// The packer is a Python start (~2 s here) and a zip of a few files.
pub const BUILD_TARGET_MS: f64 = 5000.0;

pub struct Figures {
    pub save_ms: f64,
    pub build_ms: f64,
}

/// Kills the engine when the figure ends, whatever way.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

pub async fn figures(work: &Path) -> Result<Figures, String> {
    let engine = crate::engine::ensure()?;
    let src = work.join("engine-src");
    let pack = src.join("bench-pack");
    copy_dir(&fixture(), &pack).map_err(|e| format!("copying the fixture pack: {e}"))?;
    let home = work.join("engine-home");
    std::fs::create_dir_all(&home).map_err(|e| e.to_string())?;

    // The build first: the packer alone, on a data folder of its own.
    let out = work.join("bench-pack.lwpack");
    let started = Instant::now();
    let built = Command::new(&engine.python)
        .args(["app.py", "--pack"])
        .arg(&pack)
        .arg("--out")
        .arg(&out)
        .arg("--json")
        .current_dir(&engine.dir)
        .env("TRPG_DATA_DIR", home.join("packer"))
        .stdin(Stdio::null())
        .output()
        .map_err(|e| e.to_string())?;
    let build_ms = started.elapsed().as_secs_f64() * 1000.0;
    if !built.status.success() || !out.exists() {
        return Err(format!(
            "the engine's packer did not build the fixture: {}",
            String::from_utf8_lossy(&built.stdout)
        ));
    }

    let key = "bench-engine-keeper-0123456789abcdef";
    std::fs::write(
        home.join("keys.toml"),
        format!("[\"{key}\"]\nroom = \"bench\"\nname = \"Author\"\nrole = \"keeper\"\n"),
    )
    .map_err(|e| e.to_string())?;
    let port = std::net::UdpSocket::bind("127.0.0.1:0")
        .and_then(|s| s.local_addr())
        .map_err(|e| e.to_string())?
        .port();
    let log = std::fs::File::create(home.join("engine.log")).map_err(|e| e.to_string())?;
    let child = Command::new(&engine.python)
        .arg(crate::cmd::root().join("src-tauri/src/hosting/loopback.py"))
        .arg("--serve")
        .arg("--keys")
        .arg(home.join("keys.toml"))
        .current_dir(&engine.dir)
        .env("STUDIO_ENGINE_PORT", port.to_string())
        .env("TRPG_DATA_DIR", home.join("data"))
        .env("TRPG_DEV__SOURCE_ROOT", &src)
        .stdin(Stdio::null())
        .stdout(log.try_clone().map_err(|e| e.to_string())?)
        .stderr(log)
        .spawn()
        .map_err(|e| format!("{}: {e}", engine.python.display()))?;
    let _running = Running(child);
    let ticket_file = home.join("iroh-ticket.txt");
    let until = Instant::now() + Duration::from_secs(90);
    let ticket = loop {
        let text = std::fs::read_to_string(&ticket_file).unwrap_or_default();
        if let Some(t) = text.lines().find_map(|l| l.strip_prefix("ticket=")) {
            break t.trim().to_string();
        }
        if Instant::now() > until {
            return Err(format!(
                "the engine did not serve within 90 s; see {}",
                home.join("engine.log").display()
            ));
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let endpoint = bind(NetworkMode::LocalOnly)
        .await
        .map_err(|e| e.to_string())?;
    let params = JoinParams {
        key: key.into(),
        name: None,
        client_version: "bench".into(),
    };
    let ticket = ticket.parse().map_err(|e| format!("the ticket: {e}"))?;
    let (session, mut events) = Session::connect(endpoint, ticket, params)
        .await
        .map_err(|e| e.to_string())?;
    for line in [
        format!(".dev mount {}", pack.display()),
        ".panels enable bench-pack".to_string(),
    ] {
        session
            .send(ClientFrame::input(line))
            .await
            .map_err(|e| e.to_string())?;
    }
    // Mounted and enabled: the manifest carries the pack's panel.
    let until = tokio::time::Instant::now() + Duration::from_secs(30);
    loop {
        let event = tokio::time::timeout_at(until, events.recv())
            .await
            .map_err(|_| "the engine showed no bench-pack panel within 30 s of the mount")?
            .ok_or("the engine closed the connection")?;
        if let SessionEvent::Frame(ServerFrame::UiManifest(m), _) = event {
            if m.panels.iter().any(|p| p.id == "bench-pack/notes") {
                break;
            }
        }
    }
    let save_ms = median_of_saves(
        &pack,
        &mut events,
        Duration::from_millis(300),
        Duration::from_millis(POLL_MS as u64),
        Duration::from_secs(10),
    )
    .await;
    session.close();
    Ok(Figures {
        save_ms: save_ms?,
        build_ms,
    })
}
