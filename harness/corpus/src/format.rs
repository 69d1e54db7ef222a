//! The canonical layout of case files, the corpus's own style: the file,
//! its `scopes` and `cases` are spread over lines with 2-space indentation;
//! each scope variable and each case sits on one line of its own, however
//! long, so that a case's diff is one line and `grep` finds whole cases.

use serde_json::Value as Json;

const INDENT: &str = "  ";

/// Lays out a case file document, ending with a newline.
pub fn case_file_text(doc: &Json) -> String {
    let mut out = String::new();
    write_value(&mut out, doc, 0, Place::Root);
    out.push('\n');
    out
}

/// One value on one line: `{"a": 1, "b": [true]}`.
pub fn compact(v: &Json) -> String {
    let mut out = String::new();
    write_compact(&mut out, v);
    out
}

/// Where a value sits in a case file; decides whether it is spread.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    Root,
    Cases,
    Scopes,
    Scope,
    Other,
}

impl Place {
    fn child(self, key: Option<&str>) -> Place {
        match (self, key) {
            (Place::Root, Some("cases")) => Place::Cases,
            (Place::Root, Some("scopes")) => Place::Scopes,
            (Place::Scopes, Some(_)) => Place::Scope,
            _ => Place::Other,
        }
    }
}

/// Writes `v` at nesting `depth`.
fn write_value(out: &mut String, v: &Json, depth: usize, place: Place) {
    let empty = match v {
        Json::Array(a) => a.is_empty(),
        Json::Object(o) => o.is_empty(),
        _ => true,
    };
    if empty || place == Place::Other {
        write_compact(out, v);
        return;
    }
    let inner = INDENT.repeat(depth + 1);
    match v {
        Json::Array(items) => {
            out.push_str("[\n");
            for (i, item) in items.iter().enumerate() {
                out.push_str(&inner);
                write_value(out, item, depth + 1, place.child(None));
                out.push_str(if i + 1 < items.len() { ",\n" } else { "\n" });
            }
            out.push_str(&INDENT.repeat(depth));
            out.push(']');
        }
        Json::Object(map) => {
            out.push_str("{\n");
            for (i, (k, item)) in map.iter().enumerate() {
                out.push_str(&inner);
                write_compact(out, &Json::String(k.clone()));
                out.push_str(": ");
                write_value(out, item, depth + 1, place.child(Some(k)));
                out.push_str(if i + 1 < map.len() { ",\n" } else { "\n" });
            }
            out.push_str(&INDENT.repeat(depth));
            out.push('}');
        }
        _ => unreachable!("scalars are written compactly"),
    }
}

fn write_compact(out: &mut String, v: &Json) {
    match v {
        Json::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_compact(out, item);
            }
            out.push(']');
        }
        Json::Object(map) => {
            out.push('{');
            for (i, (k, item)) in map.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_compact(out, &Json::String(k.clone()));
                out.push_str(": ");
                write_compact(out, item);
            }
            out.push('}');
        }
        // Scalars: serde_json's own text (exact number text, JSON escapes).
        other => out.push_str(&other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout() {
        let doc: Json = serde_json::from_str(
            r#"{"area":"splat","scopes":{"s":{"v":{"type":["list","number"],"value":[1.50,2]},"w":{"type":"bool","value":null}},"e":{}},
            "cases":[{"id":"a","source":["x","y"],"expect":{"result":{"type":"string","value":"\u00e9\n\u0001"}}},
            {"id":"b","source":"one","scope":{},"note":"n"}]}"#,
        )
        .unwrap();
        let want = r#"{
  "area": "splat",
  "scopes": {
    "s": {
      "v": {"type": ["list", "number"], "value": [1.50, 2]},
      "w": {"type": "bool", "value": null}
    },
    "e": {}
  },
  "cases": [
    {"id": "a", "source": ["x", "y"], "expect": {"result": {"type": "string", "value": "é\n\u0001"}}},
    {"id": "b", "source": "one", "scope": {}, "note": "n"}
  ]
}
"#;
        let got = case_file_text(&doc);
        similar_asserts::assert_eq!(got, want);
        let back: Json = serde_json::from_str(&got).unwrap();
        assert_eq!(back, doc);
    }
}
