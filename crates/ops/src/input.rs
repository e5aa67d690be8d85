//! Helpers for inputs: a JSON argument the shell takes inline or from a file, and the agent side's
//! strict reading (an unknown field is named, not ignored).
use crate::OpError;
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer};
use serde_json::Value;
use std::borrow::Cow;
use std::str::FromStr;

/// A JSON value: inline in the shell (`--posts '[…]'`), or `@path` to read a file (`@-`: stdin); a plain
/// JSON value for agents. Its schema is `T`'s.
#[derive(Debug, Clone, PartialEq)]
pub struct Json<T>(pub T);

impl<T: DeserializeOwned> FromStr for Json<T> {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let text: Cow<str> = match s.strip_prefix('@') {
            Some("-") => {
                let mut buf = String::new();
                std::io::Read::read_to_string(&mut std::io::stdin(), &mut buf).map_err(|e| format!("cannot read stdin: {e}"))?;
                Cow::Owned(buf)
            }
            Some(path) => Cow::Owned(std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?),
            None => Cow::Borrowed(s),
        };
        serde_json::from_str(&text).map(Json).map_err(|e| format!("not the JSON expected: {e}"))
    }
}

impl<T: serde::Serialize> serde::Serialize for Json<T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Json<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        T::deserialize(d).map(Json)
    }
}

impl<T: JsonSchema> JsonSchema for Json<T> {
    fn schema_name() -> Cow<'static, str> {
        T::schema_name()
    }
    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        T::json_schema(generator)
    }
    fn inline_schema() -> bool {
        T::inline_schema()
    }
}

/// An agent's arguments into the input: a field the schema does not list is refused by name (serde's
/// `deny_unknown_fields` does not combine with the flattened groups inputs share).
pub fn from_json<T: DeserializeOwned>(args: Value, schema: &Value) -> Result<T, OpError> {
    let args = if args.is_null() { Value::Object(Default::default()) } else { args };
    let Some(given) = args.as_object() else {
        return Err(OpError::Usage { message: "the arguments must be an object".into(), field: None });
    };
    let none = serde_json::Map::new();
    let known = schema.get("properties").and_then(Value::as_object).unwrap_or(&none);
    {
        if let Some(unknown) = given.keys().find(|k| !known.contains_key(*k)) {
            let mut names: Vec<&str> = known.keys().map(String::as_str).collect();
            names.sort_unstable();
            let takes = if names.is_empty() { "no arguments".to_string() } else { names.join(", ") };
            return Err(OpError::usage(unknown, format!("unknown field `{unknown}`; this tool takes: {takes}")));
        }
    }
    serde_path_to_error::deserialize(args).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner().to_string();
        // A missing field is named by serde in the message; a wrong one by the path.
        let field = if path == "." { inner.split('`').nth(1).map(str::to_string) } else { Some(path.clone()) };
        let message = match &field {
            Some(f) if path != "." => format!("`{f}`: {inner}"),
            _ => inner,
        };
        OpError::Usage { message: format!("invalid arguments: {message}"), field }
    })
}

/// A clap parser that takes one of `values` (a value list declared once in `api-types`).
pub fn one_of(values: impl IntoIterator<Item = &'static str>) -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(values)
}

/// The schema of a value list: a string, one of the values.
fn enum_schema(values: impl IntoIterator<Item = &'static str>) -> schemars::Schema {
    let values: Vec<&str> = values.into_iter().collect();
    schemars::json_schema!({ "type": "string", "enum": values })
}

pub fn content_type_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    enum_schema(<api_types::ContentType as api_types::open::ValueList>::ALL.iter().copied())
}

pub fn platform_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    enum_schema(api_types::values::PLATFORMS.iter().copied())
}

/// A list as an array, or as one comma-separated string (`"voice,audience"`), as agents write both.
pub fn list_or_csv<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Either {
        List(Vec<String>),
        Text(String),
    }
    Ok(match Either::deserialize(d)? {
        Either::List(l) => l,
        Either::Text(t) => t.split(',').map(str::trim).filter(|s| !s.is_empty()).map(str::to_string).collect(),
    })
}

/// A list of ids and objects (Kling elements: a saved element's id, or an object describing one).
pub fn ids_or_objects_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({ "type": "array", "items": { "anyOf": [{ "type": "string" }, { "type": "object" }] } })
}

/// A mode by name or an object (a placement).
pub fn mode_or_object_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({ "anyOf": [{ "type": "string" }, { "type": "object" }] })
}

/// A JSON array of objects (posts, assets, sections): the shape is the API's, checked when decoded.
pub fn objects_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({ "type": "array", "items": { "type": "object" } })
}

/// A field's text as the shell shows it, for a group of fields that operations share with each its own
/// texts (`#[arg(help = input::help(H::TEXT))]` beside `#[schemars(description = H::TEXT)]`): what clap
/// makes of a one-paragraph doc comment (the lines joined, the full stop dropped); no text for `""`.
pub fn help(text: &'static str) -> clap::builder::Resettable<clap::builder::StyledStr> {
    use clap::builder::Resettable;
    if text.is_empty() {
        return Resettable::Reset;
    }
    let line = text.lines().map(str::trim).collect::<Vec<_>>().join(" ");
    let line = match line.strip_suffix('.') {
        Some(short) if !short.ends_with('.') => short.to_string(),
        _ => line,
    };
    Resettable::Value(line.into())
}

/// One page of a list: `--limit` / `limit` and `--offset` / `offset`, with the operation's own text for
/// the limit (the service's default and range differ by list). The app's TypeScript sees it as
/// `{ limit?, offset? }` flattened into the list's input.
#[derive(Debug, Clone, Default, clap::Args, Deserialize, serde::Serialize, JsonSchema, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
#[ts(concrete(H = AnyList))]
pub struct Paging<H: PagingHelp> {
    #[arg(long, help = help(H::LIMIT))]
    #[schemars(description = H::LIMIT)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub limit: Option<u32>,
    /// Skip this many (the next page: offset + limit).
    #[arg(long)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub offset: Option<u32>,
    #[arg(skip)]
    #[serde(skip)]
    #[schemars(skip)]
    #[ts(skip)]
    texts: std::marker::PhantomData<H>,
}

impl<H: PagingHelp> Paging<H> {
    /// A page of `limit` items from `offset`.
    pub fn new(limit: Option<u32>, offset: Option<u32>) -> Self {
        Paging { limit, offset, texts: std::marker::PhantomData }
    }

    /// The rule of a page, checked before anything is sent, in every face: 1 to [`PagingHelp::MAX`] at a time.
    pub fn check(&self) -> Result<(), OpError> {
        match self.limit {
            Some(l) if !(1..=H::MAX).contains(&l) => Err(OpError::usage("limit", format!("Ask for 1 to {} at a time.", H::MAX))),
            _ => Ok(()),
        }
    }
}

/// The fields of an input's JSON that it does not name. An input that flattens a group ([`Paging`]) cannot
/// use serde's `deny_unknown_fields` (it does not combine with `flatten`): it collects the rest here,
/// after its groups, and refuses it by name ([`Unknown::refuse`]) as `deny_unknown_fields` would. Agents'
/// arguments are refused earlier by the schema ([`from_json`]); this is for the app, which reads the
/// input with serde alone.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct Unknown(std::collections::BTreeMap<String, Value>);

impl Unknown {
    /// The first field the input does not name, as a usage error naming it.
    pub fn refuse(&self) -> Result<(), OpError> {
        match self.0.keys().next() {
            Some(field) => Err(OpError::usage(field, format!("Invalid arguments: unknown field `{field}`."))),
            None => Ok(()),
        }
    }
}

/// The text of [`Paging`]'s limit for one list, and the most it takes.
pub trait PagingHelp: Default + Send + Sync + 'static {
    const LIMIT: &str;
    /// The largest `limit` the service takes for this list.
    const MAX: u32 = 100;
}

/// [`Paging`] in the TypeScript bindings, where no list's text is needed.
#[derive(Debug, Clone, Default)]
pub struct AnyList;
impl PagingHelp for AnyList {
    const LIMIT: &str = "";
}

#[cfg(test)]
mod tests {
    #[test]
    fn help_is_what_clap_makes_of_a_doc_comment() {
        let shown = |t: &'static str| match super::help(t) {
            clap::builder::Resettable::Value(s) => Some(s.to_string()),
            clap::builder::Resettable::Reset => None,
        };
        assert_eq!(shown("What to film."), Some("What to film".into()));
        assert_eq!(shown("How long to wait, in seconds (agents wait about 50 s, then return the\noutputId to follow)."), Some("How long to wait, in seconds (agents wait about 50 s, then return the outputId to follow)".into()));
        assert_eq!(shown("And so on..."), Some("And so on...".into()));
        assert_eq!(shown(""), None);
        // What clap's derive showed for `--timeout` when it was a two-line doc comment.
        let e = crate::by_path(&["generate", "image"]).unwrap();
        let timeout = e.command().get_arguments().find(|a| a.get_long() == Some("timeout")).and_then(|a| a.get_help()).map(|h| h.to_string());
        assert_eq!(timeout.as_deref(), Some("How long to keep polling after the submit answered, in seconds, read every 3 s or more (so the wait can end a few seconds later); the submit's own smart-wait (up to about 50 s) comes before it"));
    }

    #[test]
    fn lists_share_paging_each_with_its_own_limit_text() {
        for (path, limit) in [
            (&["media", "list"][..], "At most this many, 1 to 100 (the service's default: 50)."),
            (&["content", "list"], "At most this many (1-100; the service's default is 20)."),
            (&["knowledge", "list"], "At most this many (the service's default: 50)."),
        ] {
            let e = crate::by_path(path).unwrap();
            let schema = e.input_schema();
            assert_eq!(schema["properties"]["limit"]["description"], limit, "{path:?}");
            assert!(schema["properties"]["offset"].is_object(), "{path:?}: offset at the top level");
            let help = |long: &str| e.command().get_arguments().find(|a| a.get_long() == Some(long)).map(|a| a.get_help().map(|h| h.to_string()));
            assert_eq!(help("limit"), Some(Some(limit.trim_end_matches('.').to_string())), "{path:?}");
            assert_eq!(help("offset"), Some(Some("Skip this many (the next page: offset + limit)".to_string())), "{path:?}");
        }
    }
}
