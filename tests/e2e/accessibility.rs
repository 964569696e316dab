//! axe-core (the accessibility engine, pinned and installed by `cargo xtask setup`) run in the
//! real window on every screen a person reaches, in each of the three themes (#29): no
//! violation of any impact may remain (minor and moderate ones too: a skipped heading level or
//! a page without a main landmark is what a screen reader user navigates by). The rule ids and counts found on each
//! screen are printed, and the whole summary is written for `cargo xtask test` to print.
//!
//! Disabled rules: none. Panel pages (tier-2 frames) are the pack's own documents: axe checks
//! the frame element the host draws (its accessible name), not what a pack puts inside it.

use std::collections::BTreeMap;
use std::time::Duration;

use serde_json::{json, Value};
use studio_e2e::keeper::{click, open_page};
use studio_e2e::play::{join_demo, play_turn};
use studio_e2e::{open_studio_with, out_dir, wait_for, Studio};

const THEMES: &[&str] = &["dark", "light", "contrast"];

/// What one axe run found: `(impact, rule, count of nodes, an example target)`.
fn run_axe(s: &Studio, source: &str) -> Vec<(String, String, usize, String)> {
    let present = s
        .execute("return typeof axe !== 'undefined';", json!([]))
        .expect("asking for axe");
    if present != Value::Bool(true) {
        s.execute(&format!("{source}\n;return 1;"), json!([]))
            .expect("injecting axe-core");
    }
    let out = s
        .execute(
            // A theme just set is still fading in (colours have transitions): axe reads the
            // page once they have ended, as a person sees it.
            "return Promise.all(document.getAnimations()
                 .filter(a => typeof CSSTransition !== 'undefined' && a instanceof CSSTransition)
                 .map(a => a.finished.catch(() => 0)))
               .then(() => axe.run(document, {iframes: false, resultTypes: ['violations']}))
               .then(r => r.violations.map(v => [v.impact || 'none', v.id, v.nodes.length,
                   v.nodes.slice(0, 3).map(n => n.target.join(' ') + ' ' + n.html.slice(0, 100)
                       + ' — ' + ((n.any[0] || n.all[0] || n.none[0] || {}).message || ''))
                     .join(' | ')]));",
            json!([]),
        )
        .expect("running axe");
    out.as_array()
        .unwrap_or_else(|| panic!("axe gave no list: {out}"))
        .iter()
        .map(|v| {
            (
                v[0].as_str().unwrap_or_default().to_owned(),
                v[1].as_str().unwrap_or_default().to_owned(),
                v[2].as_u64().unwrap_or_default() as usize,
                v[3].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect()
}

struct Audit {
    source: String,
    lines: Vec<String>,
    failing: Vec<String>,
    by_impact: BTreeMap<String, usize>,
    runs: usize,
}

impl Audit {
    /// Checks the screen as it is now in every theme, then puts the theme back.
    fn screen(&mut self, s: &Studio, name: &str) {
        let before = s
            .execute(
                "return document.documentElement.getAttribute('data-theme') || 'dark';",
                json!([]),
            )
            .expect("the theme");
        for theme in THEMES {
            s.execute(
                "document.documentElement.setAttribute('data-theme', arguments[0]); return 0;",
                json!([theme]),
            )
            .expect("setting the theme");
            let found = run_axe(s, &self.source);
            self.runs += 1;
            let mut words = Vec::new();
            for (impact, rule, n, target) in &found {
                *self.by_impact.entry(impact.clone()).or_default() += n;
                words.push(format!("{rule} ×{n} ({impact})"));
                if std::env::var_os("STUDIO_AXE_NODES").is_some() {
                    eprintln!("axe:   {name} [{theme}] {rule}: {target}");
                }
                self.failing.push(format!(
                    "{name} [{theme}]: {rule} ×{n} ({impact}), e.g. {target}"
                ));
            }
            let line = if words.is_empty() {
                format!("{name} [{theme}]: no violations")
            } else {
                format!("{name} [{theme}]: {}", words.join(", "))
            };
            eprintln!("axe: {line}");
            self.lines.push(line);
        }
        s.execute(
            "document.documentElement.setAttribute('data-theme', arguments[0]); return 0;",
            json!([before]),
        )
        .expect("putting the theme back");
    }
}

#[test]
fn every_screen_passes_axe_in_every_theme() {
    let _scenario = studio_e2e::scenario();
    let axe = std::env::var("STUDIO_AXE")
        .expect("STUDIO_AXE names axe-core's script (cargo xtask setup installs it)");
    let source = std::fs::read_to_string(&axe).unwrap_or_else(|e| panic!("{axe}: {e}"));
    let root = studio_e2e::peers::fresh_dir("axe");
    let (pack, profile) = studio_e2e::hosting::bench_pack_and_profile(&root);
    let images = test_support::repo().join("assets/demo/images");
    let pictures = std::env::join_paths([images.join("lighthouse.svg"), images.join("martha.png")])
        .expect("two paths");
    let s = open_studio_with(&[
        ("STUDIO_DATA_DIR", profile.to_str().unwrap()),
        ("STUDIO_DEMO_PACING", "fast"),
        ("STUDIO_PICK_DIR", pack.to_str().unwrap()),
        ("STUDIO_PICK_FILES", pictures.to_str().unwrap()),
    ]);
    let mut audit = Audit {
        source,
        lines: Vec::new(),
        failing: Vec::new(),
        by_impact: BTreeMap::new(),
        runs: 0,
    };

    wait_for(Duration::from_secs(30), "the connect screen", || {
        s.find("#ticket")
    });
    audit.screen(&s, "connect");
    click(&s, "#host");
    wait_for(Duration::from_secs(10), "the host panel", || {
        s.find("#host-panel")
    });
    audit.screen(&s, "connect: host a table");
    click(&s, "#host-back");

    join_demo(&s);
    play_turn(&s, "I knock on the cottage door.");
    audit.screen(&s, "play");
    // Two pictures shared from the input's + (the file picker answered by the test).
    click(&s, "#share-button");
    wait_for(Duration::from_secs(30), "the shared pictures", || {
        let t = s.text(&s.find("#open-gallery")?);
        t.contains("(2 ").then_some(())
    });
    click(&s, "#open-gallery");
    wait_for(Duration::from_secs(10), "the gallery", || {
        s.find("#gallery")
    });
    audit.screen(&s, "gallery");
    click(&s, ".gallery-item");
    wait_for(Duration::from_secs(10), "the viewer", || s.find("#viewer"));
    audit.screen(&s, "viewer");
    click(&s, "#viewer-close");
    click(&s, "#gallery-close");
    click(&s, "#sound-button");
    wait_for(Duration::from_secs(10), "the sound popover", || {
        s.find("#sound-popover")
    });
    audit.screen(&s, "sound");
    click(&s, "#sound-button");
    click(&s, "#keys-open");
    wait_for(Duration::from_secs(10), "the keyboard help", || {
        s.find("#keys-help")
    });
    audit.screen(&s, "keyboard help");
    click(&s, "#keys-help-close");
    for page in ["keys", "model", "room", "skills", "sound", "switches"] {
        open_page(&s, page);
        audit.screen(&s, &format!("keeper: {page}"));
    }
    click(&s, "#keeper-back");

    // The pack bench, on the offline table.
    click(&s, "#leave");
    let open = wait_for(Duration::from_secs(20), "the connect screen", || {
        s.find("#open-pack")
    });
    s.click(&open);
    wait_for(Duration::from_secs(30), "the bench", || {
        s.find("[data-panel='bench-pack/notes'] .panel-title")
    });
    audit.screen(&s, "pack bench");
    s.screenshot(&out_dir().join("axe-bench.png"));

    let mut summary = audit.lines.clone();
    let totals = audit
        .by_impact
        .iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect::<Vec<_>>()
        .join(", ");
    summary.push(format!(
        "{} checks ({} screens × {} themes); violations by impact: {}",
        audit.runs,
        audit.runs / THEMES.len(),
        THEMES.len(),
        if totals.is_empty() {
            "none".into()
        } else {
            totals
        }
    ));
    std::fs::write(out_dir().join("axe-summary.txt"), summary.join("\n") + "\n")
        .expect("writing the axe summary");
    assert!(
        audit.failing.is_empty(),
        "accessibility violations:\n{}",
        audit.failing.join("\n")
    );
}
