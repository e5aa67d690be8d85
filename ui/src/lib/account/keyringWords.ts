// The core's keyring problem (`AppInfo.keyringProblem`, written by `SecretError::user_message`) in
// plain words: the raw cause the backend gave (a "DBus error: …" line, in parentheses) is never the
// headline; it stays behind "Technical details" in Settings.

export interface KeyringWords {
  /** One sentence for the banner: what happens to keys, in words a creator uses. */
  short: string;
  /** What to do, without the raw cause. */
  advice: string;
  /** The backend's own text, for a support request; null when there is none. */
  detail: string | null;
}

export function keyringWords(problem: string | null | undefined): KeyringWords {
  const text = (problem ?? "").trim();
  const raw = /\(([^()]*(?:\([^()]*\)[^()]*)*)\)/.exec(text)?.[1] ?? null;
  const withoutRaw = raw ? text.replace(`(${raw})`, "").replace(/\s+([.,])/g, "$1").replace(/\s{2,}/g, " ").trim() : text;
  if (/^no keyring is reachable/i.test(text)) {
    return {
      short: "The system keyring is not available, so keys are kept in memory until you quit.",
      advice: withoutRaw.replace(/^No keyring is reachable, so API keys are kept in memory for this run only\.\s*/i, "")
        || "Install and start a keyring (such as GNOME Keyring), then restart Content Desk.",
      detail: raw,
    };
  }
  if (/^the keyring is locked/i.test(text)) {
    return {
      short: "The system keyring is locked, so keys are kept in memory until you quit.",
      advice: withoutRaw.replace(/^The keyring is locked or has no login keyring yet\.\s*/i, "") || "Unlock your login keyring, then restart Content Desk.",
      detail: raw,
    };
  }
  if (/^the keyring failed/i.test(text)) {
    return {
      short: "The system keyring did not answer, so keys are kept in memory until you quit.",
      advice: "Try again, or restart Content Desk.",
      detail: text.replace(/^the keyring failed:\s*/i, "").replace(/\.\s*Try again, or restart Content Desk\.$/, "") || null,
    };
  }
  return {
    short: "Keys are kept in memory until you quit: no system keyring answered.",
    advice: text || "Install and start a keyring (such as GNOME Keyring), then restart Content Desk.",
    detail: null,
  };
}
