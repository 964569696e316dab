//! The demo table: Studio's own local table (loopback only, whatever the network setting),
//! started in-process and joined as keeper; it stops when the person leaves it.

use std::sync::Arc;

use ipc::{cmd, Message, Reply};
use local_table::{LocalTable, RunningTable};
use tauri::async_runtime::Mutex;
use tauri::ipc::Channel;
use tauri::State;

use crate::seat::{Dial, Follower, Joining, Kind, Later, Listener, Seat};

/// The demo table while it runs.
#[derive(Clone, Default)]
pub struct Demo(Arc<Mutex<Option<RunningTable>>>);

impl Follower for Demo {
    fn joined(&self, _: &Joining<'_>) -> Option<Box<dyn Listener>> {
        None
    }

    /// A demo table nobody sits at must not keep running.
    fn left(&self) -> Later<'_> {
        Box::pin(async move {
            if let Some(t) = self.0.lock().await.take() {
                t.shutdown().await;
            }
        })
    }
}

/// Where the demo table keeps its keys, media and room state.
fn demo_dir() -> std::path::PathBuf {
    crate::profile::studio_dir().join("demo-table")
}

/// Starts the demo table in-process (Local only) and joins it as keeper.
#[tauri::command]
pub async fn play_demo(
    seat: State<'_, Seat>,
    demo: State<'_, Demo>,
    args: cmd::PlayDemo,
    on_event: Channel<Message<cmd::PlayDemo>>,
) -> Result<Reply<cmd::PlayDemo>, String> {
    let cmd::PlayDemo {} = args;
    start(&seat, &demo, on_event)
        .await
        .map_err(|e| crate::clean::text(&e))?;
    Ok(ipc::Joined {
        demo: true,
        pack_bench: None,
    })
}

async fn start(
    seat: &Seat,
    demo: &Demo,
    on_event: Channel<Message<cmd::PlayDemo>>,
) -> Result<(), String> {
    seat.leave().await;
    let (mut config, keys) = local_table::table::demo_config(demo_dir())
        .map_err(|e| format!("the demo table could not start: {e}"))?;
    // Tests and pack authors iterating want the Keeper to type fast.
    if std::env::var("STUDIO_DEMO_PACING").as_deref() == Ok("fast") {
        config.pacing = local_table::Pacing::fast();
    }
    let table = LocalTable::start(config)
        .await
        .map_err(|e| format!("the demo table could not start: {e}"))?;
    let dial = Dial {
        ticket: table.endpoint_ticket(),
        key: keys.keeper.clone(),
        name: None,
        local_only: true,
        kind: Kind::Demo,
    };
    *demo.0.lock().await = Some(table);
    if let Err(e) = seat.join(dial, false, on_event).await {
        seat.leave().await;
        return Err(e);
    }
    Ok(())
}
