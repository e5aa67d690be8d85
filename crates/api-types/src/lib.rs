//! Wire types of the Content Production Service API v1 (ContentHero), spec era (SDK 0.4.15–0.4.22).
//!
//! One contract, written once: `api-client` reads these, `sandbox` writes them, and the UI imports their
//! generated TypeScript twins (ts-rs). Conventions, chosen in `docs/api.md`:
//! - camelCase on the wire, except the space and stage bodies and queries, which the spec era wrote in
//!   snake_case: those types serialise snake_case and also accept camelCase (`alias`).
//! - Response types are tolerant on read: unknown fields are ignored and lists default to empty.
//! - Request types are strict (`deny_unknown_fields`), so the sandbox can answer an unknown field with a
//!   400 that names it. Optional request fields are left out of the JSON when `None`.

pub mod account;
pub mod brand_kit;
pub mod common;
pub mod error;
pub mod inspiration;
pub mod knowledge;
pub mod media;
pub mod planner;
pub mod projects;
pub mod scopes;
pub mod studio;

pub use account::*;
pub use brand_kit::*;
pub use common::*;
pub use error::*;
pub use inspiration::*;
pub use knowledge::*;
pub use media::*;
pub use planner::*;
pub use projects::*;
pub use studio::*;
