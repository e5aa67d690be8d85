//! The knowledge base commands: list, search, add (base64 for small files, a hosted link for large ones), remove.
use super::*;

/// Takes the catalogue's `KnowledgeListInput` and its rules (as `cdesk knowledge list`).
pub async fn knowledge_list(session: &impl Session, args: KnowledgeListInput) -> IpcResult<KnowledgeList> {
    args.check()?;
    let kit_id = required("brandKitId", &args.brand_kit_id, "brand kit")?;
    Ok(session.client().await?.knowledge(&kit_id).list(args.page.limit, args.page.offset).await?)
}

/// The passages of the kit's knowledge that match `query`, best first, with their similarity (0–1).
/// The input and its rules are the catalogue's (`cdesk knowledge search`, `search_brand_knowledge`).
pub async fn knowledge_search(session: &impl Session, args: KnowledgeSearchInput) -> IpcResult<Vec<KnowledgeMatch>> {
    args.check()?;
    let kit_id = required("brandKitId", &args.brand_kit_id, "brand kit")?;
    let query = args.query.trim();
    Ok(session.client().await?.knowledge(&kit_id).search(query, args.limit, args.threshold).await?)
}

/// Takes the catalogue's `KnowledgeAddInput` and its rules (as `cdesk knowledge add` and
/// `add_brand_knowledge`: [`KnowledgeAddInput::request`]); the app sends a small file's bytes inline
/// (`fileData`, with `fileName` and `mimeType`) and a large one by its hosted address (`fileUrl`).
pub async fn knowledge_add(session: &impl Session, args: KnowledgeAddInput) -> IpcResult<KnowledgeAdded> {
    let kit_id = required("brandKitId", &args.brand_kit_id, "brand kit")?;
    let input = args.request()?;
    let client = session.client().await?;
    client.knowledge(&kit_id).add(&input).await.map_err(|e| match e {
        ApiError::LimitReached { limit, current, status, .. } => {
            let counts = match (current, limit) {
                (Some(c), Some(l)) => format!(" ({c} of {l} items)"),
                (None, Some(l)) => format!(" ({l} items)"),
                _ => String::new(),
            };
            IpcError {
                status: (status != 0).then_some(status),
                ..IpcError::new(
                    IpcCode::LimitReached,
                    format!(
                        "This kit is at its plan's cap for knowledge{counts}: nothing was added. Remove an item you no \
                         longer need, or upgrade the plan, then add this again."
                    ),
                )
            }
        }
        other => IpcError::from(other),
    })
}

pub async fn knowledge_remove(session: &impl Session, args: KnowledgeItemInput) -> IpcResult<Deleted> {
    let kit_id = required("brandKitId", &args.brand_kit_id, "brand kit")?;
    let id = required("knowledgeId", &args.knowledge_id, "knowledge item")?;
    Ok(session.client().await?.knowledge(&kit_id).remove(&id).await?)
}
