#!/usr/bin/env python3
"""Writes a schemathesis.toml for tests/fuzz/run.sh: dictionaries of the real ids of a running, seeded sandbox
(spaces, stages, cards, tags, projects, brand kits, knowledge, tracked accounts, content, connected accounts,
models, voices, a generation and an upload) and bindings that put them into path, query and body parameters
most of the time, so the fuzzer reaches the handlers' logic instead of stopping at 404s. Random values are
still generated for the rest (probability < 1).

Usage: fuzz_config.py BASE_URL KEY OUT_TOML [--summary-from REPORT.json]
With --summary-from it prints the one-line summary of a schemathesis JSON report instead.
"""
import json
import sys
import urllib.error
import urllib.request

PROBABILITY = 0.8


def call(base, key, method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method)
    req.add_header("Authorization", f"Bearer {key}")
    req.add_header("Accept", "application/json")
    if data is not None:
        req.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:
            return json.loads(resp.read() or b"null")
    except urllib.error.HTTPError as e:
        raise SystemExit(f"fuzz_config: {method} {path} answered {e.code}: {e.read()[:300]!r}")


def collect(base, key):
    get = lambda path: call(base, key, "GET", path)  # noqa: E731
    ids = {}
    spaces = get("/spaces?include_archived=true")["spaces"]
    ids["space"] = [s["id"] for s in spaces]
    ids["stage"], ids["card"] = [], []
    for s in spaces:
        ids["stage"] += [st["id"] for st in get(f"/stages?space_id={s['id']}")["stages"]]
        ids["card"] += [c["id"] for c in get(f"/cards?space_id={s['id']}&limit=100")["cards"]]
    for name in ("fuzz-a", "fuzz-b", "fuzz-c"):
        call(base, key, "POST", "/tags", {"name": name})
    ids["tag"] = [t["id"] for t in get("/tags")["tags"]]
    ids["project"] = [p["id"] for p in get("/projects")["projects"]]
    if not ids["project"]:
        ids["project"] = [call(base, key, "POST", "/projects", {"title": "Fuzz"})["project"]["id"]]
    kits = get("/brand-kits")["brandKits"]
    ids["kit"] = [k["id"] for k in kits]
    ids["knowledge"], ids["section_key"] = [], []
    for k in kits:
        ids["knowledge"] += [i["id"] for i in get(f"/brand-kits/{k['id']}/knowledge?limit=100")["items"]]
        ids["section_key"] += [s["key"] for s in get(f"/brand-kits/{k['id']}?detail=summary")["sections"]]
    if not ids["knowledge"]:
        added = call(base, key, "POST", f"/brand-kits/{ids['kit'][0]}/knowledge",
                     {"sourceType": "text", "text": "Fuzz notes about the brand voice.", "title": "Fuzz"})
        ids["knowledge"] = [added["item"]["id"]]
    ids["section_key"] = sorted(set(ids["section_key"]))
    ids["tracked"] = [a["id"] for a in get("/accounts")["accounts"]]
    ids["content"] = [c["id"] for c in get("/content?limit=100")["outliers"]]
    ids["connected"] = [a["id"] for a in get("/connected-accounts")["accounts"]]
    ids["model"] = [m["modelId"] for m in get("/models")["models"]]
    ids["voice"] = [v["voiceId"] for v in get("/voices")["voices"]]
    gen = call(base, key, "POST", "/studio/generate", {"modelId": "nano-banana-2", "prompt": "a fuzz test"})
    ids["output"] = [gen["outputId"], gen["outputId"] + "-1"]
    ticket = call(base, key, "POST", "/media/uploads", {"fileName": "fuzz.png", "contentType": "image/png"})
    ids["upload"] = [ticket["outputId"]]
    return {k: v for k, v in ids.items() if v}


# (operation name, {parameter key: dictionary})
BINDINGS = [
    ("GET /models/{modelId}", {"path.modelId": "model"}),
    ("GET /voices/{voiceId}", {"path.voiceId": "voice"}),
    ("POST /studio/generate", {"body.modelId": "model", "body.voiceId": "voice", "body.outputId": "output",
                               "body.references.images[*]": "output", "body.references.startFrame": "output",
                               "body.projectId": "project"}),
    ("GET /studio/generate/{outputId}", {"path.outputId": "output"}),
    ("POST /studio/reference-board", {"body.referenceImages[*]": "output", "body.outputId": "output"}),
    ("POST /media/uploads/{outputId}/complete", {"path.outputId": "upload"}),
    ("GET /spaces/{id}", {"path.id": "space"}),
    ("PATCH /spaces/{id}", {"path.id": "space"}),
    ("POST /spaces", {"body.duplicate_from": "space"}),
    ("GET /stages", {"query.space_id": "space"}),
    ("POST /stages", {"body.space_id": "space", "body.after_id": "stage", "body.before_id": "stage"}),
    ("PATCH /stages/{id}", {"path.id": "stage", "body.space_id": "space", "body.after_id": "stage",
                            "body.before_id": "stage"}),
    ("DELETE /stages/{id}", {"path.id": "stage", "body.space_id": "space", "body.target_stage_id": "stage"}),
    ("GET /cards", {"query.space_id": "space", "query.stage": "stage"}),
    ("POST /cards", {"body.spaceId": "space", "body.stage": "stage", "body.coverOutputId": "output",
                     "body.assets[*].contentId": "content", "body.assets[*].projectId": "project",
                     "body.assets[*].outputId": "output", "body.posts[*].connectedAccountId": "connected"}),
    ("GET /cards/{id}", {"path.id": "card"}),
    ("PATCH /cards/{id}", {"path.id": "card", "body.spaceId": "space", "body.stage": "stage",
                           "body.beforeCardId": "card", "body.coverOutputId": "output",
                           "body.assets[*].contentId": "content", "body.assets[*].projectId": "project",
                           "body.assets[*].outputId": "output", "body.posts[*].connectedAccountId": "connected"}),
    ("POST /cards/{id}/publish", {"path.id": "card"}),
    ("PATCH /tags/{id}", {"path.id": "tag"}),
    ("DELETE /tags/{id}", {"path.id": "tag"}),
    ("POST /archive", {"body.id": "any"}),
    ("GET /projects/{id}", {"path.id": "project"}),
    ("POST /projects", {"body.cardId": "card", "body.brandKitId": "kit"}),
    ("POST /projects/import", {"body.cardId": "card"}),
    ("GET /brand-kits/{id}", {"path.id": "kit", "query.keys": "section_key"}),
    ("PATCH /brand-kits/{id}", {"path.id": "kit", "body.sections[*].key": "section_key"}),
    ("GET /brand-kits/{id}/knowledge", {"path.id": "kit"}),
    ("POST /brand-kits/{id}/knowledge", {"path.id": "kit"}),
    ("GET /brand-kits/{id}/knowledge/search", {"path.id": "kit"}),
    ("GET /brand-kits/{id}/knowledge/{knowledgeId}", {"path.id": "kit", "path.knowledgeId": "knowledge"}),
    ("DELETE /brand-kits/{id}/knowledge/{knowledgeId}", {"path.id": "kit", "path.knowledgeId": "knowledge"}),
    ("GET /accounts", {"query.brand_kit_id": "kit"}),
    ("GET /accounts/{id}", {"path.id": "tracked"}),
    ("GET /content", {"query.account_ids": "tracked"}),
    ("GET /content/{contentId}", {"path.contentId": "content"}),
    ("GET /connected-accounts/{id}", {"path.id": "connected"}),
]


def toml_str(s):
    return json.dumps(s)  # a JSON string is a valid TOML basic string


def write_config(ids, out):
    ids["any"] = ids.get("card", []) + ids.get("kit", []) + ids.get("project", []) + ids.get("space", [])
    lines = ["# Written by tests/fuzz/config.py for one fuzz run; not kept.", ""]
    for name, values in sorted(ids.items()):
        lines.append(f"[dictionaries.{name}]")
        lines.append("values = [" + ", ".join(toml_str(v) for v in values) + "]")
        lines.append("")
    for op, params in BINDINGS:
        bound = {k: d for k, d in params.items() if ids.get(d)}
        if not bound:
            continue
        lines.append("[[operations]]")
        lines.append(f"include-name = {toml_str(op)}")
        lines.append("[operations.parameters]")
        for k, d in bound.items():
            lines.append(f"{toml_str(k)} = {{ dictionary = {toml_str(d)}, probability = {PROBABILITY} }}")
        lines.append("")
    with open(out, "w") as f:
        f.write("\n".join(lines))
    return sum(len(v) for v in ids.values())


def summary(report_path):
    r = json.load(open(report_path))
    ops, tc = r.get("operations", {}), r.get("test_cases", {})
    print(
        f"fuzz: {ops.get('tested', 0)}/{ops.get('total', 0)} operations tested, "
        f"{tc.get('generated', 0)} test cases, {tc.get('unique_failures', 0)} unique failures "
        f"({tc.get('with_failures', 0)} failing cases), {len(r.get('errors', []))} errors, "
        f"{r.get('running_time', 0):.0f} s, stop: {r.get('stop_reason')}, seed {r.get('seed')}"
    )


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--summary-from":
        summary(sys.argv[2])
        sys.exit(0)
    if len(sys.argv) != 4:
        raise SystemExit(__doc__)
    base, key, out = sys.argv[1].rstrip("/"), sys.argv[2], sys.argv[3]
    n = write_config(collect(base, key), out)
    print(f"fuzz_config: {n} ids of the seeded sandbox bound into {len(BINDINGS)} operations -> {out}")
