//! How long each model's renders take, learned from the account's library before this computer has
//! rendered with it: a service that sends no `pollAfterSeconds` would otherwise make the first render of
//! a model wait the kind's default and then grow, finding it done seconds late. At start (and before a
//! render's first wait, whichever comes first, once per profile) the newest finished creations of the
//! library are read (`GET /media`, then each generation's `createdAt`/`completedAt`), and the shortest
//! render time of each model is kept in memory. This computer's own finished renders still come first
//! (`Studio::typical_duration`).
use super::*;
use std::sync::Arc;
use time::format_description::well_known::Rfc3339;
use time::OffsetDateTime;

/// The generations read per model at most, and in all.
const PER_MODEL: usize = 3;
const READS_MAX: usize = 12;
/// The first look lands this long after the expected finish, so it finds the render done rather than
/// racing it (the job's clock starts before the service's).
pub const SEED_MARGIN: Duration = Duration::from_millis(500);

/// One profile's learned durations by model, filled once.
type Cell = Arc<tokio::sync::OnceCell<HashMap<String, Duration>>>;

/// Per profile: the learned durations.
#[derive(Default)]
pub struct Learned {
    cells: Mutex<HashMap<String, Cell>>,
}

impl Learned {
    fn cell(&self, profile: &str) -> Cell {
        self.cells.lock().unwrap_or_else(|e| e.into_inner()).entry(profile.to_string()).or_default().clone()
    }
}

fn ms_between(created: &str, completed: &str) -> Option<u64> {
    let a = OffsetDateTime::parse(created, &Rfc3339).ok()?;
    let b = OffsetDateTime::parse(completed, &Rfc3339).ok()?;
    let ms = (b - a).whole_milliseconds();
    (ms > 0).then_some(ms as u64)
}

/// Reads the library's newest finished creations and their render times, by model (the shortest).
async fn read_library(client: &Client) -> Result<HashMap<String, Duration>, ApiError> {
    let query = api_types::MediaQuery {
        source: Some("creations".into()),
        status: Some("completed".into()),
        limit: Some(50),
        ..Default::default()
    };
    let media = client.media().list(&query).await?.media;
    // One read per generation (a generation lists one row per output), newest first, a few per model.
    let mut picked: Vec<(String, String)> = Vec::new();
    for m in media {
        let Some(model) = m.model.filter(|m| !m.is_empty()) else { continue };
        if picked.iter().any(|(id, _)| *id == m.id) || picked.iter().filter(|(_, x)| *x == model).count() >= PER_MODEL {
            continue;
        }
        picked.push((m.id, model));
        if picked.len() >= READS_MAX {
            break;
        }
    }
    let mut out: HashMap<String, Duration> = HashMap::new();
    for (id, model) in picked {
        let Ok(g) = client.studio().status(&id).await else { continue };
        let (Some(c), Some(d)) = (g.created_at.as_deref(), g.completed_at.as_deref()) else { continue };
        let Some(ms) = ms_between(c, d) else { continue };
        let took = Duration::from_millis(ms);
        out.entry(g.model_id.unwrap_or(model)).and_modify(|t| *t = (*t).min(took)).or_insert(took);
    }
    Ok(out)
}

/// Learns the profile's durations once (a failed read is tried again next time).
pub async fn learn_durations(session: &impl WithStudio, profile: &str) -> IpcResult<usize> {
    let cell = session.studio().learned.cell(profile);
    let got = cell
        .get_or_try_init(|| async {
            let client = session.client_for(profile).await?;
            Ok::<_, IpcError>(read_library(&client).await?)
        })
        .await?;
    Ok(got.len())
}

/// Starts learning every profile's durations in the background (the app's start). The task holds the
/// profile's client and the studio's record only, not the app: a core closed meanwhile is not kept open.
pub async fn learn_at_start(session: &impl WithStudio, profiles: &[String]) {
    for p in profiles {
        let client = match session.client_for(p).await {
            Ok(c) => c,
            Err(e) => {
                tracing::debug!(profile = %p, error = %e.message, "render durations not learned from the library");
                continue;
            }
        };
        let (cell, p) = (session.studio().learned.cell(p), p.clone());
        tokio::spawn(async move {
            if let Err(e) = cell.get_or_try_init(|| read_library(&client)).await {
                tracing::debug!(profile = %p, error = %e, "render durations not learned from the library");
            }
        });
    }
}

/// This model's render time from the library if it was learned already (never reads the library).
pub(super) fn learned_now(session: &impl WithStudio, profile: &str, model_id: &str) -> Option<Duration> {
    session.studio().learned.cell(profile).get()?.get(model_id).copied()
}

/// This model's render time from the library (plus [`SEED_MARGIN`]), learned first if it was not yet.
pub(super) async fn library_duration(session: &impl WithStudio, profile: &str, model_id: &str) -> Option<Duration> {
    learn_durations(session, profile).await.ok()?;
    let cell = session.studio().learned.cell(profile);
    cell.get()?.get(model_id).map(|d| *d + SEED_MARGIN)
}
