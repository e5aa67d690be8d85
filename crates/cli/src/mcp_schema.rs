//! The catalogue's entries as MCP tools: name, title, description, annotations, the input schema made
//! lean for tools/list and the output schema ([`contentdesk_ops::output`]) made compact.
use contentdesk_ops::{Effect, Entry};
use rmcp::model::{Tool, ToolAnnotations};
use serde_json::{json, Value};
use std::sync::Arc;

/// A catalogue entry as an MCP tool.
pub fn tool_of(e: &Entry) -> Tool {
    let schema = e.input_schema();
    let mut object = schema.as_object().cloned().unwrap_or_default();
    // The schema's own title is the Rust type's name: the tool's title says more.
    object.remove("title");
    object.remove("$schema");
    let object = match lean(Value::Object(object)) {
        Value::Object(o) => o,
        _ => Default::default(),
    };
    let mut description = e.meta.summary.to_string();
    if !e.meta.details.is_empty() {
        description.push_str(". ");
        description.push_str(e.meta.details);
    }
    if let Some(scope) = e.meta.scope.filter(|s| !e.meta.details.contains(&format!("Needs {s}"))) {
        description.push_str(&format!(" Needs scope `{scope}`."));
    }
    // The title once, as the tool's `title` (MCP 2025-06-18 on; `annotations.title` is the older place):
    // a display name made from the tool's name ([`title_of`]), as the official server names its tools.
    // The summary is the description's first sentence, which every client gives the model (not all give
    // it the title): written twice it cost 4 KB of tools/list.
    // destructiveHint only where it means something: the specification reads it only when readOnlyHint is
    // false (so with idempotentHint, below). A hint at the specification's default is left out (the default says the same, in no bytes):
    // openWorldHint (default true: every tool reaches the service) and idempotentHint false.
    let read = e.meta.effect == Effect::Read;
    let mut annotations = ToolAnnotations::new().read_only(read);
    if !read {
        annotations = annotations.destructive(e.meta.effect == Effect::Destroy);
    }
    // idempotentHint, like destructiveHint, means something only where readOnlyHint is false (a read is
    // idempotent anyway): said on the writes that are, 700 B less than on every tool.
    annotations.idempotent_hint = (!read && e.meta.idempotent).then_some(true);
    let mut tool = Tool::new(e.meta.tool, description, Arc::new(object)).with_title(title_of(e.meta.tool)).with_annotations(annotations);
    if let Some(Value::Object(o)) = contentdesk_ops::output::output_schema(e.meta.tool).map(|s| one_shape(nullable(compact(s)))) {
        tool.output_schema = Some(Arc::new(o));
    }
    tool
}

/// A tool's display name from its name: `list_connected_accounts` is "List Connected Accounts".
pub fn title_of(tool: &str) -> String {
    let words = tool.split('_').map(|w| {
        let mut c = w.chars();
        c.next().map(|f| f.to_uppercase().chain(c).collect::<String>()).unwrap_or_default()
    });
    words.collect::<Vec<_>>().join(" ")
}

/// The tool as a hosted server (`cdesk mcp --http`) offers it: `upload_media` without `file` (a path
/// would name the server's disk, not the caller's; the operation refuses one there too) and saying so.
pub fn hosted_tool_of(e: &Entry) -> Tool {
    let mut tool = tool_of(e);
    if e.meta.tool == "upload_media" {
        let mut schema = tool.input_schema.as_ref().clone();
        if let Some(Value::Object(props)) = schema.get_mut("properties") {
            props.remove("file");
        }
        if let Some(Value::Array(required)) = schema.get_mut("required") {
            required.retain(|r| r != "file");
        }
        tool.input_schema = Arc::new(schema);
        let max = contentdesk_ops::MAX_INLINE_BYTES / (1024 * 1024);
        tool.description = Some(format!(
            "Upload a file to the media library and get its outputId and URL. Free. Send its bytes as contentBase64 with a name (images, video and audio only, at most {max} MiB; this hosted server reads no paths); a file on a public URL: import_media. The outputId can then be a reference of a render or an asset of a card. Needs scope `assets:write`."
        ).into());
    }
    tool
}

/// How deep an output schema describes the reply: the result's fields, each with its type, and their
/// records' fields by name (`{}`: a record's field names are what a reader looks for; their types are
/// the service's, 3.6 KB of tools/list); a list's items by type. Whole, the 56 schemas were 74 KB, more
/// than the rest of tools/list, and every byte of tools/list is read by the model.
const OUTPUT_DEPTH: usize = 2;

/// An output schema as tools/list shows it: `$ref`s resolved, fields to [`OUTPUT_DEPTH`] (a record's
/// fields by name, items by type), `required` for the reply's own fields only, without the words (`description`, `title`: the
/// fields are named as the service names them) or Rust's number `format`s and `minimum: 0`. `null` stays in `type` lists: a field the reply sends as `null` validates.
fn compact(schema: Value) -> Value {
    let defs = schema.get("$defs").cloned().unwrap_or(Value::Null);
    shallow(&schema, &defs, OUTPUT_DEPTH)
}

fn resolve<'a>(schema: &'a Value, defs: &'a Value) -> &'a Value {
    match schema.get("$ref").and_then(Value::as_str).and_then(|r| r.strip_prefix("#/$defs/")) {
        Some(name) => defs.get(name).map(|d| resolve(d, defs)).unwrap_or(&Value::Bool(true)),
        None => schema,
    }
}

/// The JSON types a schema allows, when it says (`None`: any value).
fn types_of(schema: &Value, defs: &Value) -> Option<Vec<Value>> {
    let schema = resolve(schema, defs);
    if let Some(t) = schema.get("type") {
        return Some(match t {
            Value::Array(a) => a.clone(),
            one => vec![one.clone()],
        });
    }
    if let Some(consts) = schema.get("enum").and_then(Value::as_array) {
        let mut types = Vec::new();
        for c in consts {
            let t = json!(match c {
                Value::String(_) => "string",
                Value::Null => "null",
                Value::Bool(_) => "boolean",
                Value::Number(_) => "number",
                Value::Array(_) => "array",
                Value::Object(_) => "object",
            });
            if !types.contains(&t) {
                types.push(t);
            }
        }
        return Some(types);
    }
    let branches = schema.get("anyOf").or(schema.get("oneOf"))?.as_array()?;
    let mut types: Vec<Value> = Vec::new();
    for b in branches {
        for t in types_of(b, defs)? {
            if !types.contains(&t) {
                types.push(t);
            }
        }
    }
    Some(types)
}

/// Whether every branch of a choice is a plain value (a type, an enum, a const; itself a choice of those)
/// and some branch takes any value of its type: then the choice is its types.
fn plain(branches: &Value, defs: &Value) -> bool {
    fn simple(b: &Value, defs: &Value) -> bool {
        let b = resolve(b, defs);
        let Some(o) = b.as_object() else { return false };
        if let Some(inner) = o.get("anyOf").or(o.get("oneOf")) {
            return inner.as_array().is_some_and(|a| a.iter().all(|x| simple(x, defs)));
        }
        o.keys().all(|k| matches!(k.as_str(), "type" | "enum" | "const" | "description" | "title" | "format"))
            && o.get("type").is_none_or(|t| t != "object" && t != "array")
    }
    fn open(b: &Value, defs: &Value) -> bool {
        let b = resolve(b, defs);
        match b.get("anyOf").or(b.get("oneOf")).and_then(Value::as_array) {
            Some(inner) => inner.iter().any(|x| open(x, defs)),
            None => b.get("type").is_some() && b.get("enum").is_none() && b.get("const").is_none(),
        }
    }
    let Some(a) = branches.as_array() else { return false };
    a.iter().all(|b| simple(b, defs)) && a.iter().filter(|b| resolve(b, defs).get("type") != Some(&json!("null"))).all(|b| open(b, defs))
}

fn shallow(schema: &Value, defs: &Value, depth: usize) -> Value {
    let schema = resolve(schema, defs);
    // `true` (any value, schemars' schema of a JSON value) as an object: the TypeScript SDK takes only
    // objects as property schemas and refuses the whole tools/list otherwise.
    let Value::Object(o) = schema else {
        return if schema == &Value::Bool(false) { json!({ "not": {} }) } else { json!({}) };
    };
    if depth == 0 {
        return match types_of(schema, defs) {
            Some(mut t) if t.len() == 1 => json!({ "type": t.remove(0) }),
            Some(t) => json!({ "type": t }),
            None => json!({}),
        };
    }
    let mut out = serde_json::Map::new();
    for (k, v) in o {
        let v = match k.as_str() {
            "description" | "title" | "$defs" | "$schema" | "default" | "examples" => continue,
            "format" if matches!(v.as_str(), Some("uint" | "uint8" | "uint16" | "uint32" | "uint64" | "int32" | "int64" | "float" | "double")) => continue,
            // Rust's unsigned integers: a count or a size the reply sends is never negative anyway.
            "minimum" if v == &json!(0) => continue,
            // Which fields a record inside the reply always has: its fields are listed, and a type with
            // `null` says which may be empty; the reply's own fields keep their `required` (a renamed or
            // lost field of the reply fails the clients' validation).
            "required" if depth < OUTPUT_DEPTH => continue,
            // Of the reply's own fields, `required` names those that always carry a value: a field that
            // may be null says so in its type, and to a reader null and absent are the same (3 KB of
            // tools/list were such names). A renamed or lost field that always has a value still fails.
            "required" => {
                let props = o.get("properties");
                let valued = |name: &&Value| {
                    let p = name.as_str().and_then(|n| props.and_then(|ps| ps.get(n)));
                    p.and_then(|p| types_of(p, defs)).is_some_and(|t| !t.contains(&json!("null")))
                };
                let kept: Vec<Value> = v.as_array().map(|r| r.iter().filter(valued).cloned().collect()).unwrap_or_default();
                if kept.is_empty() {
                    continue;
                }
                Value::Array(kept)
            }
            // A record's fields (one level down: their types would be the next level) by name.
            "properties" if depth == 1 => Value::Object(v.as_object().map(|p| p.keys().map(|name| (name.clone(), json!({}))).collect()).unwrap_or_default()),
            "properties" => Value::Object(v.as_object().map(|p| p.iter().map(|(name, p)| (name.clone(), shallow(p, defs, depth - 1))).collect()).unwrap_or_default()),
            "items" | "additionalProperties" => shallow(v, defs, depth - 1),
            // A choice of plain values (an open value list: its known values or any string; an optional
            // value: it or null) is its types: the same values, fewer bytes.
            "anyOf" | "oneOf" if plain(v, defs) => {
                let Some(t) = types_of(schema, defs) else { continue };
                out.insert("type".into(), if t.len() == 1 { t[0].clone() } else { Value::Array(t) });
                continue;
            }
            "anyOf" | "oneOf" | "allOf" => Value::Array(v.as_array().map(|a| a.iter().map(|b| shallow(b, defs, depth)).collect()).unwrap_or_default()),
            _ => v.clone(),
        };
        out.insert(k.clone(), v);
    }
    Value::Object(out)
}

/// A result that may take several shapes (a quote, a submitted render, a finished one, one still going)
/// as ONE object schema: every field any shape has, each with the types the shapes give it, and the shapes
/// kept only as their `required` lists (`anyOf`). The same results validate; each field is said once
/// instead of once per shape (a generate tool's schema was 2.6 KB, most of it four copies of the same
/// fields). Anything else is returned as it is.
fn one_shape(schema: Value) -> Value {
    let Some(branches) = schema.get("anyOf").and_then(Value::as_array) else { return schema };
    let objects = branches.iter().all(|b| b.get("type") == Some(&json!("object")) && b.get("properties").is_some_and(Value::is_object));
    if !objects || schema.as_object().is_some_and(|o| o.keys().any(|k| !matches!(k.as_str(), "anyOf" | "type"))) {
        return schema;
    }
    let mut properties = serde_json::Map::new();
    let mut required: Vec<Value> = Vec::new();
    for b in branches {
        for (name, p) in b["properties"].as_object().into_iter().flatten() {
            let merged = match properties.remove(name) {
                None => p.clone(),
                Some(seen) => either(seen, p),
            };
            properties.insert(name.clone(), merged);
        }
        let r = b.get("required").cloned().unwrap_or(json!([]));
        if !required.contains(&r) {
            required.push(r);
        }
    }
    let mut out = serde_json::Map::new();
    out.insert("type".into(), json!("object"));
    out.insert("properties".into(), Value::Object(properties));
    // A shape that requires nothing makes the choice always true: then there is nothing to say.
    if required.len() > 1 && required.iter().all(|r| r.as_array().is_some_and(|a| !a.is_empty())) {
        out.insert("anyOf".into(), Value::Array(required.into_iter().map(|r| json!({ "required": r })).collect()));
    } else if let [r] = required.as_slice() {
        out.insert("required".into(), r.clone());
    }
    Value::Object(out)
}

/// One field's schema where two shapes give it: the same schema once; two that differ only in their
/// types, one schema with both types; otherwise either of them (`anyOf`).
fn either(a: Value, b: &Value) -> Value {
    if &a == b {
        return a;
    }
    let without_type = |v: &Value| v.as_object().map(|o| o.iter().filter(|(k, _)| *k != "type").map(|(k, v)| (k.clone(), v.clone())).collect::<serde_json::Map<_, _>>());
    if let (Some(ta), Some(tb)) = (a.get("type"), b.get("type")) {
        if without_type(&a) == without_type(b) {
            let mut types: Vec<Value> = Vec::new();
            for t in [ta, tb] {
                for t in t.as_array().cloned().unwrap_or_else(|| vec![t.clone()]) {
                    if !types.contains(&t) {
                        types.push(t);
                    }
                }
            }
            let mut out = without_type(&a).unwrap_or_default();
            out.insert("type".into(), if types.len() == 1 { types.remove(0) } else { Value::Array(types) });
            return Value::Object(out);
        }
    }
    match a {
        Value::Object(mut o) if o.len() == 1 && o.get("anyOf").is_some_and(Value::is_array) => {
            let list = o.get_mut("anyOf").and_then(Value::as_array_mut).expect("checked");
            if !list.contains(b) {
                list.push(b.clone());
            }
            Value::Object(o)
        }
        a => json!({ "anyOf": [a, b] }),
    }
}

/// `{"anyOf": [<a typed schema>, {"type": "null"}]}` as the schema with `null` among its types: the same
/// values (its other keywords apply to its own type only), once.
fn nullable(schema: Value) -> Value {
    match schema {
        Value::Object(mut o) => {
            let fold = o.len() == 1
                && o.get("anyOf").and_then(Value::as_array).is_some_and(|a| {
                    let null = json!({ "type": "null" });
                    // An enum or const with null folded would refuse null (its values do not list it).
                    a.len() == 2
                        && a.contains(&null)
                        && a.iter().filter(|b| **b != null).all(|b| b.get("type").is_some_and(Value::is_string) && b.get("enum").is_none() && b.get("const").is_none())
                });
            if fold {
                let a = o.remove("anyOf").and_then(|v| match v { Value::Array(a) => Some(a), _ => None }).unwrap_or_default();
                let Some(Value::Object(mut typed)) = a.into_iter().find(|b| b != &json!({ "type": "null" })) else { return Value::Object(o) };
                let t = typed.remove("type").unwrap_or(Value::Null);
                typed.insert("type".into(), json!([t, "null"]));
                return nullable(Value::Object(typed));
            }
            Value::Object(o.into_iter().map(|(k, v)| (k, nullable(v))).collect())
        }
        Value::Array(a) => Value::Array(a.into_iter().map(nullable).collect()),
        other => other,
    }
}

/// An input schema as tools/list shows it, without what says nothing to a model (every byte of tools/list
/// is read): `"default": null | false | []` (absent is the default), `null` in a `type` list (an optional
/// field is one not in `required`), Rust's integer and float `format`s (`uint32`, `double`: not JSON
/// Schema's) and the `minimum: 0` of its unsigned integers (a count or a size is never negative; the
/// texts say the real range), `additionalProperties: false` (every tool refuses a field it does not
/// list, by name: `contentdesk_ops::input::from_json`, so a third of the tools saying it said nothing the
/// others did not), and line breaks in descriptions. The arguments are still checked against the whole
/// schema (`Entry::run_json`).
fn lean(schema: Value) -> Value {
    match schema {
        Value::Object(o) => Value::Object(
            o.into_iter()
                .filter(|(k, v)| match k.as_str() {
                    "default" => !(v.is_null() || *v == Value::Bool(false) || v.as_array().is_some_and(Vec::is_empty)),
                    "format" => !matches!(v.as_str(), Some("uint" | "uint8" | "uint16" | "uint32" | "uint64" | "int32" | "int64" | "float" | "double")),
                    "minimum" => *v != json!(0),
                    "additionalProperties" => *v != Value::Bool(false),
                    _ => true,
                })
                .map(|(k, v)| {
                    let v = match (k.as_str(), v) {
                        ("type", Value::Array(types)) => {
                            let mut kept: Vec<Value> = types.into_iter().filter(|t| t != "null").collect();
                            if kept.len() == 1 {
                                kept.remove(0)
                            } else {
                                Value::Array(kept)
                            }
                        }
                        ("description", Value::String(d)) => Value::String(d.replace('\n', " ")),
                        // A property named `default` or `format` is a field, not a keyword.
                        ("properties", Value::Object(props)) => Value::Object(props.into_iter().map(|(name, p)| (name, lean(p))).collect()),
                        (_, v) => lean(v),
                    };
                    (k, v)
                })
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.into_iter().map(lean).collect()),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tool_has_annotations_from_the_catalogue() {
        for e in contentdesk_ops::agent_catalogue() {
            let t = tool_of(e);
            let a = t.annotations.as_ref().expect("annotations");
            assert_eq!(a.read_only_hint, Some(e.meta.effect == Effect::Read), "{}", e.meta.tool);
            let destructive = (e.meta.effect != Effect::Read).then_some(e.meta.effect == Effect::Destroy);
            assert_eq!(a.destructive_hint, destructive, "{}", e.meta.tool);
            // At the specification's defaults (openWorldHint true, idempotentHint false) a hint is left out.
            assert_eq!(a.idempotent_hint, (e.meta.effect != Effect::Read && e.meta.idempotent).then_some(true), "{}: where it means something, when true", e.meta.tool);
            assert_eq!(a.open_world_hint, None, "{}: the default, true", e.meta.tool);
            assert_eq!((t.title.clone(), a.title.as_deref()), (Some(title_of(e.meta.tool)), None), "{}: the title once", e.meta.tool);
            assert!(t.description.as_deref().unwrap_or("").starts_with(e.meta.summary), "{}: the summary leads the description", e.meta.tool);
            if let Some(scope) = e.meta.scope {
                assert_eq!(t.description.as_deref().unwrap_or("").matches(scope).count(), 1, "{}: the scope said once", e.meta.tool);
            }
            assert_eq!(t.input_schema.get("type"), Some(&json!("object")), "{}", e.meta.tool);
            if e.meta.effect == Effect::Spend {
                assert!(t.description.as_deref().unwrap_or("").contains("getCost"), "{}: says how to get the price", e.meta.tool);
            }
        }
    }

    #[test]
    fn a_title_is_the_tools_name_in_words() {
        assert_eq!(title_of("list_connected_accounts"), "List Connected Accounts");
        assert_eq!(title_of("upscale"), "Upscale");
        assert_eq!(title_of("generate_lip_sync"), "Generate Lip Sync");
    }

    #[test]
    fn the_listed_schema_is_lean_and_keeps_every_field() {
        for e in contentdesk_ops::agent_catalogue() {
            let full = e.input_schema();
            let listed = Value::Object(tool_of(e).input_schema.as_ref().clone());
            let names = |s: &Value| s["properties"].as_object().map(|p| p.keys().cloned().collect::<Vec<_>>()).unwrap_or_default();
            assert_eq!(names(&listed), names(&full), "{}: every field listed", e.meta.tool);
            assert_eq!(listed.get("required"), full.get("required"), "{}", e.meta.tool);
            let text = listed.to_string();
            assert!(!text.contains(r#""default":null"#) && !text.contains(r#""null""#) && !text.contains(r#""uint"#), "{}: {text}", e.meta.tool);
        }
        let image = tool_of(contentdesk_ops::by_tool("generate_image").unwrap());
        assert_eq!(image.input_schema["properties"]["numImages"], json!({ "description": "How many images, 1 to 4.", "type": "integer" }));
        let models = contentdesk_ops::by_tool("list_models").unwrap();
        assert_eq!(models.input_schema()["additionalProperties"], false, "the whole schema refuses other fields");
        assert!(tool_of(models).input_schema.get("additionalProperties").is_none(), "every tool refuses them: not said by a third");
        assert_eq!(image.input_schema["properties"]["timeout"]["default"], 600, "a real default stays");
    }

    #[test]
    fn every_tool_declares_its_output_and_the_compact_form_keeps_null() {
        for e in contentdesk_ops::agent_catalogue() {
            let t = tool_of(e);
            let out = t.output_schema.as_ref().unwrap_or_else(|| panic!("{}: no outputSchema", e.meta.tool));
            assert_eq!(out.get("type"), Some(&json!("object")), "{}", e.meta.tool);
            let text = Value::Object(out.as_ref().clone()).to_string();
            assert!(!text.contains(r#""description":""#) && !text.contains(r#""format":"uint"#) && !text.contains("$schema"), "{}: {text}", e.meta.tool);
        }
        // The TypeScript SDK refuses a property schema that is not an object (`true`: a JSON value).
        let calendar = Value::Object(tool_of(contentdesk_ops::by_tool("export_calendar").unwrap()).output_schema.unwrap().as_ref().clone());
        assert_eq!(calendar["properties"]["space"], json!({}), "{calendar}");
        // An optional field of the reply may be sent as null: its type keeps "null", and `required` names
        // only the fields that always carry a value.
        let card = Value::Object(tool_of(contentdesk_ops::by_tool("get_card").unwrap()).output_schema.unwrap().as_ref().clone());
        assert_eq!(card["properties"]["notes"]["type"], json!(["string", "null"]), "{card}");
        let required: Vec<&str> = card["required"].as_array().expect("required").iter().filter_map(Value::as_str).collect();
        assert!(required.contains(&"id") && required.contains(&"revision") && required.contains(&"posts"), "{required:?}");
        assert!(!required.contains(&"notes") && !required.contains(&"metadata"), "null or any value: not required: {required:?}");
    }

    #[test]
    fn a_hosted_server_offers_no_path_to_upload_from() {
        let upload = contentdesk_ops::by_tool("upload_media").expect("an agent tool");
        let local = tool_of(upload);
        assert!(local.input_schema["properties"].get("file").is_some(), "stdio: a local path");
        let hosted = hosted_tool_of(upload);
        let props = hosted.input_schema["properties"].as_object().unwrap();
        assert!(props.get("file").is_none() && props.get("contentBase64").is_some(), "{props:?}");
        assert!(!hosted.input_schema.get("required").is_some_and(|r| r.to_string().contains("file")));
        let said = hosted.description.as_deref().unwrap_or("");
        assert!(said.contains("reads no paths") && said.contains("1 MiB") && said.matches("assets:write").count() == 1, "{said}");
        let list = contentdesk_ops::by_tool("list_media").unwrap();
        assert_eq!(hosted_tool_of(list).input_schema, tool_of(list).input_schema, "other tools are as they are");
    }

    #[test]
    fn a_result_of_several_shapes_says_each_field_once_and_keeps_each_shapes_required_fields() {
        let image = Value::Object(tool_of(contentdesk_ops::by_tool("generate_image").unwrap()).output_schema.unwrap().as_ref().clone());
        assert_eq!(image["type"], "object");
        let props = image["properties"].as_object().expect("one set of fields");
        for field in ["outputId", "status", "creditsEstimate", "getCost", "charge", "outputUrls", "next", "waitedSeconds", "settled"] {
            assert!(props.contains_key(field), "{field}: {image}");
        }
        // A quote's estimate is a number; a submitted render's may be null: both types, once.
        assert_eq!(props["creditsEstimate"]["type"], json!(["number", "null"]));
        // The charge (an object or null) as one schema with both types, not a choice of two.
        assert_eq!(props["charge"]["type"], json!(["object", "null"]), "{}", props["charge"]);
        assert_eq!(props["charge"]["properties"]["balanceAfter"], json!({}), "a record's fields by name");
        // Each shape's required fields stay: a quote, the submitted, the finished, the still-going.
        let shapes: Vec<&Value> = image["anyOf"].as_array().expect("the shapes' required lists").iter().map(|s| &s["required"]).collect();
        assert_eq!(shapes.len(), 4, "{image}");
        assert!(shapes.contains(&&json!(["creditsEstimate", "getCost"])), "{shapes:?}: a quote's fields that always carry a value");
        assert!(shapes.contains(&&json!(["outputId", "status", "waitedSeconds", "next"])), "{shapes:?}");
        assert!(image.to_string().len() < 1500, "{} bytes (four shapes written out: 2,586): {image}", image.to_string().len());
        // One field two shapes type differently and otherwise: either of them.
        assert_eq!(either(json!({ "type": "string" }), &json!({ "type": "integer" })), json!({ "type": ["string", "integer"] }));
        assert_eq!(either(json!({ "type": "string" }), &json!({ "type": "array", "items": {} })), json!({ "anyOf": [{ "type": "string" }, { "type": "array", "items": {} }] }));
        // An enum with null is not folded (its values would be lost), a typed schema with null is.
        let open = json!({ "anyOf": [{ "enum": ["a"], "type": "string" }, { "type": "null" }] });
        assert_eq!(nullable(open.clone()), open);
        assert_eq!(nullable(json!({ "anyOf": [{ "type": "object", "properties": {} }, { "type": "null" }] })), json!({ "type": ["object", "null"], "properties": {} }));
    }
}
