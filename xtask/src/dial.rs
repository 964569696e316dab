//! `cargo xtask dial <ticket> <key> [--name N] [--send JSON]... [--for SECS]`: joins a live table
//! with the app's own transport code and prints every server frame as one JSON line on stdout.
//!
//! It is the diagnostic a keeper or pack author runs against a table, so it must see exactly what
//! Studio sees: same ticket parsing, same endpoint modes, same join and version gate. stdout
//! carries only frames (pipe it into `jq`); status, sends and decode errors go to stderr.

use std::time::Duration;

use protocol::codec::{decode_client, encode_line};
use protocol::ClientFrame;
use tokio::sync::mpsc;
use transport::endpoint::{bind, NetworkMode};
use transport::session::{ConnectionStatus, JoinParams, Session, SessionEvent, SessionHandle};
use transport::ticket::parse_ticket;

const USAGE: &str =
    "usage: cargo xtask dial <ticket> <key> [--name N] [--send JSON]... [--for SECS]
  STUDIO_NETWORK=local keeps the endpoint on 127.0.0.1 (no relays, no address lookup)";
/// Between two `--send` frames, so replies to one do not interleave with the next.
const SEND_PAUSE: Duration = Duration::from_millis(500);
const DEFAULT_SECS: u64 = 10;

struct Args {
    ticket: String,
    key: String,
    name: Option<String>,
    sends: Vec<(String, ClientFrame)>,
    secs: u64,
}

fn parse_args(args: &[String]) -> Result<Args, String> {
    let mut positional = Vec::new();
    let (mut name, mut sends, mut secs) = (None, Vec::new(), DEFAULT_SECS);
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = || it.next().ok_or(format!("{arg} needs a value\n{USAGE}"));
        match arg.as_str() {
            "--name" => name = Some(value()?.clone()),
            "--send" => sends.push(parse_send(value()?)?),
            "--for" => {
                secs = value()?
                    .parse()
                    .map_err(|_| format!("--for needs a whole number of seconds\n{USAGE}"))?
            }
            "-h" | "--help" => return Err(USAGE.into()),
            flag if flag.starts_with("--") => return Err(format!("unknown flag {flag}\n{USAGE}")),
            _ => positional.push(arg.clone()),
        }
    }
    let [ticket, key]: [String; 2] = positional
        .try_into()
        .map_err(|_| format!("dial needs exactly a ticket and a key\n{USAGE}"))?;
    Ok(Args {
        ticket,
        key,
        name,
        sends,
        secs,
    })
}

/// A `--send` value as a client frame, refused before anything is dialed if it is not one.
fn parse_send(json: &str) -> Result<(String, ClientFrame), String> {
    let frame = decode_client(json).map_err(|e| {
        format!("--send {json}: not a client frame the protocol accepts: {e}\nexample: --send '{{\"type\":\"input\",\"text\":\"look around\"}}'")
    })?;
    // The codec keeps unknown types (forward compatibility); a typo here should not be sent.
    if frame.is_unknown() {
        return Err(format!(
            "--send: \"{}\" is not a client frame type of protocol {}",
            frame.tag(),
            protocol::PROTOCOL_VERSION
        ));
    }
    if matches!(frame, ClientFrame::Join(_)) {
        return Err("--send: dial sends the join itself (from <key> and --name)".into());
    }
    // Only the type is echoed later: a frame's body may carry secrets (admin frames hold keys).
    Ok((frame.tag().to_string(), frame))
}

pub fn run(args: &[String]) -> Result<(), String> {
    let args = parse_args(args)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| format!("tokio runtime: {e}"))?;
    runtime.block_on(dial(args))
}

async fn dial(args: Args) -> Result<(), String> {
    let ticket = parse_ticket(&args.ticket).map_err(|e| e.to_string())?;
    let mode = NetworkMode::from_env();
    let endpoint = bind(mode).await.map_err(|e| e.to_string())?;
    eprintln!(
        "dial: {mode:?} network, joining as {}…",
        args.name.as_deref().unwrap_or("(no name)")
    );
    let params = JoinParams {
        key: args.key,
        name: args.name,
        client_version: env!("CARGO_PKG_VERSION").to_string(),
    };
    let connected = Session::connect(endpoint.clone(), ticket, params).await;
    let (handle, mut events) = match connected {
        Ok(c) => c,
        Err(e) => {
            endpoint.close().await;
            return Err(format!("dial failed: {e}"));
        }
    };
    let sender = tokio::spawn(send_all(handle.clone(), args.sends));
    let deadline = tokio::time::sleep(Duration::from_secs(args.secs));
    tokio::pin!(deadline);
    let result = loop {
        tokio::select! {
            _ = &mut deadline => {
                eprintln!("dial: {} s elapsed, closing", args.secs);
                break Ok(());
            }
            event = events.recv() => match event {
                None => break Ok(()),
                Some(event) => if let Some(end) = report(event) { break end },
            }
        }
    };
    sender.abort();
    handle.close();
    // Give the supervisor a moment to say goodbye before the endpoint goes.
    let _ = tokio::time::timeout(Duration::from_secs(1), drain(&mut events)).await;
    endpoint.close().await;
    result
}

/// Prints one event; `Some` when the session has ended for good.
fn report(event: SessionEvent) -> Option<Result<(), String>> {
    match event {
        SessionEvent::Frame(frame, _) => print!("{}", encode_line(&frame)),
        SessionEvent::DecodeError(e) => eprintln!("dial: undecodable line skipped: {e}"),
        SessionEvent::Oversize { discarded } => {
            eprintln!("dial: line over 1 MiB skipped ({discarded} bytes)")
        }
        SessionEvent::Status(status) => {
            eprintln!("dial: status {status:?}");
            match status {
                ConnectionStatus::Refused { reason } => {
                    return Some(Err(format!("refused: {reason}")))
                }
                ConnectionStatus::Closed { .. } => return Some(Ok(())),
                _ => {}
            }
        }
    }
    None
}

async fn send_all(handle: SessionHandle, sends: Vec<(String, ClientFrame)>) {
    for (kind, frame) in sends {
        tokio::time::sleep(SEND_PAUSE).await;
        match handle.send(frame).await {
            Ok(()) => eprintln!("dial: sent {kind}"),
            Err(e) => eprintln!("dial: could not send {kind}: {e}"),
        }
    }
}

async fn drain(events: &mut mpsc::Receiver<SessionEvent>) {
    while let Some(event) = events.recv().await {
        if report(event).is_some() {
            return;
        }
    }
}
