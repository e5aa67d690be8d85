// A core command through web-shell's HTTP, as the UI calls it (`POST /ipc/<command>` with the run's
// token), for the journeys' and the benchmark's set-up and read-backs. A refusal throws an Error whose
// `ipc` is the IpcError body.
export async function callCore(origin, token, command, args = {}) {
  const res = await fetch(`${origin}/ipc/${command}`, {
    method: "POST",
    headers: { "content-type": "application/json", "X-ContentDesk-Token": token },
    body: JSON.stringify(args),
  });
  const body = await res.json();
  if (!res.ok) throw Object.assign(new Error(`${command}: ${JSON.stringify(body)}`), { ipc: body });
  return body;
}

/** What a journey run by scripts/ui-e2e.sh reads from its environment: web-shell's URL (with the run's
 *  token), its origin, where captures go, and `ipc` to call the core (throws when run outside that
 *  script, saying how to run it). */
export function shellEnv() {
  const { WEB_SHELL_URL } = process.env;
  if (!WEB_SHELL_URL) throw new Error("WEB_SHELL_URL is not set: run scripts/ui-e2e.sh");
  const ARTIFACTS = process.env.E2E_ARTIFACTS ?? new URL("../artifacts/browser", import.meta.url).pathname;
  const TOKEN = new URL(WEB_SHELL_URL).searchParams.get("token");
  const ORIGIN = new URL(WEB_SHELL_URL).origin;
  return { WEB_SHELL_URL, ARTIFACTS, ORIGIN, ipc: (command, args) => callCore(ORIGIN, TOKEN, command, args) };
}
