// Typed wrappers for the planner commands the card editor uses (docs/ipc.md "Planner (issue 4)").
import { call } from "../../shared/backend";
import type { ArchiveResult, CardDetail, ConnectedAccount, Tag, UpdateCard } from "./wire";

export const editorApi = {
  cardGet: (cardId: string) => call<CardDetail>("card_get", { cardId }),
  cardUpdate: (cardId: string, update: UpdateCard) => call<CardDetail>("card_update", { cardId, update }),
  cardArchive: (cardId: string, archived: boolean) => call<ArchiveResult>("card_archive", { cardId, archived }),
  tagsList: () => call<Tag[]>("tags_list"),
  connectedAccountsList: () => call<ConnectedAccount[]>("connected_accounts_list"),
};
