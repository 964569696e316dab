//! The iroh endpoint in one of two network modes.
//!
//! Internet is what players use: relays and address lookup, so a friend's ticket works across
//! NATs. Local-only is for the demo table, every test and `STUDIO_NETWORK=local`: no relay, no
//! address lookup, no port mapper, no net-report probes, and a socket bound to 127.0.0.1 only, so
//! nothing it does can send a packet off the machine.

use std::net::SocketAddr;
use std::time::Duration;

use iroh::endpoint::{presets, Builder, NetReportConfig, PortmapperConfig, QuicTransportConfig};
use iroh::{Endpoint, EndpointAddr, RelayMode, SecretKey};
use iroh_tickets::endpoint::EndpointTicket;

use crate::error::{Result, TransportError};

/// Which network an endpoint may use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum NetworkMode {
    #[default]
    Internet,
    LocalOnly,
}

impl NetworkMode {
    /// `STUDIO_NETWORK=local` selects Local-only; anything else is Internet.
    pub fn from_env() -> Self {
        Self::from_env_value(std::env::var("STUDIO_NETWORK").ok().as_deref())
    }

    pub fn from_env_value(value: Option<&str>) -> Self {
        match value.map(|v| v.trim().to_ascii_lowercase()) {
            Some(v) if v == "local" || v == "local-only" || v == "local_only" => Self::LocalOnly,
            _ => Self::Internet,
        }
    }
}

/// Options for an endpoint that accepts connections (the local table, test peers, the bench).
#[derive(Debug, Clone, Default)]
pub struct ServerOptions {
    /// A fixed identity, so a restarted table keeps the ticket's endpoint id.
    pub secret_key: Option<SecretKey>,
    /// Local-only: the 127.0.0.1 port to bind (0 = any), so a restart can reuse the ticket's address.
    pub port: u16,
}

fn builder(mode: NetworkMode, port: u16) -> Result<Builder> {
    Ok(match mode {
        NetworkMode::Internet => Endpoint::builder(presets::N0),
        // Bare `presets::Minimal` binds 0.0.0.0 with the port mapper on, which probes the
        // gateway; every knob below keeps the endpoint on loopback.
        NetworkMode::LocalOnly => Endpoint::builder(presets::Minimal)
            .relay_mode(RelayMode::Disabled)
            .clear_address_lookup()
            .portmapper_config(PortmapperConfig::Disabled)
            .net_report_config(NetReportConfig::minimal())
            .clear_ip_transports()
            .bind_addr(SocketAddr::from(([127, 0, 0, 1], port)))
            .map_err(|e| TransportError::Bind(e.to_string()))?,
    })
}

/// How long a connection may go silent before Studio counts it lost, and how often QUIC
/// checks. A table that died without a word (killed, crashed, restarted on the same address)
/// answers nothing, and QUIC's default would show it "Online" for 30 s; lines typed meanwhile
/// wait that long for the reconnect that settles them. The idle timeout is negotiated down to
/// the smaller side, so the client's setting is enough.
fn client_transport(mode: NetworkMode) -> Result<QuicTransportConfig> {
    let (idle, keep_alive) = match mode {
        // Loopback hardly loses packets: a peer silent for 6 s is a dead one, not a slow one.
        // A beat 3 s after the last packet keeps a live but quiet table from timing out (a
        // lost beat is probed again within milliseconds). Not more often: each beat wakes the
        // runtime's threads ~8 times (the beat, its ACK, QUIC's timers), and an idle table
        // should cost nothing (#30 item 3).
        NetworkMode::LocalOnly => (Duration::from_secs(6), Duration::from_secs(3)),
        // Iroh's own heartbeat (5 s) and path timeout (15 s): three missed beats.
        NetworkMode::Internet => (Duration::from_secs(15), Duration::from_secs(5)),
    };
    let idle = idle
        .try_into()
        .map_err(|e| TransportError::Bind(format!("idle timeout: {e}")))?;
    Ok(QuicTransportConfig::builder()
        .max_idle_timeout(Some(idle))
        .keep_alive_interval(keep_alive)
        .build())
}

/// A dialing endpoint for Studio's client side.
pub async fn bind(mode: NetworkMode) -> Result<Endpoint> {
    builder(mode, 0)?
        .transport_config(client_transport(mode)?)
        .bind()
        .await
        .map_err(|e| TransportError::Bind(e.to_string()))
}

/// An endpoint that accepts `alpns` (normally `[protocol::ALPN]`).
pub async fn bind_server(mode: NetworkMode, alpns: Vec<Vec<u8>>) -> Result<Endpoint> {
    bind_server_with(mode, alpns, ServerOptions::default()).await
}

/// [`bind_server`] with a fixed identity and/or port.
pub async fn bind_server_with(
    mode: NetworkMode,
    alpns: Vec<Vec<u8>>,
    options: ServerOptions,
) -> Result<Endpoint> {
    let mut b = builder(mode, options.port)?.alpns(alpns);
    if let Some(key) = options.secret_key {
        b = b.secret_key(key);
    }
    b.bind()
        .await
        .map_err(|e| TransportError::Bind(e.to_string()))
}

/// The endpoint's address including the sockets it is actually bound to (for Local-only the
/// 127.0.0.1 socket, which address discovery may not have reported yet).
pub fn addr_for(endpoint: &Endpoint) -> EndpointAddr {
    let mut addr = endpoint.addr();
    for socket in endpoint.bound_sockets() {
        if !socket.ip().is_unspecified() && !addr.ip_addrs().any(|a| *a == socket) {
            addr = addr.with_ip_addr(socket);
        }
    }
    addr
}

/// A shareable ticket for `endpoint`. For Internet mode, await `endpoint.online()` first so the
/// ticket carries the home relay.
pub fn ticket_for(endpoint: &Endpoint) -> String {
    EndpointTicket::new(addr_for(endpoint)).to_string()
}

/// Internet mode: waits (up to `wait`) for a home relay so the ticket works across NATs, then
/// returns [`ticket_for`]. Local-only endpoints never go online: use [`ticket_for`] directly.
pub async fn online_ticket(endpoint: &Endpoint, wait: std::time::Duration) -> String {
    let _ = tokio::time::timeout(wait, endpoint.online()).await;
    ticket_for(endpoint)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn env_value_selects_mode() {
        assert_eq!(
            NetworkMode::from_env_value(Some("local")),
            NetworkMode::LocalOnly
        );
        assert_eq!(
            NetworkMode::from_env_value(Some(" LOCAL ")),
            NetworkMode::LocalOnly
        );
        assert_eq!(
            NetworkMode::from_env_value(Some("internet")),
            NetworkMode::Internet
        );
        assert_eq!(NetworkMode::from_env_value(None), NetworkMode::Internet);
    }
}
