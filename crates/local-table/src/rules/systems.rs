//! The two built-in rule systems (CoC 7e, D&D 5e): character sheets and graded checks.
//! Sheets are data-shaped like the engine's: resources, then the sheet's attributes in order.

use rand::Rng;
use serde_json::{json, Map, Value};

use crate::model::character::{Character, Resource};
use crate::rules::dice;

/// The `systems` list the state frame advertises.
pub fn systems_list() -> Value {
    // wod is listed like the engine's (which ships it) but has no creation dialect.
    json!([{"id": "coc7", "make_char": "coc"}, {"id": "dnd5e", "make_char": "dnd"}, {"id": "wod"}])
}

fn roll3d6x5(rng: &mut impl Rng) -> i64 {
    (0..3).map(|_| rng.random_range(1..=6i64)).sum::<i64>() * 5
}

fn roll2d6p6x5(rng: &mut impl Rng) -> i64 {
    ((0..2).map(|_| rng.random_range(1..=6i64)).sum::<i64>() + 6) * 5
}

pub fn new_coc(name: &str) -> Character {
    let mut rng = rand::rng();
    let attrs: Vec<(String, i64)> = [
        ("STR", roll3d6x5(&mut rng)),
        ("CON", roll3d6x5(&mut rng)),
        ("SIZ", roll2d6p6x5(&mut rng)),
        ("DEX", roll3d6x5(&mut rng)),
        ("APP", roll3d6x5(&mut rng)),
        ("INT", roll2d6p6x5(&mut rng)),
        ("POW", roll3d6x5(&mut rng)),
        ("EDU", roll2d6p6x5(&mut rng)),
        ("LUC", roll3d6x5(&mut rng)),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    let get = |k: &str| {
        attrs
            .iter()
            .find(|(n, _)| n == k)
            .map(|(_, v)| *v)
            .unwrap_or(50)
    };
    let hp = (get("CON") + get("SIZ")) / 10;
    let san = get("POW");
    let mp = get("POW") / 5;
    let skills = [
        ("Spot Hidden", 25),
        ("Listen", 20),
        ("Library Use", 20),
        ("Psychology", 10),
        ("Stealth", 20),
        ("Persuade", 10),
        ("First Aid", 30),
        ("Occult", 5),
        ("Dodge", get("DEX") / 2),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    Character {
        name: name.to_string(),
        system: "coc7".into(),
        resources: vec![
            res("hp", "HP", hp, hp),
            res("san", "SAN", san, 99),
            res("mp", "MP", mp, mp),
        ],
        attributes: attrs,
        skills,
        status_effects: vec![],
        avatar: None,
    }
}

pub fn new_dnd(name: &str) -> Character {
    let mut rng = rand::rng();
    let mut stat = || {
        let mut d: Vec<i64> = (0..4).map(|_| rng.random_range(1..=6i64)).collect();
        d.sort_unstable();
        d[1..].iter().sum::<i64>()
    };
    let attrs: Vec<(String, i64)> = ["STR", "DEX", "CON", "INT", "WIS", "CHA"]
        .into_iter()
        .map(|k| (k.to_string(), stat()))
        .collect();
    let con = attrs[2].1;
    let hp = 10 + (con - 10).div_euclid(2);
    let skills = [
        ("Perception", 0),
        ("Investigation", 0),
        ("Stealth", 0),
        ("Athletics", 0),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    Character {
        name: name.to_string(),
        system: "dnd5e".into(),
        resources: vec![res("hp", "HP", hp, hp)],
        attributes: attrs,
        skills,
        status_effects: vec![],
        avatar: None,
    }
}

fn res(id: &str, label: &str, value: i64, max: i64) -> Resource {
    Resource {
        id: id.into(),
        label: label.into(),
        value,
        max,
    }
}

/// CoC 7e's graded outcome for a d100 roll against `target`.
pub fn coc_outcome(roll: i64, target: i64) -> Value {
    let fumble = if target < 50 { roll >= 96 } else { roll == 100 };
    let (id, label, tier) = if roll == 1 {
        ("critical", "Critical Success", 5)
    } else if fumble {
        ("fumble", "Fumble", 0)
    } else if roll <= target / 5 {
        ("extreme", "Extreme Success", 4)
    } else if roll <= target / 2 {
        ("hard", "Hard Success", 3)
    } else if roll <= target {
        ("regular", "Regular Success", 2)
    } else {
        ("fail", "Failure", 1)
    };
    json!({
        "id": id, "label": label, "success": tier >= 2, "critical": id == "critical",
        "fumble": id == "fumble", "tier": tier, "margin": target - roll,
    })
}

/// A d20 check against a DC: natural 20 and natural 1 are the critical/fumble ends.
pub fn d20_outcome(natural: i64, total: i64, dc: i64) -> Value {
    let (id, label, tier) = if natural == 20 {
        ("critical", "Critical Success", 3)
    } else if natural == 1 {
        ("fumble", "Critical Failure", 0)
    } else if total >= dc {
        ("success", "Success", 2)
    } else {
        ("fail", "Failure", 1)
    };
    json!({
        "id": id, "label": label, "success": tier >= 2, "critical": id == "critical",
        "fumble": id == "fumble", "tier": tier, "margin": total - dc,
    })
}

/// The result of a graded check: the dice frame's body (without `type`/`actor`) and a summary line.
pub struct Check {
    pub frame: Map<String, Value>,
    pub summary: String,
}

/// `.ra`: a check of `skill` for `ch` (or a bare target when given).
pub fn skill_check(
    ch: Option<&Character>,
    skill: &str,
    explicit: Option<i64>,
) -> Result<Check, String> {
    let system = ch.map(|c| c.system.as_str()).unwrap_or("coc7");
    let (name, base) = match (explicit, ch.and_then(|c| c.stat(skill))) {
        (Some(t), _) => (title_case(skill), t),
        (None, Some((n, v))) => (n, v),
        (None, None) => {
            return Err(match ch {
                None => "No active character. Create one with .coc <name> or .dnd <name>.".into(),
                Some(_) => format!("Unknown skill: {skill}"),
            })
        }
    };
    let mut frame = Map::new();
    frame.insert("kind".into(), json!("check"));
    frame.insert("expr".into(), json!(name));
    if system == "dnd5e" {
        let natural = rand::rng().random_range(1..=20i64);
        let modifier = if base > 5 {
            (base - 10).div_euclid(2)
        } else {
            base
        };
        let total = natural + modifier;
        let outcome = d20_outcome(natural, total, 10);
        let label = outcome["label"].as_str().unwrap_or("").to_string();
        frame.insert("rolls".into(), json!([natural]));
        frame.insert("total".into(), json!(total));
        frame.insert("target".into(), json!(10));
        frame.insert("outcome".into(), outcome);
        frame.insert("detail".into(), json!({"modifier": modifier}));
        let summary =
            format!("Check {name}: d20 {natural}{modifier:+} = {total} vs DC 10 -> {label}");
        return Ok(Check { frame, summary });
    }
    let roll = dice::d100();
    let outcome = coc_outcome(roll, base);
    let label = outcome["label"].as_str().unwrap_or("").to_string();
    frame.insert("rolls".into(), json!([roll]));
    frame.insert("total".into(), json!(roll));
    frame.insert("target".into(), json!(base));
    frame.insert("effective_target".into(), json!(base));
    frame.insert("outcome".into(), outcome);
    frame.insert("detail".into(), json!({"modifier": 0}));
    let summary = format!("Check {name}: target {base} (effective {base}), roll {roll} -> {label}");
    Ok(Check { frame, summary })
}

/// `.sc success/failure`: the sanity subsystem check; applies the loss to `ch`.
pub fn sanity_check(ch: &mut Character, spec: &str) -> Result<Check, String> {
    let (ok_expr, fail_expr) = spec
        .split_once('/')
        .ok_or_else(|| "Usage: .sc <success loss>/<failure loss>, e.g. .sc 1/1d6".to_string())?;
    let san = ch
        .resource_mut("san")
        .ok_or_else(|| "This character has no sanity.".to_string())?;
    let roll = dice::d100();
    let outcome = coc_outcome(roll, san.value);
    let success = outcome["success"].as_bool().unwrap_or(false);
    let loss_expr = if success {
        ok_expr.trim()
    } else {
        fail_expr.trim()
    };
    let loss = dice::roll(loss_expr)
        .map_err(|e| e.to_string())?
        .total
        .max(0);
    let target = san.value;
    san.value = (san.value - loss).max(0);
    let remaining = san.value;
    let label = outcome["label"].as_str().unwrap_or("").to_string();
    let mut frame = Map::new();
    frame.insert("kind".into(), json!("subsystem"));
    frame.insert("subsystem".into(), json!("sanity_check"));
    frame.insert("expr".into(), json!("Sanity"));
    frame.insert("rolls".into(), json!([roll]));
    frame.insert("total".into(), json!(roll));
    frame.insert("target".into(), json!(target));
    frame.insert("outcome".into(), outcome);
    frame.insert(
        "detail".into(),
        json!({"loss_expr": loss_expr, "loss": loss, "remaining": remaining}),
    );
    let summary = format!("Sanity roll {roll} -> {label}; loss {loss}; SAN {remaining}");
    Ok(Check { frame, summary })
}

fn title_case(s: &str) -> String {
    s.split_whitespace()
        .map(|w| {
            let mut c = w.chars();
            match c.next() {
                Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
                None => String::new(),
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coc_ladder() {
        assert_eq!(coc_outcome(1, 50)["id"], "critical");
        assert_eq!(coc_outcome(10, 50)["id"], "extreme");
        assert_eq!(coc_outcome(25, 50)["id"], "hard");
        assert_eq!(coc_outcome(50, 50)["id"], "regular");
        assert_eq!(coc_outcome(51, 50)["id"], "fail");
        assert_eq!(coc_outcome(97, 40)["id"], "fumble");
        assert_eq!(coc_outcome(97, 60)["id"], "fail");
        assert_eq!(coc_outcome(94, 25)["margin"], -69);
    }

    #[test]
    fn sheets_in_order() {
        let c = new_coc("Alice");
        let keys: Vec<_> = c.attributes.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(
            keys,
            ["STR", "CON", "SIZ", "DEX", "APP", "INT", "POW", "EDU", "LUC"]
        );
        assert_eq!(c.resources[1].id, "san");
        let d = new_dnd("Bo");
        assert_eq!(d.attributes[0].0, "STR");
        let mut c2 = c.clone();
        let check = sanity_check(&mut c2, "1/1d6").unwrap();
        assert_eq!(check.frame["kind"], "subsystem");
        assert!(skill_check(Some(&c), "spot hidden", None).is_ok());
        assert!(skill_check(None, "spot hidden", None).is_err());
    }
}
