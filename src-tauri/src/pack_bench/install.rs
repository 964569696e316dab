//! **Install to a hosted table**: the built `.lwpack` goes onto the table Studio hosts now,
//! through the engine's own keeper command `.pack install <path>` (the engine runs on this
//! machine, so a path is a server-local reference): it installs, enables the pack's panels and
//! skills in the keeper's room and imports its one world card, so the author plays it for real
//! with one more click. Studio joins as the table's keeper for that errand only, with the key
//! hosting read; the key never reaches the window.

use std::time::{Duration, Instant};

use ipc::{cmd, PackInstalled, Reply};
use protocol::frame::Speaker;
use protocol::{ClientFrame, ServerFrame};
use transport::endpoint::{bind, NetworkMode};
use transport::session::{JoinParams, Session, SessionEvent};

use crate::hosting::Hosting;

/// An install verifies and unpacks a zip: seconds.
const ANSWER_WAIT: Duration = Duration::from_secs(60);

/// The engine's answers (`locales/en/commands.json`, `pack.json`): installed, or why not.
const INSTALLED: &str = "Installed on this server";
const NOT_INSTALLED: &[&str] = &["Install failed", "Could not resolve the pack ref"];

/// What the engine answered to `.pack install`: `Ok` its installed line, `Err` its refusal.
fn verdict(text: &str) -> Option<Result<String, String>> {
    let first = |t: &str| t.lines().next().unwrap_or_default().trim().to_string();
    if text.contains(INSTALLED) {
        return Some(Ok(first(text)));
    }
    NOT_INSTALLED.iter().any(|n| text.contains(n)).then(|| {
        Err(format!(
            "the engine did not install the pack: {}",
            first(text)
        ))
    })
}

#[tauri::command]
pub async fn install_pack_to_hosted(
    hosting: tauri::State<'_, Hosting>,
    args: cmd::InstallPackToHosted,
) -> Result<Reply<cmd::InstallPackToHosted>, String> {
    let cmd::InstallPackToHosted { path } = args;
    let (table, ticket, key, local_only) = hosting.keeper_errand().ok_or(
        "no table is hosted now: host one (connect screen → Host a table), then install to it",
    )?;
    let started = Instant::now();
    let mode = if local_only {
        NetworkMode::LocalOnly
    } else {
        NetworkMode::from_env()
    };
    let endpoint = bind(mode).await.map_err(|e| e.to_string())?;
    let ticket = ticket
        .parse()
        .map_err(|e| format!("the hosted table's ticket does not read: {e}"))?;
    let params = JoinParams {
        key,
        name: None,
        client_version: env!("CARGO_PKG_VERSION").into(),
    };
    let (session, mut events) = Session::connect(endpoint, ticket, params)
        .await
        .map_err(|e| format!("Studio could not join its hosted table: {e}"))?;
    let answer = async {
        session
            .send(ClientFrame::input(format!(".pack install {path}")))
            .await
            .map_err(|e| e.to_string())?;
        let until = tokio::time::Instant::now() + ANSWER_WAIT;
        loop {
            let event = tokio::time::timeout_at(until, events.recv())
                .await
                .map_err(|_| {
                    format!(
                        "the engine did not answer within {} s",
                        ANSWER_WAIT.as_secs()
                    )
                })?
                .ok_or("the hosted table closed Studio's connection")?;
            let text = match event {
                SessionEvent::Frame(ServerFrame::Narrative(n), _)
                    if n.speaker == Speaker::System =>
                {
                    n.text
                }
                SessionEvent::Frame(ServerFrame::System(n), _) => n.text,
                SessionEvent::Frame(ServerFrame::Error(e), _) => {
                    return Err(format!("the engine refused: {}", e.message))
                }
                _ => continue,
            };
            if let Some(v) = verdict(&text) {
                return v;
            }
        }
    }
    .await;
    session.close();
    let answer = answer.map_err(|e| crate::clean::text(&e))?;
    let ms = started.elapsed().as_millis() as u64;
    tracing::info!(
        ms,
        "pack bench: installed the built pack on the hosted table"
    );
    Ok(PackInstalled { table, answer, ms })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_engines_answers_read_as_installed_or_refused() {
        let ok = "📦 Installed on this server: bench-pack@0.1.0. Its panels and presentation kit are live in this room.\n⚠ risk";
        assert_eq!(verdict(ok), Some(Ok(ok.lines().next().unwrap().into())));
        let no = "Install failed (nothing was changed): bad zip";
        assert!(matches!(verdict(no), Some(Err(e)) if e.contains("bad zip")));
        assert_eq!(verdict("Dev reload: 1 world card(s)"), None);
    }
}
