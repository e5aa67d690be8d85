//! Files on this computer: `--save DIR` downloads a finished render's files as `<outputId>-<n>.<ext>`
//! (the shell only: the field is hidden from agents), and the content type of a file to upload is
//! guessed from its name. One table of types and extensions serves both.
use crate::{Cx, OpError};
use std::path::{Path, PathBuf};

/// Known types and their usual extension (the first extension of a type is the one a saved file gets).
const TYPES: &[(&str, &str)] = &[
    ("image/png", "png"),
    ("image/jpeg", "jpg"),
    ("image/jpeg", "jpeg"),
    ("image/webp", "webp"),
    ("image/gif", "gif"),
    ("image/svg+xml", "svg"),
    ("video/mp4", "mp4"),
    ("video/quicktime", "mov"),
    ("video/webm", "webm"),
    ("audio/wav", "wav"),
    ("audio/x-wav", "wav"),
    ("audio/wave", "wav"),
    ("audio/mpeg", "mp3"),
    ("audio/mp4", "m4a"),
    ("audio/ogg", "ogg"),
    ("application/pdf", "pdf"),
    ("text/plain", "txt"),
    ("text/markdown", "md"),
    ("application/json", "json"),
];

/// The content type of a file by its extension; `application/octet-stream` when unknown.
pub(crate) fn content_type_of(path: &Path) -> &'static str {
    let ext = path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
    ext.and_then(|e| TYPES.iter().find(|(_, x)| *x == e).map(|(t, _)| *t)).unwrap_or("application/octet-stream")
}

/// The extension a downloaded file gets: the URL's own (a short alphanumeric one), else the content
/// type's, else `bin`.
fn extension(url: &str, content_type: Option<&str>) -> String {
    let path = url.split(['?', '#']).next().unwrap_or("");
    let last = path.rsplit('/').next().unwrap_or("");
    if let Some((_, ext)) = last.rsplit_once('.') {
        if (1..=5).contains(&ext.len()) && ext.chars().all(|c| c.is_ascii_alphanumeric()) {
            return ext.to_ascii_lowercase();
        }
    }
    content_type
        .and_then(|t| TYPES.iter().find(|(ty, _)| *ty == t).map(|(_, x)| x.to_string()))
        .unwrap_or_else(|| "bin".into())
}

/// Downloads each file of a finished render into `dir` as `<outputId>-<n>.<ext>` (n from 1, the
/// output token's number) and says where on stderr. A render not completed saves nothing and says how
/// to save it later.
pub(crate) async fn outputs(cx: &Cx, output_id: &str, urls: &[String], completed: bool, dir: &Path) -> Result<Vec<PathBuf>, OpError> {
    if !completed {
        eprintln!(
            "nothing saved: {output_id} is not completed; `cdesk generation status {output_id} --save {}` saves it when it is",
            dir.display()
        );
        return Ok(Vec::new());
    }
    let failed = |what: String| {
        OpError::Internal(format!(
            "{output_id} rendered, but {what}; save it again with `cdesk generation status {output_id} --save {}`",
            dir.display()
        ))
    };
    std::fs::create_dir_all(dir).map_err(|e| failed(format!("the folder {} could not be made: {e}", dir.display())))?;
    let mut saved = Vec::new();
    for (i, url) in urls.iter().enumerate() {
        let file = cx.client.download(url).await.map_err(|e| failed(format!("file {} could not be downloaded: {e}", i + 1)))?;
        let path = dir.join(format!("{output_id}-{}.{}", i + 1, extension(url, file.content_type.as_deref())));
        std::fs::write(&path, &file.bytes).map_err(|e| failed(format!("{} could not be written: {e}", path.display())))?;
        eprintln!("saved {}", path.display());
        saved.push(path);
    }
    if urls.is_empty() {
        eprintln!("nothing saved: {output_id} has no files");
    }
    Ok(saved)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extensions_from_the_url_then_the_type() {
        assert_eq!(extension("http://h/files/abc-1.png", Some("image/png")), "png");
        assert_eq!(extension("https://cdn/x/clip.MP4?sig=1.2.3", None), "mp4");
        assert_eq!(extension("https://cdn/x/abcdef", Some("audio/wav")), "wav");
        assert_eq!(extension("https://cdn/x/v1.2/abcdef", Some("image/jpeg")), "jpg");
        assert_eq!(extension("https://cdn/x/file.tar-gz-thing", None), "bin");
    }

    #[test]
    fn shell_only_fields_are_hidden_from_agents() {
        let client = api_client::Client::new("http://127.0.0.1:9/api/v1", api_client::ApiKey::new("ch_live_x")).unwrap();
        let mut with_save = 0;
        for e in crate::catalogue() {
            let props = e.input_schema()["properties"].clone();
            for hidden in ["save", "fromShell"] {
                assert!(props.get(hidden).is_none(), "{}: `{hidden}` is the shell's only", e.meta.tool);
            }
            if e.command().get_arguments().any(|a| a.get_long() == Some("save")) {
                with_save += 1;
                let refused = e.run_json(crate::Cx::new(client.clone()), serde_json::json!({ "save": "/tmp" })).err().expect("refused");
                assert!(refused.to_string().contains("unknown field `save`"), "{}: {refused}", e.meta.tool);
            }
        }
        // generate image|video|audio|board|lip-sync, upscale, generation status.
        assert_eq!(with_save, 7);
    }

    #[test]
    fn content_types_by_extension() {
        assert_eq!(content_type_of(Path::new("a/b/cover.PNG")), "image/png");
        assert_eq!(content_type_of(Path::new("clip.mov")), "video/quicktime");
        assert_eq!(content_type_of(Path::new("noext")), "application/octet-stream");
    }
}
