//! What a person sees with `--human`: tables and key-values pinned as snapshots (insta), ids, times and
//! ports replaced so the snapshots hold across runs. Review a change with `cargo insta review` (or delete
//! the .snap file to accept the new output).
use contentdesk_sandbox::testing::TestSandbox;
use std::process::Command;

fn cdesk(sb: &TestSandbox, args: &[&str]) -> String {
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
        .output()
        .expect("cdesk runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

fn settings() -> insta::Settings {
    let mut s = insta::Settings::clone_current();
    s.add_filter(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", "[uuid]");
    s.add_filter(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z", "[time]");
    s.add_filter(r"127\.0\.0\.1:\d+", "127.0.0.1:[port]");
    s
}

#[tokio::test(flavor = "multi_thread")]
async fn balance_models_and_cards_read_as_key_values_and_tables() {
    let sb = TestSandbox::start().await;
    let (balance, models, cards) = {
        let sb = &sb;
        tokio::task::block_in_place(|| {
            (
                cdesk(sb, &["account", "balance"]),
                cdesk(sb, &["model", "list", "--type", "image"]),
                cdesk(sb, &["card", "list", "--limit", "3"]),
            )
        })
    };
    settings().bind(|| {
        insta::assert_snapshot!("account_balance", balance);
        insta::assert_snapshot!("model_list_image", models);
        insta::assert_snapshot!("card_list_3", cards);
    });
}
