//! The queries of each table that more than one route needs (spaces and stages, cards, projects, tags,
//! generations, …), out of the handlers: a route module imports these, never another route module. Each
//! file is a module of its own; none imports a route.
pub mod accounts;
pub mod archived;
pub mod board;
pub mod brand_kits;
pub mod cards;
pub mod connected_accounts;
pub mod files;
pub mod generations;
pub mod inspiration;
pub mod knowledge;
pub mod models;
pub mod projects;
pub mod tags;
