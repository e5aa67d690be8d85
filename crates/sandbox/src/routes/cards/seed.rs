//! The demo board (`crates/sandbox/seed/cards.json`) and the extra cards of the board benchmarks.
use super::*;
use serde::Deserialize;
use crate::tables::{board, connected_accounts, inspiration, tags};

#[derive(Deserialize)]
struct DemoBoard {
    cards: Vec<DemoCard>,
    tags: Vec<String>,
}

/// A demo card: `stage` is the index of its stage in the default stages.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct DemoCard {
    title: String,
    platform: String,
    stage: usize,
    content_type: String,
}

fn demo_board() -> DemoBoard {
    serde_json::from_str(include_str!("../../../seed/cards.json")).expect("seed/cards.json is valid (checked by the sandbox's tests)")
}

/// The demo space with its stages and cards (posts with connected accounts and captions, links,
/// inspiration posts, tags, notes, schedules), plus `extra_cards` plain cards over the stages.
pub fn seed_demo(
    conn: &Connection,
    account_id: &str,
    extra_cards: usize,
) -> rusqlite::Result<()> {
    let space_id = board::insert(conn, account_id, board::DEFAULT_SPACE_NAME)?;
    board::ensure_stages(conn, account_id, &space_id)?;
    let stage_ids: Vec<String> = board::in_space(conn, &space_id)?
        .into_iter()
        .map(|s| s.id)
        .collect();
    let mut tag_ids = Vec::new();
    let demo = demo_board();
    for name in &demo.tags {
        let tag = api_types::Tag {
            id: new_id(),
            name: name.to_string(),
        };
        tags::insert(conn, account_id, &tag)?;
        tag_ids.push(tag.id);
    }
    let content = inspiration::content_ids(conn, account_id)?;
    let now = ::time::OffsetDateTime::now_utc();
    let at_nine = |days: i64, hour_offset: i64| {
        let day = (now + ::time::Duration::days(days)).replace_time(::time::Time::MIDNIGHT);
        time::fmt(day + ::time::Duration::hours(9 + hour_offset))
    };
    let created = time::now_str();
    let mut per_stage = vec![0usize; stage_ids.len()];
    for (i, card) in demo.cards.iter().enumerate() {
        let (title, platform, stage, content_type) = (&card.title, &card.platform.as_str(), &card.stage, &card.content_type);
        let id = new_id();
        per_stage[*stage] += 1;
        let order = per_stage[*stage] as f64 * board::ORDER_STEP;
        // Review and Scheduled cards have times ahead; Published ones went out in the past weeks.
        let scheduled = match stage {
            3 if i % 2 == 0 => Some(at_nine(10 + i as i64 % 5, 0)),
            4 => Some(at_nine(1 + (i as i64 - 17) * 2, 0)),
            5 => Some(at_nine(-(3 + (i as i64 - 21) * 6), 0)),
            _ => None,
        };
        let published = (*stage == 5).then(|| scheduled.clone()).flatten();
        let publish_url = published
            .as_ref()
            .map(|_| format!("https://example.com/demostudio/{platform}/{}", &id[..8]));
        let notes = (i % 3 == 0).then(|| {
            format!("## {title}\n\n- Hook in the first 2 seconds\n- Call to action: follow for part 2\n- Check the brand kit's voice section before recording\n")
        });
        conn.execute(
            "INSERT INTO cards (id, account_id, space_id, stage_id, board_order, title, platform, content_type,
                 is_favorite, scheduled_at, published_at, publish_url, notes, revision, created_at, updated_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?15)",
            params![
                id,
                account_id,
                space_id,
                stage_ids[*stage],
                order,
                title,
                platform,
                content_type,
                i % 7 == 0,
                scheduled,
                published,
                publish_url,
                notes,
                if notes.is_some() { 1 } else { 0 },
                created
            ],
        )?;
        // Posts: the card's own platform, and a second one on every third card.
        let mut post_platforms = vec![*platform];
        if i % 3 == 1 {
            post_platforms.push(match *platform {
                "youtube" => "tiktok",
                "instagram" => "facebook",
                "tiktok" => "instagram",
                "linkedin" => "x",
                _ => "general",
            });
        }
        for (n, p) in post_platforms.iter().enumerate() {
            let account = if i % 8 == 5 {
                None
            } else {
                connected_accounts::default_for(conn, account_id, p)?
            };
            let settings = serde_json::json!({
                "caption": format!("{title} — new on the channel. #demostudio"),
                "privacy": "public",
            });
            // A second post scheduled two hours after the card: an own time overriding the card's.
            let own =
                (n == 1 && scheduled.is_some()).then(|| at_nine(1 + (i as i64 - 17).max(0) * 2, 2));
            conn.execute(
                "INSERT INTO card_posts (id, card_id, platform, format, connected_account_id, scheduled_at, status,
                     platform_settings, published_at, sort_order)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
                params![
                    new_id(),
                    id,
                    p,
                    content_type,
                    account,
                    own,
                    if published.is_some() { "published" } else { "draft" },
                    settings.to_string(),
                    published,
                    n as i64
                ],
            )?;
        }
        // Assets: a reference link on even cards, an inspiration post on the early stages.
        let mut sort = 0;
        if i % 2 == 0 {
            let url = format!("https://example.com/refs/{}.jpg", board::slugify(title));
            conn.execute(
                "INSERT INTO card_assets (id, card_id, sort_order, asset_type, asset_url, display_name, preview_url)
                 VALUES (?1, ?2, ?3, 'link', ?4, 'Reference', ?4)",
                params![new_id(), id, sort, url],
            )?;
            sort += 1;
        }
        if *stage <= 2 && !content.is_empty() {
            conn.execute(
                "INSERT INTO card_assets (id, card_id, sort_order, asset_type, content_id)
                 VALUES (?1, ?2, ?3, 'inspiration', ?4)",
                params![new_id(), id, sort, content[i % content.len()]],
            )?;
        }
        for t in [i % tag_ids.len(), (i * 7 + 3) % tag_ids.len()] {
            conn.execute(
                "INSERT OR IGNORE INTO card_tags (card_id, tag_id) VALUES (?1, ?2)",
                params![id, tag_ids[t]],
            )?;
        }
    }
    seed_extra_cards(conn, account_id, &space_id, &stage_ids, extra_cards)
}

/// Plain cards for board benchmarks: one prepared statement, in the seed's transaction. A quarter go to
/// the first stage (a long backlog of ideas: 1,250 of 5,000, for scrolling a 1,000+-card column), the
/// rest round-robin over the other stages.
fn seed_extra_cards(
    conn: &Connection,
    account_id: &str,
    space_id: &str,
    stage_ids: &[String],
    count: usize,
) -> rusqlite::Result<()> {
    if count == 0 || stage_ids.is_empty() {
        return Ok(());
    }
    let now = time::now_str();
    let mut stmt = conn.prepare_cached(
        "INSERT INTO cards (id, account_id, space_id, stage_id, board_order, title, platform, content_type,
             created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 'post', ?8, ?8)",
    )?;
    let platforms: Vec<&str> = PLATFORMS
        .iter()
        .copied()
        .filter(|p| *p != "general")
        .collect();
    let others = stage_ids.len() - 1;
    let mut per_stage = vec![0usize; stage_ids.len()];
    for n in 0..count {
        let stage = if others == 0 || n % 4 == 0 {
            0
        } else {
            1 + (3 * (n / 4) + n % 4 - 1) % others
        };
        // After the demo cards of the stage (fewer than 100 per stage).
        let order = 100.0 * board::ORDER_STEP + per_stage[stage] as f64 * board::ORDER_STEP;
        per_stage[stage] += 1;
        stmt.execute(params![
            new_id(),
            account_id,
            space_id,
            stage_ids[stage],
            order,
            format!("Idea #{}", n + 1),
            platforms[n % platforms.len()],
            now
        ])?;
    }
    Ok(())
}
