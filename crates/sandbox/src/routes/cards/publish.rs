//! Publishing a card now: each platform answers on its own.
use super::*;
use crate::tables::connected_accounts;

// ---------- publish ----------

/// `POST /cards/{id}/publish` (`publish:write`, checked by the gate). Publishes now through each post's
/// connected account: the sandbox records a successful post with a URL on that account's profile; a post
/// with no (usable) connected account fails with a message saying so. The body `{platform?}` is optional.
pub(crate) async fn publish(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    req: Request,
) -> ApiResult<Json<PublishResult>> {
    let bytes = read_body(req, &state).await?;
    let body: PublishRequest = if bytes.iter().all(u8::is_ascii_whitespace) {
        PublishRequest::default()
    } else {
        parse_json(&bytes)?
    };
    let result = state.db().tx(|tx| {
        let account = &caller.account_id;
        load_current(tx, account, &id)?;
        if let Some(p) = &body.platform {
            check_platform("platform", p)?;
        }
        let posts: Vec<(String, String, Option<String>)> = {
            let mut stmt = tx.prepare_cached(
                "SELECT id, platform, connected_account_id FROM card_posts WHERE card_id = ?1 ORDER BY sort_order",
            )?;
            let rows = stmt.query_map([&id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
            rows.collect::<rusqlite::Result<Vec<_>>>()?
        }
        .into_iter()
        .filter(|(_, platform, _)| body.platform.as_ref().is_none_or(|p| p == platform))
        .collect();
        if posts.is_empty() {
            return Err(match &body.platform {
                Some(p) => ApiError::bad("platform", format!("The card has no {p} post to publish")),
                None => ApiError::bad("posts", "The card has no posts to publish; add one per platform first"),
            });
        }
        let now = time::now_str();
        let mut results = Vec::new();
        for (post_id, platform, ca) in posts {
            let acct = match &ca {
                Some(ca) => connected_accounts::find(tx, account, ca)?,
                None => None,
            };
            let usable = acct.filter(|a| a.connection_status.as_deref() == Some("connected"));
            match usable {
                Some(a) => {
                    let base = a.account_url.unwrap_or_else(|| format!("https://{platform}.example"));
                    let url = format!("{}/posts/{}", base.trim_end_matches('/'), &post_id[..8]);
                    tx.execute(
                        "UPDATE card_posts SET status = 'published', published_at = ?2, publish_url = ?3 WHERE id = ?1",
                        params![post_id, now, url],
                    )?;
                    results.push(PublishOutcome {
                        success: true,
                        platform,
                        post_id: Some(post_id),
                        url: Some(url),
                        error: None,
                    });
                }
                None => {
                    tx.execute("UPDATE card_posts SET status = 'failed' WHERE id = ?1", [&post_id])?;
                    let error = if ca.is_some() {
                        format!("The {platform} post's connected account is gone or disconnected; reconnect it in the app")
                    } else {
                        format!("The {platform} post has no connected account; set connectedAccountId on the post")
                    };
                    results.push(PublishOutcome {
                        success: false,
                        platform,
                        post_id: Some(post_id),
                        url: None,
                        error: Some(error),
                    });
                }
            }
        }
        let published = results.iter().filter(|r| r.success).count() as i64;
        if let Some(first) = results.iter().find(|r| r.success) {
            tx.execute(
                "UPDATE cards SET published_at = ?2, publish_url = COALESCE(publish_url, ?3), updated_at = ?2 WHERE id = ?1",
                params![id, now, first.url],
            )?;
        }
        Ok::<_, ApiError>(PublishResult {
            card_id: id.clone(),
            failed_count: results.len() as i64 - published,
            published_count: published,
            results,
        })
    })?;
    Ok(Json(result))
}
