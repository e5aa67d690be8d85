//! Section writes: all or nothing, each against its `expectedVersion`, before anything else in the patch.
use super::*;

/// What one `sections` entry will do, decided before anything is written.
pub(super) enum Planned<'a> {
    Edit {
        row: &'a SectionRow,
        body: Option<String>,
        name: Option<String>,
        width: Option<String>,
        tab: Option<String>,
        place: Option<Place>,
    },
    Add {
        name: String,
        tab: String,
        width: String,
        body: String,
        place: Option<Place>,
    },
}

/// Where an entry puts its section within its tab (the newest era's `Placement`).
#[derive(Clone)]
pub(super) enum Place {
    After(String),
    Before(String),
    Top,
    Bottom,
}

/// At most one of `afterId`, `beforeId`, `position` (`top | bottom`).
fn check_place(w: &SectionWrite, at: &dyn Fn(&str) -> String) -> ApiResult<Option<Place>> {
    let given = [w.after_id.is_some(), w.before_id.is_some(), w.position.is_some()];
    if given.iter().filter(|g| **g).count() > 1 {
        return Err(ApiError::bad(
            at("position"),
            "Give one of `afterId`, `beforeId` or `position`, not several",
        ));
    }
    if let Some(p) = &w.position {
        return match p.as_str() {
            "top" => Ok(Some(Place::Top)),
            "bottom" => Ok(Some(Place::Bottom)),
            _ => Err(invalid(
                &at("position"),
                format!("Unknown position \"{p}\": valid values are {}", SECTION_POSITIONS.join(", ")),
                SECTION_POSITIONS,
            )),
        };
    }
    Ok(w.after_id.clone().map(Place::After).or_else(|| w.before_id.clone().map(Place::Before)))
}

/// Spec §4 rules 1–5: every entry is checked against the current sections first; a single invalid
/// entry is a 400 and a single stale `expectedVersion` a 409 listing every stale entry, and in both
/// cases nothing is written. Runs inside the PATCH's transaction.
pub(super) fn write_sections(tx: &Connection, kit_id: &str, writes: &[SectionWrite]) -> ApiResult<()> {
    let sections = all_sections(tx, kit_id)?;
    let mut seen = HashSet::new();
    let mut planned = Vec::with_capacity(writes.len());
    let mut conflicts = Vec::new();
    for (i, w) in writes.iter().enumerate() {
        let at = |f: &str| format!("sections[{i}].{f}");
        let name = match &w.section_name {
            Some(n) if n.trim().is_empty() => {
                return Err(ApiError::bad(
                    at("sectionName"),
                    "`sectionName` cannot be empty",
                ))
            }
            n => n.as_ref().map(|n| n.trim().to_string()),
        };
        if let Some(width) = &w.width {
            if !WIDTHS.contains(&width.as_str()) {
                return Err(invalid(
                    &at("width"),
                    format!(
                        "Unknown width \"{width}\": valid values are {}",
                        WIDTHS.join(", ")
                    ),
                    WIDTHS,
                ));
            }
        }
        if let Some(tab) = &w.tab {
            if !TABS.contains(&tab.as_str()) {
                return Err(invalid(
                    &at("tab"),
                    format!(
                        "Unknown tab \"{tab}\": valid values are {}",
                        TABS.join(", ")
                    ),
                    TABS,
                ));
            }
        }
        let place = check_place(w, &at)?;
        let Some(key) = &w.key else {
            // Rule 2: an entry without a key adds a section.
            let Some(name) = name else {
                return Err(ApiError::bad(
                    at("sectionName"),
                    "Adding a section (an entry without `key`) needs `sectionName`",
                ));
            };
            let Some(tab) = w.tab.clone() else {
                return Err(invalid(
                    &at("tab"),
                    format!(
                        "Adding a section (an entry without `key`) needs `tab`: one of {}",
                        TABS.join(", ")
                    ),
                    TABS,
                ));
            };
            if w.revert_to.is_some() {
                return Err(ApiError::bad(
                    at("revertTo"),
                    "`revertTo` needs the `key` of an existing section",
                ));
            }
            planned.push(Planned::Add {
                name,
                tab,
                width: w.width.clone().unwrap_or_else(|| "full".into()),
                body: w.body.clone().unwrap_or_default(),
                place,
            });
            continue;
        };
        // Rule 1: an entry with a key edits that section.
        if !seen.insert(key.as_str()) {
            return Err(ApiError::bad(
                at("key"),
                format!("Section `{key}` is named twice; send one entry per section"),
            ));
        }
        let Some(row) = sections.iter().find(|s| &s.key == key) else {
            let valid: Vec<&str> = sections
                .iter()
                .filter(|s| !s.archived)
                .map(|s| s.key.as_str())
                .collect();
            return Err(invalid(
                &at("key"),
                format!(
                    "No section with key `{key}` in this kit; use keys from a `detail=summary` read ({}), or leave \
                     `key` out to add a section",
                    valid.join(", ")
                ),
                &valid,
            ));
        };
        if row.archived {
            return Err(ApiError::bad(
                at("key"),
                format!("Section `{key}` is archived; restore it before editing it"),
            ));
        }
        // Rule 3: an edit says which version it read.
        let Some(expected) = w.expected_version else {
            return Err(ApiError::bad(
                at("expectedVersion"),
                format!(
                    "Editing section `{key}` needs `expectedVersion`: the version you last read (now {})",
                    row.version
                ),
            ));
        };
        let body = match (&w.body, w.revert_to) {
            (Some(_), Some(_)) => {
                return Err(ApiError::bad(
                    at("revertTo"),
                    "Send either `body` or `revertTo`, not both",
                ));
            }
            (Some(b), None) => Some(b.clone()),
            (None, Some(v)) => match revision_body(tx, &row.id, v)? {
                Some(b) => Some(b),
                None => {
                    return Err(ApiError::bad(
                        at("revertTo"),
                        format!(
                            "Section `{key}` has no version {v}; its versions are 1 to {}",
                            row.version
                        ),
                    ))
                }
            },
            (None, None) => None,
        };
        // Rule 5: collect every stale entry so the caller can resolve them all in one go.
        if expected != row.version {
            conflicts.push(SectionConflict {
                key: row.key.clone(),
                version: row.version,
                body: row.body.clone(),
            });
            continue;
        }
        planned.push(Planned::Edit {
            row,
            body,
            name,
            width: w.width.clone(),
            tab: w.tab.clone(),
            place,
        });
    }
    if !conflicts.is_empty() {
        return Err(ApiError::SectionConflict(conflicts));
    }
    let now = time::now_str();
    for (i, p) in planned.into_iter().enumerate() {
        match p {
            Planned::Edit {
                row,
                body,
                name,
                width,
                tab,
                place,
            } => {
                edit_section(tx, row, body, name, width, tab, &now)?;
                if let Some(place) = place {
                    place_section(tx, kit_id, &row.id, &place, i, &now)?;
                }
            }
            Planned::Add {
                name,
                tab,
                width,
                body,
                place,
            } => {
                let id = add_section(
                    tx,
                    kit_id,
                    &new_key(tx, kit_id)?,
                    None,
                    &tab,
                    &name,
                    &width,
                    &body,
                    SOURCE_API,
                    &now,
                )?;
                if let Some(place) = place {
                    place_section(tx, kit_id, &id, &place, i, &now)?;
                }
            }
        }
    }
    Ok(())
}

/// Applies one checked edit. The version moves only when the body changes (spec §9); a rename or a
/// width change keeps it.
pub(super) fn edit_section(
    tx: &Connection,
    row: &SectionRow,
    body: Option<String>,
    name: Option<String>,
    width: Option<String>,
    tab: Option<String>,
    now: &str,
) -> ApiResult<()> {
    let mut changed = false;
    if let Some(body) = body.filter(|b| *b != row.body) {
        let version = row.version + 1;
        tx.execute(
            "UPDATE brand_kit_sections SET body = ?2, version = ?3 WHERE id = ?1",
            params![row.id, body, version],
        )?;
        tx.execute(
            "INSERT INTO brand_kit_section_revisions (section_id, version, body, body_source, created_at)
             VALUES (?1, ?2, ?3, ?4, ?5)",
            params![row.id, version, body, SOURCE_API, now],
        )?;
        changed = true;
    }
    if let Some(name) = name.filter(|n| *n != row.section_name) {
        tx.execute(
            "UPDATE brand_kit_sections SET section_name = ?2 WHERE id = ?1",
            params![row.id, name],
        )?;
        changed = true;
    }
    if let Some(width) = width.filter(|w| *w != row.width) {
        tx.execute(
            "UPDATE brand_kit_sections SET width = ?2 WHERE id = ?1",
            params![row.id, width],
        )?;
        changed = true;
    }
    if let Some(tab) = tab.filter(|t| *t != row.tab) {
        // Moving to another tab puts the section at that tab's end.
        let order = next_sort_order(tx, &row_kit(tx, &row.id)?, &tab)?;
        tx.execute(
            "UPDATE brand_kit_sections SET tab = ?2, sort_order = ?3 WHERE id = ?1",
            params![row.id, tab, order],
        )?;
        changed = true;
    }
    if changed {
        tx.execute(
            "UPDATE brand_kit_sections SET updated_at = ?2 WHERE id = ?1",
            params![row.id, now],
        )?;
    }
    Ok(())
}

/// Puts a section at its place within its (possibly new) tab and numbers the tab's live sections 1..n.
/// A neighbour must be another live section of the same tab.
fn place_section(tx: &Connection, kit_id: &str, id: &str, place: &Place, i: usize, now: &str) -> ApiResult<()> {
    let all = all_sections(tx, kit_id)?;
    let tab = all.iter().find(|s| s.id == id).map(|s| s.tab.clone()).unwrap_or_default();
    let mut order: Vec<&SectionRow> = all.iter().filter(|s| !s.archived && s.tab == tab && s.id != id).collect();
    let neighbour = |field: &str, nid: &str| -> ApiResult<usize> {
        order.iter().position(|s| s.id == nid).ok_or_else(|| {
            let valid: Vec<&str> = order.iter().map(|s| s.id.as_str()).collect();
            invalid(
                &format!("sections[{i}].{field}"),
                format!(
                    "`{nid}` is not another live section of the tab `{tab}`: name a section id from that tab ({})",
                    valid.join(", ")
                ),
                &valid,
            )
        })
    };
    let at = match place {
        Place::Top => 0,
        Place::Bottom => order.len(),
        Place::After(n) => neighbour("afterId", n)? + 1,
        Place::Before(n) => neighbour("beforeId", n)?,
    };
    let me = all.iter().find(|s| s.id == id).expect("the section placed exists");
    order.insert(at, me);
    for (n, s) in order.iter().enumerate() {
        tx.execute(
            "UPDATE brand_kit_sections SET sort_order = ?2 WHERE id = ?1",
            params![s.id, (n + 1) as f64],
        )?;
    }
    tx.execute("UPDATE brand_kit_sections SET updated_at = ?2 WHERE id = ?1", params![id, now])?;
    Ok(())
}

pub(super) fn row_kit(conn: &Connection, section_id: &str) -> ApiResult<String> {
    Ok(conn.cached_row(
        "SELECT brand_kit_id FROM brand_kit_sections WHERE id = ?1",
        [section_id],
        |r| r.get(0),
    )?)
}

pub(super) fn next_sort_order(conn: &Connection, kit_id: &str, tab: &str) -> rusqlite::Result<f64> {
    conn.cached_row(
        "SELECT COALESCE(MAX(sort_order), 0) + 1 FROM brand_kit_sections WHERE brand_kit_id = ?1 AND tab = ?2",
        params![kit_id, tab],
        |r| r.get(0),
    )
}

/// `custom_<short id>`, unique within the kit.
pub(super) fn new_key(conn: &Connection, kit_id: &str) -> rusqlite::Result<String> {
    loop {
        let key = format!("custom_{}", &new_id().replace('-', "")[..8]);
        let taken: Option<i64> = conn
            .cached_row(
                "SELECT 1 FROM brand_kit_sections WHERE brand_kit_id = ?1 AND key = ?2",
                params![kit_id, key],
                |r| r.get(0),
            )
            .optional()?;
        if taken.is_none() {
            return Ok(key);
        }
    }
}

/// Inserts a section at version 1 with its first revision.
#[allow(clippy::too_many_arguments)]
pub(super) fn add_section(
    conn: &Connection,
    kit_id: &str,
    key: &str,
    role: Option<&str>,
    tab: &str,
    name: &str,
    width: &str,
    body: &str,
    source: &str,
    now: &str,
) -> rusqlite::Result<String> {
    let id = new_id();
    let order = next_sort_order(conn, kit_id, tab)?;
    conn.execute(
        "INSERT INTO brand_kit_sections (id, brand_kit_id, key, role, tab, section_name, width, version, body,
             sort_order, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 1, ?8, ?9, ?10)",
        params![id, kit_id, key, role, tab, name, width, body, order, now],
    )?;
    conn.execute(
        "INSERT INTO brand_kit_section_revisions (section_id, version, body, body_source, created_at)
         VALUES (?1, 1, ?2, ?3, ?4)",
        params![id, body, source, now],
    )?;
    Ok(id)
}
