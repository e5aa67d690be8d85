// The app-wide session: which profiles exist, which is selected, where keys live, and the balance.
// `epoch` changes whenever the selected profile or its key changes, so views reload their data.
import type { AppInfo, Balance, IpcError, Profile, ProfilesView } from "../bindings";
import { api, toIpcError } from "../shared/backend";

export const session = $state({
  info: null as AppInfo | null,
  profiles: [] as Profile[],
  selectedId: null as string | null,
  balance: null as Balance | null,
  balanceError: null as IpcError | null,
  balanceLoading: false,
  startError: null as IpcError | null,
  epoch: 0,
});

export function selectedProfile(): Profile | null {
  return session.profiles.find((p) => p.id === session.selectedId) ?? null;
}

/** The first view only tells the UI what the core had selected all along: views mounted before it
 *  already loaded that profile's data, so it is no change (no second load of everything at start). */
let firstView = true;

export function applyView(view: ProfilesView) {
  const changed = !firstView && (view.selectedId !== session.selectedId
    || selectedProfile()?.hasKey !== view.profiles.find((p) => p.id === view.selectedId)?.hasKey);
  firstView = false;
  session.profiles = view.profiles;
  session.selectedId = view.selectedId;
  if (changed) session.epoch++;
}

let balanceRequest = 0;

/** Reloads the selected profile's balance; an older answer never overwrites a newer one. */
export async function refreshBalance() {
  const mine = ++balanceRequest;
  session.balanceLoading = true;
  try {
    const b = await api.balance();
    if (mine !== balanceRequest) return;
    session.balance = b;
    session.balanceError = null;
  } catch (e) {
    if (mine !== balanceRequest) return;
    session.balance = null;
    session.balanceError = toIpcError(e);
  } finally {
    if (mine === balanceRequest) session.balanceLoading = false;
  }
}

export async function startSession() {
  try {
    const [info, view] = await Promise.all([api.appInfo(), api.profilesList()]);
    session.info = info;
    applyView(view);
    session.startError = null;
  } catch (e) {
    session.startError = toIpcError(e);
    return;
  }
  await refreshBalance();
}

export async function selectProfile(id: string) {
  applyView(await api.profileSelect(id));
  session.epoch++;
  // The previous profile's balance must not show beside the new profile while it loads.
  session.balance = null;
  session.balanceError = null;
  await refreshBalance();
}

/** After a key was stored or deleted for `profileId`. */
export async function keyChanged(view?: ProfilesView) {
  applyView(view ?? (await api.profilesList()));
  session.epoch++;
  await refreshBalance();
}
