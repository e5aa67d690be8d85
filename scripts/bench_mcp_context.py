#!/usr/bin/env python3
"""What an agent reads: the bytes of `cdesk mcp`'s tool results (the text content blocks, what a model is
given) for the nine calls issue 27 measured against the official ContentHero MCP server (get_balance,
list_models, list_tags, list_projects, list_connected_accounts, list_brand_kits, get_brand_kit,
list_brand_knowledge, list_media), and the size of `tools/list`, against one demo sandbox. The official
server's figures from the same calls (issue 27): 19.1 KB in all; list_models 0.9 KB, connected accounts
0.6 KB, projects 0.2 KB; tools/list 1.5 KB a tool.

Run: python3 scripts/bench_mcp_context.py [BIN_DIR]   (BIN_DIR: where cdesk and contentdesk-sandbox are;
default $CARGO_TARGET_DIR/debug). Needs the Python `mcp` package (tests/mcp/run.sh installs it)."""
import json
import os
import subprocess
import sys
import tempfile

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

OFFICIAL_TOTAL = 19.1 * 1024
OFFICIAL = {"list_models": 0.9, "list_connected_accounts": 0.6, "list_projects": 0.2}


def main():
    bin_dir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
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
        anyio.run(measure, StdioServerParameters(command=f"{bin_dir}/cdesk", args=["mcp"], env=env))
    finally:
        sandbox.terminate()
        sandbox.wait(timeout=10)


def text_bytes(result):
    return sum(len(c.text.encode()) for c in result.content if c.type == "text")


async def measure(params):
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as s:
            await s.initialize()
            tools = (await s.list_tools()).tools
            listed = len(json.dumps([t.model_dump(mode="json", exclude_none=True) for t in tools]).encode())

            async def call(name, args):
                r = await s.call_tool(name, args)
                assert not r.is_error, (name, r)
                return r

            kits = await call("list_brand_kits", {})
            kit = kits.structured_content["brandKits"][0]["id"]
            calls = [("get_balance", {}), ("list_models", {}), ("list_tags", {}), ("list_projects", {}),
                     ("list_connected_accounts", {}), ("list_brand_kits", {}), ("get_brand_kit", {"brandKitId": kit}),
                     ("list_brand_knowledge", {"brandKitId": kit}), ("list_media", {})]
            total = 0
            print("cdesk mcp: the text an agent reads, per call (bytes; the official server's where issue 27 gives it)")
            for name, args in calls:
                n = text_bytes(await call(name, args))
                total += n
                official = f"   official {OFFICIAL[name]:.1f} KB" if name in OFFICIAL else ""
                print(f"  {name:<26} {n:>7} B  {n / 1024:5.1f} KB{official}")
            print(f"  {'total (nine calls)':<26} {total:>7} B  {total / 1024:5.1f} KB   official 19.1 KB: "
                  f"{total / OFFICIAL_TOTAL:.2f}x (goal at most 0.6x)")
            print(f"  tools/list: {listed} B for {len(tools)} tools, {listed / len(tools) / 1024:.2f} KB a tool (official 1.5 KB)")


if __name__ == "__main__":
    main()
