// Typed wrappers for the planner commands the card editor uses (docs/ipc.md "Planner (issue 4)" and
// "Attach and publish").
import { call } from "../../shared/backend";
import type { CardSummary } from "../../bindings";
import type {
  ArchiveResult, CardDetail, ConnectedAccount, ContentList, ContentListInput, Project, ProjectCreated, PublishResult, Tag,
  UpdateCard, UploadedMedia,
} from "./wire";

export const editorApi = {
  cardGet: (cardId: string) => call<CardDetail>("card_get", { cardId }),
  cardUpdate: (cardId: string, update: UpdateCard) => call<CardDetail>("card_update", { cardId, update }),
  /** `base`: the card as the editor read it, so an archive kept offline meets a change made elsewhere. */
  cardArchive: (cardId: string, archived: boolean, base?: { updatedAt?: string | null; title?: string }) =>
    call<ArchiveResult>("card_archive", {
      assetType: "card", id: cardId, off: !archived,
      ...(base?.updatedAt ? { baseUpdatedAt: base.updatedAt } : {}), ...(base?.title !== undefined ? { title: base.title } : {}),
    }),
  tagsList: () => call<Tag[]>("tags_list"),
  connectedAccountsList: () => call<ConnectedAccount[]>("connected_accounts_list"),
  contentList: (args: ContentListInput) => call<ContentList>("content_list", args),
  projectsList: () => call<Project[]>("projects_list"),
  projectCreate: (cardId: string, title: string) => call<ProjectCreated>("project_create", { cardId, title }),
  /** A PowerPoint file (by URL) or a Canva design, imported as a project linked to the card. */
  projectImport: (cardId: string, source: { pptxUrl: string } | { canvaDesignId: string }, title?: string) =>
    call<ProjectCreated>("project_import", { cardId, ...source, ...(title ? { title } : {}) }),
  mediaUpload: (fileName: string, contentType: string, dataBase64: string) =>
    call<UploadedMedia>("media_upload", { name: fileName, contentType, contentBase64: dataBase64 }),
  /** A copy with its posts, assets and notes, unscheduled, " (copy)" in its title (`card_duplicate`). */
  cardDuplicate: (cardId: string) => call<CardSummary>("card_duplicate", { cardId }),
  /** Copies every `every` (`1w`, `3d`) after the card's time, `count` of them or `until` a date (`card_repeat`). */
  cardRepeat: (cardId: string, every: string, bound: { count: number } | { until: string }) =>
    call<CardSummary[]>("card_repeat", { cardId, every, ...bound }),
  cardPublish: (cardId: string, platform?: string) =>
    call<PublishResult>("card_publish", platform ? { cardId, platform } : { cardId }),
};
