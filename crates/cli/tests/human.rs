//! What a person sees with `--human`: tables and key-values pinned as snapshots (insta) at 80 and 120
//! columns, in UTC and with no locale set (times month first, as the app's en-US), ids replaced so the snapshots hold across runs. Review a change with
//! `cargo insta review` (or delete the .snap file to accept the new output).
use contentdesk_sandbox::testing::TestSandbox;
use std::process::Command;

fn cdesk(sb: &TestSandbox, columns: u16, args: &[&str]) -> String {
    let home = std::env::temp_dir().join(format!("cdesk-human-{}", std::process::id()));
    let out = Command::new(env!("CARGO_BIN_EXE_cdesk"))
        .args(args)
        .arg("--human")
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("HOME", &home)
        .env("CONTENTHERO_CONFIG_DIR", home.join("ch"))
        .env("CONTENTDESK_DATA_DIR", home.join("app"))
        .env("CONTENTHERO_API_KEY", &sb.key)
        .env("CONTENTHERO_BASE_URL", sb.base_url())
        .env("NO_COLOR", "1")
        .env("TZ", "UTC")
        .env("COLUMNS", columns.to_string())
        .output()
        .expect("cdesk runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    // One line per row: nothing wider than the terminal.
    for line in text.lines() {
        assert!(line.chars().count() <= columns as usize, "wider than {columns} columns: {line:?}");
    }
    text
}

fn settings() -> insta::Settings {
    let mut s = insta::Settings::clone_current();
    s.add_filter(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", "[uuid]");
    s.add_filter(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z", "[time]");
    s.add_filter(r"127\.0\.0\.1:\d+", "127.0.0.1:[port]");
    s
}

#[tokio::test(flavor = "multi_thread")]
async fn balance_models_cards_a_quote_and_a_new_card_read_as_sentences_and_one_line_rows() {
    let sb = TestSandbox::start().await;
    let sb = &sb;
    let shots: Vec<(String, String)> = tokio::task::block_in_place(|| {
        let mut shots = Vec::new();
        for columns in [80u16, 120] {
            let run = |args: &[&str]| cdesk(sb, columns, args);
            shots.push((format!("account_balance_{columns}"), run(&["account", "balance"])));
            shots.push((format!("model_list_image_{columns}"), run(&["model", "list", "--type", "image"])));
            shots.push((format!("card_list_{columns}"), run(&["card", "list", "--limit", "6"])));
            shots.push((format!("card_list_wide_{columns}"), run(&["card", "list", "--limit", "3", "--wide"])));
            shots.push((format!("image_quote_{columns}"), run(&["generate", "image", "a red mug", "--cost"])));
        }
        // Once: a card made (its one-line confirmation; a second run would be a second card).
        shots.push(("card_create".into(), cdesk(sb, 80, &["card", "create", "Launch teaser", "--platform", "tiktok", "--scheduled-at", "2027-02-01"])));
        // And listed: its time in the same style as the app's (month first with no locale set, as en-US).
        for columns in [80u16, 120] {
            shots.push((format!("card_list_scheduled_{columns}"), cdesk(sb, columns, &["card", "list", "--search", "Launch teaser"])));
        }
        shots
    });
    settings().bind(|| {
        for (name, text) in shots {
            insta::assert_snapshot!(name, text);
        }
    });
}
