//! Wire types of the Content Production Service API v1 (ContentHero), spec era (SDK 0.4.15–0.4.22).
//!
//! One contract, written once: `api-client` reads these, `sandbox` writes them, and the UI imports their
//! generated TypeScript twins (ts-rs). Conventions, chosen in `docs/api.md`:
//! - camelCase on the wire, except the space and stage bodies and queries, which the spec era wrote in
//!   snake_case: those types serialise snake_case and also accept camelCase (`alias`).
//! - Response types are tolerant on read: unknown fields are ignored, lists default to empty, optional
//!   fields are optional, and value lists are [`Open`]: a value this build does not know is kept raw.
//! - Request bodies are open on write: every documented field has a name, and `extra` ([`Extra`], flattened)
//!   carries fields the service adds later. The sandbox parses them inside [`open::strict`], so a field
//!   nobody documented is still a 400 that names it. Optional request fields are left out when `None`.
//! - Value lists are declared once ([`value_list!`] enums, or the constants in [`values`]) and reach the UI
//!   through the generated bindings.

pub mod account;
pub mod brand_kit;
pub mod common;
pub mod error;
pub mod inspiration;
pub mod knowledge;
pub mod media;
pub mod models;
pub mod open;
pub mod planner;
pub mod preflight;
pub mod previews;
pub mod projects;
pub mod scopes;
pub mod studio;
pub mod values;

pub use account::*;
pub use brand_kit::*;
pub use common::*;
pub use error::*;
pub use inspiration::*;
pub use knowledge::*;
pub use media::*;
pub use models::*;
pub use open::{Extra, Open, ValueList};
pub use planner::*;
pub use projects::*;
pub use studio::*;
pub use values::*;
