//! Shared helpers: a test peer on loopback and a Studio session dialing it.

#![allow(dead_code)]

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::mpsc;
use transport::testpeer::{PeerConfig, PeerState, TestPeer};
use transport::{
    bind, parse_ticket, ConnectionStatus, JoinParams, NetworkMode, Session, SessionEvent,
    SessionHandle, TransportError,
};

pub const WAIT: Duration = Duration::from_secs(20);

pub fn params(key: &str) -> JoinParams {
    JoinParams {
        key: key.into(),
        name: None,
        client_version: "0.1.0-test".into(),
    }
}

pub async fn peer(config: PeerConfig) -> TestPeer {
    TestPeer::start(config, Arc::new(PeerState::default()))
        .await
        .expect("peer starts")
}

pub async fn dial(
    ticket: &str,
    key: &str,
) -> Result<(SessionHandle, mpsc::Receiver<SessionEvent>), TransportError> {
    let endpoint = bind(NetworkMode::LocalOnly).await?;
    Session::connect(endpoint, parse_ticket(ticket)?, params(key)).await
}

/// Waits for the first event matching `pred`, failing after [`WAIT`].
pub async fn wait_for(
    events: &mut mpsc::Receiver<SessionEvent>,
    what: &str,
    mut pred: impl FnMut(&SessionEvent) -> bool,
) -> SessionEvent {
    let found = tokio::time::timeout(WAIT, async {
        while let Some(event) = events.recv().await {
            if pred(&event) {
                return Some(event);
            }
        }
        None
    })
    .await;
    match found {
        Ok(Some(event)) => event,
        Ok(None) => panic!("events ended while waiting for {what}"),
        Err(_) => panic!("timed out waiting for {what}"),
    }
}

pub fn is_status(event: &SessionEvent, pred: impl Fn(&ConnectionStatus) -> bool) -> bool {
    matches!(event, SessionEvent::Status(s) if pred(s))
}
