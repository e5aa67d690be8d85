//! The media library's commands as a separate process against the real sandbox: a file uploaded (its
//! bytes arrive whole, its progress is said with --verbose) shows in `media list`; an import by URL is
//! idempotent; a missing file and a key without `assets:write` are refused with their exit codes.
mod desk;
use contentdesk_sandbox::testing::TestSandbox;
use desk::*;
use serde_json::Value;

fn items(list: &Value) -> Vec<Value> {
    list.as_array().unwrap_or_else(|| panic!("a media list: {list}")).clone()
}

#[tokio::test(flavor = "multi_thread")]
async fn an_uploaded_file_arrives_whole_and_is_listed() {
    let sb = TestSandbox::start().await;
    let desk = Desk::new(&sb);
    // 200 KB, several chunks of the PUT.
    let bytes: Vec<u8> = [&b"\x89PNG\r\n\x1a\n"[..], &(0..200_000u32).map(|i| (i % 241) as u8).collect::<Vec<_>>()].concat();
    let file = desk.path("cover.png");
    std::fs::write(&file, &bytes).unwrap();

    let up = desk.run(&["media", "upload", file.to_str().unwrap()]).await.ok();
    let id = up["outputId"].as_str().unwrap_or_else(|| panic!("{up}")).to_string();
    let url = up["url"].as_str().unwrap().to_string();
    assert_eq!(stored_bytes(&sb, &url), bytes, "the sandbox holds the file's bytes");

    let list = desk.run(&["media", "list", "--source", "uploads"]).await.ok();
    let item = items(&list).into_iter().find(|m| m["id"] == id.as_str()).unwrap_or_else(|| panic!("{list}"));
    assert_eq!(item["fileName"], "cover.png");
    assert_eq!(item["type"], "image", "the type guessed from .png");
    assert_eq!(item["url"], url.as_str());
    assert_eq!(item["source"], "uploads");
    // The default list is renders only; a type filter that excludes it leaves it out.
    assert!(items(&desk.run(&["media", "list"]).await.ok()).iter().all(|m| m["id"] != id.as_str()));
    assert!(items(&desk.run(&["media", "list", "--source", "uploads", "--type", "video"]).await.ok()).iter().all(|m| m["id"] != id.as_str()));

    // A name and type of the caller's choosing; the progress of the bytes said with --verbose.
    let clip = desk.path("raw.bin");
    std::fs::write(&clip, vec![7u8; 150_000]).unwrap();
    let r = desk.run(&["media", "upload", clip.to_str().unwrap(), "--name", "intro.mp4", "--content-type", "video/mp4", "--verbose"]).await;
    let named = r.json();
    assert!(r.stderr.contains("uploaded 150 KB of 150 KB · 100 %"), "progress: {}", r.stderr);
    assert!(r.stderr.contains("uploaded 66 KB of 150 KB"), "chunk by chunk: {}", r.stderr);
    let list = desk.run(&["media", "list", "--source", "uploads", "--type", "video"]).await.ok();
    let item = items(&list).into_iter().find(|m| m["id"] == named["outputId"]).unwrap_or_else(|| panic!("{list}"));
    assert_eq!((item["fileName"].as_str(), item["type"].as_str()), (Some("intro.mp4"), Some("video")));
    // The upload is an output: it references like a render.
    let q = desk.run(&["upscale", &id, "--cost"]).await.ok();
    assert_eq!(q["modelId"], "topaz-image-upscale", "{q}");
}

#[tokio::test(flavor = "multi_thread")]
async fn an_import_is_idempotent_and_refusals_have_their_exit_codes() {
    let sb = TestSandbox::start().await;
    let desk = Desk::new(&sb);
    let url = "data:text/plain;base64,SGVsbG8sIGxpYnJhcnk=";
    let first = desk.run(&["media", "import", url, "--name", "hello.txt", "--content-type", "image/png"]).await.ok();
    let id = first["outputId"].as_str().unwrap_or_else(|| panic!("{first}")).to_string();
    assert_eq!(first["alreadyExisted"], false);
    assert_eq!(stored_bytes(&sb, first["url"].as_str().unwrap()), b"Hello, library");
    let again = desk.run(&["media", "import", url, "--name", "hello.txt", "--content-type", "image/png"]).await.ok();
    assert_eq!((again["outputId"].as_str(), again["alreadyExisted"].as_bool()), (Some(id.as_str()), Some(true)));
    let list = desk.run(&["media", "list", "--source", "uploads"]).await.ok();
    assert_eq!(items(&list).iter().filter(|m| m["id"] == id.as_str()).count(), 1, "{list}");

    let missing = desk.run(&["media", "upload", desk.path("nope.png").to_str().unwrap()]).await.fails(2);
    assert_eq!(missing["field"], "file", "{missing}");
    // An upload's rules (`MediaUploadInput::check`, as in the app's `media_upload`): an image, video or
    // audio type, a name of at most 255 characters, not empty; in the shell and for agents alike, a usage
    // error naming the field, and nothing uploaded.
    let before = items(&desk.run(&["media", "list", "--source", "uploads"]).await.ok()).len();
    let notes = desk.path("notes.txt");
    std::fs::write(&notes, b"plain words").unwrap();
    let e = desk.run(&["media", "upload", notes.to_str().unwrap()]).await.fails(2);
    assert_eq!(e["field"], "contentType", "{e}");
    assert!(e["error"].as_str().unwrap_or_default().contains("Only images, videos and audio"), "{e}");
    let empty = desk.path("empty.png");
    std::fs::write(&empty, b"").unwrap();
    let e = desk.run(&["media", "upload", empty.to_str().unwrap()]).await.fails(2);
    assert_eq!(e["field"], "file", "{e}");
    assert!(e["error"].as_str().unwrap_or_default().contains("is empty"), "{e}");
    let long = format!("{}.png", "x".repeat(252));
    let e = desk.run(&["media", "upload", notes.to_str().unwrap(), "--name", &long, "--content-type", "image/png"]).await.fails(2);
    assert_eq!(e["field"], "name", "{e}");
    let png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
    let refused = desk.tool("upload_media", serde_json::json!({ "contentBase64": png, "name": "notes.txt" })).await;
    assert!(refused["isError"] == true && refused.to_string().contains("Only images, videos and audio"), "{refused}");
    let refused = desk.tool("upload_media", serde_json::json!({ "contentBase64": png, "name": long })).await;
    assert!(refused["isError"] == true && refused.to_string().contains("too long"), "{refused}");
    assert_eq!(items(&desk.run(&["media", "list", "--source", "uploads"]).await.ok()).len(), before, "nothing was uploaded");
    let file = desk.path("a.png");
    std::fs::write(&file, b"\x89PNG").unwrap();
    let reader = sb.key_with(&["brandkit:read"]);
    let denied = desk.run_as(&reader, &["media", "upload", file.to_str().unwrap()]).await.fails(3);
    assert_eq!(denied["scope"], "assets:write", "{denied}");
}
