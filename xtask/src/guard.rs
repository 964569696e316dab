//! xtask must compile on a bare machine (issue #32): setup, which installs the system
//! libraries, lives inside it. So nothing in xtask's own dependency closure (normal and build
//! dependencies, on this platform) may look a system library up at build time.
//!
//! A crate needs one when it has a `links` key and its build script depends on `pkg-config`
//! or `system-deps` (alsa-sys, gtk-sys, dbus, openssl-sys, …). A `links` key alone is not
//! enough: `ring` and `wasm-bindgen-shared` declare one and need nothing installed.

use std::collections::{HashMap, VecDeque};

use serde_json::Value;

use crate::cmd::cargo;

/// Build-time crates that find a library installed on the system.
const LOOKUP_CRATES: &[&str] = &["pkg-config", "system-deps"];

pub fn xtask_needs_no_system_library() -> Result<(), String> {
    let host = host_triple()?;
    let json = cargo(&[
        "metadata",
        "--format-version",
        "1",
        "--filter-platform",
        &host,
    ])
    .read()
    .ok_or("guard: `cargo metadata` failed")?;
    let meta: Value = serde_json::from_str(&json).map_err(|e| format!("guard: {e}"))?;
    match offending_chains(&meta, "xtask")? {
        chains if chains.is_empty() => {
            eprintln!("guard: xtask's dependencies need no system library");
            Ok(())
        }
        chains => Err(format!(
            "xtask must build before setup has installed anything, but it would need a system \
             library through:\n  {}\nMeasure what needs it in a program xtask runs after setup.",
            chains.join("\n  ")
        )),
    }
}

fn host_triple() -> Result<String, String> {
    let v = crate::cmd::Cmd::new(std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into()))
        .args(["-vV"])
        .read()
        .ok_or("guard: `rustc -vV` failed")?;
    v.lines()
        .find_map(|l| l.strip_prefix("host: "))
        .map(str::to_string)
        .ok_or_else(|| "guard: `rustc -vV` names no host".into())
}

/// Every chain `root → … → x-sys` to a package in `root`'s normal+build closure that looks a
/// system library up, shortest first.
pub fn offending_chains(meta: &Value, root: &str) -> Result<Vec<String>, String> {
    let packages: HashMap<&str, &Value> = meta["packages"]
        .as_array()
        .ok_or("guard: metadata without packages")?
        .iter()
        .filter_map(|p| Some((p["id"].as_str()?, p)))
        .collect();
    fn name<'a>(packages: &HashMap<&'a str, &'a Value>, id: &'a str) -> &'a str {
        packages
            .get(id)
            .and_then(|p| p["name"].as_str())
            .unwrap_or(id)
    }
    let nodes: HashMap<&str, &Value> = meta["resolve"]["nodes"]
        .as_array()
        .ok_or("guard: metadata without a resolve graph")?
        .iter()
        .filter_map(|n| Some((n["id"].as_str()?, n)))
        .collect();
    let start = packages
        .values()
        .find(|p| p["name"] == root && p["source"].is_null())
        .and_then(|p| p["id"].as_str())
        .ok_or_else(|| format!("guard: no workspace package {root}"))?;
    // Dependencies that are built for the machine: normal and build, never dev.
    let deps = |id: &str| -> Vec<(&str, bool)> {
        nodes
            .get(id)
            .and_then(|n| n["deps"].as_array())
            .map(|deps| {
                deps.iter()
                    .filter_map(|d| {
                        let kinds = d["dep_kinds"].as_array()?;
                        let normal = kinds.iter().any(|k| k["kind"].is_null());
                        let build = kinds.iter().any(|k| k["kind"] == "build");
                        (normal || build).then_some((d["pkg"].as_str()?, build))
                    })
                    .collect()
            })
            .unwrap_or_default()
    };
    let mut parent: HashMap<&str, &str> = HashMap::new();
    let mut queue = VecDeque::from([start]);
    let mut offending = Vec::new();
    while let Some(id) = queue.pop_front() {
        let links = packages.get(id).is_some_and(|p| p["links"].is_string());
        let looks_up = deps(id)
            .iter()
            .any(|(d, build)| *build && LOOKUP_CRATES.contains(&name(&packages, d)));
        if links && looks_up {
            offending.push(id);
        }
        for (dep, _) in deps(id) {
            if dep != start && !parent.contains_key(dep) {
                parent.insert(dep, id);
                queue.push_back(dep);
            }
        }
    }
    Ok(offending
        .into_iter()
        .map(|mut id| {
            let mut chain = vec![name(&packages, id)];
            while let Some(p) = parent.get(id) {
                chain.push(name(&packages, p));
                id = p;
            }
            chain.reverse();
            chain.join(" → ")
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pkg(id: &str, links: bool) -> Value {
        serde_json::json!({"id": id, "name": id, "source": if id == "xtask" { Value::Null } else { "registry".into() },
            "links": if links { Value::from(id) } else { Value::Null }})
    }
    fn node(id: &str, deps: &[(&str, Option<&str>)]) -> Value {
        let deps: Vec<Value> = deps
            .iter()
            .map(|(d, k)| serde_json::json!({"pkg": d, "dep_kinds": [{"kind": k}]}))
            .collect();
        serde_json::json!({"id": id, "deps": deps})
    }

    #[test]
    fn a_sys_crate_that_looks_its_library_up_is_named_with_its_chain() {
        let meta = serde_json::json!({
            "packages": [pkg("xtask", false), pkg("mixer", false), pkg("alsa-sys", true),
                         pkg("pkg-config", false), pkg("ring", true), pkg("cc", false),
                         pkg("tempfile", false), pkg("gtk-sys", true)],
            "resolve": {"nodes": [
                node("xtask", &[("mixer", None), ("ring", None), ("tempfile", Some("dev"))]),
                node("mixer", &[("alsa-sys", None)]),
                node("alsa-sys", &[("pkg-config", Some("build"))]),
                node("ring", &[("cc", Some("build"))]),
                node("tempfile", &[("gtk-sys", None)]),
                node("gtk-sys", &[("pkg-config", Some("build"))]),
                node("pkg-config", &[]), node("cc", &[]),
            ]}
        });
        // ring links but needs nothing installed; gtk-sys is behind a dev-dependency only.
        assert_eq!(
            offending_chains(&meta, "xtask").unwrap(),
            vec!["xtask → mixer → alsa-sys".to_string()]
        );
    }
}
