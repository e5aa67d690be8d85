//! `PATCH /cards/{id}` answers with the card exactly as `GET /cards/{id}` reads it right after, byte for
//! byte, on cards of every shape (posts with settings and own times, assets, inspiration, tags, metadata,
//! cover, publication, notes, the demo board's cards). A write of the title, platform, content type,
//! favourite or notes builds its reply from the card read before the write (routes/cards/write.rs,
//! `in_place`); this is what keeps that reply honest.
mod common;
use common::{Http, TestSandbox};
use serde_json::{json, Value};

struct Raw {
    base: String,
    key: String,
    client: reqwest::Client,
}

impl Raw {
    async fn send(&self, method: &str, path: &str, body: Option<&Value>) -> (u16, String) {
        let method = reqwest::Method::from_bytes(method.as_bytes()).unwrap();
        let mut req = self.client.request(method, format!("{}{}", self.base, path)).bearer_auth(&self.key);
        if let Some(b) = body {
            req = req.json(b);
        }
        let resp = req.send().await.expect("request");
        (resp.status().as_u16(), resp.text().await.unwrap())
    }

    /// PATCHes `card` with `body` and checks the reply against a GET made right after it.
    async fn patch_matches_get(&self, card: &str, body: Value) -> Value {
        let path = format!("/cards/{card}");
        let (s, patched) = self.send("PATCH", &path, Some(&body)).await;
        assert_eq!(s, 200, "{body} -> {patched}");
        let (s, read) = self.send("GET", &path, None).await;
        assert_eq!(s, 200, "{read}");
        assert_eq!(patched, read, "the PATCH {body} reply differs from the card read after it");
        serde_json::from_str::<Value>(&read).unwrap()["post"].clone()
    }

    /// Every write whose reply is built in memory, one after the other, each checked.
    async fn in_place_writes(&self, card: &str) {
        let post = self.patch_matches_get(card, json!({"title": "  Tïtle with \"quotes\", \\ and é\n "})).await;
        assert_eq!(post["title"], "Tïtle with \"quotes\", \\ and é", "the title is trimmed");
        self.patch_matches_get(card, json!({"platform": "linkedin"})).await;
        self.patch_matches_get(card, json!({"contentType": "carousel"})).await;
        self.patch_matches_get(card, json!({"isFavorite": true})).await;
        self.patch_matches_get(card, json!({"isFavorite": false})).await;
        let revision = self.patch_matches_get(card, json!({"title": "Read"})).await["revision"].clone();
        let post = self
            .patch_matches_get(card, json!({"notes": "Line one\nline \"two\" ✓", "expectedRevision": revision}))
            .await;
        // The same notes again: stored already, the revision stays.
        let post = self
            .patch_matches_get(card, json!({"notes": post["notes"], "expectedRevision": post["revision"]}))
            .await;
        self.patch_matches_get(
            card,
            json!({"title": "All at once", "platform": "youtube", "contentType": "video", "isFavorite": true,
                   "notes": "", "expectedRevision": post["revision"]}),
        )
        .await;
        // And a write that reads the card again after it, in between.
        self.patch_matches_get(card, json!({"title": "Moved", "boardOrder": 12345.5})).await;
        self.patch_matches_get(card, json!({"title": "After the move"})).await;
    }
}

fn raw(sb: &TestSandbox) -> Raw {
    Raw { base: sb.base_url(), key: sb.key.clone(), client: reqwest::Client::new() }
}

fn contents(sb: &TestSandbox) -> Vec<String> {
    let conn = sb.state().db().lock();
    let mut stmt = conn.prepare("SELECT id FROM tracked_content WHERE account_id = ?1 ORDER BY id").unwrap();
    let ids: Vec<String> = stmt.query_map([&sb.account_id], |r| r.get(0)).unwrap().map(Result::unwrap).collect();
    assert!(!ids.is_empty(), "the inspiration seed has posts");
    ids
}

#[tokio::test]
async fn a_patch_replies_with_the_card_as_read_after_it_on_a_plain_card() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let (s, v) = http.post(&sb.key, "/cards", json!({"title": "Plain", "platform": "instagram"})).await;
    assert_eq!(s, 200, "{v}");
    raw(&sb).in_place_writes(v["post"]["id"].as_str().unwrap()).await;
}

#[tokio::test]
async fn a_patch_replies_with_the_card_as_read_after_it_on_a_card_with_everything() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let r = raw(&sb);
    for name in ["zeta", "alpha"] {
        let (s, v) = http.post(&sb.key, "/tags", json!({"name": name})).await;
        assert!(s == 200 || s == 201, "{v}");
    }
    let (s, v) = http.post(&sb.key, "/cards", json!({"title": "Full", "platform": "instagram"})).await;
    assert_eq!(s, 200, "{v}");
    let card = v["post"]["id"].as_str().unwrap().to_string();
    let c = contents(&sb);
    let post = r
        .patch_matches_get(
            &card,
            json!({
                "scheduledAt": "2031-03-01T09:30:00Z",
                "posts": [
                    {"platform": "instagram", "format": "reel",
                     "platformSpecificData": {"caption": "Hello \"there\"\n", "shareToFeed": true, "n": 1.25}},
                    {"platform": "x", "scheduledAt": "2031-03-02T18:00:00Z"}
                ],
                "assets": [{"assetUrl": "https://example.com/a.jpg"},
                           {"contentId": c[0]}],
                "tags": ["zeta", "alpha"],
                "metadata": {"brief": "é ✓", "weights": [1, 2.5, null], "nested": {"ok": true}},
                "coverUrl": "https://example.com/cover.jpg",
                "coverPosition": {"x": 40.5, "y": 60},
                "publishedAt": "2031-03-03T10:00:00Z",
                "publishUrl": "https://example.com/p/1",
                "notes": "First notes",
                "expectedRevision": 0
            }),
        )
        .await;
    assert_eq!(post["posts"].as_array().unwrap().len(), 2, "{post}");
    assert_eq!(post["assets"].as_array().unwrap().len(), 2, "{post}");
    assert_eq!(post["tags"], json!(["alpha", "zeta"]), "{post}");
    assert!(post["metadata"].is_object() && post["coverPosition"].is_object(), "{post}");
    r.in_place_writes(&card).await;
}

#[tokio::test]
async fn a_patch_replies_with_the_card_as_read_after_it_on_every_demo_card() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let r = raw(&sb);
    let (s, v) = http.get(&sb.key, "/cards?limit=100").await;
    assert_eq!(s, 200, "{v}");
    let cards = v["cards"].as_array().unwrap();
    assert!(cards.len() >= 20, "the demo board has its cards");
    for c in cards {
        let id = c["id"].as_str().unwrap();
        r.patch_matches_get(id, json!({"title": format!("{} (edited)", c["title"].as_str().unwrap())})).await;
        r.patch_matches_get(id, json!({"isFavorite": !c["isFavorite"].as_bool().unwrap_or(false)})).await;
    }
}
