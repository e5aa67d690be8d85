//! Small shared shapes and the `null`-versus-absent helper.
use serde::{Deserialize, Deserializer, Serialize};
use ts_rs::TS;

/// The base path every endpoint lives under.
pub const API_PREFIX: &str = "/api/v1";

/// Deserialises a field that distinguishes "absent" (`None`) from "null" (`Some(None)`), as the spec era
/// does for `cover_url: null` (remove the cover) or `after_id: null` (move to the far left).
pub fn double_option<'de, D, T>(de: D) -> Result<Option<Option<T>>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    Option::<T>::deserialize(de).map(Some)
}

/// Reads `null` (and absence, with `#[serde(default)]`) as the type's default: for fields the service
/// documents as present but sometimes sends as `null`.
pub fn null_as_default<'de, D, T>(de: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de> + Default,
{
    Option::<T>::deserialize(de).map(Option::unwrap_or_default)
}

/// `{ id, name }` of the space a list belongs to.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ResolvedSpace {
    pub id: String,
    pub name: String,
}

/// A point in percent, used for cover framing.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Position {
    pub x: f64,
    pub y: f64,
}

/// `{ id }`: the reply to a delete.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Deleted {
    pub id: String,
}

crate::value_list! {
    /// Content kinds of media and models.
    ContentType { Image = "image", Video = "video", Audio = "audio" }
}
