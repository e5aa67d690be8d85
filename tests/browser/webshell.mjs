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
