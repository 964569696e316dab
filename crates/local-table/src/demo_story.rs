//! Where the demo table finds its story (`story.json`, its pictures, music and pack).
//!
//! Three places, in order: beside an installed binary (`<prefix>/share/loreweaver-studio/demo`,
//! where the Linux packages put it); in a debug build, the source tree, so a developer's edit
//! shows without a rebuild; otherwise the copy compiled into the binary, written out into the
//! demo's own data folder. The last one is why a release binary run from anywhere (the bench's,
//! a portable copy, a platform without `/usr/share`) plays the same opening as an installed one.

use std::io;
use std::path::{Path, PathBuf};

use include_dir::{include_dir, Dir, DirEntry};

/// The repository's `assets/demo`, as it was when this binary was built.
static EMBEDDED: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/../../assets/demo");

/// The demo story folder on disk, outside `data_dir` when one was installed or this is a
/// debug build in a checkout, else `data_dir/story` written from the compiled-in copy.
pub fn locate(data_dir: &Path) -> io::Result<PathBuf> {
    match on_disk() {
        Some(dir) => Ok(dir),
        None => write_embedded(&data_dir.join("story")),
    }
}

/// An installed story, or the source tree's in a debug build.
pub(crate) fn on_disk() -> Option<PathBuf> {
    let installed = std::env::current_exe().ok().and_then(|exe| {
        exe.parent()
            .map(|bin| bin.join("../share/loreweaver-studio/demo"))
    });
    let source = cfg!(debug_assertions)
        .then(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../assets/demo"));
    [installed, source]
        .into_iter()
        .flatten()
        .find(|dir| dir.join("story.json").exists())
}

/// Writes the compiled-in story under `base`; a file already there with the same bytes is left
/// alone, a different one (an older Studio's, or edited) is replaced. Nothing else is removed.
pub(crate) fn write_embedded(base: &Path) -> io::Result<PathBuf> {
    let mut files = vec![];
    collect(&EMBEDDED, &mut files);
    for (rel, bytes) in files {
        let to = base.join(rel);
        if std::fs::read(&to).is_ok_and(|had| had == bytes) {
            continue;
        }
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent)?;
        }
        // Written beside and renamed in, so a table starting now never reads half a file.
        let part = to.with_extension("part");
        std::fs::write(&part, bytes)?;
        std::fs::rename(&part, &to)?;
    }
    Ok(base.to_path_buf())
}

fn collect<'a>(dir: &'a Dir<'a>, out: &mut Vec<(&'a Path, &'a [u8])>) {
    for entry in dir.entries() {
        match entry {
            DirEntry::Dir(d) => collect(d, out),
            DirEntry::File(f) => out.push((f.path(), f.contents())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files_under(root: &Path, dir: &Path, out: &mut Vec<(PathBuf, Vec<u8>)>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                files_under(root, &p, out);
            } else {
                out.push((
                    p.strip_prefix(root).unwrap().into(),
                    std::fs::read(&p).unwrap(),
                ));
            }
        }
        out.sort();
    }

    #[test]
    fn the_written_story_is_the_source_trees_file_for_file() {
        let source = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../assets/demo");
        let tmp = tempfile::tempdir().unwrap();
        let out = write_embedded(&tmp.path().join("story")).unwrap();
        let (mut want, mut got) = (vec![], vec![]);
        files_under(&source, &source, &mut want);
        files_under(&out, &out, &mut got);
        let names = |v: &[(PathBuf, Vec<u8>)]| v.iter().map(|f| f.0.clone()).collect::<Vec<_>>();
        assert_eq!(names(&got), names(&want), "the same files");
        assert!(got == want, "the same bytes in every file");
        assert!(out.join("story.json").exists() && out.join("pack/pack.yaml").exists());
    }

    #[test]
    fn a_changed_file_is_put_back_and_an_untouched_one_is_not_rewritten() {
        let tmp = tempfile::tempdir().unwrap();
        let out = write_embedded(tmp.path()).unwrap();
        let story = out.join("story.json");
        let image = out.join("images/map.svg");
        std::fs::write(&story, b"{}").unwrap();
        let before = std::fs::metadata(&image).unwrap().modified().unwrap();
        std::thread::sleep(std::time::Duration::from_millis(20));
        write_embedded(tmp.path()).unwrap();
        let source = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../assets/demo");
        assert_eq!(
            std::fs::read(&story).unwrap(),
            std::fs::read(source.join("story.json")).unwrap()
        );
        assert_eq!(
            std::fs::metadata(&image).unwrap().modified().unwrap(),
            before
        );
        assert!(!out.join("story.part").exists());
    }
}
