//! The studio's commands as a separate process against the real sandbox: `generate video|audio|board|
//! lip-sync`, `upscale` and `--save`, JSON checked field by field, prices against the balance, what the
//! sandbox stored checked against what was asked. A quote charges nothing; a render is charged its quote.
mod desk;
use contentdesk_sandbox::testing::TestSandbox;
use contentdesk_sandbox::Config;
use desk::*;
use serde_json::Value;
use std::time::Duration;

fn id_of(v: &Value) -> String {
    v["outputId"].as_str().unwrap_or_else(|| panic!("an outputId: {v}")).to_string()
}

/// A finished image render's output id.
async fn image(desk: &Desk, prompt: &str) -> String {
    let r = desk.run(&["generate", "image", prompt]).await.ok();
    assert_eq!(r["status"], "completed", "{r}");
    id_of(&r)
}

#[tokio::test(flavor = "multi_thread")]
async fn a_video_quoted_then_rendered_from_an_earlier_images_output_token() {
    let sb = TestSandbox::start().await;
    let desk = Desk::new(&sb);
    let frame = image(&desk, "a red mug on a table").await;
    let token = format!("{frame}-1");

    let before = sb.balance();
    let quote = desk.run(&["generate", "video", "the mug turns slowly", "--start-frame", &token, "--duration", "6", "--cost"]).await.ok();
    assert_eq!(quote["creditsEstimate"], 30.0, "5 credits a second for 6 s: {quote}");
    assert_eq!(quote["getCost"], true);
    assert_eq!(quote["modelId"], "veo-3.1-fast", "the registry's first video model");
    assert_eq!(quote["contentType"], "video");
    assert_eq!(sb.balance(), before, "a quote charges nothing");

    let video = desk.run(&["generate", "video", "the mug turns slowly", "--start-frame", &token, "--duration", "6", "--aspect", "9:16"]).await.ok();
    let id = id_of(&video);
    assert_eq!(video["status"], "completed", "{video}");
    assert_eq!(video["outputUrls"].as_array().map(Vec::len), Some(1), "{video}");
    let status = desk.run(&["generation", "status", &id, "--no-wait"]).await.ok();
    assert_eq!((status["contentType"].as_str(), status["modelId"].as_str()), (Some("video"), Some("veo-3.1-fast")), "{status}");
    assert_eq!(status["outputUrls"], video["outputUrls"]);
    assert_eq!(before - sb.balance(), 30.0, "charged its quote");
    let sent = stored_request(&sb, &id);
    assert_eq!(sent["references"]["startFrame"], token.as_str(), "the token reached the service: {sent}");
    assert_eq!((sent["duration"].as_f64(), sent["aspectRatio"].as_str(), sent["contentType"].as_str()), (Some(6.0), Some("9:16"), Some("video")));

    // Sound, two clips, a negative prompt and an end frame: all sent as the service names them.
    let q = desk
        .run(&["generate", "video", "a mug", "-m", "kling-3.0", "--audio", "-n", "2", "--negative", "blur", "--end-frame", &frame, "--duration", "4", "--cost"])
        .await
        .ok();
    assert_eq!(q["creditsEstimate"], 5.0 * 4.0 * 2.0 * 1.5, "{q}");
    assert_eq!(q["modelId"], "kling-3.0");

    // A start frame that is not an image output is refused by the service, naming the field.
    let bad = desk.run(&["generate", "video", "a mug", "--start-frame", "not-a-token", "--cost"]).await.fails(2);
    assert_eq!(bad["field"], "references.startFrame", "{bad}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_board_is_rendered_by_its_own_endpoint_and_its_types_come_from_the_value_list() {
    let sb = TestSandbox::start().await;
    let desk = Desk::new(&sb);
    let q = desk.run(&["generate", "board", "a fox mascot in a scarf", "-t", "mascot", "-n", "2", "--cost"]).await.ok();
    assert_eq!(q["creditsEstimate"], 12.0, "6 credits a board image: {q}");
    let before = sb.balance();
    let board = desk.run(&["generate", "board", "a fox mascot in a scarf", "-t", "mascot", "-n", "2", "--name", "Fox"]).await.ok();
    let id = id_of(&board);
    assert_eq!(board["status"], "completed", "{board}");
    assert_eq!(board["outputUrls"].as_array().map(Vec::len), Some(2));
    assert_eq!(before - sb.balance(), 12.0);
    let sent = stored_request(&sb, &id);
    assert_eq!((sent["boardType"].as_str(), sent["boardName"].as_str(), sent["numImages"].as_u64()), (Some("mascot"), Some("Fox"), Some(2)), "{sent}");
    // The library lists it as a board of that type.
    let media = desk.run(&["media", "list", "--kind", "board"]).await.ok();
    let item = media.as_array().unwrap().iter().find(|m| m["id"] == id.as_str()).unwrap_or_else(|| panic!("{media}")).clone();
    assert_eq!(item["boardType"], "mascot");
    // A type outside the list is a usage error naming the valid ones, before any request.
    let r = desk.run(&["generate", "board", "x", "-t", "spaceship", "--cost"]).await;
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("character") && r.stderr.contains("location"), "{}", r.stderr);
    // The schema an agent sees lists the same types.
    let schema = desk.run(&["schema", "generate", "board"]).await.ok();
    let types: Vec<&str> = schema["input"]["properties"]["boardType"]["enum"].as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
    assert_eq!(types, api_types::BOARD_TYPES);
    assert_eq!(schema["tool"], "generate_board");
}

#[tokio::test(flavor = "multi_thread")]
async fn audio_speech_and_music_lip_sync_and_upscale() {
    let sb = TestSandbox::start().await;
    let desk = Desk::new(&sb);
    let voice = desk.run(&["voice", "list"]).await.ok()[0]["voiceId"].as_str().unwrap().to_string();

    // Speech: the speech model is chosen for --text; finished within the call.
    let speech = desk.run(&["generate", "audio", "--text", "Hello from the studio", "--voice", &voice, "--voice-name", "Narrator"]).await.ok();
    assert_eq!(speech["status"], "completed", "{speech}");
    assert!(speech["outputUrls"][0].as_str().is_some_and(|u| u.ends_with(".wav")), "{speech}");
    let sent = stored_request(&sb, &id_of(&speech));
    assert_eq!((sent["modelId"].as_str(), sent["contentType"].as_str()), (Some("elevenlabs-tts"), Some("audio")), "{sent}");
    assert_eq!((sent["voiceId"].as_str(), sent["voiceName"].as_str(), sent["text"].as_str()), (Some(voice.as_str()), Some("Narrator"), Some("Hello from the studio")));
    // Music: a prompt picks a music or effects model; --duration is durationSeconds.
    let music = desk.run(&["generate", "audio", "--prompt", "calm piano", "--duration", "25", "--cost"]).await.ok();
    assert_eq!((music["modelId"].as_str(), music["creditsEstimate"].as_f64()), (Some("elevenlabs-music"), Some(6.0)), "{music}");
    let sfx = desk.run(&["generate", "audio", "-m", "elevenlabs-sound-effects", "--prompt", "a door creaks", "--duration", "3", "--prompt-influence", "0.7"]).await.ok();
    assert_eq!(stored_request(&sb, &id_of(&sfx))["promptInfluence"], 0.7);

    // Lip-sync: a portrait from an earlier render and a script in a voice.
    let portrait = image(&desk, "a smiling presenter").await;
    let q = desk.run(&["generate", "lip-sync", "--image", &portrait, "--script", "Welcome back to the channel", "--voice", &voice, "--cost"]).await.ok();
    assert_eq!((q["modelId"].as_str(), q["creditsEstimate"].as_f64()), (Some("infinitalk"), Some(12.0)), "27 characters at 15 a second is 2 s at 6: {q}");
    let lip = desk.run(&["generate", "lip-sync", "--image", &portrait, "--script", "Welcome back to the channel", "--voice", &voice, "--motion", "nods"]).await.ok();
    assert_eq!(lip["status"], "completed", "{lip}");
    let sent = stored_request(&sb, &id_of(&lip));
    assert_eq!((sent["references"]["images"][0].as_str(), sent["text"].as_str(), sent["prompt"].as_str()), (Some(portrait.as_str()), Some("Welcome back to the channel"), Some("nods")));
    let r = desk.run(&["generate", "lip-sync", "--image", &portrait, "--script", "x", "--audio", "y"]).await;
    assert_eq!(r.code, 2, "audio and script together: {}", r.stderr);

    // Upscale: an image token picks the image upscaler; a video token (read from the service) the video one.
    let up = desk.run(&["upscale", &format!("{portrait}-1"), "--factor", "4x", "--cost"]).await.ok();
    assert_eq!((up["modelId"].as_str(), up["creditsEstimate"].as_f64()), (Some("topaz-image-upscale"), Some(16.0)), "{up}");
    let done = desk.run(&["upscale", &portrait, "--factor", "2x"]).await.ok();
    assert_eq!(done["status"], "completed", "{done}");
    assert_eq!(stored_request(&sb, &id_of(&done))["upscaleFactor"], "2x");
    let clip = id_of(&desk.run(&["generate", "video", "waves", "--duration", "4"]).await.ok());
    let vq = desk.run(&["upscale", &clip, "--cost"]).await.ok();
    assert_eq!(vq["modelId"], "topaz-video-upscale", "{vq}");
    let vq = desk.run(&["upscale", "https://example.com/clip.MP4?sig=1", "--cost"]).await.ok();
    assert_eq!(vq["modelId"], "topaz-video-upscale", "a video URL: {vq}");
    let vq = desk.run(&["upscale", "https://example.com/source", "--duration", "8", "--cost"]).await.ok();
    assert_eq!(vq["modelId"], "topaz-video-upscale", "a length says video: {vq}");
    let iq = desk.run(&["upscale", "https://example.com/photo.jpg", "--cost"]).await.ok();
    assert_eq!(iq["modelId"], "topaz-image-upscale", "{iq}");
    let r = desk.run(&["upscale", &portrait, "--factor", "3x"]).await;
    assert_eq!(r.code, 2, "factors come from the value list: {}", r.stderr);
}

#[tokio::test(flavor = "multi_thread")]
async fn save_writes_each_file_as_the_sandbox_serves_it() {
    let sb = TestSandbox::start().await;
    let desk = Desk::new(&sb);
    let dir = desk.path("renders");
    let dir_s = dir.to_str().unwrap();
    let r = desk.run(&["generate", "image", "two mugs", "-n", "2", "--save", dir_s]).await;
    let v = r.json();
    let id = id_of(&v);
    let urls: Vec<String> = v["outputUrls"].as_array().unwrap().iter().map(|u| u.as_str().unwrap().to_string()).collect();
    assert_eq!(urls.len(), 2);
    for (n, url) in urls.iter().enumerate() {
        let path = dir.join(format!("{id}-{}.png", n + 1));
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}; stderr: {}", path.display(), r.stderr));
        assert_eq!(bytes, stored_bytes(&sb, url), "file {} is the sandbox's", n + 1);
        assert!(r.stderr.contains(&format!("saved {}", path.display())), "says where: {}", r.stderr);
    }
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 2);

    // Audio: a .wav; generation status --save saves an earlier render too.
    let voice = desk.run(&["voice", "list"]).await.ok()[0]["voiceId"].as_str().unwrap().to_string();
    let speech = id_of(&desk.run(&["generate", "audio", "--text", "Saved words", "--voice", &voice]).await.ok());
    let later = desk.path("later");
    let s = desk.run(&["generation", "status", &speech, "--save", later.to_str().unwrap()]).await;
    let status = s.json();
    let wav = later.join(format!("{speech}-1.wav"));
    assert_eq!(std::fs::read(&wav).unwrap_or_else(|e| panic!("{e}: {}", s.stderr)), stored_bytes(&sb, status["outputUrls"][0].as_str().unwrap()));
    assert!(s.stderr.contains(&wav.display().to_string()), "{}", s.stderr);

    // Agents never see the flag.
    for cmd in [&["generate", "image"][..], &["generate", "video"], &["generation", "status"], &["upscale"]] {
        let mut args = vec!["schema"];
        args.extend_from_slice(cmd);
        let schema = desk.run(&args).await.ok();
        assert!(schema["input"]["properties"].get("save").is_none(), "{cmd:?}: {}", schema["input"]);
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn save_of_an_unfinished_render_saves_nothing_and_says_how() {
    let sb = TestSandbox::start_with(Config {
        smart_wait: Duration::from_millis(50),
        render: contentdesk_sandbox::config::RenderTimes::all(Duration::from_secs(30)),
        ..Config::for_tests()
    })
    .await;
    let desk = Desk::new(&sb);
    let dir = desk.path("none");
    let r = desk.run(&["generate", "image", "a slow mug", "--no-wait", "--save", dir.to_str().unwrap()]).await;
    let v = r.json();
    assert_eq!(v["status"], "processing");
    let id = id_of(&v);
    assert!(r.stderr.contains("nothing saved") && r.stderr.contains(&format!("generation status {id} --save")), "{}", r.stderr);
    assert!(!dir.join(format!("{id}-1.png")).exists());
}
