//! The brand kit's section commands: page, sections, save (drafts kept on a conflict or no answer), add, archive, history, revert.
use super::*;

pub async fn brand_kit_page(session: &impl WithOutbox, args: BrandKitIdArgs) -> IpcResult<BrandKitPage> {
    let kit_id = required("brandKitId", &args.brand_kit_id, "brand kit")?;
    let client = session.client().await?;
    let view = client.brand_kits().get_summary(&kit_id).await?;
    let kept = kit_kept(session, &kit_id)?;
    let archived = archived_sections(&client, &kit_id, &view.sections, kept.archived).await?;
    Ok(BrandKitPage { id: view.id, name: view.name, sections: view.sections, archived, drafts: kept.sections })
}

/// The kit's archived sections as the service lists them, wherever they were archived. A service that
/// refuses the read (400: it lists no archived sections) leaves those archived from this computer that
/// are not live again (restored elsewhere).
async fn archived_sections(
    client: &api_client::Client,
    kit_id: &str,
    live: &[SectionSummary],
    kept: Vec<ArchivedSection>,
) -> IpcResult<Vec<ArchivedSection>> {
    match client.brand_kits().get_archived_sections(kit_id).await {
        Ok(view) => Ok(view
            .sections
            .into_iter()
            .map(|s| {
                let at = kept.iter().find(|a| a.id == s.id).map_or(0.0, |a| a.archived_at);
                ArchivedSection { key: s.key, id: s.id, section_name: s.section_name, tab: s.tab, archived_at: at }
            })
            .collect()),
        Err(ApiError::Validation { .. }) => {
            let live: HashSet<&str> = live.iter().map(|s| s.key.as_str()).collect();
            Ok(kept.into_iter().filter(|a| !live.contains(a.key.as_str())).collect())
        }
        Err(e) => Err(e.into()),
    }
}

/// Sections with their bodies, by key, role or tab (lists AND-combined), with their earlier versions when
/// `history`. Takes the catalogue's `BrandKitGetInput` (as `cdesk brand-kit get` and `get_brand_kit`); the
/// page reads the summary itself (`brand_kit_page`), so `detail` is not taken here. An unknown role or tab
/// is the service's 400, answered as validation with `validValues`.
pub async fn brand_kit_sections(session: &impl Session, args: BrandKitGetInput) -> IpcResult<BrandKitSectionsView> {
    let kit_id = required("brandKitId", &args.brand_kit_id, "brand kit")?;
    if args.detail.is_some() {
        return Err(IpcError::validation("detail", "The app reads sections by keys, roles or tabs here; the page reads the summary."));
    }
    let clean = |v: Vec<String>| -> Vec<String> { v.into_iter().map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect() };
    let filter = SectionFilter {
        keys: clean(args.keys),
        roles: clean(args.roles),
        tabs: clean(args.tabs),
        history: args.history,
    };
    if filter.keys.is_empty() && filter.roles.is_empty() && filter.tabs.is_empty() {
        return Err(IpcError::validation("keys", "Say which sections to read: give keys, roles or tabs."));
    }
    Ok(session.client().await?.brand_kits().get_sections(&kit_id, &filter).await?)
}

/// Saves the changed sections in one all-or-nothing write. Refused (409) or unanswered, nothing is
/// written and the user's change is kept as a draft; saved, the sections' drafts are cleared.
pub async fn brand_kit_save(session: &impl WithOutbox, args: BrandKitSaveArgs) -> IpcResult<Vec<BrandKitSection>> {
    let kit_id = required("brandKitId", &args.brand_kit_id, "brand kit")?;
    let writes = check_edits(&args.sections)?;
    let keys: Vec<String> = writes.iter().filter_map(|w| w.key.clone()).collect();
    let client = session.client().await?;
    match client.brand_kits().write_sections(&kit_id, writes).await {
        Ok(kit) => {
            with_kit(session, &kit_id, |k| {
                let before = k.sections.len();
                k.sections.retain(|d| !keys.contains(&d.key));
                ((), k.sections.len() != before)
            })?;
            Ok(kit.sections.into_iter().filter(|s| keys.contains(&s.key)).collect())
        }
        Err(e) => {
            let conflict = matches!(e, ApiError::SectionConflict { .. });
            let mut err = IpcError::from(e);
            if conflict {
                keep_drafts(session, &kit_id, &args.sections, &err, DraftReason::Conflict)?;
                let changed: Vec<String> = err.conflicts.iter().map(|c| format!("“{}”", c.key)).collect();
                err.message = format!(
                    "{} changed since you opened {}. Nothing was written: your text is kept on this computer until \
                     you choose to take theirs, keep yours (save again over their version) or merge by hand.",
                    if changed.len() == 1 { format!("Section {}", changed[0]) } else { format!("Sections {}", changed.join(", ")) },
                    if changed.len() == 1 { "it" } else { "them" },
                );
            } else if err.code == IpcCode::Network {
                keep_drafts(session, &kit_id, &args.sections, &err, DraftReason::Offline)?;
                err.message.push_str(" Your unsaved text is kept as a draft on this computer.");
            }
            Err(err)
        }
    }
}

/// Keeps every entry of a refused write (nothing of it was written), merged over an earlier draft of the
/// same section: later fields win.
pub(super) fn keep_drafts(session: &impl WithOutbox, kit_id: &str, edits: &[SectionEdit], err: &IpcError, reason: DraftReason) -> IpcResult<()> {
    let now = now_ms();
    with_kit(session, kit_id, |k| {
        for e in edits {
            let theirs = err.conflicts.iter().find(|c| c.key == e.key).map(|c| c.version);
            let draft = match k.sections.iter_mut().find(|d| d.key == e.key) {
                Some(d) => d,
                None => {
                    k.sections.push(SectionDraft {
                        key: e.key.clone(),
                        body: None,
                        name: None,
                        width: None,
                        tab: None,
                        after_id: None,
                        before_id: None,
                        position: None,
                        expected_version: e.expected_version,
                        theirs_version: None,
                        reason,
                        saved_at: now,
                    });
                    k.sections.last_mut().expect("just pushed")
                }
            };
            if e.body.is_some() {
                draft.body = e.body.clone();
            }
            if e.name.is_some() {
                draft.name = e.name.clone();
            }
            if e.width.is_some() {
                draft.width = e.width.clone();
            }
            if e.tab.is_some() {
                draft.tab = e.tab.clone();
            }
            if e.after_id.is_some() || e.before_id.is_some() || e.position.is_some() {
                draft.after_id = e.after_id.clone();
                draft.before_id = e.before_id.clone();
                draft.position = e.position.clone();
            }
            draft.expected_version = e.expected_version;
            draft.theirs_version = theirs;
            draft.reason = reason;
            draft.saved_at = now;
        }
        ((), true)
    })
}

pub async fn brand_kit_drafts(session: &impl WithOutbox, args: BrandKitIdArgs) -> IpcResult<Vec<SectionDraft>> {
    let kit_id = required("brandKitId", &args.brand_kit_id, "brand kit")?;
    Ok(kit_kept(session, &kit_id)?.sections)
}

/// Drops one kept draft (the user chose "take theirs" or gave it up). Answers the kit's remaining drafts.
pub async fn brand_kit_draft_discard(session: &impl WithOutbox, args: SectionKeyInput) -> IpcResult<Vec<SectionDraft>> {
    let kit_id = required("brandKitId", &args.brand_kit_id, "brand kit")?;
    let (found, rest) = with_kit(session, &kit_id, |k| {
        let before = k.sections.len();
        k.sections.retain(|d| d.key != args.key);
        let found = k.sections.len() != before;
        ((found, k.sections.clone()), found)
    })?;
    if !found {
        return Err(IpcError::new(IpcCode::NotFound, "There is no kept draft of that section: it was saved or discarded."));
    }
    Ok(rest)
}

/// Adds a section at the end of its tab; answers it as the service has it. Takes the catalogue's
/// `SectionAddInput` and its rules (`SectionAddInput::check`, as `cdesk brand-kit section add` and
/// `add_brand_kit_section`).
pub async fn brand_kit_section_add(session: &impl Session, args: SectionAddInput) -> IpcResult<BrandKitSection> {
    let write = args.check()?;
    let kit_id = args.brand_kit_id.trim();
    let kit = session.client().await?.brand_kits().write_sections(kit_id, vec![write.clone()]).await?;
    Ok(contentdesk_ops::brand_kit::added_section(kit, &write)?)
}

/// Archives a section (`POST /archive`, `assetType: brand_kit_section`). Takes the catalogue's
/// `SectionArchiveInput` and its rule (as `cdesk brand-kit section archive` and `archive_brand_kit_section`).
pub async fn brand_kit_section_archive(session: &impl WithOutbox, args: SectionArchiveInput) -> IpcResult<ArchiveResult> {
    set_section_archived(session, &args, true).await
}

/// Restores an archived section (`archived: false`), with its versions. The same input and rule (as
/// `cdesk brand-kit section restore` and `restore_brand_kit_section`).
pub async fn brand_kit_section_restore(session: &impl WithOutbox, args: SectionArchiveInput) -> IpcResult<ArchiveResult> {
    set_section_archived(session, &args, false).await
}

/// The section's id is the one given, else found by its key: among the live sections to archive, among
/// the archived ones to restore (the service's list, or this computer's record where the service keeps
/// none). This computer records what it archived (key, id, name, tab) and forgets it once restored.
async fn set_section_archived(session: &impl WithOutbox, args: &SectionArchiveInput, archived: bool) -> IpcResult<ArchiveResult> {
    let SectionRef { kit: kit_id, key, id } = args.check()?;
    let client = session.client().await?;
    let (id, found) = match id {
        Some(id) => (id, None),
        None if archived => {
            let page = client.brand_kits().get_summary(&kit_id).await?;
            let s = page.sections.into_iter().find(|s| s.key == key).ok_or_else(|| {
                IpcError::new(IpcCode::NotFound, format!("This kit has no live section “{key}”: it may be archived already; refresh the page."))
            })?;
            (s.id.clone(), Some(s))
        }
        None => {
            let kept = kit_kept(session, &kit_id)?;
            let live = client.brand_kits().get_summary(&kit_id).await?.sections;
            let listed = archived_sections(&client, &kit_id, &live, kept.archived).await?;
            let a = listed.into_iter().find(|a| a.key == key).ok_or_else(|| {
                IpcError::new(
                    IpcCode::NotFound,
                    format!("This kit has no archived section “{key}”: it may have been restored already; refresh the page."),
                )
            })?;
            (a.id, None)
        }
    };
    let result = client.archive(&SectionArchiveInput::request(&id, archived)).await?;
    let now = now_ms();
    with_kit(session, &kit_id, |k| {
        k.archived.retain(|a| a.key != key);
        if archived {
            let (section_name, tab) = found.map(|s| (s.section_name, s.tab)).unwrap_or_else(|| (key.clone(), String::new()));
            k.archived.push(ArchivedSection { key: key.clone(), id, section_name, tab, archived_at: now });
        }
        ((), true)
    })?;
    Ok(result)
}

/// The section now and its earlier versions (a history read filtered by the key).
pub async fn brand_kit_history(session: &impl Session, args: SectionKeyInput) -> IpcResult<SectionHistory> {
    let kit_id = required("brandKitId", &args.brand_kit_id, "brand kit")?;
    let key = required("key", &args.key, "section's key")?;
    let filter = SectionFilter::keys([key.clone()]).with_history();
    let view = session.client().await?.brand_kits().get_sections(&kit_id, &filter).await?;
    let mut section = view.sections.into_iter().find(|s| s.key == key).ok_or_else(|| {
        IpcError::new(IpcCode::NotFound, format!("This kit has no live section “{key}”; refresh the page."))
    })?;
    let earlier = section.revisions.take().unwrap_or_default();
    Ok(SectionHistory { section, earlier })
}

/// Brings back an earlier version (`revertTo`). It lands as a new version, so it can itself be reverted.
pub async fn brand_kit_revert(session: &impl Session, args: SectionRevertInput) -> IpcResult<BrandKitSection> {
    args.check()?;
    // The app always says which version it read: a revert over a newer one is a conflict, never a guess.
    let expected = args
        .expected_version
        .ok_or_else(|| IpcError::validation("expectedVersion", "Say which version of the section was read."))?;
    let (kit_id, key) = (args.brand_kit_id.trim().to_string(), args.key.trim().to_string());
    let write = SectionWrite::revert(key.clone(), args.to, expected);
    let kit = session.client().await?.brand_kits().write_sections(&kit_id, vec![write]).await?;
    kit.sections
        .into_iter()
        .find(|s| s.key == key)
        .ok_or_else(|| IpcError::internal("The version was brought back but the service's answer does not list the section; refresh the page."))
}
