//! Decoder specs, read from the protocol's JSON form.

use std::collections::BTreeMap;

use serde_json::Value as Json;

use crate::types::Type;
use crate::HclVersion;

/// One `hcldec` spec.
#[derive(Clone, Debug)]
pub enum Spec {
    /// `{"object": {"NAME": SPEC, ...}}`: an object with one attribute per
    /// entry, each decoded from the same body.
    Object(BTreeMap<String, Spec>),
    /// `{"attr": {"name": N, "type": T, "required": B}}`: the attribute's
    /// value converted to the type constraint `T` (default `any`), null
    /// when absent.
    Attr {
        name: String,
        ty: Type,
        required: bool,
    },
    /// `{"block": {"type": N, "required": B, "body": SPEC}}`: the one block
    /// of that type decoded with `body`, null when absent.
    Block {
        type_name: String,
        required: bool,
        body: Box<Spec>,
    },
    /// `{"block_list": {"type": N, "min_items": I, "max_items": I, "body":
    /// SPEC}}` (a `max_items` of 0 is no limit).
    BlockList(Collection),
    /// `{"block_set": {...}}`, as `block_list`.
    BlockSet(Collection),
    /// `{"label": {"name": N, "index": I}}`: the enclosing block's label at
    /// that position.
    Label { name: String, index: usize },
}

/// The fields of `block_list` and `block_set`.
#[derive(Clone, Debug)]
pub struct Collection {
    pub type_name: String,
    pub min_items: usize,
    pub max_items: usize,
    pub body: Box<Spec>,
}

/// The attributes and blocks a spec asks of one body (`hcl.BodySchema`).
#[derive(Default)]
pub(super) struct Schema {
    /// (name, required), in spec order.
    pub attributes: Vec<(String, bool)>,
    /// (type, label names).
    pub blocks: Vec<(String, Vec<String>)>,
}

impl Spec {
    /// Reads a spec; the error names the offending place (`body.attr.type`).
    pub fn from_json(json: &Json, version: HclVersion) -> Result<Spec, String> {
        read(json, version, "spec")
    }

    /// The type of the value the spec decodes to (`impliedType`).
    pub(super) fn implied_type(&self) -> Type {
        match self {
            Spec::Object(items) => Type::Object(
                items
                    .iter()
                    .map(|(k, s)| (k.clone(), s.implied_type()))
                    .collect(),
            ),
            Spec::Attr { ty, .. } => ty.clone(),
            Spec::Block { body, .. } => body.implied_type(),
            Spec::BlockList(c) => Type::list(c.body.implied_type()),
            Spec::BlockSet(c) => Type::set(c.body.implied_type()),
            Spec::Label { .. } => Type::String,
        }
    }

    /// `hcldec.ImpliedSchema`.
    pub(super) fn schema(&self) -> Schema {
        let mut schema = Schema::default();
        self.collect_schema(&mut schema);
        schema
    }

    fn collect_schema(&self, schema: &mut Schema) {
        match self {
            Spec::Object(items) => items.values().for_each(|s| s.collect_schema(schema)),
            Spec::Attr { name, required, .. } => schema.attributes.push((name.clone(), *required)),
            Spec::Label { .. } => {}
            _ => {
                if let Some((type_name, body)) = self.block() {
                    schema
                        .blocks
                        .push((type_name.to_string(), body.label_names()));
                }
            }
        }
    }

    /// The block type and body spec of a `block`, `block_list` or
    /// `block_set` spec.
    fn block(&self) -> Option<(&str, &Spec)> {
        match self {
            Spec::Block {
                type_name, body, ..
            }
            | Spec::BlockList(Collection {
                type_name, body, ..
            })
            | Spec::BlockSet(Collection {
                type_name, body, ..
            }) => Some((type_name, body)),
            Spec::Object(_) | Spec::Attr { .. } | Spec::Label { .. } => None,
        }
    }

    /// `hcldec.ChildBlockTypes`: the spec of each block type's bodies; of
    /// two specs for one block type, the later in spec order.
    pub(super) fn child_block_types(&self) -> BTreeMap<&str, &Spec> {
        let mut found = BTreeMap::new();
        self.collect_child_block_types(&mut found);
        found
    }

    fn collect_child_block_types<'a>(&'a self, found: &mut BTreeMap<&'a str, &'a Spec>) {
        if let Spec::Object(items) = self {
            items
                .values()
                .for_each(|s| s.collect_child_block_types(found));
        } else if let Some((type_name, body)) = self.block() {
            found.insert(type_name, body);
        }
    }

    /// `findLabelSpecs`: the names of the labels, by index.
    fn label_names(&self) -> Vec<String> {
        let mut found = BTreeMap::new();
        self.collect_labels(&mut found);
        let Some(&max) = found.keys().next_back() else {
            return Vec::new();
        };
        (0..=max)
            .map(|i| {
                found
                    .get(&i)
                    .cloned()
                    .unwrap_or_else(|| format!("missing{i:02}"))
            })
            .collect()
    }

    fn collect_labels(&self, found: &mut BTreeMap<usize, String>) {
        match self {
            Spec::Label { name, index } => {
                found.insert(*index, name.clone());
            }
            Spec::Object(items) => items.values().for_each(|s| s.collect_labels(found)),
            _ => {}
        }
    }
}

const KINDS: &str = "object, attr, block, block_list, block_set or label";

fn read(json: &Json, version: HclVersion, at: &str) -> Result<Spec, String> {
    let Some(map) = json.as_object().filter(|m| m.len() == 1) else {
        return Err(format!("{at}: a spec is an object with one key ({KINDS})"));
    };
    let (kind, body) = map.iter().next().expect("one entry");
    let at = format!("{at}.{kind}");
    let fields = body
        .as_object()
        .ok_or_else(|| format!("{at}: must be an object"))?;
    let allowed: &[&str] = match kind.as_str() {
        "object" => &[],
        "attr" => &["name", "type", "required"],
        "block" => &["type", "required", "body"],
        "block_list" | "block_set" => &["type", "min_items", "max_items", "body"],
        "label" => &["name", "index"],
        _ => return Err(format!("{at}: unknown spec kind (expected {KINDS})")),
    };
    if kind != "object" {
        if let Some(extra) = fields.keys().find(|k| !allowed.contains(&k.as_str())) {
            return Err(format!("{at}.{extra}: unknown field"));
        }
    }
    let string = |name: &str| -> Result<String, String> {
        fields
            .get(name)
            .and_then(Json::as_str)
            .map(str::to_string)
            .ok_or_else(|| format!("{at}.{name}: a string is required"))
    };
    let flag = |name: &str| -> Result<bool, String> {
        match fields.get(name) {
            None => Ok(false),
            Some(v) => v
                .as_bool()
                .ok_or_else(|| format!("{at}.{name}: a bool is required")),
        }
    };
    let count = |name: &str| -> Result<usize, String> {
        match fields.get(name) {
            None => Ok(0),
            Some(v) => v
                .as_u64()
                .and_then(|n| usize::try_from(n).ok())
                .ok_or_else(|| format!("{at}.{name}: a whole number is required")),
        }
    };
    let nested = || -> Result<Box<Spec>, String> {
        let body = fields
            .get("body")
            .ok_or_else(|| format!("{at}.body: required"))?;
        crate::stack::deeper(|| read(body, version, &format!("{at}.body"))).map(Box::new)
    };
    Ok(match kind.as_str() {
        "object" => {
            let mut items = BTreeMap::new();
            for (name, spec) in fields {
                let spec = crate::stack::deeper(|| read(spec, version, &format!("{at}.{name}")))?;
                items.insert(name.clone(), spec);
            }
            Spec::Object(items)
        }
        "attr" => {
            let ty = match fields.get("type") {
                None => Type::Dynamic,
                Some(_) => {
                    let text = string("type")?;
                    let expr = crate::parser::parse_expression_as(&text, version)
                        .map_err(|e| format!("{at}.type: {}: {}", e.summary, e.detail))?;
                    crate::typeexpr::exact_constraint(&expr, version)
                        .map_err(|e| format!("{at}.type: {}: {}", e.summary, e.detail))?
                }
            };
            Spec::Attr {
                name: string("name")?,
                ty,
                required: flag("required")?,
            }
        }
        "block" => Spec::Block {
            type_name: string("type")?,
            required: flag("required")?,
            body: nested()?,
        },
        "block_list" | "block_set" => {
            let c = Collection {
                type_name: string("type")?,
                min_items: count("min_items")?,
                max_items: count("max_items")?,
                body: nested()?,
            };
            if kind == "block_list" {
                Spec::BlockList(c)
            } else {
                Spec::BlockSet(c)
            }
        }
        _ => Spec::Label {
            name: string("name")?,
            index: count("index")?,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(json: &str) -> Result<Spec, String> {
        Spec::from_json(&serde_json::from_str(json).unwrap(), HclVersion::V2_24)
    }

    #[test]
    fn specs_read_with_their_labels_and_types() {
        let spec = read(
            r#"{"block_list": {"type": "b", "body": {"object": {
            "n": {"label": {"name": "n", "index": 0}},
            "x": {"attr": {"name": "x", "type": "list(number)"}}}}}}"#,
        )
        .unwrap();
        let schema = spec.schema();
        assert_eq!(
            schema.blocks,
            vec![("b".to_string(), vec!["n".to_string()])]
        );
        assert_eq!(
            spec.implied_type(),
            Type::list(Type::object([
                ("n", Type::String),
                ("x", Type::list(Type::Number))
            ]))
        );
    }

    #[test]
    fn malformed_specs_name_the_place() {
        for (json, message) in [
            (r#"{"attr": {}}"#, "spec.attr.name: a string is required"),
            (r#"{"block": {"type": "b"}}"#, "spec.block.body: required"),
            (r#"{"object": {"x": {"nope": {}}}}"#, "spec.object.x.nope: unknown spec kind (expected object, attr, block, block_list, block_set or label)"),
            (r#"{"attr": {"name": "x", "type": "list"}}"#, "spec.attr.type: Invalid type specification: The list type constructor requires one argument specifying the element type."),
            (r#"{"block_list": {"type": "b", "body": {"object": {}}, "max": 1}}"#, "spec.block_list.max: unknown field"),
            (r#"{"attr": {"name": "x"}, "label": {}}"#, "spec: a spec is an object with one key (object, attr, block, block_list, block_set or label)"),
        ] {
            assert_eq!(read(json).unwrap_err(), message, "{json}");
        }
    }
}
