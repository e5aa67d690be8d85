//! One entry point for every command by name, so web-shell (and anything else that speaks JSON) calls
//! exactly what the desktop shell calls. Built from the command table (`with_commands!`), like the
//! desktop's handlers, the TypeScript map and the docs.
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

use crate::commands as c;
use crate::error::{IpcCode, IpcError, IpcResult};
use crate::state::AppState;

/// Reads `args` into the command's argument struct; a bad field is a validation error naming it.
fn args<T: DeserializeOwned>(v: Value) -> IpcResult<T> {
    let v = if v.is_null() { Value::Object(Default::default()) } else { v };
    serde_path_to_error::deserialize(v).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner().to_string();
        // serde names a missing field in its message only: lift it into `field`.
        let field = if path == "." {
            inner.split('`').nth(1).map(String::from).unwrap_or_default()
        } else {
            path
        };
        IpcError::validation(field, format!("Invalid arguments: {inner}"))
    })
}

fn out<T: Serialize>(r: IpcResult<T>) -> IpcResult<Value> {
    r.and_then(|v| serde_json::to_value(v).map_err(|e| IpcError::internal(e.to_string())))
}

/// One command as the TypeScript map and the docs show it.
#[derive(Debug, Clone)]
pub struct CommandSignature {
    /// The heading of `docs/ipc.md` it is listed under.
    pub group: &'static str,
    pub name: &'static str,
    /// Its doc lines in the table: the notes column.
    pub notes: String,
    /// The TypeScript name and declaration of its argument type, when it takes one.
    pub args: Option<(String, String)>,
    /// The TypeScript type of its result.
    pub result: String,
    /// Writes the TypeScript files of its argument and result types (and theirs) under `cfg`'s folder.
    pub export: fn(&ts_rs::Config) -> Result<(), ts_rs::ExportError>,
}

fn ts_of<T: ts_rs::TS>(cfg: &ts_rs::Config) -> (String, String) {
    (T::name(cfg), T::decl(cfg))
}

/// Exports `T` when it has a file of its own, else the types it holds (`Vec<Space>` → `Space`; `u32`:
/// nothing).
pub fn export_type<T: ts_rs::TS + 'static>(cfg: &ts_rs::Config) -> Result<(), ts_rs::ExportError> {
    if T::output_path().is_some() {
        return T::export_all(cfg);
    }
    struct Each<'a>(&'a ts_rs::Config, Result<(), ts_rs::ExportError>);
    impl ts_rs::TypeVisitor for Each<'_> {
        fn visit<U: ts_rs::TS + 'static + ?Sized>(&mut self) {
            if self.1.is_ok() && U::output_path().is_some() {
                self.1 = U::export_all(self.0);
            }
        }
    }
    let mut each = Each(cfg, Ok(()));
    T::visit_dependencies(&mut each);
    T::visit_generics(&mut each);
    each.1
}

/// Calls the command function `c::$name` with the state, and its parsed args when it takes some.
macro_rules! call {
    ($state:ident, $a:ident, $name:ident) => {
        c::$name($state).await
    };
    ($state:ident, $a:ident, $name:ident, $args:ty) => {
        c::$name($state, args::<$args>($a)?).await
    };
}

macro_rules! core_ipc {
    ($( $group:literal { $( $(#[doc = $doc:literal])* $name:ident ( $($args:ty)? ) -> $ret:ty ; )* } )*) => {
        /// The commands `dispatch` knows, in the table's order.
        pub const COMMANDS: &[&str] = &[ $($( stringify!($name), )*)* ];

        pub async fn dispatch(state: &AppState, command: &str, a: Value) -> IpcResult<Value> {
            match command {
                $($( stringify!($name) => out(call!(state, a, $name $(, $args)?)), )*)*
                other => Err(IpcError::new(IpcCode::Internal, format!("Unknown command “{other}”."))),
            }
        }

        /// Every command with its TypeScript argument and result types and its notes.
        pub fn signatures(cfg: &ts_rs::Config) -> Vec<CommandSignature> {
            vec![ $($( CommandSignature {
                group: $group,
                name: stringify!($name),
                notes: [$($doc),*].iter().map(|l: &&str| l.trim()).collect::<Vec<_>>().join(" "),
                args: { let _none: Option<(String, String)> = None; $( let _none = Some(ts_of::<$args>(cfg)); )? _none },
                result: <$ret as ts_rs::TS>::name(cfg),
                export: |cfg| {
                    export_type::<$ret>(cfg)?;
                    $( export_type::<$args>(cfg)?; )?
                    Ok(())
                },
            }, )*)* ]
        }
    };
}

crate::with_commands!(core_ipc);
