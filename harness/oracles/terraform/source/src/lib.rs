//! Turns a case's source into an expression that Terraform accepts as an
//! attribute value, for the Terraform oracle engine.
//!
//! A case refers to its variables by bare names (`l`, `m.k`), which
//! Terraform rejects: its references start with `var.`, `local.` and a few
//! other roots. The engine declares each case variable under a name of its
//! own and has every reference renamed here. The references are found with
//! the reference implementation's parser ([`root_references`]), so that
//! iteration variables and literal object keys stay as they are. A bare
//! template becomes a quoted string with the same value
//! ([`template_as_quoted`]), since an attribute holds an expression.
//!
//! A source that does not parse is passed on as it is: Terraform then
//! reports the syntax error itself.

use std::collections::BTreeMap;

use hclspec_reference::parser::{parse_expression, parse_template, template_as_quoted};
use hclspec_reference::profile::{with_profile, HclVersion, TerraformVersion};
use hclspec_reference::references::root_references;
use serde::{Deserialize, Serialize};

/// One source to rewrite.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Request {
    /// `"expression"` or `"template"`.
    pub kind: Kind,
    pub source: String,
    /// The replacement text of each variable's name.
    #[serde(default)]
    pub rename: BTreeMap<String, String>,
    /// Put before the names of variables that `rename` does not list.
    #[serde(default)]
    pub prefix: String,
    /// The Terraform release the expression is for (`"1.6"` to `"1.15"`,
    /// the latest when absent): before 1.15, `convert`'s second argument is
    /// no type constraint but an argument like any other.
    #[serde(default)]
    pub terraform_version: Option<String>,
}

#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    Expression,
    Template,
}

/// The rewritten source.
#[derive(Debug, Serialize, PartialEq, Eq)]
pub struct Rewritten {
    /// The expression to give Terraform.
    pub expression: String,
    /// Whether the source parsed (and so its references were renamed).
    pub parsed: bool,
    /// The case variables the source refers to, each once, in source order.
    pub references: Vec<String>,
}

/// Rewrites one source; a `terraform_version` that names no release here
/// is an error.
pub fn rewrite(request: &Request) -> Result<Rewritten, String> {
    let version = match &request.terraform_version {
        None => TerraformVersion::LATEST,
        Some(text) => TerraformVersion::parse(text)
            .ok_or_else(|| format!("unknown Terraform version {text:?}"))?,
    };
    Ok(with_profile(HclVersion::Terraform(version), || {
        rewrite_in_profile(request)
    }))
}

fn rewrite_in_profile(request: &Request) -> Rewritten {
    let parsed = match request.kind {
        Kind::Expression => parse_expression(&request.source),
        Kind::Template => parse_template(&request.source),
    };
    let (renamed, parsed, references) = match parsed {
        Ok(expr) => {
            let found = root_references(&expr);
            let mut text = String::with_capacity(request.source.len() + 8 * found.len());
            let mut copied = 0;
            let mut references: Vec<String> = Vec::new();
            for reference in &found {
                let (start, end) = (reference.span.start.byte, reference.span.end.byte);
                text.push_str(&request.source[copied..start]);
                match request.rename.get(&reference.name) {
                    Some(replacement) => text.push_str(replacement),
                    None => {
                        text.push_str(&request.prefix);
                        text.push_str(&reference.name);
                    }
                }
                copied = end;
                if !references.contains(&reference.name) {
                    references.push(reference.name.clone());
                }
            }
            text.push_str(&request.source[copied..]);
            (text, true, references)
        }
        Err(_) => (request.source.clone(), false, Vec::new()),
    };
    let expression = match request.kind {
        Kind::Expression => renamed,
        Kind::Template => template_as_quoted(&renamed),
    };
    Rewritten {
        expression,
        parsed,
        references,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(kind: Kind, source: &str) -> Request {
        Request {
            kind,
            source: source.into(),
            rename: [("l".to_string(), "var.c1_l".to_string())].into(),
            prefix: "var.".into(),
            terraform_version: None,
        }
    }

    #[test]
    fn rewrite_table() {
        let table = [
            (Kind::Expression, "l[0] + x", "var.c1_l[0] + var.x", true),
            (
                Kind::Expression,
                "[for l in l : l]",
                "[for l in var.c1_l : l]",
                true,
            ),
            (Kind::Expression, "{l = l}", "{l = var.c1_l}", true),
            (Kind::Expression, "l +", "l +", false),
            (
                Kind::Template,
                "a\"${l}\"\n",
                r#""a\"${var.c1_l}\"\n""#,
                true,
            ),
            (Kind::Template, "${", r#""${""#, false),
        ];
        for (kind, source, want, parsed) in table {
            let got = rewrite(&request(kind, source)).unwrap();
            assert_eq!(
                (got.expression.as_str(), got.parsed),
                (want, parsed),
                "{source}"
            );
        }
    }

    #[test]
    fn references_are_listed_once() {
        let got = rewrite(&request(Kind::Expression, "x + l + x")).unwrap();
        assert_eq!(got.references, ["x", "l"]);
    }

    #[test]
    fn convert_takes_a_type_from_1_15() {
        let mut older = request(Kind::Expression, "convert(l, string)");
        older.terraform_version = Some("1.14".into());
        assert_eq!(
            rewrite(&older).unwrap().expression,
            "convert(var.c1_l, var.string)"
        );
        let latest = request(Kind::Expression, "convert(l, string)");
        assert_eq!(
            rewrite(&latest).unwrap().expression,
            "convert(var.c1_l, string)"
        );
        older.terraform_version = Some("1.7".into());
        assert!(rewrite(&older).is_err());
    }
}
