//! The media library behind the Studio's gallery (docs/ipc.md, "Studio", `media_library`): the account's
//! finished creations wherever they were made (the sandbox's seeded demo, another client, this app),
//! newest first, one entry per output whose token is the gallery's `<outputId>-<N>`; uploads and
//! unfinished renders left out; type filters, paging and a bad `limit` named; through `ipc::dispatch` too.
mod common;
use api_types::{GenerateRequest, MediaSummary};
use contentdesk_ops::input::Paging;
use common::{app_on, Remote};
use contentdesk_core::commands::{self as c, *};
use contentdesk_core::{ipc, IpcCode};
use serde_json::json;
use std::time::Duration;

fn config() -> sandbox::Config {
    let mut config = sandbox::Config::for_tests();
    config.smart_wait = Duration::from_millis(300);
    config.render.image = Duration::from_millis(50);
    config.render.video = Duration::from_millis(2000);
    config
}

fn tokens(media: &[MediaSummary]) -> Vec<String> {
    media.iter().map(MediaSummary::token).collect()
}

async fn library(app: &contentdesk_core::AppState, args: MediaListInput) -> Vec<MediaSummary> {
    c::media_library(app, args).await.expect("media_library")
}

#[tokio::test]
async fn the_library_holds_renders_made_elsewhere_and_here_newest_first() {
    let remote = Remote::start_with(config()).await;
    let (app, _, _) = app_on(&remote).await;

    // The demo's two seeded renders: never in this app's queue, but in the library.
    assert!(c::studio_jobs(&app).await.unwrap().is_empty());
    let demo = library(&app, Default::default()).await;
    assert_eq!(demo.len(), 2, "{demo:?}");
    assert!(demo.iter().all(|m| m.status == "completed" && m.url.is_some()), "{demo:?}");

    // Made by another client of the same account: two images.
    let elsewhere = remote
        .client()
        .studio()
        .generate(&GenerateRequest {
            model_id: "nano-banana-2".into(),
            prompt: Some("made on the web".into()),
            num_images: Some(2),
            ..Default::default()
        })
        .await
        .unwrap();
    // Made in this app: its gallery token is the library's.
    let form: StudioForm =
        serde_json::from_value(json!({ "media": "image", "modelId": "nano-banana-2", "prompt": "made here" })).unwrap();
    let here = uuid::Uuid::new_v4().to_string();
    let job = c::studio_generate(&app, StudioGenerateArgs { form, output_id: here.clone() }).await.unwrap();
    assert_eq!(job.status, JobStatus::Completed, "{job:?}");

    // Uploads are not creations; a render still under way is not listed yet.
    let png = base64_png();
    c::media_upload(&app, upload("logo.png", "image/png", png))
        .await
        .unwrap();
    let slow = remote
        .client()
        .studio()
        .generate(&GenerateRequest { model_id: "veo-3.1-fast".into(), prompt: Some("slow waves".into()), ..Default::default() })
        .await
        .unwrap();
    assert_eq!(slow.status, api_types::GenerationStatus::Processing);

    let all = library(&app, Default::default()).await;
    let e = &elsewhere.output_id;
    assert_eq!(
        tokens(&all),
        [format!("{here}-1"), format!("{e}-1"), format!("{e}-2"), demo[0].token(), demo[1].token()],
        "newest first, one entry per output"
    );
    assert_eq!(all[0].url.as_deref(), job.output_urls.first().map(String::as_str));
    assert_eq!(all[1].prompt.as_deref(), Some("made on the web"));
    assert_eq!(all[1].variant, 0);
    assert_eq!(all[2].variant, 1);
    assert!(all.iter().all(|m| m.source.as_deref() == Some("creations")));

    // Filters by media type; pages by offset.
    let videos = library(&app, MediaListInput { content_type: Some("video".into()), ..Default::default() }).await;
    assert_eq!(videos.len(), 1);
    assert_eq!(videos[0].r#type, "video");
    let both = MediaListInput { content_type: Some("video,image".into()), ..Default::default() };
    assert_eq!(library(&app, both).await.len(), 5);
    let mut paged = Vec::new();
    for offset in [0, 2, 4] {
        paged.extend(library(&app, MediaListInput { page: Paging::new(Some(2), Some(offset)), ..Default::default() }).await);
    }
    assert_eq!(tokens(&paged), tokens(&all));

    // Once the slow render finishes (nobody in this app polls it), the library has it at the top. Its pace
    // is the sandbox's (`render.video`, 2 s here, so that it is still under way above): its time is
    // brought to now rather than waited for.
    remote
        .state
        .db()
        .lock()
        .execute("UPDATE generations SET ready_at_ms = 0 WHERE id = ?1", [&slow.output_id])
        .unwrap();
    let later = library(&app, MediaListInput { page: Paging::new(Some(1), None), ..Default::default() }).await;
    assert_eq!(tokens(&later), [format!("{}-1", slow.output_id)]);
}

#[tokio::test]
async fn a_bad_limit_is_named_and_dispatch_takes_camel_case_args() {
    let remote = Remote::start_with(config()).await;
    let (app, _, _) = app_on(&remote).await;
    for limit in [0, 101] {
        let e = c::media_library(&app, MediaListInput { page: Paging::new(Some(limit), None), ..Default::default() }).await.unwrap_err();
        assert_eq!(e.code, IpcCode::Validation, "{e:?}");
        assert_eq!(e.field.as_deref(), Some("limit"), "{e:?}");
    }
    assert!(ipc::COMMANDS.contains(&"media_library"));
    let v = ipc::dispatch(&app, "media_library", json!({ "contentType": "image", "limit": 10, "offset": 0 })).await.unwrap();
    let list: Vec<MediaSummary> = serde_json::from_value(v).unwrap();
    assert_eq!(list.len(), 1);
    assert_eq!(list[0].r#type, "image");
    // No args at all: the first page.
    let v = ipc::dispatch(&app, "media_library", serde_json::Value::Null).await.unwrap();
    assert_eq!(v.as_array().unwrap().len(), 2);
    // The catalogue's MediaListInput (as `cdesk media list`): types comma-separated, a field it does not
    // name refused by name (its Paging is flattened, so `Unknown` stands in for deny_unknown_fields).
    let e = ipc::dispatch(&app, "media_library", json!({ "contentType": ["image"] })).await.unwrap_err();
    assert_eq!((e.code, e.field.as_deref()), (IpcCode::Validation, Some("contentType")), "{e:?}");
    let e = ipc::dispatch(&app, "media_library", json!({ "sorce": "uploads" })).await.unwrap_err();
    assert_eq!((e.code, e.field.as_deref()), (IpcCode::Validation, Some("sorce")), "{e:?}");
    assert!(e.message.contains("unknown field `sorce`"), "{}", e.message);
}

/// A 1×1 transparent PNG.
fn base64_png() -> String {
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==".into()
}

fn upload(name: &str, content_type: &str, data: String) -> MediaUploadInput {
    MediaUploadInput { file: None, content_base64: Some(data), content_type: Some(content_type.into()), name: Some(name.into()) }
}
