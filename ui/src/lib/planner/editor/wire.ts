// The planner's wire types the editor uses, generated from crates/api-types (ts-rs).
export type {
  ArchiveResult, CardAsset, CardAssetInput, CardAssetInspiration, CardDetail, CardSummary, ConnectedAccount, ContentList,
  ContentListInput, ContentSummary, JsonValue, Post, PostInput, Project, ProjectCreated, PublishOutcome, PublishResult, Tag,
  UpdateCard, UploadedMedia,
} from "../../bindings";
