#!/usr/bin/env python3
"""What an agent reads: the bytes of the tool results' text content blocks (what a model is given) for the
nine calls issue 27 measured (get_balance, list_models, list_tags, list_projects, list_connected_accounts,
list_brand_kits, get_brand_kit, list_brand_knowledge, list_media), from `cdesk mcp` and from the official
ContentHero MCP server, both against ONE demo sandbox in one run (same ids, same data); and the size of each
server's `tools/list`. Resource links and images are not text and are not counted (their bytes are printed
beside).

The official server (contenthero-ai/contenthero-sdk, MIT, @contenthero/mcp) is built with npm from its
public repository: `npm install && npm run build` in a checkout, then pass its `packages/mcp/dist/index.js`
as --official (or $CONTENTHERO_MCP_JS). Without it, the issue's figures (19.1 KB in all; list_models 0.9 KB,
connected accounts 0.6 KB, projects 0.2 KB) are printed for comparison and the output says so.

Run: python3 scripts/bench_mcp_context.py [BIN_DIR] [--official PATH/TO/dist/index.js]
(BIN_DIR: where cdesk and contentdesk-sandbox are; default $CARGO_TARGET_DIR/debug). Needs the Python `mcp`
package (tests/mcp/run.sh installs it) and node for the official server."""
import json
import os
import subprocess
import sys
import tempfile

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

ISSUE_TOTAL = 19.1 * 1024
ISSUE = {"list_models": 0.9, "list_connected_accounts": 0.6, "list_projects": 0.2}
CALLS = ["get_balance", "list_models", "list_tags", "list_projects", "list_connected_accounts", "list_brand_kits",
         "get_brand_kit", "list_brand_knowledge", "list_media"]


def main():
    args = [a for a in sys.argv[1:]]
    official = os.environ.get("CONTENTHERO_MCP_JS")
    if "--official" in args:
        i = args.index("--official")
        official = args[i + 1]
        del args[i:i + 2]
    bin_dir = args[0] if args else os.path.join(
        os.environ.get("CARGO_TARGET_DIR", os.path.expanduser("~/.cache/contentdesk-target")), "debug")
    work = tempfile.mkdtemp(prefix="bench-mcp-context-")
    sandbox = subprocess.Popen(
        [f"{bin_dir}/contentdesk-sandbox", "serve", "--db", os.path.join(work, "sandbox.db"), "--addr", "127.0.0.1:0",
         "--seed", "demo", "--ready-json", "--rate-limit", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        ready = json.loads(sandbox.stdout.readline())
        env = {"PATH": os.environ.get("PATH", ""), "HOME": work, "CONTENTHERO_CONFIG_DIR": os.path.join(work, "ch"),
               "CONTENTDESK_DATA_DIR": os.path.join(work, "app"), "CONTENTHERO_API_KEY": ready["key"],
               "CONTENTHERO_BASE_URL": ready["url"]}
        ours = anyio.run(measure, StdioServerParameters(command=f"{bin_dir}/cdesk", args=["mcp"], env=env), None)
        theirs = None
        if official:
            # The official client reads CONTENTHERO_BASE_URL as the host and adds /api/v1 itself.
            host = ready["url"].removesuffix("/").removesuffix("/api/v1")
            env_o = dict(env, CONTENTHERO_BASE_URL=host)
            theirs = anyio.run(measure, StdioServerParameters(command="node", args=[official], env=env_o), ours["kit"])
        report(ours, theirs)
    finally:
        sandbox.terminate()
        sandbox.wait(timeout=10)


def text_bytes(result):
    return sum(len(c.text.encode()) for c in result.content if c.type == "text")


def other_bytes(result):
    return sum(len(json.dumps(c.model_dump(mode="json", exclude_none=True)).encode()) for c in result.content if c.type != "text")


async def measure(params, kit):
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as s:
            await s.initialize()
            tools = (await s.list_tools()).tools
            listed = len(json.dumps([t.model_dump(mode="json", exclude_none=True) for t in tools]).encode())

            async def call(name, args):
                r = await s.call_tool(name, args)
                assert not r.is_error, (name, r)
                return r

            if kit is None:
                kit = (await call("list_brand_kits", {})).structured_content["brandKits"][0]["id"]
            args = {"get_brand_kit": {"brandKitId": kit}, "list_brand_knowledge": {"brandKitId": kit}}
            calls = {}
            for name in CALLS:
                r = await call(name, args.get(name, {}))
                calls[name] = (text_bytes(r), other_bytes(r))
            return {"kit": kit, "calls": calls, "listed": listed, "tools": len(tools)}


def report(ours, theirs):
    where = "official server, same sandbox, this run" if theirs else "official: the issue's figures (not run here)"
    print(f"The text an agent reads, per call (bytes): cdesk mcp beside the {where}")
    for name in CALLS:
        n, other = ours["calls"][name]
        extra = f" (+{other} B links/images)" if other else ""
        if theirs:
            t = theirs["calls"][name][0]
            peer = f"   official {t:>7} B  {n / t if t else 0:5.2f}x"
        else:
            peer = f"   official {ISSUE[name]:.1f} KB" if name in ISSUE else ""
        print(f"  {name:<26} {n:>7} B  {n / 1024:5.1f} KB{peer}{extra}")
    total = sum(n for n, _ in ours["calls"].values())
    peer_total = sum(n for n, _ in theirs["calls"].values()) if theirs else ISSUE_TOTAL
    print(f"  {'total (nine calls)':<26} {total:>7} B  {total / 1024:5.1f} KB   official {peer_total / 1024:.1f} KB: "
          f"{total / peer_total:.2f}x (goal at most 0.6x)")
    line = f"  tools/list: {ours['listed']} B for {ours['tools']} tools, {ours['listed'] / ours['tools'] / 1024:.2f} KB a tool"
    if theirs:
        line += f"; official {theirs['listed']} B for {theirs['tools']} tools, {theirs['listed'] / theirs['tools'] / 1024:.2f} KB a tool"
    else:
        line += " (official 1.5 KB, the issue's figure)"
    print(line)


if __name__ == "__main__":
    main()
