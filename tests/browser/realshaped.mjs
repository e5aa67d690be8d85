// A "real-shaped" front for the sandbox: every request goes through to it unchanged, except the model
// registry, which comes back as the real service writes it (nested capabilities: `aspectRatio` and
// `resolution` as `{supported, default}`, `duration {mode: discrete, options}`, `generations`,
// `maxImageRefs`, `inputTypes`) with one more model of a kind no build knows (`video-extend`). The sandbox
// sends the nested form too (issue 27), but only ranges of lengths and no defaults: the front turns a
// range into the discrete list and adds the defaults the real registry names, shapes the sandbox has no
// model for; the real service cannot be reached from here.
import http from "node:http";

/** The sandbox's capabilities (nested, or the older flat names), as the real service spells them. */
export function nested(c) {
  if (c.duration || c.aspectRatio || c.resolution || c.generations) return withDefaults(c);
  const out = {
    kind: "generate", outputType: c.outputType, promptMode: c.promptMode, promptMaxChars: c.promptMaxChars,
    inputTypes: ["text", ...(c.startFrame ? ["startFrame"] : []), ...(c.endFrame ? ["endFrame"] : [])],
    generations: { min: 1, max: c.maxOutputs ?? 1, default: 1 },
    maxImageRefs: c.maxReferenceImages ?? 0,
    negativePrompt: c.negativePrompt,
  };
  if (c.aspectRatios?.length) out.aspectRatio = { supported: c.aspectRatios, default: c.aspectRatios[0] };
  if (c.resolutions?.length) out.resolution = { supported: c.resolutions, default: c.resolutions[0] };
  if (c.durationSeconds) {
    const { min, max } = c.durationSeconds;
    out.duration = { mode: "discrete", options: [...new Set([min, Math.round((min + max) / 2), max])], default: max };
  }
  return out;
}

/** The sandbox's nested form with what the real registry adds: defaults, and lengths as a list. */
function withDefaults(c) {
  const out = { ...c, kind: "generate" };
  const pick = (o) => (o?.supported?.length ? { supported: o.supported, default: o.default ?? o.supported[0] } : undefined);
  if (pick(c.aspectRatio)) out.aspectRatio = pick(c.aspectRatio);
  if (pick(c.resolution)) out.resolution = pick(c.resolution);
  if (c.duration?.mode === "range") {
    const { min, max } = c.duration;
    out.duration = { mode: "discrete", options: [...new Set([min, Math.round((min + max) / 2), max])], default: max };
  }
  out.generations = c.generations ?? { min: 1, max: 1, default: 1 };
  out.maxImageRefs = c.maxImageRefs ?? 0;
  return out;
}

export const EXTEND_MODEL = {
  modelId: "veo-4-extend", displayName: "Veo 4 Extend", description: "Extends a clip by a few seconds.",
  contentType: "video", kind: "video-extend", tags: ["new"], isDefault: false,
  capabilities: { kind: "video-extend", outputType: "video", promptMode: "optional", inputTypes: ["singleVideo"] },
  brandColor: "#0EA5E9",
};

function rewriteModels(url, body) {
  const list = JSON.parse(body);
  for (const m of list.models ?? []) if (m.kind === "generate") m.capabilities = nested(m.capabilities);
  const type = new URL(url, "http://x").searchParams.get("contentType");
  if (!type || type === "video") list.models.push(EXTEND_MODEL);
  return JSON.stringify(list);
}

/** Starts the front on an ephemeral port; answers its base URL (with the sandbox's path) and a stop. */
export async function startRealShaped(sandboxBase) {
  const target = new URL(sandboxBase);
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const headers = { ...req.headers, host: target.host };
      const up = http.request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers }, (upRes) => {
        const parts = [];
        upRes.on("data", (c) => parts.push(c));
        upRes.on("end", () => {
          let body = Buffer.concat(parts).toString();
          const isRegistry = req.method === "GET" && /\/models(\?|$)/.test(req.url) && upRes.statusCode === 200;
          if (isRegistry) body = rewriteModels(req.url, body);
          const out = { ...upRes.headers };
          delete out["content-length"];
          delete out["transfer-encoding"];
          res.writeHead(upRes.statusCode, out);
          res.end(body);
        });
      });
      up.on("error", (e) => { res.writeHead(502); res.end(JSON.stringify({ error: String(e) })); });
      up.end(Buffer.concat(chunks));
    });
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address();
  return { base: `http://127.0.0.1:${port}${target.pathname.replace(/\/$/, "")}`, stop: () => new Promise((r) => server.close(r)) };
}
