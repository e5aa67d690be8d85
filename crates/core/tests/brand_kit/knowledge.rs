//! brand kit: the knowledge base, its refusals before sending and its plan cap.
use super::*;

#[tokio::test]
async fn the_knowledge_base_lists_searches_adds_and_removes() {
    let remote = Remote::start().await;
    let (app, _, _) = app_on(&remote).await;
    let kit = kit_id(&app).await;
    let list = c::knowledge_list(&app, KnowledgeListInput { brand_kit_id: kit.clone(), page: Paging::new(Some(2), None), unknown: Default::default() }).await.unwrap();
    assert_eq!(list.items.len(), 2);
    assert!(list.has_more && list.total >= 3, "{list:?}");
    let page2 = c::knowledge_list(&app, KnowledgeListInput { brand_kit_id: kit.clone(), page: Paging::new(Some(2), Some(2)), unknown: Default::default() }).await.unwrap();
    assert!(page2.items.iter().all(|i| list.items.iter().all(|j| j.id != i.id)));
    let e = c::knowledge_list(&app, KnowledgeListInput { brand_kit_id: kit.clone(), page: Paging::new(Some(0), None), unknown: Default::default() }).await.unwrap_err();
    assert_eq!(e.field.as_deref(), Some("limit"));

    let add = |f: fn(&mut KnowledgeAddInput)| {
        let mut a = KnowledgeAddInput { brand_kit_id: kit.clone(), ..Default::default() };
        f(&mut a);
        a
    };
    let text = c::knowledge_add(&app, add(|a| {
        a.text = Some("Our studio ships every parcel in recycled kraft boxes with a handwritten thank-you card.".into());
        a.title = Some("Packaging".into());
    }))
    .await
    .unwrap();
    assert_eq!((text.item.as_ref().expect("an item").source_type.as_str(), text.item.as_ref().expect("an item").title.as_deref(), text.limit_reached), ("text", Some("Packaging"), false));
    // A small document as base64 (the bytes of "# Returns\nThirty days, no questions.").
    let md = c::knowledge_add(&app, add(|a| {
        a.file_data = Some("IyBSZXR1cm5zClRoaXJ0eSBkYXlzLCBubyBxdWVzdGlvbnMu".into());
        a.file_name = Some("returns.md".into());
    }))
    .await
    .unwrap();
    assert_eq!((md.item.as_ref().expect("an item").source_type.as_str(), md.item.as_ref().expect("an item").file_ext.as_deref()), ("file", Some("md")));
    let page = c::knowledge_add(&app, add(|a| a.url = Some("https://demostudio.example/about".into()))).await.unwrap();
    assert_eq!(page.item.as_ref().expect("an item").source_type, "url");
    let video = c::knowledge_add(&app, add(|a| a.file_url = Some("https://cdn.example.com/launch-talk.mp4".into()))).await.unwrap();
    assert_eq!((video.item.as_ref().expect("an item").source_type.as_str(), video.item.as_ref().expect("an item").file_ext.as_deref()), ("file", Some("mp4")));

    let matches = c::knowledge_search(&app, KnowledgeSearchInput { brand_kit_id: kit.clone(), query: "recycled kraft boxes".into(), limit: None, threshold: None })
        .await
        .unwrap();
    assert_eq!(matches[0].knowledge_id.as_deref(), Some(text.item.as_ref().expect("an item").id.as_str()), "{matches:?}");
    assert!(matches[0].similarity > 0.0 && matches[0].similarity <= 1.0);
    let e = c::knowledge_search(&app, KnowledgeSearchInput { brand_kit_id: kit.clone(), query: "  ".into(), limit: None, threshold: None }).await.unwrap_err();
    assert_eq!(e.field.as_deref(), Some("query"));
    // The search's rules are the catalogue's (`KnowledgeSearchInput::check`, as in `cdesk knowledge search`
    // and `search_brand_knowledge`): 1 to 50 passages, refused before anything is sent.
    for limit in [0, 51] {
        let e = ipc::dispatch(&app, "knowledge_search", json!({ "brandKitId": kit, "query": "kraft", "limit": limit })).await.unwrap_err();
        assert_eq!((e.code, e.field.as_deref(), e.status), (IpcCode::Validation, Some("limit"), None), "{e:?}");
        assert_eq!(e.message, "Ask for 1 to 50 matches.");
    }

    let total = c::knowledge_list(&app, KnowledgeListInput { brand_kit_id: kit.clone(), page: Paging::new(None, None), unknown: Default::default() }).await.unwrap().total;
    let gone = c::knowledge_remove(&app, KnowledgeItemInput { brand_kit_id: kit.clone(), knowledge_id: text.item.as_ref().expect("an item").id.clone() }).await.unwrap();
    assert_eq!(gone.id, text.item.as_ref().expect("an item").id);
    let after = c::knowledge_list(&app, KnowledgeListInput { brand_kit_id: kit.clone(), page: Paging::new(None, None), unknown: Default::default() }).await.unwrap();
    assert_eq!(after.total, total - 1);
    assert!(after.items.iter().all(|i| i.id != text.item.as_ref().expect("an item").id));
    let e = c::knowledge_remove(&app, KnowledgeItemInput { brand_kit_id: kit, knowledge_id: text.item.as_ref().expect("an item").id.clone() }).await.unwrap_err();
    assert_eq!(e.code, IpcCode::NotFound);
}

#[tokio::test]
async fn large_files_and_video_as_base64_are_refused_before_sending_with_the_hosted_url_way() {
    let remote = Remote::start().await;
    let (app, _, _) = app_on(&remote).await;
    let kit = kit_id(&app).await;
    let before = c::knowledge_list(&app, KnowledgeListInput { brand_kit_id: kit.clone(), page: Paging::new(None, None), unknown: Default::default() }).await.unwrap().total;
    // 5 MiB of zero bytes, as base64.
    let big = "A".repeat(5 * 1024 * 1024 / 3 * 4);
    let e = c::knowledge_add(&app, KnowledgeAddInput { brand_kit_id: kit.clone(), file_data: Some(big), file_name: Some("catalogue.pdf".into()), ..Default::default() })
        .await
        .unwrap_err();
    assert_eq!((e.code, e.field.as_deref(), e.status), (IpcCode::Validation, Some("fileData"), None), "{e:?}");
    assert!(e.message.contains("fileUrl") && e.message.contains("hosted"), "{}", e.message);
    let e = c::knowledge_add(
        &app,
        KnowledgeAddInput { brand_kit_id: kit.clone(), file_data: Some("AAAA".into()), file_name: Some("interview.mov".into()), ..Default::default() },
    )
    .await
    .unwrap_err();
    assert!(e.message.contains("Video and audio") && e.message.contains("fileUrl"), "{}", e.message);
    let e = c::knowledge_add(
        &app,
        KnowledgeAddInput { brand_kit_id: kit.clone(), file_data: Some("AAAA".into()), file_ext: Some("dat".into()), mime_type: Some("audio/wav".into()), ..Default::default() },
    )
    .await
    .unwrap_err();
    assert_eq!(e.status, None);
    let after = c::knowledge_list(&app, KnowledgeListInput { brand_kit_id: kit, page: Paging::new(None, None), unknown: Default::default() }).await.unwrap().total;
    assert_eq!(after, before, "nothing was sent");
}

#[tokio::test]
async fn the_knowledge_cap_is_limit_reached_saying_the_kit_is_at_its_plans_cap() {
    let mut config = sandbox::Config::for_tests();
    config.knowledge_cap = 4;
    let remote = Remote::start_with(config).await;
    let (app, _, _) = app_on(&remote).await;
    let kit = kit_id(&app).await;
    let list = |app: &AppState| {
        let kit = kit.clone();
        let app = app.clone();
        async move { c::knowledge_list(&app, KnowledgeListInput { brand_kit_id: kit, page: Paging::new(None, None), unknown: Default::default() }).await.unwrap().total }
    };
    let mut added = 0;
    let e = loop {
        let n = list(&app).await;
        match c::knowledge_add(&app, KnowledgeAddInput { brand_kit_id: kit.clone(), text: Some(format!("note {added}")), ..Default::default() }).await {
            Ok(_) => {
                added += 1;
                assert!(added <= 4, "the cap held");
            }
            Err(e) => {
                assert_eq!(n, 4, "refused exactly at the cap");
                break e;
            }
        }
    };
    assert!(added >= 1);
    assert_eq!(e.code, IpcCode::LimitReached, "{e:?}");
    assert_eq!(e.status, Some(402));
    let m = e.message.to_lowercase();
    assert!(m.contains("this kit is at its plan's cap"), "{}", e.message);
    assert!(m.contains("4 of 4") && m.contains("remove an item") && m.contains("upgrade the plan"), "{}", e.message);
    assert_eq!(list(&app).await, 4, "nothing was added");
    // Removing one makes room again.
    let first = c::knowledge_list(&app, KnowledgeListInput { brand_kit_id: kit.clone(), page: Paging::new(Some(1), None), unknown: Default::default() }).await.unwrap().items[0].id.clone();
    c::knowledge_remove(&app, KnowledgeItemInput { brand_kit_id: kit.clone(), knowledge_id: first }).await.unwrap();
    c::knowledge_add(&app, KnowledgeAddInput { brand_kit_id: kit, text: Some("fits again".into()), ..Default::default() }).await.unwrap();
}
