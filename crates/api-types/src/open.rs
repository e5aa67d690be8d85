//! Reading the real service tolerantly and writing to it openly.
//!
//! - [`Open<T>`]: a value from one of the service's value lists. A value this build knows decodes to
//!   `Known(T)`; any other string is kept as `Other(raw)` and shown as-is, so one new model kind or status
//!   never fails a whole reply.
//! - [`Extra`]: the fields of a request body this build has no name for, flattened into the JSON as given.
//!   A user is never blocked on a release when the service adds a field. The sandbox, the strict twin,
//!   parses inside [`strict`], where a non-empty `Extra` is refused as an unknown field (a 400 naming it).
use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Map, Value};
use std::cell::Cell;
use ts_rs::TS;

/// A value of an open value list: known to this build, or kept raw.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(untagged)]
pub enum Open<T> {
    Known(T),
    Other(String),
}

impl<T> Open<T> {
    /// The known value, or `None` for a value this build does not know.
    pub fn known(&self) -> Option<&T> {
        match self {
            Open::Known(t) => Some(t),
            Open::Other(_) => None,
        }
    }
}

impl<T: Copy> Open<T> {
    pub fn get(&self) -> Option<T> {
        self.known().copied()
    }
}

impl<T: ValueList> Open<T> {
    /// The wire value, known or not.
    pub fn as_str(&self) -> &str {
        match self {
            Open::Known(t) => t.as_str(),
            Open::Other(s) => s,
        }
    }

}

impl<T> From<T> for Open<T> {
    fn from(t: T) -> Self {
        Open::Known(t)
    }
}

impl<T: PartialEq> PartialEq<T> for Open<T> {
    fn eq(&self, other: &T) -> bool {
        self.known() == Some(other)
    }
}

impl<T: ValueList> std::fmt::Display for Open<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A closed list of wire values (declared with [`value_list!`](crate::value_list)).
pub trait ValueList: Sized + 'static {
    /// Every value this build knows, in wire spelling.
    const ALL: &'static [&'static str];
    fn as_str(&self) -> &'static str;
}

/// Declares a value list once: the Rust enum, its wire spellings (serde), `ALL` and `as_str`.
/// The TypeScript twin is the ts-rs union of the same spellings; the list itself reaches the UI through
/// `value_lists()`.
#[macro_export]
macro_rules! value_list {
    ($(#[$m:meta])* $name:ident { $($(#[$vm:meta])* $variant:ident = $wire:literal),+ $(,)? }) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize, ts_rs::TS)]
        #[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
        pub enum $name {
            $($(#[$vm])* #[serde(rename = $wire)] $variant),+
        }

        impl $crate::open::ValueList for $name {
            const ALL: &'static [&'static str] = &[$($wire),+];
            fn as_str(&self) -> &'static str {
                match self { $($name::$variant => $wire),+ }
            }
        }

        impl $name {
            pub fn as_str(self) -> &'static str {
                <Self as $crate::open::ValueList>::as_str(&self)
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

thread_local! {
    static STRICT: Cell<bool> = const { Cell::new(false) };
}

/// Runs `parse` with unknown request fields refused: an [`Extra`] with any field fails with serde's
/// "unknown field `name`". The sandbox parses every request body this way (queries have no `extra`).
pub fn strict<R>(parse: impl FnOnce() -> R) -> R {
    struct Reset(bool);
    impl Drop for Reset {
        fn drop(&mut self) {
            STRICT.with(|s| s.set(self.0));
        }
    }
    let _reset = Reset(STRICT.with(|s| s.replace(true)));
    parse()
}

/// Request fields this build does not name, sent as given (`#[serde(flatten)]` on every request body).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(transparent)]
pub struct Extra(pub Map<String, Value>);

impl Extra {
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Adds one field (builder style): `Extra::default().with("newField", json!(1))`.
    pub fn with(mut self, name: impl Into<String>, value: Value) -> Self {
        self.0.insert(name.into(), value);
        self
    }
}

impl<'de> Deserialize<'de> for Extra {
    fn deserialize<D: Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        let map = Map::<String, Value>::deserialize(de)?;
        if STRICT.with(Cell::get) {
            if let Some(name) = map.keys().next() {
                return Err(D::Error::custom(format_args!("unknown field `{name}`")));
            }
        }
        Ok(Extra(map))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    value_list!(Colour { Red = "red", DarkBlue = "dark-blue" });

    #[derive(Debug, Default, PartialEq, Serialize, Deserialize)]
    #[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
    #[serde(rename_all = "camelCase")]
    struct Body {
        name: String,
        #[serde(flatten)]
        extra: Extra,
    }

    #[test]
    fn an_unknown_value_is_kept_raw_and_written_back_as_read() {
        let v: Vec<Open<Colour>> = serde_json::from_str(r#"["red","dark-blue","ultraviolet"]"#).unwrap();
        assert_eq!(v[0], Colour::Red);
        assert_eq!(v[1], Colour::DarkBlue);
        assert_eq!(v[2], Open::Other("ultraviolet".into()));
        assert_eq!(v[2].as_str(), "ultraviolet");
        assert_eq!(serde_json::to_string(&v).unwrap(), r#"["red","dark-blue","ultraviolet"]"#);
        assert_eq!(Colour::ALL, &["red", "dark-blue"]);
        assert_eq!(Colour::DarkBlue.as_str(), "dark-blue");
    }

    #[test]
    fn extra_fields_travel_and_strict_mode_names_them() {
        let body = Body { name: "a".into(), extra: Extra::default().with("newField", serde_json::json!(2)) };
        assert_eq!(serde_json::to_string(&body).unwrap(), r#"{"name":"a","newField":2}"#);
        let read: Body = serde_json::from_str(r#"{"name":"a","newField":2}"#).unwrap();
        assert_eq!(read, body);
        let err = strict(|| serde_json::from_str::<Body>(r#"{"name":"a","newField":2}"#)).unwrap_err();
        assert!(err.to_string().contains("unknown field `newField`"), "{err}");
        // strict mode ends with its scope
        assert!(serde_json::from_str::<Body>(r#"{"name":"a","x":1}"#).is_ok());
    }
}
