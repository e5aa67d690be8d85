//! Every command of the core, declared once.
//!
//! [`with_commands!`] hands the table to a macro of the caller, which builds its face from it: the core's
//! `ipc::dispatch` and `ipc::COMMANDS`, the desktop shell's `#[tauri::command]` handlers, and (through
//! `ipc::signatures`) the TypeScript `CoreCommands` map and the command tables of `docs/ipc.md`, both
//! written by `export-bindings`. Adding a command = a function in `commands` (or a module it re-exports)
//! and one entry here; nothing else is edited by hand.
//!
//! An entry: doc lines (the notes column of `docs/ipc.md`), the name (also the function in
//! `crate::commands`), its argument type in parentheses (empty when it takes none) and its result.
//! Entries are grouped under the headings of `docs/ipc.md`.

/// Calls `$then! { "Group" { /// notes \n name(Args) -> Result; ... } ... }` with every command.
#[macro_export]
macro_rules! with_commands {
    ($then:ident) => {
        $then! {
            "App, profiles and keys" {
                app_info() -> $crate::commands::AppInfo;
                profiles_list() -> $crate::ProfilesView;
                /// kind remote; baseUrl defaults to `https://app.contenthero.ai/api/v1`; must be http(s)
                /// (validation, field `baseUrl`)
                profile_add($crate::commands::ProfileAddArgs) -> $crate::Profile;
                profile_rename($crate::commands::ProfileRenameArgs) -> $crate::Profile;
                /// deletes its key from the keyring too; the sandbox profile cannot be removed (validation)
                profile_remove($crate::commands::ProfileRefArgs) -> $crate::ProfilesView;
                profile_select($crate::commands::ProfileRefArgs) -> $crate::ProfilesView;
                /// checked with `GET /account/balance` first; stored only on 200; on 401/403/network nothing is
                /// stored
                key_set($crate::commands::KeySetArgs) -> $crate::api::Balance;
                /// the stored key, checked again
                key_test($crate::commands::ProfileRefArgs) -> $crate::api::Balance;
                /// deletes the key from the keyring
                sign_out($crate::commands::ProfileRefArgs) -> $crate::ProfilesView;
                /// selected profile
                balance() -> $crate::api::Balance;
                /// selected profile; `archived: true` lists the archived spaces too
                spaces_list($crate::commands::SpaceListInput) -> Vec<$crate::api::Space>;
                /// needs `brandkit:read` (the missing-scope journey uses it)
                brand_kits_list() -> Vec<$crate::api::BrandKitSummary>;
                /// the apps the profile's account granted OAuth access to (`GET /oauth/grants`, a key only)
                granted_apps($crate::commands::ProfileRefArgs) -> Vec<$crate::api::OAuthGrant>;
                /// revokes one at once (`DELETE /oauth/grants/{id}`); answers the list as it is now
                granted_app_revoke($crate::commands::GrantRevokeArgs) -> Vec<$crate::api::OAuthGrant>;
                /// the update preferences (check at start, at most once a day; when the last check ran; a version
                /// waiting for the user to install it)
                update_prefs() -> $crate::update::UpdatePrefs;
                /// turns the check at start on or off (stored with the other settings)
                update_prefs_set($crate::commands::UpdatePrefsSetArgs) -> $crate::update::UpdatePrefs;
                /// reads the release manifest (`latest.json`; `CONTENTDESK_UPDATE_URL` overrides where) and says
                /// whether a newer version signed with the app's key is there; `atStart: true` checks only when
                /// due (state `skipped` otherwise); a failure is state `failed` with a short note, never an error
                update_check($crate::commands::UpdateCheckArgs) -> $crate::update::UpdateStatus;
                /// "Connect ContentHero" with a pasted key: checked with `GET /account/balance` at `baseUrl`
                /// (default ContentHero's); on 200 a remote profile named “ContentHero” (“ContentHero 2”, …) is
                /// made, the key stored and the profile selected; refused: nothing is made
                connect_with_key($crate::commands::ConnectKeyArgs) -> $crate::commands::Connected;
                /// the browser sign-in of `cdesk login` (`api_client::browser_login`): a loopback listener, and
                /// the service's `/cli/auth` consent page opened through the face's URL opener; answers that
                /// page's URL (`opened: false` when no browser could be opened); one sign-in at a time
                connect_browser_start($crate::commands::ConnectStartArgs) -> $crate::commands::ConnectStarted;
                /// waits (3 minutes) for the consent page's answer; its key is checked and stored as
                /// `connect_with_key`'s (the web view never sees it); Cancel in the browser, a timeout or
                /// `connect_browser_cancel`: validation (field `browser`), nothing made
                connect_browser_finish() -> $crate::commands::Connected;
                /// stops the sign-in under way; false when there was none
                connect_browser_cancel() -> bool;
            }
            "Planner" {
                /// stages in board order; every card of the space matching the filters (pages of 100 until
                /// `hasMore` is false, at most 5,000), ordered by stage then `boardOrder`; `archived: true` =
                /// the archived cards only; `firstPage: true` = each stage's first 20 cards, all stages asked
                /// at once, with each stage's count in `stageTotals` and `complete: false` when a stage has
                /// more (the board shows that at once and loads the whole space behind it)
                board_load($crate::commands::BoardLoadArgs) -> $crate::commands::Board;
                /// name trimmed, 1–120 characters (validation, field `name`); not `coverUrl`/`duplicateFrom`
                space_create($crate::commands::SpaceCreateInput) -> $crate::api::Space;
                /// `name` trimmed, 1–120 characters; not a cover (validation, field `coverUrl`)
                space_rename($crate::commands::SpaceUpdateInput) -> $crate::api::Space;
                /// the catalogue's `archive` input with `assetType: "space"` (`POST /archive`); `off: true` restores
                space_archive($crate::commands::ArchiveInput) -> $crate::api::ArchiveResult;
                /// at the end unless `afterId` (`beforeId` is refused); `spaceId` needed; name trimmed, 1–60
                /// characters (validation, field `name`)
                stage_create($crate::commands::StageCreateInput) -> $crate::api::Stage;
                /// rename, recolour, move (one of `afterId`/`beforeId`, both: validation field `beforeId`;
                /// not `toStart`/`toEnd`); `spaceId` needed
                stage_update($crate::commands::StageUpdateInput) -> $crate::api::StageUpdated;
                /// its cards move to `targetStageId` (the first other stage when absent; itself: validation)
                stage_delete($crate::commands::StageDeleteInput) -> $crate::api::StageDeleted;
                /// the catalogue's input (`cdesk card create`, `create_card`): a title of 1 to 300 characters, a
                /// platform, `spaceId` needed (validation); at the end of `stage` (the space's first stage when
                /// absent); never sent twice blindly: when its answer is lost (no answer, a 5xx, an unreadable body)
                /// a read of the stage shows whether it landed (then the card is returned)
                card_create($crate::commands::CardCreateInput) -> $crate::api::CardSummary;
                /// `PATCH /cards/{id}` with `stage` and `beforeCardId` (not itself: validation); without `beforeCardId` the card goes to
                /// the end of the stage
                card_move($crate::commands::CardMoveInput) -> $crate::api::CardSummary;
                card_get($crate::commands::CardId) -> $crate::api::CardDetail;
                /// `posts`/`assets` are whole lists, checked locally first against the spec's 400 rules
                /// (validation naming the field); notes need `expectedRevision` (a 409 is `notesConflict` with
                /// their notes and revision); answers the card read back
                card_update($crate::commands::CardUpdateArgs) -> $crate::api::CardDetail;
                /// the catalogue's `archive` input with `assetType: "card"`; `off: true` restores; `baseUpdatedAt`
                /// and `title` (the app's only) are the base of a change kept offline
                card_archive($crate::commands::ArchiveInput) -> $crate::api::ArchiveResult;
                /// the posts of the named cards (at most 500; validation `cards`), for the calendar: each
                /// card read with `GET /cards/{id}`, 4 at a time, and kept in memory with its `updatedAt`; a
                /// card named with the same `updatedAt` again is answered from memory (no request); a card
                /// gone (404) is left out
                calendar_posts($crate::commands::CalendarPostsArgs) -> Vec<$crate::commands::CardPosts>;
                /// the posts of the visible weeks `[from, to)` (RFC 3339), every one at its own time: the API
                /// cannot filter cards by time, so every page of the space's cards is listed (the board's
                /// filters) and every card with posts read (as `calendar_posts`, kept by `updatedAt`), nearest
                /// the window first, at most 500 new reads a call (`unread`: call again); answers the cards
                /// whose time or a post's own time lies in the window
                calendar_window($crate::commands::CalendarWindowArgs) -> $crate::commands::CalendarWindow;
                tags_list() -> Vec<$crate::api::Tag>;
                connected_accounts_list() -> Vec<$crate::api::ConnectedAccount>;
                /// a copy with its posts, assets and notes, unscheduled (the card's and each post's time left
                /// out, as Buffer's and Later's duplicate), " (copy)" in its title, in the same stage
                card_duplicate($crate::commands::CardId) -> $crate::api::CardSummary;
                /// copies every `every` (`3d`, `1w`) after the card's time, `count` (1–52) of them or `until` a
                /// date (included); each an ordinary card made at once with its own time; rules checked before
                /// anything is made (validation naming `every`/`count`/`until`/`cardId`)
                card_repeat($crate::commands::CardRepeatInput) -> Vec<$crate::api::CardSummary>;
                /// the selected profile's posting queue: slots (account, weekday 1–7, `HH:MM` UTC) and the clash
                /// window in minutes (default 30), from `queue-slots.json` in the data folder (by profile id)
                queue_slots_get() -> $crate::commands::QueueSettings;
                /// replaces the selected profile's queue (checked first: validation naming `slots[i].…` or
                /// `clashMinutes`); written atomically
                queue_slots_set($crate::commands::QueueSettings) -> $crate::commands::QueueSettings;
                /// each post in the next free slot of its account (free: no scheduled post of that account
                /// within the clash window, in any space); a post without an account or an account without
                /// slots: validation, nothing scheduled
                card_queue($crate::commands::CardId) -> $crate::commands::Queued;
            }
            "Import, export and backup" {
                /// the catalogue's `card import` (`import_cards`) on the file's `text` (required: the core opens
                /// no path the web view names; `file` only names it in messages); `dryRun` makes nothing;
                /// `lines` only those rows (the UI creates a few lines a call, for its progress, and re-runs a
                /// refused row alone). Each row's key is kept as the last line of its card's notes
                /// (`cdesk-import-key: KEY`): a row already imported is `existing`, never made twice. A row
                /// breaking a rule is `refused` with its line and field; the others still go. Not CSV or JSON:
                /// validation, nothing made
                card_import($crate::commands::CardImportInput) -> $crate::commands::ImportReport;
                /// the catalogue's `calendar export` (`export_calendar`): one event per scheduled post in
                /// `[from, to)` as `ics` (RFC 5545), `csv` or `json`, with a file name to save it under
                calendar_export($crate::commands::CalendarExportInput) -> $crate::commands::ExportedFile;
                /// Settings › Backup: writes `uiPreferences` (the web view's) to `ui-preferences.json`, then
                /// one JSON file of `settings.json` (never a key), `outbox.json`, `queue-slots.json`,
                /// `ui-preferences.json` and the studio queue (`backup::create`); a key anywhere refuses it
                backup_create($crate::commands::BackupCreateArgs) -> $crate::commands::BackupFile;
                /// checks the backup (validation `text`: not one, another version, a file not ours) and stages
                /// it as `restore-pending.json`: the next start replaces the files with it before opening any
                /// (the running core holds them open); answers its UI preferences for the web view to take now
                backup_restore($crate::commands::BackupRestoreArgs) -> $crate::commands::RestoreStaged;
                /// `ui-preferences.json`'s preferences, with `restoredAt` when a restore wrote them
                ui_preferences() -> $crate::commands::UiPreferences;
            }
            "Offline drafts" {
                /// the selected profile's outbox; `waiting` excludes the conflicts; `fields` = the camelCase
                /// `UpdateCard` fields of the kept change
                drafts_status() -> $crate::commands::DraftsStatus;
                /// tries every waiting kept change now, in the order they were kept; `sent` = how many went;
                /// `offline: true` = the service still does not answer (the rest wait)
                drafts_sync() -> $crate::commands::DraftsStatus;
                /// one kept change of `changes` by its `id`: `discardMine` drops it (a stage or space made
                /// offline: with the changes that name it; `notFound` when no such change), `sendMine` sends it
                /// over what the service has now (a card's notes over its current revision); no answer →
                /// `queued` again (it waits, without the check)
                drafts_resolve($crate::commands::DraftsResolveArgs) -> $crate::commands::DraftsStatus;
            }
            "Attach and publish" {
                /// the inspiration posts (`GET /content`): `id` is the `contentId` to attach; `sourceCreator`,
                /// `accountHandle`, `outlierScore`, `viewCount`, `thumbnailUrl`; `limit` 1–100 (validation,
                /// field `limit`), `platform` one of the platforms; needs `brandkit:read`
                content_list($crate::commands::ContentListInput) -> $crate::api::ContentList;
                /// needs `editor:read`
                projects_list() -> Vec<$crate::api::Project>;
                /// made linked to the card in the same call (`cardId`); `linkedCardId` is always filled beside
                /// `project` (and in it); the project is on the card's assets as `projectId`; a card not the
                /// caller's is `notFound` and no project is made; name 1–200 characters (validation, field
                /// `name`); needs `editor:write` + `planner:write`
                project_create($crate::commands::ProjectCreateInput) -> $crate::api::ProjectCreated;
                /// the catalogue's `project import` (`import_project`): one of `pptxUrl` (http(s), validation field
                /// `pptxUrl`) or `canvaDesignId` (400 `canva_not_connected` when Canva is not connected);
                /// `pageCount` 1–500; `cardId` needed
                project_import($crate::commands::ProjectImportInput) -> $crate::api::ProjectCreated;
                /// the catalogue's upload input (as `cdesk media upload` and `upload_media`): the bytes as
                /// base64 in `contentBase64` (a `data:…;base64,` prefix is accepted; a path is refused);
                /// checked first: `name` 1–255 characters, `contentType` (else guessed from the name) an
                /// `image/`, `video/` or `audio/` type, at most 50 MiB decoded and not empty (validation
                /// naming `name` / `contentType` / `contentBase64`); then ticket → PUT → complete; attach
                /// with `{ outputId }`; needs `assets:write`. The bytes never appear in a log line
                media_upload($crate::commands::MediaUploadInput) -> $crate::api::UploadedMedia;
                /// publishes now (every post, or `platform`'s only); each platform answers on its own (a post
                /// with no connected account fails with its `error`, the others still publish); needs
                /// `publish:write` (403 → `missingScope`, `scope: "publish:write"`); when its answer is lost, a
                /// read of the card shows which posts it published (never sent twice blindly)
                card_publish($crate::commands::CardPublishInput) -> $crate::api::PublishResult;
            }
            "Studio" {
                /// the live registry (`GET /models?contentType=`), kept for the session per profile;
                /// `capabilities` decide the form's fields
                models_list($crate::commands::ModelListInput) -> Vec<$crate::api::ModelInfo>;
                /// for speech and lip-sync, kept for the session
                voices_list() -> Vec<$crate::api::Voice>;
                /// `getCost: true`: nothing runs, nothing is charged; an identical request (after trimming) is
                /// answered from the session's copy (`cached`); `reason` says how many credits are missing when
                /// `affordable` is false
                studio_quote($crate::commands::StudioQuoteArgs) -> $crate::commands::StudioQuote;
                /// `outputId` is a UUID the UI mints once per click; the job is written to `studio.db` before
                /// the request goes out, with the exact request; `completed` when the render finished within
                /// the smart-wait, else `processing` and polled here; only a refusal the service sent
                /// (400/402/403 with a body) removes the job (event `removed`, returned as the error: nothing
                /// was charged); a request nothing answered stays `submitting` and is sent again with the same
                /// `outputId` (never charged twice); an unreadable 2xx keeps the job `processing` and reads its
                /// status; a 401 keeps it and stops the profile's polling until `key_set` (error
                /// `unauthorized`); the same `outputId` again returns the existing job
                studio_generate($crate::commands::StudioGenerateArgs) -> $crate::commands::StudioJob;
                /// the selected profile's jobs, newest first (at most 500): the queue (not `cleared`) and the
                /// gallery (`completed`)
                studio_jobs() -> Vec<$crate::commands::StudioJob>;
                /// stops waiting (`cancelled`); the service cannot stop a render, the message says it may still
                /// finish
                studio_cancel($crate::commands::StudioJobArgs) -> $crate::commands::StudioJob;
                /// cancelled: resumes the same `outputId` (sent again; the service replays the render it has,
                /// `idempotentReplay`, nothing charged twice; `error` says so); failed or abandoned: a new job
                /// (new `outputId`) with the same form; submitting/processing: its poller starts again at once;
                /// `unauthorized` while the profile's key is refused
                studio_retry($crate::commands::StudioJobArgs) -> $crate::commands::StudioJob;
                /// marks finished jobs `cleared` (off the queue list; completed ones stay in the gallery)
                studio_clear_finished() -> u32;
                /// appends `{ outputId: token }` to the card's whole `assets` list through `card_update` (same
                /// checks, same offline drafts)
                card_attach_output($crate::commands::CardAttachOutputArgs) -> $crate::api::CardDetail;
                /// the account's finished creations (renders and boards, wherever they were made: this app,
                /// another client, the sandbox's demo), newest first, one entry per output: `GET
                /// /media?source=creations&status=completed`; `contentType` a list of `image` / `video` /
                /// `audio`; `limit` 1–100 (validation naming `limit`; the service's default 50 when absent),
                /// `offset` pages. An entry's output token is `<id>-<variant + 1>`, the same as the local
                /// gallery's. The gallery shows the local completed jobs first, then these (deduplicated by
                /// token); needs no scope
                media_library($crate::commands::MediaListInput) -> Vec<$crate::api::MediaSummary>;
            }
            "Brand kit" {
                /// `GET /brand-kits/{id}?detail=summary`: per section `key, role, tab, sectionName, width,
                /// version, charCount, outline` (its `##` headings), no bodies; plus the archived sections the
                /// service lists (`detail=summary&archived=true`; a service that does not: those archived here)
                /// and the drafts this computer keeps
                brand_kit_page($crate::commands::BrandKitIdArgs) -> $crate::commands::BrandKitPage;
                /// the filter read mode, with bodies; lists are AND-combined; none given → `validation` (field
                /// `keys`). An unknown role or tab is the service's 400: `validation` with `field`
                /// (`roles`/`tabs`) and `validValues` (the eight roles, or `overview, voice, visual`)
                /// The catalogue's `brand-kit get` input (`get_brand_kit`); `history: true` adds earlier versions;
                /// `detail` is not taken (validation field `detail`: the page reads the summary)
                brand_kit_sections($crate::commands::BrandKitGetInput) -> $crate::api::BrandKitSectionsView;
                /// one `PATCH /brand-kits/{id}` with only the given sections, each with `expectedVersion`: all
                /// or nothing. Checked first (validation naming `sections[i].<field>`): a key once, something
                /// to change, `width` `full`/`half` and `tab` with `validValues`, `role` only the section's own
                /// (it cannot be changed); a place in its (new) tab, at most one of `afterId`/`beforeId` (a
                /// section id) or `position` `top`/`bottom` (the newest era's `Placement`; a move alone is a
                /// change and keeps the version). **409**: nothing written; `conflict` with `conflicts: [{ key,
                /// version, body }]` (each stale section's current version and body) and every entry of the
                /// write kept as a draft (`reason: "conflict"`, `theirsVersion`). No answer: `network`, the
                /// entries kept as drafts (`reason: "offline"`). Saved: those sections' drafts are cleared.
                /// "Keep mine" = save again with `expectedVersion` = the conflict's `version`
                brand_kit_save($crate::commands::BrandKitSaveArgs) -> Vec<$crate::api::BrandKitSection>;
                /// the unsaved changes kept for the kit (selected profile)
                brand_kit_drafts($crate::commands::BrandKitIdArgs) -> Vec<$crate::commands::SectionDraft>;
                /// drops one draft on purpose ("take theirs"); `notFound` when there is none
                brand_kit_draft_discard($crate::commands::SectionKeyInput) -> Vec<$crate::commands::SectionDraft>;
                /// the catalogue's input and its rules (`SectionAddInput::check`, as `cdesk brand-kit section
                /// add` and `add_brand_kit_section`), before sending: `sectionName` with words, at most 120
                /// characters (`SECTION_NAME_MAX_CHARS`), `width` and `tab` known (validation naming the
                /// field, with `validValues`); a field it does not name, `role` among them, is refused by name
                /// (an added section has no role); `width` defaults to `full`; lands at the end of its tab
                brand_kit_section_add($crate::commands::SectionAddInput) -> $crate::api::BrandKitSection;
                /// the catalogue's input and its rule (`SectionArchiveInput::check`, as `cdesk brand-kit section
                /// archive` and `archive_brand_kit_section`: a kit and a key); `POST /archive { assetType:
                /// "brand_kit_section", id, archived: true }`; the id is `sectionId` when given, else the live
                /// section's of that key; `notFound` when there is none
                brand_kit_section_archive($crate::commands::SectionArchiveInput) -> $crate::api::ArchiveResult;
                /// the same input and rule (as `cdesk brand-kit section restore` and
                /// `restore_brand_kit_section`); `archived: false`; the id is `sectionId` when given, else found
                /// by key among the archived sections the service lists (wherever they were archived; a service
                /// that does not list them: this computer's record); `notFound` when there is none. A restored
                /// section keeps its versions
                brand_kit_section_restore($crate::commands::SectionArchiveInput) -> $crate::api::ArchiveResult;
                /// a history read filtered by the key (`keys=<key>&history=true`); `earlier` newest first, each
                /// `{ version, body, bodySource, createdAt }`; `notFound` for no live section
                brand_kit_history($crate::commands::SectionKeyInput) -> $crate::commands::SectionHistory;
                /// `revertTo: version` with `expectedVersion`: lands as a new version, so a revert can itself
                /// be reverted; stale → `conflict` as above (no draft: there is no text to keep); an unknown
                /// version is the service's 400
                brand_kit_revert($crate::commands::SectionRevertInput) -> $crate::api::BrandKitSection;
                /// `limit` 1–100 (default 50; validation `limit`)
                knowledge_list($crate::commands::KnowledgeListInput) -> $crate::api::KnowledgeList;
                /// `query` required (validation `query`); `limit` 1–50 (default 8)
                knowledge_search($crate::commands::KnowledgeSearchInput) -> Vec<$crate::api::KnowledgeMatch>;
                /// the catalogue's add input and its rules (`KnowledgeAddInput::request`, as `cdesk knowledge
                /// add` and `add_brand_knowledge`): exactly one source (validation `source`). `fileData`: base64 (a `data:` prefix is accepted)
                /// of a small document or image, `sourceType: file` with `fileExt` (or from `fileName`);
                /// refused before sending (validation `fileData`, the message says to add it by hosted URL,
                /// `fileUrl`) when it decodes to more than 4 MB (`KNOWLEDGE_MAX_FILE_BYTES`, the sandbox's
                /// `knowledge_max_file_bytes`) or is video or audio (by extension or `mimeType`). `fileUrl`: a
                /// hosted http(s) file (large files, video, audio). `url`: a web page (`youtube` when the host
                /// is YouTube); `youtube`: a video. `fileName`/`mimeType` are local hints, not sent. **Plan cap**: `limitReached`
                /// (status 402) “This kit is at its plan's cap for knowledge (N of M items): nothing was added.
                /// Remove an item you no longer need, or upgrade the plan, then add this again.”
                knowledge_add($crate::commands::KnowledgeAddInput) -> $crate::api::KnowledgeAdded;
                /// `notFound` when gone
                knowledge_remove($crate::commands::KnowledgeItemInput) -> $crate::api::Deleted;
            }
        }
    };
}
