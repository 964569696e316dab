//! The input choke after the rate check: echo, then a dot command or a Keeper turn.
//! Command replies are `narrative{speaker:"system"}` followed by a state refresh, never turn_status.

use std::sync::Arc;

use serde_json::{json, Map};

use crate::model::ids::new_id;
use crate::model::room::{Member, Room, RoomState};
use crate::rules::context::Context;
use crate::rules::reply::{dice_frame, system_all, system_frame};
use crate::rules::state::broadcast_state;
use crate::rules::{audio, dice, keeper, packs, systems, vars};

const HELP: &str = "Commands: .r <dice> (e.g. .r 2d6+1, .r d%), .coc <name>, .dnd <name>, \
.ra <skill> [target], .sc <success>/<failure>, .pc list, .pc claim <name>. \
Keeper: .bgm|.ambience play|stop|pause|resume|volume <n>, .sfx <audio>, \
.var list|set|add|expose <id> [value], .panels enable|disable <pack>, .reset. \
Anything else is an action for the Keeper.";

pub async fn run_input(ctx: &Arc<Context>, room: &Arc<Room>, member: &Member, text: &str) {
    let _turn = room.turn.lock().await;
    let is_command = text.starts_with('.') || text.starts_with('/');
    {
        let mut st = room.lock();
        let display = st.display_name(&member.id, &member.name);
        let echo = json!({
            "type": "narrative", "id": new_id(), "speaker": "player", "name": display,
            "text": text, "format": "plain",
        });
        if is_command {
            // Dot-command echoes are backstage: the sender sees its own line, the
            // room sees only the reply (as the engine does), and replay skips them.
            member.send(&echo);
        } else {
            st.publish_line(echo);
        }
    }
    if is_command {
        command(ctx, room, member, &text[1..]);
    } else {
        keeper::run_turn(ctx, room, member, text).await;
    }
    room.persist();
}

fn command(ctx: &Context, room: &Arc<Room>, member: &Member, line: &str) {
    let (verb, rest) = line
        .trim()
        .split_once(char::is_whitespace)
        .unwrap_or((line.trim(), ""));
    let verb = verb.to_lowercase();
    let rest = rest.trim();
    let mut st = room.lock();
    let actor = st.display_name(&member.id, &member.name);
    let mut reset = false;
    match verb.as_str() {
        "help" => member.send(&system_frame(HELP)),
        "r" | "roll" => roll(&mut st, &actor, rest),
        "coc" | "dnd" => {
            let name = if rest.is_empty() {
                member.name.as_str()
            } else {
                rest
            };
            let ch = if verb == "coc" {
                systems::new_coc(name)
            } else {
                systems::new_dnd(name)
            };
            let msg = format!("Created {} character: {}", ch.system, ch.name);
            st.saved.chars.retain(|(id, _)| id != &member.id);
            st.saved.chars.push((member.id.clone(), ch));
            system_all(&st, &msg);
        }
        "ra" | "rc" | "check" => {
            let (skill, target) = split_target(rest);
            match systems::skill_check(st.character(&member.id), &skill, target) {
                Ok(check) => {
                    st.publish_event(dice_frame(&actor, check.frame));
                    system_all(&st, &check.summary);
                }
                Err(msg) => member.send(&system_frame(&msg)),
            }
        }
        "sc" => {
            let result = match st.character_mut(&member.id) {
                Some(ch) => systems::sanity_check(ch, rest),
                None => Err("No active character. Create one with .coc <name>.".into()),
            };
            match result {
                Ok(check) => {
                    st.publish_event(dice_frame(&actor, check.frame));
                    system_all(&st, &check.summary);
                }
                Err(msg) => member.send(&system_frame(&msg)),
            }
        }
        "bgm" | "ambience" | "sfx" => audio::audio_command(&mut st, member, &verb, rest, true),
        "var" => vars::command(&mut st, member, rest),
        "panels" => {
            drop(st);
            packs::panels_command(&ctx.packs, room, member, rest);
            st = room.lock();
        }
        "pc" => pc_command(&mut st, member, rest),
        "reset" if member.is_keeper() => {
            reset_room(ctx, room, &mut st, "chars");
            system_all(&st, "The campaign has been reset.");
            reset = true;
        }
        "reset" => member.send(&system_frame("Only the keeper can reset the campaign.")),
        _ => member.send(&system_frame(&format!(
            "Unknown command: .{verb} (try .help)"
        ))),
    }
    broadcast_state(&st, reset);
}

fn split_target(rest: &str) -> (String, Option<i64>) {
    let mut words: Vec<&str> = rest.split_whitespace().collect();
    let target = words.last().and_then(|w| w.parse::<i64>().ok());
    if target.is_some() {
        words.pop();
    }
    (words.join(" "), target)
}

fn roll(st: &mut RoomState, actor: &str, rest: &str) {
    let expr = rest.split_whitespace().next().unwrap_or("1d100");
    match dice::roll(expr) {
        Ok(r) => {
            let single_d100 = r.expr == "1d100";
            let mut body = Map::new();
            body.insert("kind".into(), json!("roll"));
            body.insert("expr".into(), json!(r.expr));
            body.insert("rolls".into(), json!(r.rolls));
            body.insert("total".into(), json!(r.total));
            body.insert(
                "detail".into(),
                json!({"modifier": r.modifier,
                       "critical_success": single_d100 && r.total == 1,
                       "critical_failure": single_d100 && r.total == 100}),
            );
            st.publish_event(dice_frame(actor, body));
            let rolls: Vec<String> = r.rolls.iter().map(i64::to_string).collect();
            let text = format!("Roll: {} = [{}] = {}", r.expr, rolls.join(", "), r.total);
            system_all(st, &text);
        }
        Err(e) => system_all(st, &format!("Cannot roll {expr}: {e}")),
    }
}

fn pc_command(st: &mut RoomState, member: &Member, rest: &str) {
    let (op, name) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
    match op {
        "claim" => {
            let wanted = name.trim().to_lowercase();
            let Some(idx) = st
                .saved
                .pregens
                .iter()
                .position(|p| p.name.to_lowercase() == wanted)
            else {
                return member.send(&system_frame(&format!("No such pregen: {}", name.trim())));
            };
            if !st.saved.pregens[idx].claimed_by.is_empty()
                && st.saved.pregens[idx].claimed_by != member.id
            {
                return member.send(&system_frame("That character is already claimed."));
            }
            for p in st
                .saved
                .pregens
                .iter_mut()
                .filter(|p| p.claimed_by == member.id)
            {
                p.claimed_by.clear();
            }
            st.saved.pregens[idx].claimed_by = member.id.clone();
            let pc_name = st.saved.pregens[idx].name.clone();
            st.saved.chars.retain(|(id, _)| id != &member.id);
            st.saved
                .chars
                .push((member.id.clone(), systems::new_coc(&pc_name)));
            system_all(st, &format!("{} claims {pc_name}.", member.name));
        }
        _ => {
            let list: Vec<String> = st
                .saved
                .pregens
                .iter()
                .map(|p| {
                    format!(
                        "{}{}",
                        p.name,
                        if p.claimed_by.is_empty() {
                            ""
                        } else {
                            " (claimed)"
                        }
                    )
                })
                .collect();
            member.send(&system_frame(&format!("Pregens: {}", list.join(", "))));
        }
    }
}

/// Wipes a room in place; `scope` is story / chars / all, like `admin_reset_room`.
pub fn reset_room(ctx: &Context, room: &Room, st: &mut RoomState, scope: &str) {
    let fresh = ctx.fresh_saved(&room.name);
    st.saved.history.clear();
    st.saved.lead_events.clear();
    st.saved.beat = 0;
    st.saved.scene = None;
    st.saved.vars = fresh.vars.clone();
    if scope == "chars" || scope == "all" {
        st.saved.chars.clear();
        st.saved.pregens = fresh.pregens.clone();
    }
    if scope == "all" {
        st.saved.media = fresh.media;
        st.saved.media_history.clear();
        st.saved.audio_items = fresh.audio_items;
        st.saved.audio.clear();
    }
}
