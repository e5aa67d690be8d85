//! The HTML of the sandbox's own pages (the CLI's consent page, the OAuth consent page): one frame, text
//! escaped, and the process's secret their form tokens are made with. A leaf: it imports nothing of the
//! sandbox.
use rand::RngCore;
use std::sync::OnceLock;

/// This process's secret for the form token (the OAuth consent form's too).
pub fn secret() -> &'static [u8; 32] {
    static SECRET: OnceLock<[u8; 32]> = OnceLock::new();
    SECRET.get_or_init(|| {
        let mut s = [0u8; 32];
        rand::thread_rng().fill_bytes(&mut s);
        s
    })
}

/// Text and attribute values made safe for HTML.
pub fn escape(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            '&' => "&amp;".into(),
            '<' => "&lt;".into(),
            '>' => "&gt;".into(),
            '"' => "&quot;".into(),
            '\'' => "&#39;".into(),
            c => c.to_string(),
        })
        .collect()
}

/// A whole page: `title` escaped, `inner` as given (escape what goes in it).
pub fn frame(title: &str, inner: &str) -> String {
    format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width\">\
<title>{t}</title><style>body{{font:16px/1.5 system-ui,sans-serif;max-width:34rem;margin:3rem auto;padding:0 1rem;color:#1d2330}}\
h1{{font-size:1.4rem}}fieldset{{border:1px solid #d5dae3;border-radius:8px;margin:1rem 0}}label{{display:block;margin:.3rem 0}}\
code{{background:#f1f3f6;padding:0 .3rem;border-radius:4px}}.buttons{{display:flex;gap:.6rem}}button{{font:inherit;padding:.45rem 1rem;border-radius:7px;border:1px solid #b8c0cc;background:#fff}}\
button.primary{{background:#3559e0;color:#fff;border-color:#3559e0}}.error{{color:#a11d2b}}</style></head><body>{inner}</body></html>",
        t = escape(title)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_escaped() {
        assert_eq!(escape("<script>\"x\"&'"), "&lt;script&gt;&quot;x&quot;&amp;&#39;");
        assert!(frame("<t>", "<p>kept</p>").contains("<title>&lt;t&gt;</title>"));
    }
}
