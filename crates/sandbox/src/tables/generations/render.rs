//! Completion: a job whose time has come is settled into its placeholder files (or fails on the marker).
use super::*;

/// Finishes a job whose render time has passed: writes its placeholder files and marks it completed, or,
/// with the failure marker, marks it failed and refunds its credits. Does nothing to a job that is not
/// due. Safe to call from inside a transaction (it uses a savepoint) and from two sandboxes on one file
/// (the status change is conditional, so only one of them writes).
pub fn settle(conn: &Connection, id: &str) -> rusqlite::Result<()> {
    let Some(job) = load_job(conn, id)? else {
        return Ok(());
    };
    if job.status != GenerationStatus::Processing || time::now_ms() < job.ready_at_ms {
        return Ok(());
    }
    let fails = [&job.prompt, &job.text]
        .iter()
        .any(|s| s.as_deref().is_some_and(|s| s.contains(FAIL_MARKER)));
    // Rendering is pure work on the job's own fields: do it before the savepoint.
    let files = if fails { Vec::new() } else { render(&job) };
    conn.execute_batch("SAVEPOINT settle")?;
    let result = (|| -> rusqlite::Result<()> {
        let now = time::now_str();
        if fails {
            let error = format!(
                "The render failed (sandbox: the request carries the test marker {FAIL_MARKER}); its {} credits were refunded",
                job.credits
            );
            let n = conn.execute(
                "UPDATE generations SET status = 'failed', error = ?2, completed_at = ?3 WHERE id = ?1 AND status = 'processing'",
                params![job.id, error, now],
            )?;
            if n == 1 {
                accounts::refund(conn, &job.account_id, job.credits)?;
            }
            return Ok(());
        }
        // Completed when its render time was up, not when it was first looked at after that.
        let n = conn.execute(
            "UPDATE generations SET status = 'completed', completed_at = ?2 WHERE id = ?1 AND status = 'processing'",
            params![job.id, time::fmt_ms(job.ready_at_ms)],
        )?;
        if n == 1 {
            for (i, file) in files.iter().enumerate() {
                let idx = i as u32 + 1;
                let name = format!("{}-{idx}.{}", job.id, file.ext);
                files::store_file(conn, &name, &job.account_id, file.mime, &file.bytes, true)?;
                conn.execute(
                    "INSERT OR REPLACE INTO generation_outputs (output_id, idx, file_name, external_url) VALUES (?1, ?2, ?3, NULL)",
                    params![job.id, idx, name],
                )?;
            }
        }
        Ok(())
    })();
    match result {
        Ok(()) => conn.execute_batch("RELEASE settle"),
        Err(e) => {
            let _ = conn.execute_batch("ROLLBACK TO settle; RELEASE settle");
            Err(e)
        }
    }
}

/// The placeholder files of a job, one per output.
pub fn render(job: &Job) -> Vec<RenderedFile> {
    let n = job.num_outputs;
    let seed = job
        .prompt
        .clone()
        .or_else(|| job.text.clone())
        .unwrap_or_else(|| job.id.clone());
    (1..=n)
        .map(|idx| {
            let label = format!("{} {idx}/{n}", job.model_id);
            match job.kind {
                JobKind::Image | JobKind::ImageUpscale | JobKind::Upload | JobKind::Import => {
                    let (w, h) = media_files::aspect_dims(
                        job.aspect_ratio.as_deref(),
                        media_files::IMAGE_LONG_SIDE,
                    );
                    let mut caption = vec![label];
                    if job.kind == JobKind::ImageUpscale {
                        caption.insert(0, "upscaled".into());
                    }
                    caption.extend(job.prompt.clone());
                    media_files::image_png(w, h, &format!("{seed}#{idx}"), &caption)
                }
                JobKind::Board => {
                    let (w, h) =
                        media_files::aspect_dims(Some("3:4"), media_files::IMAGE_LONG_SIDE);
                    let board = job.board_type.clone().unwrap_or_default();
                    let mut caption = vec![format!("{board} board"), format!("sheet {idx}/{n}")];
                    caption.extend(job.prompt.clone());
                    media_files::image_png(w, h, &format!("{seed}#{idx}"), &caption)
                }
                JobKind::Video | JobKind::VideoUpscale => {
                    media_files::video_mp4(job.aspect_ratio.as_deref())
                }
                // Talking heads are usually vertical.
                JobKind::LipSync => {
                    media_files::video_mp4(Some(job.aspect_ratio.as_deref().unwrap_or("9:16")))
                }
                // Capped so a 5,000-character script does not store a five-minute tone.
                JobKind::Audio => media_files::tone_wav(
                    job.seconds.unwrap_or(5.0).min(MAX_AUDIO_RENDER_SECONDS),
                    &seed,
                ),
            }
        })
        .collect()
}
