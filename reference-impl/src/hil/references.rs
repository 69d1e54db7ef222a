//! Terraform 0.11's reading of the variable names in an interpolation
//! (`config.NewInterpolatedVariable`), and what a configuration of only
//! `variable` blocks and one `output` makes of each kind: errors when the
//! configuration loads, when it validates, or values when it applies.

use super::scan::HilPos;
use super::value::Val;
use super::{Fault, Scope, Stage};

/// A reference, by kind (`config.InterpolatedVariable`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reference {
    Count(String),
    Path(String),
    SelfRef(String),
    Terraform(String),
    User(String),
    Local(String),
    Module(String),
    /// `TYPE.NAME` (with `data.` for data sources) of a resource reference.
    Resource(String),
    Simple(String),
}

/// A reference with its full text.
#[derive(Clone, Debug)]
pub struct Named {
    pub text: String,
    pub pos: HilPos,
    pub kind: Reference,
}

fn load_error(name: &str, msg: String) -> Fault {
    let _ = name;
    Fault::new(Stage::Load, msg)
}

/// Classifies every name; the first malformed one is a load error.
pub fn classify(names: &[(String, HilPos)]) -> Result<Vec<Named>, Fault> {
    names
        .iter()
        .map(|(text, pos)| {
            Ok(Named {
                text: text.clone(),
                pos: *pos,
                kind: classify_one(text)?,
            })
        })
        .collect()
}

fn classify_one(v: &str) -> Result<Reference, Fault> {
    if let Some(rest) = v.strip_prefix("count.") {
        return Ok(Reference::Count(rest.into()));
    }
    if let Some(rest) = v.strip_prefix("path.") {
        return Ok(Reference::Path(rest.into()));
    }
    if let Some(rest) = v.strip_prefix("self.") {
        return Ok(Reference::SelfRef(rest.into()));
    }
    if let Some(rest) = v.strip_prefix("terraform.") {
        return Ok(Reference::Terraform(rest.into()));
    }
    if let Some(rest) = v.strip_prefix("var.") {
        if rest.contains('.') {
            return Err(load_error(
                v,
                format!(
                    "Invalid dot index found: '{v}'. Values in maps and lists can be referenced using square bracket indexing, like: 'var.mymap[\"key\"]' or 'var.mylist[1]'."
                ),
            ));
        }
        return Ok(Reference::User(rest.into()));
    }
    if let Some(rest) = v.strip_prefix("local.") {
        if rest.contains('.') {
            return Err(load_error(
                v,
                format!("Can't use dot (.) attribute access in {v}; use square bracket indexing"),
            ));
        }
        return Ok(Reference::Local(rest.into()));
    }
    if v.starts_with("module.") {
        let parts: Vec<&str> = v.splitn(3, '.').collect();
        if parts.len() < 3 {
            return Err(load_error(
                v,
                format!("{v}: module variables must be three parts: module.name.attr"),
            ));
        }
        return Ok(Reference::Module(parts[1].into()));
    }
    if v.starts_with("data.") {
        let parts: Vec<&str> = v.splitn(4, '.').collect();
        if parts.len() < 4 {
            return Err(load_error(
                v,
                format!("{v}: data variables must be four parts: data.TYPE.NAME.ATTR"),
            ));
        }
        return Ok(Reference::Resource(format!(
            "data.{}.{}",
            parts[1], parts[2]
        )));
    }
    if !v.contains('.') {
        return Ok(Reference::Simple(v.into()));
    }
    let parts: Vec<&str> = v.splitn(3, '.').collect();
    if parts.len() < 3 {
        return Err(load_error(
            v,
            format!("{v}: resource variables must be three parts: TYPE.NAME.ATTR"),
        ));
    }
    Ok(Reference::Resource(format!("{}.{}", parts[0], parts[1])))
}

/// The validation errors of a variables-only configuration. Terraform
/// finds them walking the references in Go's map order (a different order
/// from run to run) and prints them all; the protocol's answer is the
/// message that sorts first.
pub fn validate(refs: &[Named], scope: &Scope) -> Result<(), Fault> {
    let mut found: Vec<(String, HilPos)> = Vec::new();
    for r in refs {
        let mut add = |msg: String| found.push((msg, r.pos));
        match &r.kind {
            Reference::User(name) if !scope.declares_variable(name) => add(format!(
                "unknown variable referenced: '{name}'; define it with a 'variable' block"
            )),
            Reference::Count(field) => {
                if field != "index" {
                    add(format!("invalid count variable: {}", r.text));
                }
                add(MSG_COUNT_OUTSIDE_RESOURCE.to_string());
            }
            Reference::Path(field) if !matches!(field.as_str(), "cwd" | "module" | "root") => {
                add(format!("invalid path variable: {}", r.text))
            }
            Reference::Module(name) => {
                add(format!("unknown module referenced: {name}"));
                add(format!("reference to undefined module \"{name}\""));
            }
            Reference::Resource(id) => add(format!(
                "unknown resource '{id}' referenced in variable {}",
                r.text
            )),
            Reference::SelfRef(_) => add(format!("cannot contain self-reference {}", r.text)),
            _ => {}
        }
    }
    match found.into_iter().min_by(|a, b| a.0.cmp(&b.0)) {
        Some((msg, pos)) => Err(Fault {
            pos: Some(pos),
            ..Fault::new(Stage::Validate, msg)
        }),
        None => Ok(()),
    }
}

const MSG_COUNT_OUTSIDE_RESOURCE: &str = "count variables are only valid within resources";

/// Puts the values of the remaining references into the scope; the
/// references Terraform can not resolve here are apply errors.
pub fn resolve(refs: &[Named], scope: &mut Scope) -> Result<(), Fault> {
    for r in refs {
        match &r.kind {
            Reference::Local(_) => {
                return Err(Fault::apply(format!(
                    "{}: no local value of this name has been declared",
                    r.text
                )))
            }
            Reference::Terraform(field) => match field.as_str() {
                "workspace" | "env" => scope.insert(r.text.clone(), Val::Str("default".into())),
                _ => {
                    return Err(Fault::apply(format!(
                        "{}: only supported key for 'terraform.X' interpolations is 'workspace'",
                        r.text
                    )))
                }
            },
            Reference::Path(_) => {
                return Err(Fault::unsupported(format!(
                    "{} (a directory of the machine running Terraform)",
                    r.text
                )))
            }
            _ => {}
        }
    }
    if let Some(name) = refs.iter().find_map(|r| match &r.kind {
        Reference::Simple(name) => Some(name),
        _ => None,
    }) {
        return Err(Fault::apply(format!(
            "invalid variable syntax: \"{name}\". Did you mean 'var.{name}'? If this is part of inline `template` parameter\nthen you must escape the interpolation with two dollar signs. For\nexample: ${{a}} becomes $${{a}}."
        )));
    }
    Ok(())
}
