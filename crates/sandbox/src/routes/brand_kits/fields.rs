//! The kit's other fields on a PATCH (name, websites, colours, typography, logos, accounts, default, archive).
use super::*;

/// The PATCH's other fields, applied after the sections (spec §4 rule 4).
pub(super) fn write_kit_fields(
    tx: &Connection,
    account_id: &str,
    kit_id: &str,
    patch: &UpdateBrandKit,
) -> ApiResult<()> {
    let now = time::now_str();
    if let Some(name) = &patch.name {
        let name = name.trim();
        if name.is_empty() {
            return Err(ApiError::bad("name", "`name` cannot be empty"));
        }
        tx.execute(
            "UPDATE brand_kits SET name = ?2, updated_at = ?3 WHERE id = ?1",
            params![kit_id, name, now],
        )?;
    }
    if let Some(urls) = &patch.website_urls {
        let mut kept: Vec<String> = Vec::new();
        for (i, url) in urls.iter().enumerate() {
            let url = url.trim();
            if !(url.starts_with("https://") || url.starts_with("http://")) || url.len() < 11 {
                return Err(ApiError::bad(
                    format!("websiteUrls[{i}]"),
                    format!("\"{url}\" is not an http(s) URL"),
                ));
            }
            if !kept.iter().any(|k| k == url) {
                kept.push(url.to_string());
            }
        }
        let json = serde_json::to_string(&kept).map_err(ApiError::internal)?;
        tx.execute(
            "UPDATE brand_kits SET website_urls = ?2, updated_at = ?3 WHERE id = ?1",
            params![kit_id, json, now],
        )?;
    }
    if let Some(colors) = &patch.brand_colors {
        for (i, c) in colors.iter().enumerate() {
            let hex = c.hex.trim_start_matches('#');
            if !c.hex.starts_with('#') || hex.len() != 6 || !hex.chars().all(|ch| ch.is_ascii_hexdigit()) {
                return Err(ApiError::bad(format!("brandColors[{i}].hex"), format!("\"{}\" is not a #RRGGBB colour", c.hex)));
            }
            if let Some(role) = &c.role {
                if !COLOR_ROLES.contains(&role.as_str()) {
                    return Err(ApiError::not_one_of(format!("brandColors[{i}].role"), role, COLOR_ROLES));
                }
            }
        }
        let json = serde_json::to_string(colors).map_err(ApiError::internal)?;
        tx.execute("UPDATE brand_kits SET brand_colors = ?2, updated_at = ?3 WHERE id = ?1", params![kit_id, json, now])?;
    }
    if let Some(typography) = &patch.typography {
        // Merges: a font left out keeps its value; `null` clears the whole typography.
        let old = kit_row(tx, account_id, kit_id)?.typography.unwrap_or_default();
        let merged = typography.as_ref().map(|t| {
            Typography {
                title_font: t.title_font.clone().or(old.title_font),
                body_font: t.body_font.clone().or(old.body_font),
            }
        });
        let json = merged.map(|t| serde_json::to_string(&t)).transpose().map_err(ApiError::internal)?;
        tx.execute("UPDATE brand_kits SET typography = ?2, updated_at = ?3 WHERE id = ?1", params![kit_id, json, now])?;
    }
    if let Some(assets) = &patch.assets {
        check_logos("assets", assets)?;
    }
    if let Some(logos) = &patch.logos {
        check_logos("logos", logos)?;
        let json = serde_json::to_string(logos).map_err(ApiError::internal)?;
        tx.execute("UPDATE brand_kits SET logos = ?2, updated_at = ?3 WHERE id = ?1", params![kit_id, json, now])?;
    }
    for (field, list) in [("brandAccounts", &patch.brand_accounts), ("inspirationAccounts", &patch.inspiration_accounts)] {
        for (i, entry) in list.iter().flatten().enumerate() {
            let ok = match entry {
                serde_json::Value::String(id) => !id.trim().is_empty(),
                serde_json::Value::Object(o) => o.get("handleOrUrl").and_then(|h| h.as_str()).is_some_and(|h| !h.trim().is_empty()),
                _ => false,
            };
            if !ok {
                return Err(ApiError::bad(
                    format!("{field}[{i}]"),
                    format!("`{field}[{i}]` must be a tracked-account id or `{{ \"platform\"?, \"handleOrUrl\" }}`"),
                ));
            }
        }
    }
    for (field, account_type, list) in
        [("brandAccounts", "brand", &patch.brand_accounts), ("inspirationAccounts", "inspiration", &patch.inspiration_accounts)]
    {
        if let Some(entries) = list {
            crate::tables::inspiration::set_kit_accounts(tx, account_id, kit_id, (field, account_type), entries, &now)?;
        }
    }
    if patch.extract == Some(true) && kit_row(tx, account_id, kit_id)?.website_urls.is_empty() {
        return Err(ApiError::bad("extract", "`extract` imports from the kit's first website; add one to `websiteUrls` first"));
    }
    match patch.archive {
        Some(true) => {
            tx.execute("UPDATE brand_kits SET is_archived = 1, updated_at = ?2 WHERE id = ?1", params![kit_id, now])?;
        }
        Some(false) => {
            return Err(ApiError::bad("archive", "`archive` can only be true; restore a kit with POST /archive and `archived: false`"))
        }
        None => {}
    }
    match patch.is_default {
        Some(true) => {
            tx.execute(
                "UPDATE brand_kits SET is_default = 0 WHERE account_id = ?1",
                [account_id],
            )?;
            tx.execute(
                "UPDATE brand_kits SET is_default = 1, updated_at = ?2 WHERE id = ?1",
                params![kit_id, now],
            )?;
        }
        Some(false) => {
            return Err(ApiError::bad(
                "isDefault",
                "`isDefault` can only be set to true; make another kit the default instead",
            ))
        }
        None => {}
    }
    Ok(())
}

/// A logo or asset entry names exactly one of `url` (http or https) or `outputId`; `layout` and `colorMode`
/// take the service's values.
pub(super) fn check_logos(field: &str, logos: &[LogoInput]) -> ApiResult<()> {
    const LAYOUTS: &[&str] = &["horizontal", "stacked", "icon", "wordmark"];
    const COLOR_MODES: &[&str] = &["full_color", "light", "dark", "grayscale"];
    for (i, l) in logos.iter().enumerate() {
        match (&l.url, &l.output_id) {
            (Some(u), None) if u.starts_with("https://") || u.starts_with("http://") => {}
            (Some(u), None) => return Err(ApiError::bad(format!("{field}[{i}].url"), format!("\"{u}\" is not an http(s) URL"))),
            (None, Some(_)) => {}
            _ => return Err(ApiError::bad(format!("{field}[{i}]"), format!("`{field}[{i}]` needs exactly one of `url` or `outputId`"))),
        }
        for (name, value, valid) in [("layout", &l.layout, LAYOUTS), ("colorMode", &l.color_mode, COLOR_MODES)] {
            if let Some(v) = value {
                if !valid.contains(&v.as_str()) {
                    return Err(ApiError::not_one_of(format!("{field}[{i}].{name}"), v, valid));
                }
            }
        }
    }
    Ok(())
}
