//! Declarative card edits (spec §4 cards rules 1, 2, 4–6): a card's `posts` and `assets` are sent as
//! whole lists, and anything left out is removed. `CardEdit` starts from the card as read (each asset
//! kept as `{id}`, each post as its input), lets the caller add, remove and reorder, checks the lists
//! against the rules the server answers with 400, and produces the `UpdateCard` to send.
use crate::error::{ApiError, Result};
use api_types::{CardAsset, CardAssetInput, CardDetail, PostInput, UpdateCard};
use std::collections::{HashMap, HashSet};

#[derive(Debug, Clone)]
pub struct CardEdit {
    /// The desired assets, in carousel order.
    pub assets: Vec<CardAssetInput>,
    /// The desired posts, one per platform.
    pub posts: Vec<PostInput>,
    /// Other fields to change in the same PATCH (title, notes with `expectedRevision`, schedule …).
    pub other: UpdateCard,
    /// The assets on the card when it was read, by id: what a kept `{id}` points at.
    existing: HashMap<String, CardAsset>,
}

impl CardEdit {
    pub fn from_card(card: &CardDetail) -> CardEdit {
        CardEdit {
            assets: card
                .assets
                .iter()
                .map(|a| CardAssetInput::keep(a.id.clone()))
                .collect(),
            posts: card
                .posts
                .iter()
                .filter_map(|p| PostInput::from_post(p, card.summary.scheduled_at.as_deref()))
                .collect(),
            other: UpdateCard::default(),
            existing: card
                .assets
                .iter()
                .map(|a| (a.id.clone(), a.clone()))
                .collect(),
        }
    }

    /// Appends a generation output, upload or import (`<uuid>` or `<uuid>-<N>`).
    pub fn add_output(&mut self, token: impl Into<String>) -> &mut Self {
        self.assets.push(CardAssetInput::output(token));
        self
    }

    /// Appends a link (not copied).
    pub fn add_link(&mut self, url: impl Into<String>) -> &mut Self {
        self.assets.push(CardAssetInput::link(url));
        self
    }

    /// Appends an inspiration post, attached by its `contentId`.
    pub fn add_inspiration(&mut self, content_id: impl Into<String>) -> &mut Self {
        self.assets.push(CardAssetInput::inspiration(content_id));
        self
    }

    pub fn add_project(&mut self, project_id: impl Into<String>) -> &mut Self {
        self.assets.push(CardAssetInput::project(project_id));
        self
    }

    /// Appends any entry as given (no shaping; `validate` still checks it).
    pub fn push_asset(&mut self, entry: CardAssetInput) -> &mut Self {
        self.assets.push(entry);
        self
    }

    /// Drops the kept asset `id` (it is removed from the card when sent).
    pub fn remove_asset(&mut self, id: &str) -> &mut Self {
        self.assets.retain(|a| a.id.as_deref() != Some(id));
        self
    }

    /// Moves the entry at `from` to `to` (carousel order). Out-of-range indices change nothing.
    pub fn move_asset(&mut self, from: usize, to: usize) -> &mut Self {
        if from < self.assets.len() && to < self.assets.len() {
            let entry = self.assets.remove(from);
            self.assets.insert(to, entry);
        }
        self
    }

    /// Sets the post of `post.platform`, replacing the one there.
    pub fn set_post(&mut self, post: PostInput) -> &mut Self {
        match self.posts.iter_mut().find(|p| p.platform == post.platform) {
            Some(existing) => *existing = post,
            None => self.posts.push(post),
        }
        self
    }

    pub fn remove_post(&mut self, platform: &str) -> &mut Self {
        self.posts.retain(|p| p.platform != platform);
        self
    }

    /// The 400 rules, checked before sending: each asset entry names exactly one reference; no asset id,
    /// output, link, inspiration post or project appears twice (counting what kept entries point at); an
    /// inspiration is attached by `contentId`, never by `assetUrl`; one post per platform. The error
    /// names the entry, e.g. `assets[2]`.
    pub fn validate(&self) -> Result<()> {
        let mut seen: HashSet<(&'static str, String)> = HashSet::new();
        for (i, entry) in self.assets.iter().enumerate() {
            let field = format!("assets[{i}]");
            let refs = entry.references();
            if refs.is_empty() {
                return Err(ApiError::local_validation(
                    field,
                    format!("assets[{i}] names no reference: give one of `id`, `outputId`, `assetUrl`, `contentId`, `projectId`"),
                ));
            }
            if refs.len() > 1 {
                let names: Vec<&str> = refs.iter().map(|(f, _)| *f).collect();
                return Err(ApiError::local_validation(
                    field,
                    format!(
                        "assets[{i}] names {} references ({}); give exactly one",
                        refs.len(),
                        names.join(", ")
                    ),
                ));
            }
            if entry.asset_type.as_deref() == Some("inspiration") && entry.asset_url.is_some() {
                return Err(ApiError::local_validation(
                    field,
                    format!(
                        "assets[{i}]: attach an inspiration post by `contentId`, not by `assetUrl`"
                    ),
                ));
            }
            let (kind, value) = refs[0];
            // A kept entry also "names" what its asset points at, so adding the same file again is caught.
            let mut names = vec![(kind, value.to_string())];
            if kind == "id" {
                if let Some(existing) = self.existing.get(value) {
                    names.extend(pointed_at(existing));
                }
            }
            for name in names {
                if !seen.insert(name.clone()) {
                    return Err(ApiError::local_validation(
                        field,
                        format!(
                            "assets[{i}] repeats {} `{}`; each may appear once",
                            name.0, name.1
                        ),
                    ));
                }
            }
        }
        let mut platforms = HashSet::new();
        for (i, post) in self.posts.iter().enumerate() {
            if !platforms.insert(post.platform.as_str()) {
                return Err(ApiError::local_validation(
                    format!("posts[{i}]"),
                    format!(
                        "posts[{i}] repeats platform `{}`; a card has one post per platform",
                        post.platform
                    ),
                ));
            }
        }
        Ok(())
    }

    /// The PATCH body: `other` plus the full `posts` and `assets` lists.
    pub fn into_update(self) -> UpdateCard {
        UpdateCard {
            posts: Some(self.posts),
            assets: Some(self.assets),
            ..self.other
        }
    }
}

/// What an asset on the card points at, under the input field that would attach it again.
fn pointed_at(asset: &CardAsset) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    if let Some(v) = &asset.output_id {
        out.push(("outputId", v.clone()));
    }
    if let Some(v) = &asset.asset_url {
        // a file asset may carry its URL too; only a link is attached by URL
        if asset.output_id.is_none() {
            out.push(("assetUrl", v.clone()));
        }
    }
    if let Some(v) = asset.content_id_or_alias() {
        out.push(("contentId", v.to_string()));
    }
    if let Some(v) = &asset.project_id {
        out.push(("projectId", v.clone()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use api_types::{CardSummary, Post};

    fn asset(id: &str) -> CardAsset {
        CardAsset {
            id: id.into(),
            asset_type: None,
            output_id: None,
            asset_url: None,
            content_id: None,
            project_id: None,
            asset_id: None,
            display_name: None,
            preview_url: None,
            inspiration: None,
            sort_order: None,
        }
    }

    fn card() -> CardDetail {
        let summary: CardSummary =
            serde_json::from_value(serde_json::json!({"id": "c1", "title": "Launch", "scheduledAt": "2026-11-22T08:00:00Z"}))
                .unwrap();
        let post: Post = serde_json::from_value(serde_json::json!({
            "id": "p1", "platform": "instagram", "scheduledAt": "2026-11-22T08:00:00.000Z"
        }))
        .unwrap();
        CardDetail {
            summary,
            notes: None,
            revision: 0,
            cover_position: None,
            metadata: None,
            assets: vec![
                CardAsset {
                    output_id: Some("out-1".into()),
                    ..asset("a1")
                },
                CardAsset {
                    content_id: Some("content-1".into()),
                    asset_type: Some("inspiration".into()),
                    ..asset("a2")
                },
                CardAsset {
                    project_id: Some("proj-1".into()),
                    ..asset("a3")
                },
            ],
            posts: vec![post],
        }
    }

    fn field_of(r: Result<()>) -> String {
        match r {
            Err(ApiError::Validation {
                field: Some(f),
                body,
                ..
            }) => {
                assert!(body.is_empty(), "a local check sends nothing");
                f
            }
            other => panic!("expected a local validation error, got {other:?}"),
        }
    }

    /// The cases shared with the UI's `cardRules.ts` (crates/api-types/fixtures/card-edit-rules.json).
    #[test]
    fn the_shared_card_edit_cases_give_the_same_field_and_message() {
        let fixture: serde_json::Value =
            serde_json::from_str(include_str!("../../api-types/fixtures/card-edit-rules.json")).unwrap();
        let cases = fixture["cases"].as_array().unwrap();
        assert!(cases.len() >= 10);
        for case in cases {
            let name = case["name"].as_str().unwrap();
            let existing: Vec<CardAsset> = serde_json::from_value(case["existing"].clone()).unwrap();
            let edit = CardEdit {
                assets: serde_json::from_value(case["assets"].clone()).unwrap(),
                posts: serde_json::from_value(case["posts"].clone()).unwrap(),
                other: UpdateCard::default(),
                existing: existing.into_iter().map(|a| (a.id.clone(), a)).collect(),
            };
            let got = match edit.validate() {
                Ok(()) => serde_json::Value::Null,
                Err(ApiError::Validation { field, message, .. }) => serde_json::json!({ "field": field, "message": message }),
                Err(e) => panic!("{name}: {e:?}"),
            };
            assert_eq!(got, case["expect"], "{name}");
        }
    }

    #[test]
    fn starts_from_the_card_as_read() {
        let edit = CardEdit::from_card(&card());
        assert_eq!(
            edit.assets,
            vec![
                CardAssetInput::keep("a1"),
                CardAssetInput::keep("a2"),
                CardAssetInput::keep("a3")
            ]
        );
        assert_eq!(edit.posts.len(), 1);
        // the post's time is the card's (same instant, other spelling): it follows the card, no override
        assert_eq!(edit.posts[0].scheduled_at, None);
        assert!(edit.validate().is_ok());
    }

    #[test]
    fn add_remove_move_and_posts() {
        let mut edit = CardEdit::from_card(&card());
        edit.add_output("out-2")
            .add_link("https://example.com/a")
            .remove_asset("a2")
            .move_asset(3, 0);
        let update = {
            edit.set_post(PostInput {
                platform: "tiktok".into(),
                ..Default::default()
            });
            edit.set_post(PostInput {
                platform: "instagram".into(),
                format: Some("reel".into()),
                ..Default::default()
            });
            edit.remove_post("tiktok");
            edit.validate().unwrap();
            edit.into_update()
        };
        let assets = update.assets.unwrap();
        assert_eq!(assets[0], CardAssetInput::link("https://example.com/a"));
        assert_eq!(assets[1], CardAssetInput::keep("a1"));
        assert_eq!(assets[3], CardAssetInput::output("out-2"));
        let posts = update.posts.unwrap();
        assert_eq!(posts.len(), 1);
        assert_eq!(posts[0].format.as_deref(), Some("reel"));
    }

    #[test]
    fn rule_4_an_entry_with_no_reference_is_refused_locally() {
        let mut edit = CardEdit::from_card(&card());
        edit.push_asset(CardAssetInput {
            display_name: Some("nothing".into()),
            ..Default::default()
        });
        assert_eq!(field_of(edit.validate()), "assets[3]");
    }

    #[test]
    fn rule_4_an_entry_with_two_references_is_refused_locally() {
        let mut edit = CardEdit::from_card(&card());
        edit.push_asset(CardAssetInput {
            output_id: Some("out-9".into()),
            asset_url: Some("https://x.test/y".into()),
            ..Default::default()
        });
        assert_eq!(field_of(edit.validate()), "assets[3]");
        let mut edit = CardEdit::from_card(&card());
        edit.assets[1] = CardAssetInput {
            id: Some("a2".into()),
            content_id: Some("content-1".into()),
            ..Default::default()
        };
        assert_eq!(field_of(edit.validate()), "assets[1]");
    }

    #[test]
    fn rule_5_duplicates_are_refused_locally() {
        type Change = Box<dyn Fn(&mut CardEdit)>;
        let cases: Vec<(&str, Change, &str)> = vec![
            (
                "asset id twice",
                Box::new(|e| {
                    e.push_asset(CardAssetInput::keep("a1"));
                }),
                "assets[3]",
            ),
            (
                "output twice",
                Box::new(|e| {
                    e.add_output("out-5").add_output("out-5");
                }),
                "assets[4]",
            ),
            (
                "output already on the card",
                Box::new(|e| {
                    e.add_output("out-1");
                }),
                "assets[3]",
            ),
            (
                "link twice",
                Box::new(|e| {
                    e.add_link("https://a.test").add_link("https://a.test");
                }),
                "assets[4]",
            ),
            (
                "inspiration post twice",
                Box::new(|e| {
                    e.add_inspiration("content-1");
                }),
                "assets[3]",
            ),
            (
                "project twice",
                Box::new(|e| {
                    e.add_project("proj-1");
                }),
                "assets[3]",
            ),
            (
                "post platform twice",
                Box::new(|e| {
                    e.posts.push(PostInput {
                        platform: "instagram".into(),
                        ..Default::default()
                    })
                }),
                "posts[1]",
            ),
        ];
        for (name, change, field) in cases {
            let mut edit = CardEdit::from_card(&card());
            change(&mut edit);
            assert_eq!(field_of(edit.validate()), field, "{name}");
        }
    }

    #[test]
    fn rule_6_inspiration_by_url_is_refused_locally_naming_content_id() {
        let mut edit = CardEdit::from_card(&card());
        edit.push_asset(CardAssetInput {
            asset_type: Some("inspiration".into()),
            asset_url: Some("https://instagram.com/p/x".into()),
            ..Default::default()
        });
        let err = edit.validate().unwrap_err();
        assert!(err.to_string().contains("contentId"), "{err}");
        assert_eq!(field_of(Err(err)), "assets[3]");
    }
}
