// The versions this app wrote, kept on this computer per profile, kit and section, so the history can say
// "edited in Content Desk" for them. The service cannot say it: its `bodySource` is `api` for every
// write made with a key, ours or any other client's (contract-facts §3.6). So the app notes the version
// each of its own writes was answered with (a save, keep mine, a merge, a revert, an added section), and
// the history labels by that. A version written from another computer, by `cdesk`, or before this was
// kept reads by its `bodySource` alone.
export const WRITTEN_PREFIX = "contentdesk.brandKit.written";

/** How many versions are remembered per section (the newest). */
export const WRITTEN_KEEP = 100;

const storeKey = (profileId: string | null, kitId: string) => `${WRITTEN_PREFIX}.${profileId ?? ""}.${kitId}`;

function readAll(profileId: string | null, kitId: string): Record<string, number[]> {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(storeKey(profileId, kitId)) ?? "{}");
    if (!parsed || typeof parsed !== "object") return {};
    const out: Record<string, number[]> = {};
    for (const [k, v] of Object.entries(parsed as Record<string, unknown>)) {
      if (Array.isArray(v)) out[k] = v.filter((n): n is number => Number.isInteger(n));
    }
    return out;
  } catch {
    return {};
  }
}

/** Notes that this app's write of section `key` was answered with `version`. */
export function noteWritten(profileId: string | null, kitId: string, key: string, version: number): void {
  if (!kitId || !key || !Number.isInteger(version)) return;
  const all = readAll(profileId, kitId);
  const versions = [...new Set([...(all[key] ?? []), version])].sort((a, b) => a - b).slice(-WRITTEN_KEEP);
  all[key] = versions;
  try {
    localStorage.setItem(storeKey(profileId, kitId), JSON.stringify(all));
  } catch {
    // Storage full or unavailable: the history then labels this version by its bodySource.
  }
}

/** The versions of section `key` this app wrote (as far as this computer kept them). */
export function writtenVersions(profileId: string | null, kitId: string, key: string): Set<number> {
  return new Set(readAll(profileId, kitId)[key] ?? []);
}
