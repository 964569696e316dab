//! A drag from another application, for real: an X client in the test speaks the XDND protocol
//! (version 5) to Studio's window and offers a `text/uri-list` of `file://` paths, as a file
//! manager does. GTK, wry and Tauri then see an ordinary drop from outside the window.

use std::time::{Duration, Instant};

use x11rb::connection::Connection;
use x11rb::protocol::xproto::{
    AtomEnum, ClientMessageEvent, ConnectionExt, CreateWindowAux, EventMask, PropMode,
    SelectionNotifyEvent, Window, WindowClass, SELECTION_NOTIFY_EVENT,
};
use x11rb::protocol::Event;
use x11rb::wrapper::ConnectionExt as _;
use x11rb::CURRENT_TIME;

fn atom(conn: &impl Connection, name: &str) -> u32 {
    conn.intern_atom(false, name.as_bytes())
        .expect("intern_atom")
        .reply()
        .expect("intern_atom reply")
        .atom
}

/// The top-level window of process `pid` that takes drops (GTK sets `XdndAware` and
/// `_NET_WM_PID` on it).
fn target(conn: &impl Connection, root: Window, pid: u32) -> Option<Window> {
    let aware = atom(conn, "XdndAware");
    let wm_pid = atom(conn, "_NET_WM_PID");
    let tree = conn.query_tree(root).ok()?.reply().ok()?;
    tree.children.into_iter().find(|w| {
        let has = |prop| {
            conn.get_property(false, *w, prop, AtomEnum::ANY, 0, 1)
                .ok()
                .and_then(|c| c.reply().ok())
        };
        let mapped = conn
            .get_window_attributes(*w)
            .ok()
            .and_then(|c| c.reply().ok())
            .is_some_and(|a| a.map_state == x11rb::protocol::xproto::MapState::VIEWABLE);
        mapped
            && has(aware).is_some_and(|p| p.value_len > 0)
            && has(wm_pid)
                .and_then(|p| p.value32().and_then(|mut v| v.next()))
                .is_some_and(|p| p == pid)
    })
}

fn send(conn: &impl Connection, to: Window, kind: u32, data: [u32; 5]) {
    let event = ClientMessageEvent::new(32, to, kind, data);
    conn.send_event(false, to, EventMask::NO_EVENT, event)
        .expect("send_event");
    conn.flush().expect("flush");
}

/// Drags `paths` from outside onto the middle of the window of process `pid` and drops them.
/// Panics if the window does not take part in the protocol within a few seconds.
pub fn drop_files(pid: u32, paths: &[&std::path::Path]) {
    let (conn, screen) = x11rb::connect(None).expect("connecting to the X display");
    let root = conn.setup().roots[screen].root;
    let source = conn.generate_id().expect("an X id");
    conn.create_window(
        0,
        source,
        root,
        0,
        0,
        1,
        1,
        0,
        WindowClass::INPUT_ONLY,
        0,
        &CreateWindowAux::new(),
    )
    .expect("the drag source's window");
    let deadline = Instant::now() + Duration::from_secs(10);
    let window = loop {
        if let Some(w) = target(&conn, root, pid) {
            break w;
        }
        assert!(
            Instant::now() < deadline,
            "no drop-aware window of pid {pid}"
        );
        std::thread::sleep(Duration::from_millis(100));
    };
    let geo = conn.get_geometry(window).unwrap().reply().unwrap();
    let at = conn
        .translate_coordinates(
            window,
            root,
            (geo.width / 2) as i16,
            (geo.height / 2) as i16,
        )
        .unwrap()
        .reply()
        .unwrap();
    let (x, y) = (at.dst_x as u32, at.dst_y as u32);
    let [enter, position, status, drop, finished, selection, copy, uri_list] = [
        "XdndEnter",
        "XdndPosition",
        "XdndStatus",
        "XdndDrop",
        "XdndFinished",
        "XdndSelection",
        "XdndActionCopy",
        "text/uri-list",
    ]
    .map(|n| atom(&conn, n));
    conn.set_selection_owner(source, selection, CURRENT_TIME)
        .unwrap();
    let list: String = paths
        .iter()
        .map(|p| format!("file://{}\r\n", p.display()))
        .collect();
    send(&conn, window, enter, [source, 5 << 24, uri_list, 0, 0]);
    send(&conn, window, position, [source, 0, (x << 16) | y, 0, copy]);
    let mut dropped = false;
    loop {
        assert!(
            Instant::now() < deadline,
            "the window did not finish the drop (dropped: {dropped})"
        );
        let Some(event) = conn.poll_for_event().expect("X events") else {
            std::thread::sleep(Duration::from_millis(20));
            continue;
        };
        match event {
            Event::ClientMessage(m) if m.type_ == status && !dropped => {
                let accepted = m.data.as_data32()[1] & 1 == 1;
                assert!(accepted, "the window refused the drag");
                send(&conn, window, drop, [source, 0, 0, 0, 0]);
                dropped = true;
            }
            Event::SelectionRequest(r) => {
                conn.change_property8(
                    PropMode::REPLACE,
                    r.requestor,
                    r.property,
                    r.target,
                    list.as_bytes(),
                )
                .unwrap();
                let notify = SelectionNotifyEvent {
                    response_type: SELECTION_NOTIFY_EVENT,
                    sequence: 0,
                    time: r.time,
                    requestor: r.requestor,
                    selection: r.selection,
                    target: r.target,
                    property: r.property,
                };
                conn.send_event(false, r.requestor, EventMask::NO_EVENT, notify)
                    .unwrap();
                conn.flush().unwrap();
            }
            Event::ClientMessage(m) if m.type_ == finished => break,
            _ => {}
        }
    }
    let _ = conn.destroy_window(source);
    let _ = conn.flush();
}
