// A delegated grant through the sandbox's OAuth, the way an app and a person do it (docs/api.md "OAuth"):
// the app registers (RFC 7591), sends the person to the consent page with PKCE S256, the person signs in
// with an account key, leaves the scopes ticked (or unticks some) and presses Allow, and the app exchanges
// the code for tokens. Plain `fetch` and `node:crypto`, no package: shared by the TypeScript SDK's HTTP test
// (tests/mcp/ts_http.test.mjs) and the Chromium journey of Settings → Granted apps (tests/browser).
import crypto from "node:crypto";

const CALLBACK = "http://127.0.0.1:53682/callback"; // never listened on: the redirect is read, not followed

function unescape(s) {
  return s.replaceAll("&quot;", "\"").replaceAll("&#39;", "'").replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&amp;", "&");
}

/** The consent page's form: its hidden fields and the scope boxes as they are (ticked). */
function consentForm(page) {
  const hidden = [...page.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1], unescape(m[2])]);
  const scopes = [...page.matchAll(/<input type="checkbox" name="scope" value="([^"]+)" checked>/g)].map((m) => unescape(m[1]));
  if (!hidden.some(([k]) => k === "token")) throw new Error(`no consent form on the page: ${page.slice(0, 300)}`);
  return { hidden, scopes };
}

/**
 * Tokens for `resource` granted with `key` (the account's API key, what the person signs in with).
 * `untick`: scopes the person takes away. Answers `{ access_token, refresh_token, scope, client_id }`.
 */
export async function grant({ origin, key, resource, clientName = "Node OAuth test app", scopes = null, untick = [] }) {
  const reg = await fetch(`${origin}/oauth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ client_name: clientName, redirect_uris: [CALLBACK], token_endpoint_auth_method: "none" }),
  });
  if (reg.status !== 201) throw new Error(`registration answered ${reg.status}: ${await reg.text()}`);
  const { client_id } = await reg.json();
  const verifier = crypto.randomBytes(48).toString("base64url");
  const challenge = crypto.createHash("sha256").update(verifier).digest("base64url");
  const state = crypto.randomBytes(12).toString("base64url");
  const ask = new URLSearchParams({
    response_type: "code", client_id, redirect_uri: CALLBACK, state, code_challenge: challenge,
    code_challenge_method: "S256", resource,
  });
  if (scopes) ask.set("scope", scopes.join(" "));
  const page = await fetch(`${origin}/oauth/authorize?${ask}`);
  if (page.status !== 200) throw new Error(`the consent page answered ${page.status}: ${await page.text()}`);
  const form = consentForm(await page.text());
  const body = new URLSearchParams(form.hidden);
  body.append("api_key", key);
  for (const s of form.scopes.filter((s) => !untick.includes(s))) body.append("scope", s);
  body.append("action", "allow");
  const decided = await fetch(`${origin}/oauth/authorize`, { method: "POST", body, redirect: "manual" });
  const location = decided.headers.get("location");
  if (decided.status !== 302 || !location) throw new Error(`Allow answered ${decided.status}: ${await decided.text()}`);
  const back = new URL(location).searchParams;
  if (back.get("state") !== state || !back.get("code")) throw new Error(`the redirect carries no code: ${location}`);
  const token = await fetch(`${origin}/oauth/token`, {
    method: "POST",
    body: new URLSearchParams({
      grant_type: "authorization_code", code: back.get("code"), code_verifier: verifier, redirect_uri: CALLBACK,
      client_id, resource,
    }),
  });
  if (token.status !== 200) throw new Error(`the token endpoint answered ${token.status}: ${await token.text()}`);
  return { ...(await token.json()), client_id };
}

/**
 * The person's part of an authorization an OAuth client started (the TypeScript SDK's `auth()` hands its
 * provider `authorizationUrl`): the consent page is fetched, signed in with `key` (the account's API key),
 * Allow pressed with the scopes as ticked less `untick`. Answers the code the redirect carries.
 */
export async function consent(authorizationUrl, key, untick = []) {
  const page = await fetch(authorizationUrl);
  if (page.status !== 200) throw new Error(`the consent page answered ${page.status}: ${await page.text()}`);
  const form = consentForm(await page.text());
  const body = new URLSearchParams(form.hidden);
  body.append("api_key", key);
  for (const s of form.scopes.filter((s) => !untick.includes(s))) body.append("scope", s);
  body.append("action", "allow");
  const decided = await fetch(new URL("/oauth/authorize", authorizationUrl), { method: "POST", body, redirect: "manual" });
  const location = decided.headers.get("location");
  if (decided.status !== 302 || !location) throw new Error(`Allow answered ${decided.status}: ${await decided.text()}`);
  const back = new URL(location).searchParams;
  if (back.get("state") !== new URL(authorizationUrl).searchParams.get("state") || !back.get("code")) {
    throw new Error(`the redirect carries no code: ${location}`);
  }
  return back.get("code");
}
