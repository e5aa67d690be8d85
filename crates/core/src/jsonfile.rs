//! The files the core keeps in the data folder, written and read one way (docs/ARCHITECTURE.md, "The
//! files on this computer"):
//! - written atomically: a temp file beside the target (unique per write), its bytes written and synced
//!   (`fsync`), renamed over the target, then the folder synced so the rename itself survives a power
//!   cut. A crash or a full disk at any step leaves the previous file whole; the temp file is removed on
//!   failure, and a full disk says so;
//! - read defensively: "absent = empty"; a file that cannot be read is never written over: it is set
//!   aside as `<name>.damaged-<UTC time>` ([`set_aside`]) and the user told where.
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::error::{IpcError, IpcResult};

/// The file's value; `T::default()` when there is no file. `what` names the contents in errors
/// ("the kept offline changes").
pub(crate) fn read<T: DeserializeOwned + Default>(path: &Path, what: &str) -> IpcResult<T> {
    match std::fs::read(path) {
        Ok(bytes) => serde_json::from_slice(&bytes)
            .map_err(|e| IpcError::internal(format!("{what} ({}) cannot be read: {e}", path.display()))),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(T::default()),
        Err(e) => Err(IpcError::internal(format!("cannot read {}: {e}", path.display()))),
    }
}

/// Writes `value` as pretty JSON to `path` atomically. `what` says what could not be kept.
pub(crate) fn write<T: Serialize>(path: &Path, value: &T, what: &str) -> IpcResult<()> {
    let bytes = serde_json::to_vec_pretty(value).map_err(|e| IpcError::internal(e.to_string()))?;
    write_bytes(path, &bytes).map_err(|e| IpcError::internal(format!("cannot keep {what} in {}: {e}", path.display())))
}

static NEXT_TMP: AtomicU64 = AtomicU64::new(0);

/// Writes `bytes` to `path` atomically: temp file, `fsync`, rename, `fsync` of the folder. The error
/// says "the disk is full" when it is.
pub fn write_bytes(path: &Path, bytes: &[u8]) -> Result<(), String> {
    write_bytes_with_mode(path, bytes, None)
}

/// [`write_bytes`], the file created with Unix permissions `mode` (e.g. `0o600` for a credential file:
/// the temp file has them from its creation, so the bytes are never readable by others, not even
/// before the rename). `None`: the process's default. Ignored where there are no Unix permissions.
pub fn write_bytes_with_mode(path: &Path, bytes: &[u8], mode: Option<u32>) -> Result<(), String> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let tmp = dir.join(format!(".{name}.{}-{}.tmp", std::process::id(), NEXT_TMP.fetch_add(1, Ordering::Relaxed)));
    let written = (|| {
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        if let Some(mode) = mode {
            std::os::unix::fs::OpenOptionsExt::mode(&mut options, mode);
        }
        let mut f = options.open(&tmp)?;
        // Created with at most `mode` (the umask only clears bits); set exactly `mode` before any byte.
        #[cfg(unix)]
        if let Some(mode) = mode {
            f.set_permissions(std::os::unix::fs::PermissionsExt::from_mode(mode))?;
        }
        #[cfg(not(unix))]
        let _ = mode;
        f.write_all(bytes)?;
        f.sync_all()?;
        drop(f);
        std::fs::rename(&tmp, path)?;
        sync_dir(dir)
    })();
    written.map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        describe(&e)
    })
}

/// An I/O error as the user reads it: a full disk is named as such.
pub fn describe(e: &std::io::Error) -> String {
    if e.kind() == std::io::ErrorKind::StorageFull || e.kind() == std::io::ErrorKind::QuotaExceeded {
        format!("the disk is full ({e}); free some space, the previous copy is kept")
    } else {
        e.to_string()
    }
}

/// Makes a rename in `dir` durable (a no-op where folders cannot be opened, e.g. Windows).
fn sync_dir(dir: &Path) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        std::fs::File::open(dir)?.sync_all()
    }
    #[cfg(not(unix))]
    {
        let _ = dir;
        Ok(())
    }
}

/// Now in UTC as `20250131T235959Z` (file names: sorts by time, no `:`).
pub fn utc_stamp() -> String {
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
    let (y, m, d, hh, mm, ss) = utc_civil(secs);
    format!("{y:04}{m:02}{d:02}T{hh:02}{mm:02}{ss:02}Z")
}

/// Seconds since 1970 as UTC year, month, day, hour, minute, second (civil from days, Howard Hinnant's
/// algorithm): the one calendar sum for file stamps here and the CLI's ISO times.
pub fn utc_civil(secs: u64) -> (i64, i64, i64, u64, u64, u64) {
    let (days, rem) = ((secs / 86_400) as i64, secs % 86_400);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d, rem / 3600, rem % 3600 / 60, rem % 60)
}

/// Moves a damaged file out of the way as `<name>.damaged-<UTC time>` (with `-2`, `-3`, … when that
/// name is taken), together with SQLite's `-wal` and `-shm` companions when there are any. Returns
/// where it went.
pub fn set_aside(path: &Path) -> std::io::Result<PathBuf> {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let stamp = utc_stamp();
    let mut to = path.with_file_name(format!("{name}.damaged-{stamp}"));
    let mut n = 2;
    while to.exists() {
        to = path.with_file_name(format!("{name}.damaged-{stamp}-{n}"));
        n += 1;
    }
    std::fs::rename(path, &to)?;
    for companion in ["-wal", "-shm", "-journal"] {
        let from = path.with_file_name(format!("{name}{companion}"));
        if from.exists() {
            let mut side = to.clone().into_os_string();
            side.push(companion);
            let _ = std::fs::rename(&from, PathBuf::from(side));
        }
    }
    if let Some(dir) = path.parent() {
        let _ = sync_dir(dir);
    }
    tracing::warn!(from = %path.display(), to = %to.display(), "damaged file set aside");
    Ok(to)
}

/// What the user is told about a file set aside at start.
pub fn set_aside_notice(what: &str, path: &Path, to: &Path, why: &str) -> String {
    let file = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    format!("{what} ({file}) could not be read ({why}). It was set aside as {} and Content Desk started without it; nothing in it was deleted.", to.display())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stamp_is_utc_and_sortable() {
        let s = utc_stamp();
        assert_eq!(s.len(), 16, "{s}");
        assert!(s.ends_with('Z') && s.as_bytes()[8] == b'T', "{s}");
        assert!(s.as_str() > "20240101T000000Z");
    }

    #[cfg(unix)]
    #[test]
    fn a_file_written_with_a_mode_has_exactly_that_mode_and_replaces_a_wider_one() {
        use std::os::unix::fs::PermissionsExt;
        let dir = std::env::temp_dir().join(format!("cd-jsonfile-{}", uuid::Uuid::new_v4()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("credentials");
        std::fs::write(&p, b"old").unwrap();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o644)).unwrap();
        write_bytes_with_mode(&p, b"secret", Some(0o600)).unwrap();
        assert_eq!(std::fs::metadata(&p).unwrap().permissions().mode() & 0o777, 0o600);
        assert_eq!(std::fs::read(&p).unwrap(), b"secret");
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn writes_leave_no_temp_file_and_set_aside_keeps_companions() {
        let dir = std::env::temp_dir().join(format!("cd-jsonfile-{}", uuid::Uuid::new_v4()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("a.db");
        write_bytes(&p, b"one").unwrap();
        write_bytes(&p, b"two").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"two");
        std::fs::write(dir.join("a.db-wal"), b"w").unwrap();
        let to = set_aside(&p).unwrap();
        assert!(to.file_name().unwrap().to_string_lossy().starts_with("a.db.damaged-"));
        assert!(!p.exists() && !dir.join("a.db-wal").exists());
        let names: Vec<String> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        assert_eq!(names.len(), 2, "the file and its -wal, nothing else (no temp files): {names:?}");
        let _ = std::fs::remove_dir_all(dir);
    }
}
