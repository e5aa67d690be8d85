//! The planner: spaces, stages, cards, tags, archive and the connected accounts posts publish to.
mod archive;
mod cards;
mod connected;
mod spaces;
mod stages;
mod tags;

pub use archive::*;
pub use cards::*;
pub use connected::*;
pub use spaces::*;
pub use stages::*;
pub use tags::*;
