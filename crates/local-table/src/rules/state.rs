//! The per-viewer `state` snapshot. Secrecy lives here: a player's frame never
//! carries a hidden variable; a keeper's carries it flagged `hidden:true`.

use serde_json::{json, Map, Value};

use crate::model::room::{Member, RoomState};
use crate::rules::systems::systems_list;

/// The variable rows this viewer may see, in definition order.
pub fn variables_for(st: &RoomState, keeper: bool) -> Vec<Value> {
    st.saved
        .vars
        .iter()
        .filter(|v| keeper || !v.hidden)
        .map(|v| {
            let mut row = Map::new();
            row.insert("id".into(), json!(v.id));
            row.insert("label".into(), json!(v.label));
            row.insert("kind".into(), json!(v.kind));
            row.insert("value".into(), v.value.clone());
            if let Some(min) = v.min {
                row.insert("min".into(), json!(min));
            }
            if let Some(max) = v.max {
                row.insert("max".into(), json!(max));
            }
            if v.hidden {
                row.insert("hidden".into(), json!(true));
            }
            Value::Object(row)
        })
        .collect()
}

pub fn state_for(st: &RoomState, viewer: &Member, reset: bool) -> Value {
    let online_ids: Vec<&str> = st.live.members.iter().map(|m| m.id.as_str()).collect();
    let party: Vec<Value> = st
        .saved
        .chars
        .iter()
        .map(|(owner, c)| {
            let mut p = Map::new();
            p.insert("name".into(), json!(c.name));
            p.insert("online".into(), json!(online_ids.contains(&owner.as_str())));
            p.insert("active".into(), json!(*owner == viewer.id));
            p.insert("ai".into(), json!(false));
            if let Some(avatar) = &c.avatar {
                p.insert("avatar".into(), avatar.clone());
            }
            p.insert("resources".into(), c.resources_json());
            Value::Object(p)
        })
        .collect();
    let mut f = Map::new();
    f.insert("type".into(), json!("state"));
    f.insert("party".into(), Value::Array(party));
    f.insert("initiative".into(), json!([]));
    f.insert("online".into(), json!(st.online()));
    if let Some(c) = st.character(&viewer.id) {
        let mut ch = Map::new();
        ch.insert("name".into(), json!(c.name));
        ch.insert("system".into(), json!(c.system));
        ch.insert("resources".into(), c.resources_json());
        ch.insert("attributes".into(), c.attributes_json());
        ch.insert("status_effects".into(), json!(c.status_effects));
        if let Some(avatar) = &c.avatar {
            ch.insert("avatar".into(), avatar.clone());
        }
        f.insert("character".into(), Value::Object(ch));
    }
    if let Some(scene) = &st.saved.scene {
        f.insert("scene".into(), scene.clone());
    }
    let vars = variables_for(st, viewer.is_keeper());
    if !vars.is_empty() {
        f.insert("variables".into(), Value::Array(vars));
    }
    if !st.saved.pregens.is_empty() {
        f.insert("pregens".into(), json!(st.saved.pregens));
    }
    f.insert("systems".into(), systems_list());
    if reset {
        f.insert("reset".into(), json!(true));
    }
    Value::Object(f)
}

/// Sends every member its own state.
pub fn broadcast_state(st: &RoomState, reset: bool) {
    st.broadcast_with(|m| Some(state_for(st, m, reset)));
}
