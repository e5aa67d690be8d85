//! The planner: spaces, stages, cards, tags, archive and the connected accounts posts publish to.
mod archive;
mod cards;
mod connected;
mod plan;
mod queue;
mod spaces;
mod stages;
mod tags;

pub use archive::*;
pub use cards::*;
pub use connected::*;
pub use plan::*;
pub use queue::*;
pub use spaces::*;
pub use stages::*;
pub use tags::*;

use crate::OpError;

/// A name as the planner takes it (a space's, a stage's): trimmed, not empty, at most `max` characters;
/// the trimmed name, or a usage error on `field`.
pub fn checked_name(field: &str, what: &str, value: &str, max: usize) -> Result<String, OpError> {
    let v = value.trim();
    if v.is_empty() {
        return Err(OpError::usage(field, format!("Give the {what} a name.")));
    }
    if v.chars().count() > max {
        return Err(OpError::usage(field, format!("The {what}'s name is too long: at most {max} characters.")));
    }
    Ok(v.to_string())
}

/// A platform as the planner takes it: absent or blank is none; else one of the service's platforms, or a
/// usage error on `field` that lists them.
pub fn check_platform(field: &str, platform: Option<&str>) -> Result<(), OpError> {
    match platform.map(str::trim).filter(|p| !p.is_empty()) {
        Some(p) if !api_types::values::PLATFORMS.contains(&p) => Err(OpError::usage(
            field,
            format!("“{p}” is not a platform; use one of {}.", api_types::values::PLATFORMS.join(", ")),
        )),
        _ => Ok(()),
    }
}
