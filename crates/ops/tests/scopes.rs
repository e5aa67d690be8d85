//! Every operation's scope (`Meta::scope`, what `cdesk` and the agent tools tell a user their key lacks)
//! is the scope the sandbox's gate asks for on the endpoints the operation calls: both read from their own
//! declaration, the operation's from the catalogue and the endpoint's from the sandbox's one route table
//! (`contentdesk_sandbox::routes::API`). The endpoints of each operation are written out below, by tool
//! name; an operation added to the catalogue without them fails here.
use contentdesk_ops::catalogue;
use contentdesk_sandbox::gate::required;
use contentdesk_sandbox::routes::API;

/// `tool → (method, path under /api/v1)` of the endpoints that do what the operation is for (a read made
/// on the way, such as the kit a section is added to, is left out).
const ENDPOINTS: &[(&str, &[(&str, &str)])] = &[
    ("get_balance", &[("GET", "/account/balance")]),
    ("list_models", &[("GET", "/models")]),
    ("get_model", &[("GET", "/models/{modelId}")]),
    ("list_voices", &[("GET", "/voices")]),
    ("get_voice", &[("GET", "/voices/{voiceId}")]),
    ("list_cards", &[("GET", "/cards")]),
    ("get_card", &[("GET", "/cards/{id}")]),
    ("check_card", &[("GET", "/cards/{id}")]),
    ("export_calendar", &[("GET", "/cards"), ("GET", "/cards/{id}")]),
    ("import_cards", &[("POST", "/cards")]),
    ("duplicate_card", &[("POST", "/cards")]),
    ("repeat_card", &[("POST", "/cards")]),
    ("queue_card", &[("PATCH", "/cards/{id}")]),
    ("create_card", &[("POST", "/cards")]),
    ("update_card", &[("PATCH", "/cards/{id}")]),
    ("move_card", &[("PATCH", "/cards/{id}")]),
    ("publish_post", &[("POST", "/cards/{id}/publish")]),
    ("list_spaces", &[("GET", "/spaces")]),
    ("get_space", &[("GET", "/spaces/{id}")]),
    ("create_space", &[("POST", "/spaces")]),
    ("update_space", &[("PATCH", "/spaces/{id}")]),
    ("delete_space", &[("DELETE", "/spaces/{id}")]),
    ("list_stages", &[("GET", "/stages")]),
    ("create_stage", &[("POST", "/stages")]),
    ("update_stage", &[("PATCH", "/stages/{id}")]),
    ("delete_stage", &[("DELETE", "/stages/{id}")]),
    ("list_tags", &[("GET", "/tags")]),
    ("create_tag", &[("POST", "/tags")]),
    ("update_tag", &[("PATCH", "/tags/{id}")]),
    ("delete_tag", &[("DELETE", "/tags/{id}")]),
    ("archive", &[("POST", "/archive")]),
    ("list_projects", &[("GET", "/projects")]),
    ("get_project", &[("GET", "/projects/{id}")]),
    ("create_project", &[("POST", "/projects")]),
    ("import_project", &[("POST", "/projects/import")]),
    ("list_connected_accounts", &[("GET", "/connected-accounts")]),
    ("get_connected_account", &[("GET", "/connected-accounts/{id}")]),
    ("list_accounts", &[("GET", "/accounts")]),
    ("get_account", &[("GET", "/accounts/{id}")]),
    ("list_content", &[("GET", "/content")]),
    ("get_content", &[("GET", "/content/{contentId}")]),
    ("generate_image", &[("POST", "/studio/generate")]),
    ("get_generation_status", &[("GET", "/studio/generate/{outputId}")]),
    ("generate_video", &[("POST", "/studio/generate")]),
    ("generate_audio", &[("POST", "/studio/generate")]),
    ("generate_board", &[("POST", "/studio/reference-board")]),
    ("generate_lip_sync", &[("POST", "/studio/generate")]),
    ("upscale", &[("POST", "/studio/generate")]),
    ("upload_media", &[("POST", "/media/uploads"), ("POST", "/media/uploads/{outputId}/complete")]),
    ("list_media", &[("GET", "/media")]),
    ("import_media", &[("POST", "/media/imports")]),
    ("list_brand_kits", &[("GET", "/brand-kits")]),
    ("get_brand_kit", &[("GET", "/brand-kits/{id}")]),
    ("get_brand_kit_section", &[("GET", "/brand-kits/{id}")]),
    ("update_brand_kit_section", &[("PATCH", "/brand-kits/{id}")]),
    ("add_brand_kit_section", &[("PATCH", "/brand-kits/{id}")]),
    ("archive_brand_kit_section", &[("POST", "/archive")]),
    ("restore_brand_kit_section", &[("POST", "/archive")]),
    ("revert_brand_kit_section", &[("PATCH", "/brand-kits/{id}")]),
    ("list_brand_knowledge", &[("GET", "/brand-kits/{id}/knowledge")]),
    ("get_brand_knowledge", &[("GET", "/brand-kits/{id}/knowledge/{knowledgeId}")]),
    ("search_brand_knowledge", &[("GET", "/brand-kits/{id}/knowledge/search")]),
    ("add_brand_knowledge", &[("POST", "/brand-kits/{id}/knowledge")]),
    ("remove_brand_knowledge", &[("DELETE", "/brand-kits/{id}/knowledge/{knowledgeId}")]),
];

#[test]
fn every_operations_scope_is_the_sandboxs_for_its_endpoints() {
    let mut wrong = Vec::new();
    for entry in catalogue() {
        let meta = &entry.meta;
        let Some((_, endpoints)) = ENDPOINTS.iter().find(|(tool, _)| *tool == meta.tool) else {
            wrong.push(format!("{}: no endpoints written out for it in this test", meta.tool));
            continue;
        };
        let declared: Vec<&str> = meta.scope.into_iter().collect();
        for (method, path) in *endpoints {
            assert!(
                API.iter().any(|(m, p, _)| m == method && p == path),
                "{}: {method} {path} is not a route of the sandbox",
                meta.tool
            );
            let needed = required(API, method, path);
            if needed != declared.as_slice() {
                wrong.push(format!("{}: declares {declared:?}, the sandbox asks {needed:?} on {method} {path}", meta.tool));
            }
        }
    }
    assert!(ENDPOINTS.len() == catalogue().len(), "tools written out here that the catalogue does not have");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
