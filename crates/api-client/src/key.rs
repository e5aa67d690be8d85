//! The API key as a secret: it prints as `ch_live_…<redacted>`, cannot be serialised, is read only
//! where the `Authorization` header is built, and its bytes are overwritten with zeros when it is
//! dropped (each clone its own), so a freed key does not linger in the heap.
use std::fmt;
use zeroize::Zeroize;

/// The prefix every key of the service starts with (spec §5.3, facts 1.1).
pub const KEY_PREFIX: &str = "ch_live_";

/// A bearer API key. `Debug` and `Display` never show the secret; there is no `Serialize`; zeroized on
/// drop.
#[derive(Clone, PartialEq, Eq)]
pub struct ApiKey(String);

impl ApiKey {
    /// Takes the secret (trimmed); the string given is zeroized once copied.
    pub fn new(secret: impl Into<String>) -> Self {
        let mut given: String = secret.into();
        let key = ApiKey(given.trim().to_string());
        given.zeroize();
        key
    }

    /// The secret itself. Only the request builder should need it.
    pub fn expose(&self) -> &str {
        &self.0
    }

    /// `true` when the key has the service's `ch_live_` shape; a key without it is still sent (the
    /// server decides), this is for settings screens.
    pub fn looks_valid(&self) -> bool {
        self.0.starts_with(KEY_PREFIX) && self.0.len() > KEY_PREFIX.len()
    }

    fn redacted(&self) -> &'static str {
        if self.0.starts_with(KEY_PREFIX) {
            "ch_live_…<redacted>"
        } else {
            "<redacted>"
        }
    }
}

impl Drop for ApiKey {
    fn drop(&mut self) {
        self.0.zeroize();
    }
}

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ApiKey({})", self.redacted())
    }
}

impl fmt::Display for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.redacted())
    }
}

impl From<String> for ApiKey {
    fn from(s: String) -> Self {
        ApiKey::new(s)
    }
}

impl From<&str> for ApiKey {
    fn from(s: &str) -> Self {
        ApiKey::new(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECRET: &str = "ch_live_abcdefghijklmnopqrstuvwxyz123456";

    #[test]
    fn debug_and_display_never_show_the_secret() {
        let key = ApiKey::new(SECRET);
        let shown = [
            format!("{key}"),
            format!("{key:?}"),
            format!("{key:#?}"),
            format!("{:?}", Some(&key)),
        ];
        for s in shown {
            assert!(!s.contains("abcdefghijklmnop"), "leaked: {s}");
            assert!(s.contains("<redacted>"), "{s}");
        }
        assert_eq!(key.to_string(), "ch_live_…<redacted>");
        assert_eq!(ApiKey::new("other-secret").to_string(), "<redacted>");
        assert_eq!(key.expose(), SECRET);
    }

    #[test]
    fn the_key_is_trimmed_and_its_shape_checked() {
        assert_eq!(ApiKey::new(format!("  {SECRET}\n")).expose(), SECRET);
        assert!(ApiKey::new(SECRET).looks_valid());
        assert!(!ApiKey::new("ch_live_").looks_valid());
        assert!(!ApiKey::new("sk_test").looks_valid());
    }
}
