//! `cargo xtask icons`: every icon a platform's build needs, made from the one source image
//! (`assets/icon.png`, 512 px) and kept in `src-tauri/icons/`. tauri-build wants `icon.ico` to
//! compile for Windows at all, and the macOS bundle an `.icns`; Linux takes the PNG sizes.
//! The files are kept in the repository (a build must not write into the source tree), and
//! `cargo xtask test` checks that they are what this command makes from the source today.

use std::io::Cursor;
use std::path::{Path, PathBuf};

use image::imageops::FilterType;
use image::{DynamicImage, ImageFormat};

use crate::cmd::root;

/// PNG files by name and size (Tauri's own names for them).
const PNGS: &[(&str, u32)] = &[
    ("32x32.png", 32),
    ("64x64.png", 64),
    ("128x128.png", 128),
    ("128x128@2x.png", 256),
];
/// The sizes Windows picks from (Explorer, taskbar, Alt+Tab, the installer).
const ICO_SIZES: &[u32] = &[16, 24, 32, 48, 64, 128, 256];
/// The sizes Finder and the Dock pick from (each stored as PNG).
const ICNS_SIZES: &[u32] = &[16, 32, 64, 128, 256, 512];

fn source() -> PathBuf {
    root().join("assets/icon.png")
}

fn out_dir() -> PathBuf {
    root().join("src-tauri/icons")
}

/// Every file this command writes, with its bytes.
pub fn make(source: &Path) -> Result<Vec<(String, Vec<u8>)>, String> {
    let img = image::open(source).map_err(|e| format!("{}: {e}", source.display()))?;
    let mut files = vec![(
        "icon.png".to_string(),
        std::fs::read(source).map_err(|e| e.to_string())?,
    )];
    for (name, size) in PNGS {
        files.push((name.to_string(), png(&img, *size)?));
    }
    let mut ico = ico::IconDir::new(ico::ResourceType::Icon);
    for size in ICO_SIZES {
        let rgba = sized(&img, *size).to_rgba8();
        let image = ico::IconImage::from_rgba_data(*size, *size, rgba.into_raw());
        ico.add_entry(ico::IconDirEntry::encode(&image).map_err(|e| format!("ico: {e}"))?);
    }
    let mut bytes = vec![];
    ico.write(&mut bytes).map_err(|e| format!("ico: {e}"))?;
    files.push(("icon.ico".into(), bytes));
    let mut icns = icns::IconFamily::new();
    for size in ICNS_SIZES {
        let rgba = sized(&img, *size).to_rgba8();
        let image = icns::Image::from_data(icns::PixelFormat::RGBA, *size, *size, rgba.into_raw())
            .map_err(|e| format!("icns: {e}"))?;
        icns.add_icon(&image)
            .map_err(|e| format!("icns {size}: {e}"))?;
    }
    let mut bytes = vec![];
    icns.write(&mut bytes).map_err(|e| format!("icns: {e}"))?;
    files.push(("icon.icns".into(), bytes));
    Ok(files)
}

fn sized(img: &DynamicImage, size: u32) -> DynamicImage {
    if img.width() == size && img.height() == size {
        img.clone()
    } else {
        img.resize_exact(size, size, FilterType::Lanczos3)
    }
}

fn png(img: &DynamicImage, size: u32) -> Result<Vec<u8>, String> {
    let mut out = Cursor::new(vec![]);
    sized(img, size)
        .write_to(&mut out, ImageFormat::Png)
        .map_err(|e| format!("png {size}: {e}"))?;
    Ok(out.into_inner())
}

/// `cargo xtask icons`: writes them.
pub fn write() -> Result<(), String> {
    for (name, bytes) in make(&source())? {
        let to = out_dir().join(&name);
        std::fs::write(&to, &bytes).map_err(|e| format!("{}: {e}", to.display()))?;
        eprintln!("icons: {} ({} bytes)", to.display(), bytes.len());
    }
    Ok(())
}

/// The icons kept in the repository that are missing or not what `write` would make now.
pub fn stale() -> Result<Vec<String>, String> {
    Ok(make(&source())?
        .into_iter()
        .filter(|(name, bytes)| std::fs::read(out_dir().join(name)).ok().as_ref() != Some(bytes))
        .map(|(name, _)| name)
        .collect())
}

/// For `cargo xtask test`: an error naming each stale icon and the command that mends it.
pub fn check() -> Result<(), String> {
    match stale()? {
        s if s.is_empty() => Ok(()),
        s => Err(format!(
            "src-tauri/icons is not what assets/icon.png makes ({}): run `cargo xtask icons`",
            s.join(", ")
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_platforms_file_reads_back_with_every_size() {
        let files = make(&source()).unwrap();
        let get = |n: &str| files.iter().find(|f| f.0 == n).unwrap().1.clone();
        let ico = ico::IconDir::read(Cursor::new(get("icon.ico"))).unwrap();
        let sizes: Vec<u32> = ico.entries().iter().map(|e| e.width()).collect();
        assert_eq!(sizes, ICO_SIZES);
        let icns = icns::IconFamily::read(Cursor::new(get("icon.icns"))).unwrap();
        assert_eq!(icns.available_icons().len(), ICNS_SIZES.len());
        for (name, size) in PNGS {
            let img = image::load_from_memory(&get(name)).unwrap();
            assert_eq!((img.width(), img.height()), (*size, *size), "{name}");
        }
    }

    #[test]
    fn the_kept_icons_are_what_the_source_makes() {
        assert_eq!(
            stale().unwrap(),
            Vec::<String>::new(),
            "run `cargo xtask icons`"
        );
    }
}
