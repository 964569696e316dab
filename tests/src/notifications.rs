//! A private session D-Bus with a notification server on it, for one window: what the app asked
//! the desktop to show (its summary and body), as the desktop itself would receive it.
//!
//! `dbus-daemon` (installed by `cargo xtask setup`) listens on a Unix socket in a private folder,
//! with a config of its own (no service activation, so nothing else starts); the server owns
//! `org.freedesktop.Notifications` there before the app starts. Give the app
//! [`NotificationServer::env`] through `open_studio_with`.

use std::collections::HashMap;
use std::io::BufRead;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::wait_for;

/// One notification the app sent: `Notify`'s application name, summary and body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shown {
    pub app: String,
    pub summary: String,
    pub body: String,
}

type Seen = Arc<Mutex<Vec<Shown>>>;

struct Server {
    seen: Seen,
}

#[zbus::interface(name = "org.freedesktop.Notifications")]
impl Server {
    #[allow(clippy::too_many_arguments)]
    fn notify(
        &mut self,
        app_name: String,
        _replaces_id: u32,
        _app_icon: String,
        summary: String,
        body: String,
        _actions: Vec<String>,
        _hints: HashMap<String, zbus::zvariant::OwnedValue>,
        _expire_timeout: i32,
    ) -> u32 {
        let mut seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        seen.push(Shown {
            app: app_name,
            summary,
            body,
        });
        seen.len() as u32
    }

    fn close_notification(&mut self, _id: u32) {}

    fn get_capabilities(&self) -> Vec<String> {
        vec!["body".into()]
    }

    fn get_server_information(&self) -> (String, String, String, String) {
        (
            "studio-e2e".into(),
            "loreweaver".into(),
            "1".into(),
            "1.2".into(),
        )
    }
}

/// The private bus and its notification server; both end on drop.
pub struct NotificationServer {
    daemon: Child,
    address: String,
    seen: Seen,
    _connection: zbus::blocking::Connection,
    _dir: tempfile::TempDir,
}

impl NotificationServer {
    /// Starts the bus and the server; panics (naming what failed) if either does not come up.
    pub fn start() -> Self {
        let dir = tempfile::Builder::new()
            .prefix("studio-e2e-bus")
            .tempdir()
            .expect("a folder for the private bus");
        let socket = dir.path().join("bus");
        let config = dir.path().join("bus.conf");
        std::fs::write(
            &config,
            format!(
                r#"<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path={}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
"#,
                socket.display()
            ),
        )
        .unwrap_or_else(|e| panic!("{}: {e}", config.display()));
        let mut daemon = Command::new("dbus-daemon")
            .arg(format!("--config-file={}", config.display()))
            .args(["--print-address=1", "--nofork"])
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap_or_else(|e| {
                panic!("starting dbus-daemon (`cargo xtask setup` installs it): {e}")
            });
        let mut line = String::new();
        std::io::BufReader::new(daemon.stdout.take().expect("dbus-daemon's stdout"))
            .read_line(&mut line)
            .expect("reading dbus-daemon's address");
        let address = line.trim().to_string();
        assert!(
            address.starts_with("unix:"),
            "dbus-daemon printed no address: {line:?}"
        );
        let seen = Seen::default();
        let connection = zbus::blocking::connection::Builder::address(address.as_str())
            .and_then(|b| b.name("org.freedesktop.Notifications"))
            .and_then(|b| {
                b.serve_at(
                    "/org/freedesktop/Notifications",
                    Server { seen: seen.clone() },
                )
            })
            .and_then(|b| b.build())
            .unwrap_or_else(|e| panic!("the notification server on {address}: {e}"));
        NotificationServer {
            daemon,
            address,
            seen,
            _connection: connection,
            _dir: dir,
        }
    }

    /// The environment that puts the app on this bus.
    pub fn env(&self) -> (&'static str, &str) {
        ("DBUS_SESSION_BUS_ADDRESS", self.address.as_str())
    }

    /// Every notification received so far, in order.
    pub fn shown(&self) -> Vec<Shown> {
        self.seen.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Waits until at least `n` notifications were received; returns them all.
    pub fn wait_for(&self, n: usize, timeout: Duration) -> Vec<Shown> {
        wait_for(timeout, &format!("notification #{n} on the bus"), || {
            let shown = self.shown();
            (shown.len() >= n).then_some(shown)
        })
    }
}

impl Drop for NotificationServer {
    fn drop(&mut self) {
        // SAFETY: plain kill(2) on our own child's pid.
        unsafe { libc::kill(self.daemon.id() as i32, libc::SIGTERM) };
        let _ = self.daemon.wait();
    }
}
