// The media upload tool and `--confirm-spend-over` checked by the official TypeScript MCP SDK's client
// (@modelcontextprotocol/sdk) over stdio against a real sandbox (issue 27): a real PNG uploaded by its path
// is found with list_media and its bytes read back; a file that is not media is refused and the key is in
// no result; with `--confirm-spend-over 0` a render is asked about first (elicitation): accepted it renders
// and charges once, declined nothing is charged.
// Run: `bash tests/mcp/run.sh`.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { cdeskMcp, startSandbox, workFolder } from "./ts_common.mjs";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const work = workFolder("ts-upload");
let sandbox, ready;

before(async () => {
  ({ sandbox, ready } = await startSandbox(work, { smartWaitMs: 100 }));
});

after(() => {
  sandbox?.kill();
  fs.rmSync(work, { recursive: true, force: true });
});

/** A connected client of `cdesk mcp ARGS`; `answer` (true/false) makes it able to elicit. */
async function connect(args = [], answer = undefined) {
  const transport = cdeskMcp(work, ready, args);
  const capabilities = answer === undefined ? {} : { elicitation: {} };
  const client = new Client({ name: "contentdesk-ts-upload", version: "1.0.0" }, { capabilities });
  const asked = [];
  if (answer !== undefined) {
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return { action: "accept", content: { confirm: answer } };
    });
  }
  await client.connect(transport);
  return { client, asked };
}

/** A real PNG (2x2 RGB). */
function png(seed) {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf) => {
    let c = 0xffffffff;
    for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (kind, data) => {
    const head = Buffer.alloc(4);
    head.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(kind, "ascii"), data]);
    const tail = Buffer.alloc(4);
    tail.writeUInt32BE(crc(body));
    return Buffer.concat([head, body, tail]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(2, 0);
  ihdr.writeUInt32BE(2, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const rows = Buffer.from([0, seed, 1, 2, 3, 4, 5, 0, 6, 7, 8, 9, 10, seed]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr), chunk("IDAT", zlib.deflateSync(rows)), chunk("IEND", Buffer.alloc(0)),
  ]);
}

const said = (r) => JSON.stringify(r.content) + JSON.stringify(r.structuredContent ?? null);

test("a local PNG is uploaded by its path, listed, and its bytes read back; a text file is refused", async () => {
  const { client } = await connect();
  try {
    const tool = (await client.listTools()).tools.find((t) => t.name === "upload_media");
    assert.ok(tool, "upload_media is offered over stdio");
    assert.equal(tool.annotations.readOnlyHint, false);
    assert.notEqual(tool.annotations.openWorldHint, false, "open world (true, or left out as the spec's default)");
    assert.ok(tool.outputSchema, "an output schema");
    const bytes = png(42);
    const file = path.join(work, "ts-cover.png");
    fs.writeFileSync(file, bytes);
    // The SDK validates structuredContent against the tool's outputSchema here.
    const up = await client.callTool({ name: "upload_media", arguments: { file } });
    assert.notEqual(up.isError, true, JSON.stringify(up.content));
    const { outputId, url } = up.structuredContent;
    assert.ok(!said(up).includes(ready.key), "the key is in no result");
    const listed = await client.callTool({ name: "list_media", arguments: { source: "uploads", limit: 100 } });
    const item = listed.structuredContent.media.find((m) => m.id === outputId);
    assert.ok(item, `list_media has ${outputId}`);
    assert.equal(item.fileName, "ts-cover.png");
    assert.equal(item.url, url);
    const back = Buffer.from(await (await fetch(url)).arrayBuffer());
    assert.ok(back.equals(bytes), "the library holds the file's bytes");

    const text = path.join(work, "notes.png");
    fs.writeFileSync(text, `CONTENTHERO_API_KEY=${ready.key}\n`);
    const refused = await client.callTool({ name: "upload_media", arguments: { file: text } });
    assert.equal(refused.isError, true);
    assert.match(refused.content[0].text, /not an image, video or audio file/);
    assert.ok(!said(refused).includes(ready.key), "the key is in no refusal");
  } finally {
    await client.close();
  }
});

async function render(client) {
  const balance = async () => (await client.callTool({ name: "get_balance", arguments: {} })).structuredContent.balance;
  const before = await balance();
  const quote = await client.callTool({ name: "generate_image", arguments: { prompt: "a green mug", getCost: true } });
  const price = quote.structuredContent.creditsEstimate;
  const r = await client.callTool({ name: "generate_image", arguments: { prompt: "a green mug", outputId: randomUUID() } });
  return { before, price, r, after: await balance() };
}

for (const answer of [true, false]) {
  test(`--confirm-spend-over asks the TypeScript client first; ${answer ? "accepted renders and charges once" : "declined charges nothing"}`, async () => {
    const { client, asked } = await connect(["--confirm-spend-over", "0"], answer);
    try {
      const { before, price, r, after } = await render(client);
      assert.equal(asked.length, 1, JSON.stringify(asked));
      assert.match(asked[0], /generate_image will spend/);
      assert.ok(asked[0].includes(String(price)), asked[0]);
      if (answer) {
        assert.notEqual(r.isError, true, JSON.stringify(r.content));
        assert.equal(after, before - price);
      } else {
        assert.equal(r.isError, true);
        assert.match(r.content[0].text, /did not confirm/);
        assert.equal(after, before, "declined: nothing charged");
      }
    } finally {
      await client.close();
    }
  });
}
