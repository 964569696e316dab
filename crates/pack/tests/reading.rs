//! Reading a pack never leaves its folder and always finishes (#28 item 7): a manifest path
//! outside the pack, a link, a FIFO and an oversized file are each a lint problem, found without
//! reading them.

use std::path::Path;
use std::time::{Duration, Instant};

use pack::load;

const PACK: &str = "id: t\nversion: \"0.1.0\"\nname: T\ndescription: D\nlicense: MIT\ncontents:\n";

fn write(dir: &Path, rel: &str, text: &str) {
    let path = dir.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// A pack whose manifest lists `ui/panels.yaml`, holding `panels`.
fn with_panels(panels: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "pack.yaml",
        &format!("{PACK}  panels: [ui/panels.yaml]\n"),
    );
    write(dir.path(), "ui/panels.yaml", panels);
    dir
}

/// The pack's problems as `file:line:col: message`, and how long loading took.
fn problems(dir: &Path) -> (Vec<String>, Duration) {
    let start = Instant::now();
    let list = load(dir).err().unwrap_or_default();
    (
        list.iter().map(|p| p.to_string()).collect(),
        start.elapsed(),
    )
}

#[test]
fn a_panels_path_outside_the_pack_is_a_problem_at_once() {
    // The manifest's own rule (the engine's words) or the reader's: either names the path.
    for path in [
        "/dev/zero",
        "/dev/zero.yaml",
        "../../x.yaml",
        "ui/../../x.yaml",
    ] {
        let dir = tempfile::tempdir().unwrap();
        write(
            dir.path(),
            "pack.yaml",
            &format!("{PACK}  panels: [\"{path}\"]\n"),
        );
        let (text, took) = problems(dir.path());
        assert!(took < Duration::from_secs(1), "{path}: {took:?}");
        assert!(
            text.iter().any(|t| t.contains(path)
                && (t.contains("unsafe archive path") || t.contains("is outside the pack"))),
            "{path}: {text:?}"
        );
    }
}

#[test]
fn an_oversized_page_file_is_refused_without_being_read() {
    let dir = with_panels(
        "panels:\n  - {id: big, entry: p/big/index.html, assets: [p/big/index.html, p/big/app.js, p/big/huge.js], fallback: null, title: B, slot: sidebar}\n",
    );
    write(dir.path(), "p/big/index.html", "x");
    // 3 MiB of code, and a sparse 64 GiB file: reading either whole would show in the time (and
    // the second would not fit in memory).
    std::fs::write(dir.path().join("p/big/app.js"), vec![b'x'; 3 << 20]).unwrap();
    let huge = std::fs::File::create(dir.path().join("p/big/huge.js")).unwrap();
    huge.set_len(64 << 30).unwrap();
    let (text, took) = problems(dir.path());
    assert!(took < Duration::from_secs(1), "{took:?}");
    assert!(
        text.iter().any(|t| t.contains(
            "\"p/big/app.js\" is 3 MiB (the most a pack file of this kind may be is 2 MiB)"
        )),
        "{text:?}"
    );
    assert!(
        text.iter()
            .any(|t| t.contains("\"p/big/huge.js\" is 65536 MiB")),
        "{text:?}"
    );
}

#[cfg(unix)]
#[test]
fn a_linked_card_is_refused() {
    let outside = tempfile::tempdir().unwrap();
    write(outside.path(), "world.lorecard.json", "{}");
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "pack.yaml",
        &format!("{PACK}  cards: [cards/world.lorecard.json]\n"),
    );
    std::fs::create_dir_all(dir.path().join("cards")).unwrap();
    std::os::unix::fs::symlink(
        outside.path().join("world.lorecard.json"),
        dir.path().join("cards/world.lorecard.json"),
    )
    .unwrap();
    let (text, _) = problems(dir.path());
    assert_eq!(
        text,
        ["pack.yaml:7:11: cannot read the card: \"cards/world.lorecard.json\" goes through a link: a pack ships its own files, not links"]
    );
    // A linked folder on the way counts as well.
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "pack.yaml",
        &format!("{PACK}  cards: [cards/world.lorecard.json]\n"),
    );
    std::os::unix::fs::symlink(outside.path(), dir.path().join("cards")).unwrap();
    let (text, _) = problems(dir.path());
    assert!(text[0].contains("goes through a link"), "{text:?}");
}

#[cfg(unix)]
#[test]
fn a_fifo_is_refused_not_waited_on() {
    let dir = with_panels(
        "panels:\n  - {id: a, blocks: [{kind: image, src: img/pipe.png}], title: A, slot: sidebar}\n",
    );
    std::fs::create_dir_all(dir.path().join("img")).unwrap();
    let fifo = std::ffi::CString::new(dir.path().join("img/pipe.png").to_str().unwrap()).unwrap();
    // SAFETY: mkfifo with a valid C path.
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
    // The panels file itself as a FIFO too.
    let (text, took) = problems(dir.path());
    assert!(took < Duration::from_secs(1), "{took:?}");
    assert_eq!(
        text,
        ["ui/panels.yaml:2:41: \"img/pipe.png\" is not a regular file"]
    );
    std::fs::remove_file(dir.path().join("ui/panels.yaml")).unwrap();
    let fifo = std::ffi::CString::new(dir.path().join("ui/panels.yaml").to_str().unwrap()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
    let (text, took) = problems(dir.path());
    assert!(took < Duration::from_secs(1), "{took:?}");
    assert!(text[0].contains("is not a regular file"), "{text:?}");
}
