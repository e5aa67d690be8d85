//! Resource handlers, one per area of the API (octocrab style: `client.cards().get(id)`). Each method is
//! one endpoint; paths and shapes follow docs/api.md and the types in `api-types`.
pub mod account;
pub mod brand_kits;
pub mod inspiration;
pub mod media;
pub mod planner;
pub mod projects;
pub mod studio;

pub use account::{AccountHandler, ModelsHandler, VoicesHandler};
pub use brand_kits::{BrandKitsHandler, KnowledgeHandler, SectionFilter};
pub use inspiration::{InspirationAccountsHandler, InspirationContentHandler, InspirationHandler};
pub use media::MediaHandler;
pub use planner::{
    CardsHandler, ConnectedAccountsHandler, SpacesHandler, StagesHandler, TagsHandler,
};
pub use projects::ProjectsHandler;
pub use studio::StudioHandler;
