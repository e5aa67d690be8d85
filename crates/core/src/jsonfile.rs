//! Small JSON files the core keeps in the data folder (offline card drafts, brand-kit drafts): read with
//! "absent = empty", written atomically (a temp file synced, then renamed over the old one), so a crash
//! mid-write leaves the previous file, never half of one.
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::path::Path;

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
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let tmp = path.with_file_name(format!("{name}.{}.tmp", std::process::id()));
    let fail = |e: std::io::Error| IpcError::internal(format!("cannot keep {what} in {}: {e}", path.display()));
    let bytes = serde_json::to_vec_pretty(value).map_err(|e| IpcError::internal(e.to_string()))?;
    {
        use std::io::Write;
        let mut f = std::fs::File::create(&tmp).map_err(fail)?;
        f.write_all(&bytes).map_err(fail)?;
        f.sync_all().map_err(fail)?;
    }
    std::fs::rename(&tmp, path).map_err(fail)
}
