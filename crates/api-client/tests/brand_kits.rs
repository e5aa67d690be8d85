//! Brand kits (spec §4 "Brand kit" read modes and rules 1–8, "Archive" of a section): Markdown sections
//! addressed by key, versions with `expectedVersion`, all-or-nothing writes, 409 with the current bodies.
mod common;
use api_types::{
    scopes, ArchiveRequest, BrandKitQuery, BrandKitSection, SectionWrite, UpdateBrandKit,
};
use common::*;
use contentdesk_api_client::{
    ApiError, Client, Method, SectionFilter, SectionWidth, SectionWriteExt,
};
use serde_json::json;

async fn kit(client: &Client) -> String {
    let kits = ok(client.brand_kits().list().await);
    kits.iter()
        .find(|k| k.is_default)
        .or(kits.first())
        .expect("the demo has a brand kit")
        .id
        .clone()
}

async fn section(client: &Client, kit: &str, key: &str) -> BrandKitSection {
    let view = ok(client
        .brand_kits()
        .get_sections(kit, &SectionFilter::keys([key]))
        .await);
    view.sections
        .into_iter()
        .find(|s| s.key == key)
        .unwrap_or_else(|| panic!("section {key}"))
}

#[tokio::test]
async fn every_kit_starts_with_the_eight_starter_sections() {
    let (_sb, client) = start().await;
    let id = kit(&client).await;
    let full = ok(client.brand_kits().get_full(&id).await);
    let keys: Vec<&str> = full.sections.iter().map(|s| s.key.as_str()).collect();
    for (key, tab, _) in api_types::STARTER_SECTIONS {
        let s = full
            .sections
            .iter()
            .find(|s| s.key == *key)
            .unwrap_or_else(|| panic!("{key} missing from {keys:?}"));
        assert_eq!(
            s.role.as_deref(),
            Some(*key),
            "a starter section's role is its key"
        );
        assert_eq!(s.tab, *tab);
        assert!(s.width == "full" || s.width == "half");
    }
    assert!(full.sections.iter().any(|s| s.key == "design_guidelines"));
}

#[tokio::test]
async fn read_mode_summary_gives_keys_without_bodies() {
    let (_sb, client) = start().await;
    let id = kit(&client).await;
    let summary = ok(client.brand_kits().get_summary(&id).await);
    assert!(summary.sections.len() >= 8);
    let raw = ok(client
        .brand_kits()
        .get_with(
            &id,
            &BrandKitQuery {
                detail: Some("summary".into()),
                ..Default::default()
            },
        )
        .await);
    for s in raw["sections"].as_array().unwrap() {
        assert!(s.get("body").is_none(), "summary has no bodies: {s}");
        assert!(s.get("charCount").is_some());
        assert!(s.get("outline").is_some());
    }
    let about = summary.sections.iter().find(|s| s.key == "about").unwrap();
    assert!(about.char_count > 0);
}

#[tokio::test]
async fn read_mode_filter_by_role_or_tab_returns_those_sections_with_bodies() {
    let (_sb, client) = start().await;
    let id = kit(&client).await;
    let by_role = ok(client
        .brand_kits()
        .get_sections(&id, &SectionFilter::roles(["offer"]))
        .await);
    assert_eq!(by_role.sections.len(), 1);
    assert!(!by_role.sections[0].body.is_empty());
    let by_tab = ok(client
        .brand_kits()
        .get_sections(&id, &SectionFilter::tabs(["voice"]))
        .await);
    assert!(by_tab.sections.len() >= 3);
    assert!(by_tab.sections.iter().all(|s| s.tab == "voice"));
}

#[tokio::test]
async fn history_read_returns_earlier_versions() {
    let (_sb, client) = start().await;
    let id = kit(&client).await;
    let before = section(&client, &id, "offer").await;
    ok(client
        .brand_kits()
        .write_sections(
            &id,
            vec![SectionWrite::edit("offer", "# Offer v2", before.version)],
        )
        .await);
    let view = ok(client
        .brand_kits()
        .get_sections(&id, &SectionFilter::keys(["offer"]).with_history())
        .await);
    let revs = view.sections[0]
        .revisions
        .clone()
        .expect("history read carries revisions");
    assert!(
        revs.iter()
            .any(|r| r.version == before.version && r.body == before.body),
        "{revs:?}"
    );
}

#[tokio::test]
async fn unknown_role_or_tab_is_400_naming_the_valid_values() {
    let (_sb, client) = start().await;
    let id = kit(&client).await;
    let e = client
        .brand_kits()
        .get_sections(&id, &SectionFilter::roles(["mission"]))
        .await
        .unwrap_err();
    match &e {
        ApiError::Validation { valid_values, .. } => {
            assert!(valid_values.iter().any(|v| v == "about"), "{e:?}")
        }
        other => panic!("expected 400, got {other:?}"),
    }
    let e = client
        .brand_kits()
        .get_sections(&id, &SectionFilter::tabs(["brand"]))
        .await
        .unwrap_err();
    match &e {
        ApiError::Validation { valid_values, .. } => {
            assert!(valid_values.iter().any(|v| v == "visual"), "{e:?}")
        }
        other => panic!("expected 400, got {other:?}"),
    }
}

#[tokio::test]
async fn summary_with_a_filter_and_history_without_a_filter_are_read() {
    let (_sb, client) = start().await;
    let id = kit(&client).await;
    let summary = client.brand_kits().get_summary_filtered(&id, &SectionFilter::roles(["about"])).await.unwrap();
    assert_eq!(summary.sections.len(), 1);
    assert_eq!(summary.sections[0].key, "about");
    let all = client
        .brand_kits()
        .get_sections(&id, &SectionFilter { history: true, ..Default::default() })
        .await
        .unwrap();
    assert!(all.sections.len() >= 8, "every section: {}", all.sections.len());
    assert!(all.sections.iter().all(|s| s.revisions.is_some()));
}

#[tokio::test]
async fn rule1_body_replaces_the_whole_content_and_the_version_increments() {
    let (_sb, client) = start().await;
    let id = kit(&client).await;
    let before = section(&client, &id, "about").await;
    let kit_after = ok(client
        .brand_kits()
        .write_sections(
            &id,
            vec![SectionWrite::edit("about", "# New about", before.version)],
        )
        .await);
    let after = kit_after
        .sections
        .iter()
        .find(|s| s.key == "about")
        .unwrap();
    assert_eq!(after.body, "# New about");
    assert_eq!(after.version, before.version + 1);
}

#[tokio::test]
async fn rule1_revert_lands_as_a_new_version_and_can_itself_be_reverted() {
    let (_sb, client) = start().await;
    let id = kit(&client).await;
    let v0 = section(&client, &id, "audience").await;
    ok(client
        .brand_kits()
        .write_sections(
            &id,
            vec![SectionWrite::edit("audience", "changed", v0.version)],
        )
        .await);
    let reverted = ok(client
        .brand_kits()
        .write_sections(
            &id,
            vec![SectionWrite::revert("audience", v0.version, v0.version + 1)],
        )
        .await);
    let s = reverted
        .sections
        .iter()
        .find(|s| s.key == "audience")
        .unwrap();
    assert_eq!(s.body, v0.body);
    assert_eq!(s.version, v0.version + 2, "a revert is a new version");
    let again = ok(client
        .brand_kits()
        .write_sections(
            &id,
            vec![SectionWrite::revert(
                "audience",
                v0.version + 1,
                v0.version + 2,
            )],
        )
        .await);
    let s = again.sections.iter().find(|s| s.key == "audience").unwrap();
    assert_eq!(s.body, "changed");
}

#[tokio::test]
async fn rule1_rename_keeps_the_key_and_width_is_full_or_half() {
    let (_sb, client) = start().await;
    let id = kit(&client).await;
    let s = section(&client, &id, "offer").await;
    let k = ok(client
        .brand_kits()
        .write_sections(
            &id,
            vec![SectionWrite::rename("offer", "What we sell", s.version)],
        )
        .await);
    let s2 = k
        .sections
        .iter()
        .find(|x| x.key == "offer")
        .expect("the key never changes");
    assert_eq!(s2.section_name, "What we sell");
    assert_eq!(
        s2.role.as_deref(),
        Some("offer"),
        "the role stays whatever the name"
    );
    let k = ok(client
        .brand_kits()
        .write_sections(
            &id,
            vec![SectionWrite::set_width(
                "offer",
                SectionWidth::Half,
                s2.version,
            )],
        )
        .await);
    assert_eq!(
        k.sections.iter().find(|x| x.key == "offer").unwrap().width,
        "half"
    );
    let bad = SectionWrite {
        width: Some("third".into()),
        ..SectionWrite::rename("offer", "x", s2.version)
    };
    assert_eq!(
        client
            .brand_kits()
            .write_sections(&id, vec![bad])
            .await
            .unwrap_err()
            .status(),
        Some(400)
    );
}

#[tokio::test]
async fn rule2_a_section_without_key_is_added_and_needs_name_and_tab() {
    let (_sb, client) = start().await;
    let id = kit(&client).await;
    let k = ok(client
        .brand_kits()
        .write_sections(
            &id,
            vec![SectionWrite::add("Hooks", "voice", "- Ask a question")],
        )
        .await);
    let added = k
        .sections
        .iter()
        .find(|s| s.section_name == "Hooks")
        .expect("added");
    assert_eq!(added.role, None, "a user-added section has no role");
    assert_eq!(added.tab, "voice");
    let no_tab = SectionWrite {
        section_name: Some("Loose".into()),
        body: Some("x".into()),
        ..Default::default()
    };
    let e = client
        .brand_kits()
        .write_sections(&id, vec![no_tab])
        .await
        .unwrap_err();
    assert_eq!(e.status(), Some(400), "{e:?}");
    let no_name = SectionWrite {
        tab: Some("voice".into()),
        body: Some("x".into()),
        ..Default::default()
    };
    assert_eq!(
        client
            .brand_kits()
            .write_sections(&id, vec![no_name])
            .await
            .unwrap_err()
            .status(),
        Some(400)
    );
}

#[tokio::test]
async fn rule3_and_5_a_stale_expected_version_is_409_with_the_current_body_and_nothing_is_written()
{
    let (_sb, client) = start().await;
    let id = kit(&client).await;
    let read = section(&client, &id, "voice_and_tone").await;
    // someone else writes first
    ok(client
        .brand_kits()
        .write_sections(
            &id,
            vec![SectionWrite::edit("voice_and_tone", "theirs", read.version)],
        )
        .await);
    let e = client
        .brand_kits()
        .write_sections(
            &id,
            vec![SectionWrite::edit("voice_and_tone", "mine", read.version)],
        )
        .await
        .unwrap_err();
    match e {
        ApiError::SectionConflict { conflicts, .. } => {
            assert_eq!(conflicts.len(), 1);
            assert_eq!(conflicts[0].key, "voice_and_tone");
            assert_eq!(conflicts[0].version, read.version + 1);
            assert_eq!(conflicts[0].body, "theirs");
            // re-apply on the current version: it lands
            ok(client
                .brand_kits()
                .write_sections(
                    &id,
                    vec![SectionWrite::edit(
                        "voice_and_tone",
                        "theirs + mine",
                        conflicts[0].version,
                    )],
                )
                .await);
        }
        other => panic!("expected SectionConflict, got {other:?}"),
    }
}

#[tokio::test]
async fn rule4_the_write_is_all_or_nothing_and_lands_before_the_rest_of_the_patch() {
    let (_sb, client) = start().await;
    let id = kit(&client).await;
    let about = section(&client, &id, "about").await;
    let offer = section(&client, &id, "offer").await;
    let name_before = ok(client.brand_kits().get_full(&id).await).summary.name;
    let patch = UpdateBrandKit {
        name: Some("Renamed kit".into()),
        sections: Some(vec![
            SectionWrite::edit("about", "fresh", about.version),
            SectionWrite::edit("offer", "stale", offer.version - 1),
        ]),
        ..Default::default()
    };
    let e = client.brand_kits().update(&id, &patch).await.unwrap_err();
    assert!(matches!(e, ApiError::SectionConflict { .. }), "{e:?}");
    let after = ok(client.brand_kits().get_full(&id).await);
    let about_after = after.sections.iter().find(|s| s.key == "about").unwrap();
    assert_eq!(
        about_after.version, about.version,
        "the good entry was not written either"
    );
    assert_eq!(
        after.summary.name, name_before,
        "nothing else in the patch landed"
    );
}

#[tokio::test]
async fn rule6_a_removed_input_is_400_naming_the_sections_approach() {
    let (_sb, client) = start().await;
    let id = kit(&client).await;
    for removed in ["visualStyle", "designPrinciples", "businessName", "fields"] {
        let body = json!({ removed: "anything" });
        let e = client
            .send_json(Method::PATCH, &format!("/brand-kits/{id}"), Some(&body))
            .await
            .unwrap_err();
        assert_eq!(e.status(), Some(400), "{removed}: {e:?}");
        let text = e.to_string();
        assert!(
            text.contains("sections"),
            "{removed}: names the replacement: {text}"
        );
    }
    let e = client
        .send_json(
            Method::PATCH,
            &format!("/brand-kits/{id}"),
            Some(&json!({"visualStyle": "bold"})),
        )
        .await
        .unwrap_err();
    assert!(e.to_string().contains("design_guidelines"), "{e}");
}

#[tokio::test]
async fn rule7_brand_kit_templates_no_longer_exist() {
    let (_sb, client) = start().await;
    let e = client
        .send_json(Method::GET, "/brand-kit-templates", None)
        .await
        .unwrap_err();
    assert!(matches!(e, ApiError::NotFound { .. }), "{e:?}");
}

#[tokio::test]
async fn rule8_brandkit_write_edits_and_brandkit_read_reads() {
    let (sb, client) = start().await;
    let id = kit(&client).await;
    let reader = client_with(&sb, &[scopes::BRANDKIT_READ]);
    let s = ok(reader
        .brand_kits()
        .get_sections(&id, &SectionFilter::keys(["about"]))
        .await)
    .sections[0]
        .clone();
    let e = reader
        .brand_kits()
        .write_sections(&id, vec![SectionWrite::edit("about", "x", s.version)])
        .await
        .unwrap_err();
    assert!(
        matches!(e, ApiError::MissingScope { scope: Some(ref x), .. } if x == "brandkit:write"),
        "{e:?}"
    );
    let writer = client_with(&sb, &[scopes::BRANDKIT_WRITE]);
    let e = writer.brand_kits().get_full(&id).await.unwrap_err();
    assert!(
        matches!(e, ApiError::MissingScope { scope: Some(ref x), .. } if x == "brandkit:read"),
        "{e:?}"
    );
    ok(writer
        .brand_kits()
        .write_sections(
            &id,
            vec![SectionWrite::edit("about", "by writer", s.version)],
        )
        .await);
}

#[tokio::test]
async fn archive_brand_kit_section_removes_it_and_restore_brings_it_back() {
    let (_sb, client) = start().await;
    let id = kit(&client).await;
    let k = ok(client
        .brand_kits()
        .write_sections(&id, vec![SectionWrite::add("Temp", "overview", "tmp")])
        .await);
    let added = k
        .sections
        .iter()
        .find(|s| s.section_name == "Temp")
        .unwrap()
        .clone();
    let r = ok(client
        .archive(&ArchiveRequest {
            asset_type: "brand_kit_section".into(),
            id: added.id.clone(),
            archived: None,
            ..Default::default()
        })
        .await);
    assert!(r.archived);
    let after = ok(client.brand_kits().get_full(&id).await);
    assert!(
        after.sections.iter().all(|s| s.id != added.id),
        "an archived section is removed"
    );
    ok(client
        .archive(&ArchiveRequest {
            asset_type: "brand_kit_section".into(),
            id: added.id.clone(),
            archived: Some(false),
            ..Default::default()
        })
        .await);
    let after = ok(client.brand_kits().get_full(&id).await);
    assert!(after.sections.iter().any(|s| s.id == added.id), "restored");
}

#[tokio::test]
async fn another_accounts_kit_is_404() {
    let (sb, client) = start().await;
    let id = kit(&client).await;
    let e = other_client(&sb, 1.0)
        .brand_kits()
        .get_full(&id)
        .await
        .unwrap_err();
    assert!(matches!(e, ApiError::NotFound { .. }), "{e:?}");
}
