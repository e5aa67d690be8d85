// The planner's wire types the editor uses, generated from crates/api-types/src/planner.rs (ts-rs).
export type {
  ArchiveResult, CardAsset, CardAssetInput, CardAssetInspiration, CardDetail, CardSummary, ConnectedAccount, JsonValue,
  Post, PostInput, Tag, UpdateCard,
} from "../../bindings";
