//! A card's posts and assets, written as whole lists (spec §4 cards rules 1–7).
use super::*;
use std::collections::HashMap;
use crate::tables::{board, connected_accounts, generations, inspiration, projects};

/// The declarative `posts`: keyed by platform, the list is the new state. A post kept by platform keeps
/// its id and publish record; every field the entry leaves out is cleared.
pub(super) fn write_posts(
    tx: &Connection,
    account: &str,
    card_id: &str,
    posts: &[PostInput],
) -> ApiResult<()> {
    let mut seen: HashMap<&str, usize> = HashMap::new();
    let mut planned = Vec::new();
    for (i, p) in posts.iter().enumerate() {
        let field = format!("posts[{i}]");
        check_platform(&format!("{field}.platform"), &p.platform)?;
        if let Some(j) = seen.insert(p.platform.as_str(), i) {
            return Err(ApiError::bad(
                field.clone(),
                format!("{field} names the platform {:?} again (posts[{j}]); a card has one post per platform", p.platform),
            ));
        }
        // A connected account that is not the caller's is "not found" (404), like any other account's
        // record; one of the caller's for another platform is a 400 naming the field.
        if let Some(ca) = &p.connected_account_id {
            let acct = connected_accounts::find(tx, account, ca)?
                .ok_or_else(|| ApiError::not_found("Connected account"))?;
            if acct.platform.as_deref() != Some(p.platform.as_str()) {
                return Err(ApiError::bad(
                    format!("{field}.connectedAccountId"),
                    format!(
                        "{field}.connectedAccountId is a {} account; this post publishes to {}",
                        acct.platform.unwrap_or_default(),
                        p.platform
                    ),
                ));
            }
        }
        let own = rfc3339(&format!("{field}.scheduledAt"), p.scheduled_at.as_deref())?;
        if let Some(data) = &p.platform_specific_data {
            if !data.is_object() && !data.is_null() {
                return Err(ApiError::bad(
                    format!("{field}.platformSpecificData"),
                    format!("{field}.platformSpecificData must be an object"),
                ));
            }
        }
        planned.push((p, own));
    }
    let keep: Vec<&str> = posts.iter().map(|p| p.platform.as_str()).collect();
    let existing: Vec<String> = {
        let mut stmt = tx.prepare_cached("SELECT platform FROM card_posts WHERE card_id = ?1")?;
        let rows = stmt.query_map([card_id], |r| r.get(0))?;
        rows.collect::<rusqlite::Result<_>>()?
    };
    for platform in existing.iter().filter(|p| !keep.contains(&p.as_str())) {
        tx.execute(
            "DELETE FROM card_posts WHERE card_id = ?1 AND platform = ?2",
            params![card_id, platform],
        )?;
    }
    for (i, (p, own)) in planned.into_iter().enumerate() {
        let settings = p
            .platform_specific_data
            .as_ref()
            .filter(|d| !d.is_null())
            .map(|d| d.to_string());
        if existing.contains(&p.platform) {
            tx.execute(
                "UPDATE card_posts SET format = ?3, connected_account_id = ?4, scheduled_at = ?5, status = ?6,
                     platform_settings = ?7, sort_order = ?8
                 WHERE card_id = ?1 AND platform = ?2",
                params![card_id, p.platform, p.format, p.connected_account_id, own, p.status, settings, i as i64],
            )?;
        } else {
            tx.execute(
                "INSERT INTO card_posts (id, card_id, platform, format, connected_account_id, scheduled_at, status,
                     platform_settings, sort_order)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
                params![new_id(), card_id, p.platform, p.format, p.connected_account_id, own, p.status, settings, i as i64],
            )?;
        }
    }
    Ok(())
}

/// One planned entry of the declarative `assets`.
pub(super) enum AssetPlan {
    /// An asset already on the card, by its id (or by the reference it was attached with).
    Keep {
        id: String,
        display_name: Option<String>,
        metadata: Option<String>,
    },
    New {
        asset_type: String,
        output_id: Option<String>,
        asset_url: Option<String>,
        content_id: Option<String>,
        project_id: Option<String>,
        display_name: Option<String>,
        preview_url: Option<String>,
        metadata: Option<String>,
    },
}

/// The declarative, ordered `assets`: the list is the new carousel. Each entry keeps an asset (`{id}`)
/// or names exactly one reference; an entry whose reference is already on the card keeps that asset.
pub(super) fn write_assets(
    tx: &Connection,
    account: &str,
    cur: &Current,
    entries: &[CardAssetInput],
) -> ApiResult<()> {
    // What each entry points at, for the duplicate rule: ("asset", id), ("file", token or URL),
    // ("content", id), ("project", id). Kept assets count by their own reference too.
    let mut seen: HashMap<(String, String), usize> = HashMap::new();
    let mut plans = Vec::new();
    for (i, e) in entries.iter().enumerate() {
        let field = format!("assets[{i}]");
        // Rule 6: an inspiration post is attached by contentId, never by URL.
        if e.asset_type.as_deref() == Some("inspiration") && e.asset_url.is_some() {
            return Err(ApiError::bad(
                format!("{field}.contentId"),
                format!(
                    "{field}: an inspiration post is attached by contentId (the tracked post's id), not by assetUrl"
                ),
            ));
        }
        // Likewise a project is attached by projectId (fact sheet 3.9: project types as input are refused,
        // naming projectId).
        if e.asset_type.as_deref() == Some("project") && e.project_id.is_none() && e.id.is_none() {
            return Err(ApiError::bad(
                format!("{field}.projectId"),
                format!("{field}: a project is attached by projectId, the project's id"),
            ));
        }
        // Rule 4: exactly one reference.
        let refs = e.references();
        if refs.len() != 1 {
            let named: Vec<&str> = refs.iter().map(|(f, _)| *f).collect();
            return Err(ApiError::bad(
                field.clone(),
                format!(
                    "{field} must name exactly one of id, outputId, assetUrl, contentId, projectId; it names {}",
                    if named.is_empty() { "none".to_string() } else { named.join(" and ") }
                ),
            ));
        }
        let (kind, value) = refs[0];
        let metadata = e.metadata.as_ref().map(|m| m.to_string());
        let same_stored = |pick: &dyn Fn(&StoredAsset) -> Option<&String>| {
            cur.assets
                .iter()
                .find(|s| pick(s).map(String::as_str) == Some(value))
                .map(|s| s.id.clone())
        };
        let (keys, plan) = match kind {
            "id" => {
                let stored = cur.assets.iter().find(|s| s.id == value).ok_or_else(|| {
                    ApiError::bad(
                        field.clone(),
                        format!("{field}: the asset {value:?} is not on this card"),
                    )
                })?;
                (
                    stored_keys(stored),
                    AssetPlan::Keep {
                        id: stored.id.clone(),
                        display_name: e.display_name.clone(),
                        metadata,
                    },
                )
            }
            "outputId" => {
                let out = generations::resolve_output(tx, account, value, &format!("{field}.outputId"))?;
                let token = output_token(&out);
                let keep = same_stored(&|s| s.output_id.as_ref()).or_else(|| {
                    cur.assets
                        .iter()
                        .find(|s| s.output_id.as_deref() == Some(token.as_str()))
                        .map(|s| s.id.clone())
                });
                let plan = match keep {
                    Some(id) => AssetPlan::Keep {
                        id,
                        display_name: e.display_name.clone(),
                        metadata,
                    },
                    None => AssetPlan::New {
                        asset_type: out.content_type.as_str().to_string(),
                        output_id: Some(token.clone()),
                        asset_url: None,
                        content_id: None,
                        project_id: None,
                        display_name: e.display_name.clone(),
                        preview_url: Some(out.url.clone()),
                        metadata,
                    },
                };
                (vec![("file".to_string(), token)], plan)
            }
            "assetUrl" => {
                board::check_url(&format!("{field}.assetUrl"), value)?;
                let plan = match same_stored(&|s| s.asset_url.as_ref()) {
                    Some(id) => AssetPlan::Keep {
                        id,
                        display_name: e.display_name.clone(),
                        metadata,
                    },
                    None => AssetPlan::New {
                        asset_type: "link".into(),
                        output_id: None,
                        asset_url: Some(value.to_string()),
                        content_id: None,
                        project_id: None,
                        display_name: e.display_name.clone(),
                        preview_url: Some(value.to_string()),
                        metadata,
                    },
                };
                (vec![("file".to_string(), value.to_string())], plan)
            }
            "contentId" => {
                // Rule 7: a post the caller cannot see is "not found".
                inspiration::content_for_card(tx, account, value)?
                    .ok_or_else(|| ApiError::not_found("Content"))?;
                let plan = match same_stored(&|s| s.content_id.as_ref()) {
                    Some(id) => AssetPlan::Keep {
                        id,
                        display_name: e.display_name.clone(),
                        metadata,
                    },
                    None => AssetPlan::New {
                        asset_type: "inspiration".into(),
                        output_id: None,
                        asset_url: None,
                        content_id: Some(value.to_string()),
                        project_id: None,
                        display_name: e.display_name.clone(),
                        preview_url: None,
                        metadata,
                    },
                };
                (vec![("content".to_string(), value.to_string())], plan)
            }
            _ => {
                // Rule 7: a project that is not the caller's is "not found".
                projects::find(tx, account, value)?
                    .ok_or_else(|| ApiError::not_found("Project"))?;
                let plan = match same_stored(&|s| s.project_id.as_ref()) {
                    Some(id) => AssetPlan::Keep {
                        id,
                        display_name: e.display_name.clone(),
                        metadata,
                    },
                    None => AssetPlan::New {
                        asset_type: "project".into(),
                        output_id: None,
                        asset_url: None,
                        content_id: None,
                        project_id: Some(value.to_string()),
                        display_name: e.display_name.clone(),
                        preview_url: None,
                        metadata,
                    },
                };
                (vec![("project".to_string(), value.to_string())], plan)
            }
        };
        // Rule 5: the same asset, file, post or project twice.
        let mut keys = keys;
        if let AssetPlan::Keep { id, .. } = &plan {
            keys.push(("asset".to_string(), id.clone()));
        }
        for key in keys {
            if let Some(j) = seen.insert(key.clone(), i) {
                if j != i {
                    return Err(ApiError::bad(
                        field.clone(),
                        format!(
                            "{field} names the same {} as assets[{j}]; each asset appears once",
                            describe(&key.0)
                        ),
                    ));
                }
            }
        }
        plans.push(plan);
    }

    let kept: Vec<&str> = plans
        .iter()
        .filter_map(|p| match p {
            AssetPlan::Keep { id, .. } => Some(id.as_str()),
            AssetPlan::New { .. } => None,
        })
        .collect();
    for stored in cur.assets.iter().filter(|s| !kept.contains(&s.id.as_str())) {
        tx.execute("DELETE FROM card_assets WHERE id = ?1", [&stored.id])?;
    }
    for (i, plan) in plans.into_iter().enumerate() {
        match plan {
            AssetPlan::Keep {
                id,
                display_name,
                metadata,
            } => {
                tx.execute(
                    "UPDATE card_assets SET sort_order = ?2, display_name = COALESCE(?3, display_name),
                         metadata = COALESCE(?4, metadata)
                     WHERE id = ?1",
                    params![id, i as i64, display_name, metadata],
                )?;
            }
            AssetPlan::New {
                asset_type,
                output_id,
                asset_url,
                content_id,
                project_id,
                display_name,
                preview_url,
                metadata,
            } => {
                tx.execute(
                    "INSERT INTO card_assets (id, card_id, sort_order, asset_type, output_id, asset_url, content_id,
                         project_id, display_name, preview_url, metadata)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
                    params![
                        new_id(),
                        cur.id,
                        i as i64,
                        asset_type,
                        output_id,
                        asset_url,
                        content_id,
                        project_id,
                        display_name,
                        preview_url,
                        metadata
                    ],
                )?;
            }
        }
    }
    Ok(())
}

pub(super) fn stored_keys(s: &StoredAsset) -> Vec<(String, String)> {
    let mut keys = Vec::new();
    if let Some(v) = s.output_id.as_ref().or(s.asset_url.as_ref()) {
        keys.push(("file".to_string(), v.clone()));
    }
    if let Some(v) = &s.content_id {
        keys.push(("content".to_string(), v.clone()));
    }
    if let Some(v) = &s.project_id {
        keys.push(("project".to_string(), v.clone()));
    }
    keys
}

pub(super) fn describe(kind: &str) -> &'static str {
    match kind {
        "file" => "file (outputId or assetUrl)",
        "content" => "inspiration post (contentId)",
        "project" => "project (projectId)",
        _ => "asset (id)",
    }
}

/// The canonical token of an output: `<uuid>` for the first, `<uuid>-<N>` for the others.
pub(super) fn output_token(out: &generations::ResolvedOutput) -> String {
    if out.index <= 1 {
        out.output_id.clone()
    } else {
        format!("{}-{}", out.output_id, out.index)
    }
}
