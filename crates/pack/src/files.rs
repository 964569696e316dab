//! Reading a pack's own files, and nothing else. A pack folder comes from an author, and a
//! manifest names paths in it: a path that leaves the folder (`..`, absolute like `/dev/zero`), a
//! symlink anywhere on the way (the engine's packer refuses them too), something that is not a
//! regular file (a FIFO would block the reader forever) and a file over its size limit are all
//! refused before a byte is read — the size from the open file itself, so a huge or sparse file
//! costs nothing.

use std::io::Read;
use std::path::{Component, Path, PathBuf};

/// The most a YAML file of the pack may hold (the engine's `MAX_LOREBOOK_BYTES`).
pub const MAX_YAML_BYTES: u64 = 4 * 1024 * 1024;
/// The most `pack.yaml` may hold (the engine's `MAX_MANIFEST_BYTES`).
pub const MAX_MANIFEST_BYTES: u64 = 256 * 1024;

/// Whether the pack-relative `rel` stays inside the pack by its words alone, read the same on
/// every platform: no backslash, no `:` (a Windows drive `C:` or stream `file:alt`), and no
/// part that Windows takes for a device (`CON`, `nul.txt`, `COM1`…) or silently changes (a
/// trailing dot or space), so a pack that loads on Linux loads the same for a Windows player.
fn stays_inside(rel: &str) -> bool {
    let path = Path::new(rel);
    !rel.is_empty()
        && !rel.contains(['\\', ':'])
        && !path.is_absolute()
        && path.components().all(|c| match c {
            Component::Normal(part) => part.to_str().is_some_and(portable_part),
            _ => false,
        })
}

/// A file or folder name Windows keeps as written.
fn portable_part(part: &str) -> bool {
    const DEVICES: &[&str] = &["CON", "PRN", "AUX", "NUL"];
    let stem = part.split('.').next().unwrap_or("").trim_end();
    let device = DEVICES.iter().any(|d| stem.eq_ignore_ascii_case(d))
        || (stem.len() == 4
            && ["COM", "LPT"]
                .iter()
                .any(|d| stem[..3].eq_ignore_ascii_case(d))
            && stem.as_bytes()[3].is_ascii_digit());
    !device && !part.ends_with(['.', ' '])
}

/// The file `rel` names under `root`, once no step of the way is a link.
pub fn path_inside(root: &Path, rel: &str) -> Result<PathBuf, String> {
    if !stays_inside(rel) {
        return Err(format!("\"{rel}\" is outside the pack"));
    }
    let mut at = root.to_path_buf();
    for part in Path::new(rel).components() {
        let written = part.as_os_str().to_str().unwrap_or_default();
        let (listed, twins) = spellings(&at, written);
        at.push(part);
        if let Some(twin) = twins.first() {
            return Err(if listed {
                format!(
                    "\"{written}\" and \"{twin}\" (in \"{rel}\") differ only in case: Windows \
                     and macOS keep one of them (rename one)"
                )
            } else {
                format!(
                    "\"{rel}\" is written \"{written}\" but the file is \"{twin}\": Windows and \
                     macOS would find it, Linux would not (write the name as the file is)"
                )
            });
        }
        match std::fs::symlink_metadata(&at) {
            Ok(meta) if meta.file_type().is_symlink() => {
                return Err(format!(
                    "\"{rel}\" goes through a link: a pack ships its own files, not links"
                ));
            }
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(format!("\"{rel}\" does not exist"));
            }
            Err(e) => return Err(format!("\"{rel}\" cannot be read: {e}")),
        }
    }
    Ok(at)
}

/// Whether the folder `dir` lists `name` as written, and its entries equal to `name` but for
/// case. A pack must read the same on a case-sensitive file system (Linux) and a
/// case-insensitive one (Windows, macOS), so a name is checked against the folder's listing,
/// not only opened.
fn spellings(dir: &Path, name: &str) -> (bool, Vec<String>) {
    let lower = name.to_lowercase();
    let (mut listed, mut twins) = (false, Vec::new());
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let entry = entry.file_name().to_string_lossy().into_owned();
        if entry == name {
            listed = true;
        } else if entry.to_lowercase() == lower {
            twins.push(entry);
        }
    }
    twins.sort();
    (listed, twins)
}

/// Opens `path` for reading without following a final link and without waiting on a FIFO.
fn open_plain(path: &Path) -> std::io::Result<std::fs::File> {
    platform::open_no_follow(path)
}

fn mib(bytes: u64) -> String {
    let m = bytes as f64 / (1024.0 * 1024.0);
    if m >= 1.0 {
        format!("{m:.0} MiB")
    } else {
        format!("{} KiB", bytes / 1024)
    }
}

/// Reads the file at `path` (already checked to be inside the pack), at most `max` bytes.
/// `rel` names it in the sentences.
pub fn read_checked(path: &Path, rel: &str, max: u64) -> Result<Vec<u8>, String> {
    let file = open_plain(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => format!("\"{rel}\" does not exist"),
        _ if is_link_refusal(&e) => {
            format!("\"{rel}\" goes through a link: a pack ships its own files, not links")
        }
        _ => format!("\"{rel}\" cannot be read: {e}"),
    })?;
    let meta = file
        .metadata()
        .map_err(|e| format!("\"{rel}\" cannot be read: {e}"))?;
    if !meta.is_file() {
        return Err(format!("\"{rel}\" is not a regular file"));
    }
    if meta.len() > max {
        return Err(format!(
            "\"{rel}\" is {} (the most a pack file of this kind may be is {})",
            mib(meta.len()),
            mib(max)
        ));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(max + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("\"{rel}\" cannot be read: {e}"))?;
    if bytes.len() as u64 > max {
        return Err(format!("\"{rel}\" grew past {} while read", mib(max)));
    }
    Ok(bytes)
}

/// Whether `e` is the open refusing a link (`ELOOP`, or Windows' reparse point).
fn is_link_refusal(e: &std::io::Error) -> bool {
    platform::is_link_refusal(e)
}

/// Reads the pack-relative file `rel` under `root`, at most `max` bytes (see the module).
pub fn read_inside(root: &Path, rel: &str, max: u64) -> Result<Vec<u8>, String> {
    read_checked(&path_inside(root, rel)?, rel, max)
}

/// As [`read_inside`], as UTF-8 text.
pub fn read_text_inside(root: &Path, rel: &str, max: u64) -> Result<String, String> {
    String::from_utf8(read_inside(root, rel, max)?)
        .map_err(|_| format!("\"{rel}\" is not UTF-8 text"))
}

#[cfg(test)]
mod portable_paths {
    use super::stays_inside;

    #[test]
    fn a_path_reads_the_same_on_every_platform_or_is_refused() {
        for ok in [
            "ui/panels.yaml",
            "assets/map.svg",
            "a/b.c/d",
            "console.png",
            "com10.txt",
        ] {
            assert!(stays_inside(ok), "{ok:?} refused");
        }
        for bad in [
            "ui\\panels.yaml",
            "C:panels.yaml",
            "C:/x",
            "panels.yaml:hidden",
            "CON",
            "assets/con.png",
            "Nul.txt",
            "aux",
            "lpt1.log",
            "COM9",
            "ui/trailing.",
            "ui/trailing ",
            "../x",
            "/etc/passwd",
            "",
        ] {
            assert!(!stays_inside(bad), "{bad:?} accepted");
        }
    }
}

#[cfg(test)]
mod case {
    use super::path_inside;

    #[test]
    fn a_name_must_match_the_files_case_and_no_two_files_differ_by_case_alone() {
        let t = tempfile::tempdir().unwrap();
        std::fs::create_dir(t.path().join("Assets")).unwrap();
        std::fs::write(t.path().join("Assets/Map.svg"), b"<svg/>").unwrap();
        assert!(path_inside(t.path(), "Assets/Map.svg").is_ok());
        // Found on Windows and macOS, not on Linux: refused everywhere, with the file's name.
        let e = path_inside(t.path(), "assets/Map.svg").unwrap_err();
        assert!(e.contains("the file is \"Assets\""), "{e}");
        let e = path_inside(t.path(), "Assets/map.svg").unwrap_err();
        assert!(e.contains("the file is \"Map.svg\""), "{e}");
        // Two files one case-insensitive folder cannot hold.
        std::fs::write(t.path().join("Assets/map.SVG"), b"<svg/>").unwrap();
        if std::fs::read_dir(t.path().join("Assets")).unwrap().count() == 2 {
            let e = path_inside(t.path(), "Assets/Map.svg").unwrap_err();
            assert!(e.contains("differ only in case"), "{e}");
        }
    }
}
