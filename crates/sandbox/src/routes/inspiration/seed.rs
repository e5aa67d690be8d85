//! The demo's tracked accounts and their posts, from `crates/sandbox/seed/inspiration.json`.
use super::round;
use crate::db::new_id;
use crate::time;
use rusqlite::{params, Connection};
use serde::Deserialize;

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct DemoSeed {
    accounts: Vec<DemoAccount>,
}

/// A tracked account of the demo and its posts.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct DemoAccount {
    platform: String,
    handle: String,
    name: String,
    followers: i64,
    account_type: String,
    hashtags: Vec<String>,
    posts: Vec<DemoPost>,
}

/// `viewsMultiple`: views as a multiple of the account's typical post; `seconds`: 0 for a still.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct DemoPost {
    title: String,
    content_type: String,
    views_multiple: f64,
    days_ago: i64,
    seconds: f64,
}

fn demo_accounts() -> Vec<DemoAccount> {
    let seed: DemoSeed = serde_json::from_str(include_str!("../../../seed/inspiration.json"))
        .expect("seed/inspiration.json is valid (checked by the sandbox's tests)");
    seed.accounts
}

/// Six tracked inspiration accounts, two brand accounts of the demo's own, and their posts (47). The
/// figures are derived, not random, so every demo file shows the same board: views are the account's
/// typical post times the post's multiple, and the outlier score is that multiple (views over the
/// account's typical views, the way the service scores an outlier).
pub fn seed_demo(
    conn: &rusqlite::Connection,
    account_id: &str,
) -> rusqlite::Result<()> {
    let now = time::now();
    let synced = time::fmt(now - ::time::Duration::hours(2));
    for (ai, acc) in demo_accounts().iter().enumerate() {
        let tracked_id = new_id();
        conn.execute(
            "INSERT INTO tracked_accounts (id, account_id, platform, platform_account_id, handle, name, avatar_url,
                 follower_count, last_synced_at, sync_status, account_type, sort_order, created_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, 'synced', ?10, ?11, ?12)",
            params![
                tracked_id,
                account_id,
                acc.platform,
                format!("{}-{}", acc.platform, acc.handle.trim_start_matches('@').replace('.', "")),
                acc.handle,
                acc.name,
                format!("https://picsum.photos/seed/{}/200/200", acc.handle.trim_start_matches('@')),
                acc.followers,
                synced,
                acc.account_type,
                ai as i64,
                time::now_str(),
            ],
        )?;
        // A typical post reaches a share of the followers; on Instagram a larger one.
        let typical = acc.followers as f64
            * if acc.platform == "youtube" {
                0.09
            } else {
                0.12
            };
        for (pi, post) in acc.posts.iter().enumerate() {
            let (title, content_type, multiple, days_ago, seconds) =
                (&post.title, &post.content_type.as_str(), &post.views_multiple, &post.days_ago, &post.seconds);
            let id = new_id();
            let views = (typical * multiple).round() as i64;
            // Like and comment rates vary a little per post so engagement is not one flat number.
            let like_rate = 0.028 + ((ai * 7 + pi * 5) % 9) as f64 * 0.004;
            let comment_rate = 0.0015 + ((ai * 3 + pi * 11) % 7) as f64 * 0.0004;
            let likes = (views as f64 * like_rate).round() as i64;
            let comments = (views as f64 * comment_rate).round() as i64;
            let shares = (views as f64 * 0.003).round() as i64;
            let engagement = round((likes + comments) as f64 / views.max(1) as f64, 4);
            let outlier = round(*multiple, 2);
            let published = time::fmt(
                now - ::time::Duration::days(*days_ago) - ::time::Duration::hours((pi * 3) as i64),
            );
            let short = id.replace('-', "");
            let url = if acc.platform == "youtube" {
                format!("https://www.youtube.com/watch?v={}", &short[..11])
            } else {
                format!("https://www.instagram.com/p/{}/", &short[..11])
            };
            let (w, h) = if acc.platform == "youtube" && *content_type == "video" {
                (640, 360)
            } else {
                (360, 640)
            };
            let kind = match *content_type {
                "video" => "video",
                "short" => "short",
                "reel" => "reel",
                "carousel" => "carousel",
                _ => "post",
            };
            let description = format!(
                "{title}. A {kind} from {} ({}) on {}: what worked, what we would change, and the steps to \
                 try it yourself this week.",
                acc.name, acc.handle, acc.platform
            );
            let hashtags = serde_json::to_string(&acc.hashtags).unwrap_or_else(|_| "[]".into());
            conn.execute(
                "INSERT INTO tracked_content (id, account_id, tracked_account_id, platform, content_type, title,
                     description, hashtags, url, thumbnail_url, view_count, like_count, comment_count, share_count,
                     duration_seconds, outlier_score, engagement_rate, published_at, added_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19)",
                params![
                    id,
                    account_id,
                    tracked_id,
                    acc.platform,
                    content_type,
                    title,
                    description,
                    hashtags,
                    url,
                    format!("https://picsum.photos/seed/{}/{w}/{h}", &short[..12]),
                    views,
                    likes,
                    comments,
                    shares,
                    (*seconds > 0.0).then_some(*seconds),
                    outlier,
                    engagement,
                    published,
                    time::now_str(),
                ],
            )?;
            if *seconds > 0.0 {
                insert_transcript(conn, &id, title, &description, *seconds)?;
            }
        }
    }
    Ok(())
}

/// A spoken post's transcript: its title, then its description a sentence part at a time, spread evenly
/// over its length (demo data, as the rest of the seed).
fn insert_transcript(conn: &Connection, content_id: &str, title: &str, description: &str, seconds: f64) -> rusqlite::Result<()> {
    let mut lines: Vec<String> = vec![format!("{title}.")];
    lines.extend(description.split([':', ',']).map(|p| p.trim().trim_end_matches('.').to_string()).filter(|p| !p.is_empty()).map(|p| format!("{p}.")));
    let span = (seconds * 1000.0) as i64 / lines.len() as i64;
    let segments: Vec<api_types::TranscriptSegment> = lines
        .into_iter()
        .enumerate()
        .map(|(i, text)| api_types::TranscriptSegment {
            start_ms: i as i64 * span,
            end_ms: (i as i64 + 1) * span,
            text,
            speaker: Some(if i % 2 == 0 { "A" } else { "B" }.to_string()),
        })
        .collect();
    conn.execute(
        "INSERT INTO content_transcripts (content_id, language, segments) VALUES (?1, 'en', ?2)",
        params![content_id, serde_json::to_string(&segments).unwrap_or_else(|_| "[]".into())],
    )?;
    Ok(())
}
