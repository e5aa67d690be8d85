//! Uploads and imports as outputs; the demo seed.
use super::*;

/// This resource's part of the demo seed: two finished renders, an image and a video, so the gallery is
/// not empty. Their credits are recorded as the price but not taken from the demo balance.
pub fn seed_demo(
    conn: &rusqlite::Connection,
    account_id: &str,
) -> rusqlite::Result<()> {
    let demos = [
        Plan {
            kind: JobKind::Image,
            source: "creation",
            content_type: ContentType::Image,
            model_id: "nano-banana-2".into(),
            prompt: Some(
                "Flat lay of a creator's desk at sunrise: laptop, notebook, coffee, soft shadows"
                    .into(),
            ),
            text: None,
            aspect_ratio: Some("16:9".into()),
            seconds: None,
            board_type: None,
            num_outputs: 1,
            credits: image_price_per_output("nano-banana-2"),
            request: "{}".into(),
        },
        Plan {
            kind: JobKind::Video,
            source: "creation",
            content_type: ContentType::Video,
            model_id: "veo-3.1-fast".into(),
            prompt: Some("Slow dolly shot across a neon city skyline at dusk, light rain".into()),
            text: None,
            aspect_ratio: Some("9:16".into()),
            seconds: Some(DEFAULT_VIDEO_SECONDS),
            board_type: None,
            num_outputs: 1,
            credits: VIDEO_PRICE_PER_SECOND * DEFAULT_VIDEO_SECONDS,
            request: "{}".into(),
        },
    ];
    for plan in &demos {
        let id = new_id();
        // Due at once, then settled: the same path a real render takes to its files.
        insert_job(conn, &id, account_id, plan, 0)?;
        settle(conn, &id)?;
    }
    Ok(())
}
