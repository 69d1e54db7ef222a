//! The JSON Schemas under `spec-tests/schema/` are JSON, and every
//! reference between them resolves.

use std::path::PathBuf;

use serde_json::Value as Json;

fn schema_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../spec-tests/schema")
}

fn refs(v: &Json, out: &mut Vec<String>) {
    match v {
        Json::Object(m) => {
            for (k, x) in m {
                match (k.as_str(), x) {
                    ("$ref", Json::String(r)) => out.push(r.clone()),
                    _ => refs(x, out),
                }
            }
        }
        Json::Array(a) => a.iter().for_each(|x| refs(x, out)),
        _ => {}
    }
}

/// Follows a JSON pointer such as `#/$defs/type`.
fn resolve<'a>(doc: &'a Json, fragment: &str) -> Option<&'a Json> {
    let pointer = fragment.strip_prefix('#').unwrap_or(fragment);
    doc.pointer(pointer)
}

#[test]
fn schemas_parse_and_refs_resolve() {
    let names = [
        "case-file.schema.json",
        "typed-value.schema.json",
        "request.schema.json",
        "response.schema.json",
    ];
    for name in names {
        let path = schema_dir().join(name);
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
        let doc: Json = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(
            doc["$schema"], "https://json-schema.org/draft/2020-12/schema",
            "{name}"
        );
        let mut found = Vec::new();
        refs(&doc, &mut found);
        for r in found {
            let (file, fragment) = r.split_once('#').map_or((r.as_str(), ""), |(f, x)| (f, x));
            let target = if file.is_empty() {
                doc.clone()
            } else {
                assert!(names.contains(&file), "{name}: $ref to unknown file {r}");
                let text = std::fs::read_to_string(schema_dir().join(file)).unwrap();
                serde_json::from_str(&text).unwrap()
            };
            assert!(
                fragment.is_empty() || resolve(&target, fragment).is_some(),
                "{name}: $ref {r} does not resolve"
            );
        }
    }
}
