//! Uploads and imports as outputs; the demo seed.
use super::*;

/// Records an upload or import as a finished output of its account (index 1), so output tokens, cards
/// and `GET /studio/generate/{id}` find it. `file_name` is a stored file; `external_url` an import kept
/// by URL only.
#[allow(clippy::too_many_arguments)]
pub(crate) fn record_media_output(
    conn: &Connection,
    id: &str,
    account_id: &str,
    imported: bool,
    content_type: ContentType,
    label: &str,
    file_name: Option<&str>,
    external_url: Option<&str>,
) -> rusqlite::Result<()> {
    let (kind, source) = if imported {
        (JobKind::Import, "import")
    } else {
        (JobKind::Upload, "upload")
    };
    let now = time::now_str();
    conn.execute(
        "INSERT INTO generations (id, account_id, source, job_kind, content_type, model_id, prompt, num_outputs, request,
             status, credits, ready_at_ms, created_at, completed_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?3, ?6, 1, '{}', 'completed', 0, ?7, ?8, ?8)",
        params![id, account_id, source, kind.as_str(), content_type_str(content_type), label, time::now_ms(), now],
    )?;
    conn.execute(
        "INSERT INTO generation_outputs (output_id, idx, file_name, external_url) VALUES (?1, 1, ?2, ?3)",
        params![id, file_name, external_url],
    )?;
    Ok(())
}

/// This resource's part of the demo seed: two finished renders, an image and a video, so the gallery is
/// not empty. Their credits are recorded as the price but not taken from the demo balance.
pub fn seed_demo(
    conn: &rusqlite::Connection,
    account_id: &str,
    _opts: &crate::seed::DemoOptions,
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
