//! String templates (`hclsyntax.TemplateExpr`) and the join of a template
//! `for` directive's results (`hclsyntax.TemplateJoinExpr`).

use super::{Diags, Evaluated, Evaluator};
use crate::ast::Expr;
use crate::convert::convert;
use crate::error::Error;
use crate::types::Type;
use crate::value::{safe_known_prefix_cut, Value};

const INVALID_INTERPOLATION: &str = "Invalid template interpolation value";

/// The longest known prefix HCL gives an unknown template result, in bytes.
const MAX_PREFIX_BYTES: usize = 128;

/// Mirrors `hclsyntax.TemplateExpr.Value`: every part is evaluated, even
/// after one turns out unknown, so that all errors are found. An unknown
/// result is refined (HCL 2.17+): never null, and starting with the text of
/// the known parts before the first unknown one.
pub(super) fn template<'a>(ev: &mut Evaluator<'a>, parts: &'a [Expr]) -> Evaluated {
    let mut out = String::new();
    let mut diags = Diags::none();
    let mut known = true;
    // Every part's own mark goes onto the string.
    let mut marked = false;
    for part in parts {
        let (value, part_diags) = ev.eval(part);
        diags.append(part_diags);
        if value.is_null() {
            diags.push(Error::eval(
                INVALID_INTERPOLATION,
                "The expression result is null. Cannot include a null value in a string template.",
                part.span,
            ));
            continue;
        }
        let (value, part_marked) = value.unmark();
        marked |= part_marked;
        if !value.is_known() {
            known = false;
            continue;
        }
        // After an unknown part or an error the text is no longer a
        // prefix of the result; HCL stops collecting it.
        let collect = known && !diags.has_errors();
        match value {
            Value::String(s) if collect => out.push_str(&s),
            Value::String(_) => {}
            other => match convert(&other, &Type::String) {
                Ok(Value::String(s)) if collect => out.push_str(&s),
                Ok(Value::String(_)) => {}
                Ok(_) => known = false,
                Err(e) => diags.push(Error::eval(
                    INVALID_INTERPOLATION,
                    format!(
                        "Cannot include the given value in a string template: {}.",
                        e.message
                    ),
                    part.span,
                )),
            },
        }
    }
    if known {
        return (Value::string(out).mark_if(marked), diags);
    }
    let mut result = Value::unknown(Type::String).refine();
    if !diags.has_errors() && !out.is_empty() {
        result = if out.len() <= MAX_PREFIX_BYTES {
            result.string_prefix(&out)
        } else if out.is_char_boundary(MAX_PREFIX_BYTES) {
            result.string_prefix(&out[..MAX_PREFIX_BYTES])
        } else {
            // Go cuts inside a character, whose broken bytes
            // `SafeKnownPrefix` then steps over.
            let mut end = MAX_PREFIX_BYTES;
            while !out.is_char_boundary(end) {
                end -= 1;
            }
            result.string_prefix_full(&safe_known_prefix_cut(&out[..end]))
        };
    }
    (result.not_null().finish().mark_if(marked), diags)
}

/// Mirrors `hclsyntax.TemplateJoinExpr.Value`: `tuple` is the `for`
/// expression a template directive was turned into.
pub(super) fn template_join<'a>(ev: &mut Evaluator<'a>, tuple: &'a Expr) -> Evaluated {
    let (value, mut diags) = ev.eval(tuple);
    // An unknown tuple gives an unmarked unknown; a known one's own mark
    // and its items' go onto the string.
    let (value, marked) = value.unmark();
    let mut all_marked = marked;
    let items = match value {
        Value::Tuple(items) => items,
        // Unknown (of unknown type or of a tuple type). HCL's parser never
        // builds a join over anything else.
        _ => return (Value::unknown(Type::String), diags),
    };
    let mut out = String::new();
    for item in items {
        if item.is_null() {
            diags.push(Error::eval(
                INVALID_INTERPOLATION,
                "An iteration result is null. Cannot include a null value in a string template.",
                tuple.span,
            ));
            continue;
        }
        if item.ty() == Type::Dynamic {
            return (Value::unknown(Type::String).mark_if(marked), diags);
        }
        let converted = match convert(&item, &Type::String) {
            Ok(s) => s,
            Err(e) => {
                diags.push(Error::eval(
                    INVALID_INTERPOLATION,
                    format!(
                        "Cannot include one of the interpolation results into the string template: {}.",
                        e.message
                    ),
                    tuple.span,
                ));
                continue;
            }
        };
        match converted.unmark() {
            (Value::String(s), item_marked) => {
                all_marked |= item_marked;
                out.push_str(&s);
            }
            _ => return (Value::unknown(Type::String).mark_if(marked), diags),
        }
    }
    (Value::string(out).mark_if(all_marked), diags)
}

#[cfg(test)]
mod tests {
    use crate::eval::test_support::check_table;
    use crate::HclVersion;

    // Expected outcomes checked against hashicorp/hcl 2.14.1 (`t:` marks a
    // bare template).
    #[test]
    fn template_table() {
        check_table(
            &[
                ("t:x${n}", "OK string \"x42\""),
                (
                    "t:x${nul}",
                    "ERR Invalid template interpolation value @ 1:4:3-1:7:6",
                ),
                ("t:x${us}${nope}", "ERR Unknown variable @ 1:9:8-1:13:12"),
                (
                    "\"${l}\"",
                    "OK list(string) list<string>[\"a\", \"b\", \"c\"]",
                ),
                (
                    "\"x${l}\"",
                    "ERR Invalid template interpolation value @ 1:5:4-1:6:5",
                ),
                (
                    "t:%{for i, x in l}${i}=${x} %{endfor}",
                    "OK string \"0=a 1=b 2=c \"",
                ),
                ("t:%{for x in lu}${x}%{endfor}", "OK string unknown(string)"),
                ("t:%{if fa}${nope}%{endif}", "OK string \"\""),
                ("\"${\"e\"}\\u0301\"", "OK string \"\u{e9}\""),
            ],
            HclVersion::V2_14,
        );
    }
}
