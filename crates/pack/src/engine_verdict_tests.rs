//! Every sentence here is one the engine (fc4ef21) printed for a broken copy of bench-pack.

use super::*;

fn refused(error: &str) -> String {
    format!("{}\n", serde_json::json!({"ok": false, "error": error}))
}

fn read_refusal(error: &str) -> (Option<String>, Option<u32>, Option<u32>) {
    match read(&refused(error), "Pack build failed: …\n", Some(1)) {
        Ok(EngineVerdict::Refused {
            error: said,
            file,
            line,
            column,
        }) => {
            assert_eq!(said, error);
            (file, line, column)
        }
        other => panic!("{error}: {other:?}"),
    }
}

#[test]
fn a_build_is_read_with_its_trust_card() {
    let stdout = r#"{"ok": true, "path": "/tmp/probe/out.zip", "id": "bench-pack", "version": "0.1.0", "sha256": "743796ce4c5153c83b04f95045491b463bc24ebefaf579aec9605dbb7b602baf", "trust": {"skills": 0, "cards": 1, "panels": 3, "has_hooks": false}}"#;
    let stderr = "Packed bench-pack@0.1.0 -> /tmp/probe/out.zip\n";
    let verdict = read(stdout, stderr, Some(0)).unwrap();
    let EngineVerdict::Built {
        path,
        id,
        version,
        sha256,
        trust,
    } = &verdict
    else {
        panic!("{verdict:?}")
    };
    assert_eq!(path, "/tmp/probe/out.zip");
    assert_eq!((id.as_str(), version.as_str()), ("bench-pack", "0.1.0"));
    assert_eq!(sha256.len(), 64);
    assert_eq!(trust["panels"], 3);
    assert!(verdict.accepted());
}

#[test]
fn a_panels_refusal_names_the_panels_file() {
    let (file, line, _) = read_refusal(
        "panels ui/panels.yaml: panels[notes].blocks[1]: kind must be one of ['badge', 'choices', \
         'clipping', 'divider', 'image', 'letter', 'map_pin', 'meter', 'stat', 'text', 'title_card']",
    );
    assert_eq!(file.as_deref(), Some("ui/panels.yaml"));
    assert_eq!(line, None);
}

#[test]
fn a_yaml_refusal_gives_the_problem_mark_not_the_context_mark() {
    let (file, line, column) = read_refusal(
        "panels ui/panels.yaml: invalid panels YAML: while parsing a flow sequence\n  in \
         \"<unicode string>\", line 11, column 11:\n        slot: [tray\n              ^\n\
         expected ',' or ']', but got ':'\n  in \"<unicode string>\", line 12, column 13:\n        \
         audience: keeper\n                ^",
    );
    assert_eq!(file.as_deref(), Some("ui/panels.yaml"));
    assert_eq!((line, column), (Some(12), Some(13)));
}

#[test]
fn a_card_refusal_names_the_card_and_json_s_line() {
    let (file, line, column) = read_refusal(
        "card cards/world.lorecard.json: Expecting ',' delimiter: line 5 column 3 (char 82)",
    );
    assert_eq!(file.as_deref(), Some("cards/world.lorecard.json"));
    assert_eq!((line, column), (Some(5), Some(3)));
}

#[test]
fn a_quoted_path_at_the_end_is_the_file_named() {
    let cases = [
        (
            "asset missing from source: 'panels/echo/index.html'",
            "panels/echo/index.html",
        ),
        (
            "unsafe archive path (traversal segment): '../bench-pack/ui/panels.yaml'",
            "../bench-pack/ui/panels.yaml",
        ),
    ];
    for (error, path) in cases {
        assert_eq!(read_refusal(error).0.as_deref(), Some(path), "{error}");
    }
}

#[test]
fn a_manifest_refusal_is_about_pack_yaml_and_a_bare_one_names_nothing() {
    let (file, ..) = read_refusal("manifest license is required (an SPDX id or short name)");
    assert_eq!(file.as_deref(), Some("pack.yaml"));
    let (file, ..) = read_refusal("contents.panels must be a list");
    assert_eq!(file.as_deref(), Some("pack.yaml"));
    // A pack-wide sentence names no file.
    let (file, ..) = read_refusal("a file is declared under more than one contents kind");
    assert_eq!(file, None);
}

const TRACEBACK: &str = "Traceback (most recent call last):
  File \"/root/.cache/loreweaver-studio/engine/loreweaver-fc4ef21/loreweaver/app.py\", line 676, in <module>
    raise SystemExit(main())
                     ^^^^^^
  File \"/root/.cache/loreweaver-studio/engine/loreweaver-fc4ef21/loreweaver/core/pack.py\", line 1013, in read_text
    return _source_file(source_dir, relative).read_text(encoding=\"utf-8\")
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File \"/usr/lib/python3.11/pathlib.py\", line 1045, in open
    return io.open(self, mode, buffering, encoding, errors, newline)
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
FileNotFoundError: [Errno 2] No such file or directory: '/tmp/probe/nopanels/ui/panels.yaml'
";

#[test]
fn a_traceback_without_json_is_a_crash_with_its_summary() {
    let verdict = read("", TRACEBACK, Some(1)).unwrap();
    let EngineVerdict::Crashed { exception, tail } = &verdict else {
        panic!("{verdict:?}")
    };
    assert_eq!(
        exception,
        "FileNotFoundError: [Errno 2] No such file or directory: '/tmp/probe/nopanels/ui/panels.yaml'"
    );
    assert_eq!(tail.len(), TAIL);
    assert_eq!(tail.last(), Some(exception));
    assert!(!verdict.accepted());
}

#[test]
fn output_in_no_known_form_is_an_error_never_a_verdict() {
    // Silence, a success exit with a traceback, two JSON lines, a mismatched exit code, a
    // build without its digest: each is reported with the output, not guessed at.
    let ok = r#"{"ok": true, "path": "p", "id": "i", "version": "1.0.0", "trust": {}}"#;
    let cases = [
        ("", "", Some(1), "no JSON line"),
        ("", TRACEBACK, Some(0), "no JSON line"),
        (
            "{\"ok\": false, \"error\": \"a\"}\n{\"ok\": false, \"error\": \"b\"}",
            "",
            Some(1),
            "2 JSON lines",
        ),
        (
            "{\"ok\": false, \"error\": \"a\"}",
            "",
            Some(0),
            "exit code",
        ),
        ("{\"ok\": false, \"error\": \"a\"}", "", None, "exit code"),
        (ok, "", Some(0), "`sha256` is missing"),
        ("{\"ok\": tru", "", Some(0), "bad JSON"),
    ];
    for (stdout, stderr, code, reason) in cases {
        let e = read(stdout, stderr, code).expect_err(reason);
        assert!(e.reason.contains(reason), "{reason}: {e}");
        assert_eq!(e.stdout, stdout);
    }
}
