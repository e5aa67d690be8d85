//! The demo's brand kits, from `crates/sandbox/seed/brand-kits.json`: "Demo Studio" (the default, eight
//! filled sections, each with history) and a second, sparse kit.
use super::*;
use serde::Deserialize;

#[derive(Deserialize)]
struct DemoKits {
    kits: Vec<DemoKit>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct DemoKit {
    name: String,
    is_default: bool,
    is_favorited: bool,
    website_urls: Vec<String>,
    sections: Vec<DemoSection>,
}

/// `bodies` oldest first: the first from the website import, the later ones the user's edits.
#[derive(Deserialize)]
struct DemoSection {
    key: String,
    width: String,
    bodies: Vec<String>,
}

fn demo_kits() -> Vec<DemoKit> {
    let kits: DemoKits = serde_json::from_str(include_str!("../../../seed/brand-kits.json"))
        .expect("seed/brand-kits.json is valid (checked by the sandbox's tests)");
    kits.kits
}

/// A kit with its eight starter sections; a section the seed does not list starts empty. Earlier bodies
/// become the section's history; the last is current.
fn seed_kit(conn: &Connection, account_id: &str, kit: &DemoKit) -> rusqlite::Result<String> {
    let kit_id = new_id();
    let now = time::now();
    conn.execute(
        "INSERT INTO brand_kits (id, account_id, name, is_default, is_active, is_favorited, website_urls, created_at,
             updated_at)
         VALUES (?1, ?2, ?3, ?4, 1, ?5, ?6, ?7, ?7)",
        params![
            kit_id,
            account_id,
            kit.name,
            kit.is_default,
            kit.is_favorited,
            serde_json::to_string(&kit.website_urls).unwrap_or_else(|_| "[]".into()),
            time::fmt(now - ::time::Duration::days(60)),
        ],
    )?;
    let empty = [String::new()];
    for (key, tab, default_name) in STARTER_SECTIONS {
        let (width, bodies) = kit
            .sections
            .iter()
            .find(|s| s.key == *key)
            .map(|s| (s.width.as_str(), s.bodies.as_slice()))
            .filter(|(_, b)| !b.is_empty())
            .unwrap_or(("full", &empty));
        let n = bodies.len() as i64;
        // The first body came from the website import; later ones are the user's edits, a few days apart.
        let at = |v: i64| time::fmt(now - ::time::Duration::days(3 * (n - v) + 1));
        let section_id =
            add_section(conn, &kit_id, key, Some(key), tab, default_name, width, &bodies[0], "extraction", &at(1))?;
        for (i, body) in bodies.iter().enumerate().skip(1) {
            let v = i as i64 + 1;
            conn.execute(
                "INSERT INTO brand_kit_section_revisions (section_id, version, body, body_source, created_at)
                 VALUES (?1, ?2, ?3, 'user', ?4)",
                params![section_id, v, body, at(v)],
            )?;
            conn.execute(
                "UPDATE brand_kit_sections SET body = ?2, version = ?3, updated_at = ?4 WHERE id = ?1",
                params![section_id, body, v, at(v)],
            )?;
        }
    }
    Ok(kit_id)
}

/// The demo kits. Runs after the inspiration seed, whose tracked accounts it links to the default kit.
pub fn seed_demo(
    conn: &rusqlite::Connection,
    account_id: &str,
) -> rusqlite::Result<()> {
    for kit in demo_kits() {
        let kit_id = seed_kit(conn, account_id, &kit)?;
        if kit.is_default {
            crate::tables::inspiration::link_to_brand_kit(conn, account_id, &kit_id)?;
        }
    }
    Ok(())
}
