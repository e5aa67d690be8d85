// The hosts a user allowed remote images from, per brand kit (a UI preference, kept in the web view's
// storage like the other page preferences; never a key or a body). A kit opens with none allowed.
const PREFIX = "contentdesk.imageHosts";

function storageKey(kitId: string): string {
  return `${PREFIX}.${kitId}`;
}

/** The hosts allowed for this kit (empty when none, or when storage cannot be read). */
export function allowedImageHosts(kitId: string | undefined): Set<string> {
  if (!kitId) return new Set();
  try {
    const raw = JSON.parse(localStorage.getItem(storageKey(kitId)) ?? "[]");
    return new Set(Array.isArray(raw) ? raw.filter((h): h is string => typeof h === "string") : []);
  } catch {
    return new Set();
  }
}

/** Allows `host` for this kit from now on; returns the new set. */
export function allowImageHost(kitId: string | undefined, host: string): Set<string> {
  const hosts = allowedImageHosts(kitId);
  hosts.add(host.toLowerCase());
  if (kitId) {
    try {
      localStorage.setItem(storageKey(kitId), JSON.stringify([...hosts].sort()));
    } catch { /* private mode: allowed for this view only */ }
  }
  return hosts;
}
