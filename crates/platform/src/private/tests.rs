use super::*;

/// Runs on Linux and, through `cargo xtask check-windows`, under Wine.
#[test]
fn a_private_folder_and_the_files_made_in_it_are_the_users_alone() {
    let t = tempfile::tempdir().unwrap();
    let dir = t.path().join("cache").join("media");
    private_dir(&dir).unwrap();
    assert!(
        is_private(&dir).unwrap(),
        "a private folder is reachable by others"
    );
    let file = dir.join("keys.json");
    io::Write::write_all(&mut create_new_private(&file).unwrap(), b"secret").unwrap();
    assert!(
        is_private(&file).unwrap(),
        "a private file is reachable by others"
    );
    assert_eq!(
        create_new_private(&file).unwrap_err().kind(),
        io::ErrorKind::AlreadyExists,
        "a second create must not reuse what is there"
    );
    // Done twice, nothing changes and nothing fails.
    private_dir(&dir).unwrap();
    assert!(is_private(&dir).unwrap());
}

#[test]
fn an_open_folder_and_file_made_before_are_tightened() {
    let t = tempfile::tempdir().unwrap();
    let dir = t.path().join("logs");
    std::fs::create_dir(&dir).unwrap();
    let file = dir.join("studio.log");
    std::fs::write(&file, b"line").unwrap();
    #[cfg(unix)]
    for (path, mode) in [(&dir, 0o755), (&file, 0o644)] {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
    }
    // What a folder made by hand is: open to others (a Unix umask, a Windows inherited ACL).
    assert!(
        !is_private(&dir).unwrap(),
        "a plain folder was called private"
    );
    assert!(
        !is_private(&file).unwrap(),
        "a plain file was called private"
    );
    make_private(&file).unwrap();
    private_dir(&dir).unwrap();
    assert!(is_private(&dir).unwrap());
    assert!(is_private(&file).unwrap());
    assert_eq!(std::fs::read(&file).unwrap(), b"line");
}
