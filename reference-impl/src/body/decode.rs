//! Matching a body against a schema (`hclsyntax.Body.Content`), expanding
//! its `dynamic` blocks (`dynblock`), and building the spec's value
//! (`hcldec`).

use std::collections::BTreeMap;
use std::sync::Arc;

use super::spec::{Collection, Schema, Spec};
use crate::ast::{Block, Body, Expr, ExprKind};
use crate::convert::convert;
use crate::convert::unify_with_conversions;
use crate::error::{Error, Span};
use crate::eval::{self, Context};
use crate::goquote::go_quote;
use crate::parser::did_you_mean;
use crate::types::Type;
use crate::value::Value;
use crate::Feature;

/// A body as the decoder sees it: where its iterator variables come from,
/// and whether it stands for blocks of an unknown `for_each`.
#[derive(Clone)]
struct Scoped<'a> {
    body: &'a Body,
    /// The iterator objects visible here (`dynblock`'s iteration chain),
    /// by name; an inner iterator hides an outer one of the same name.
    iterators: Arc<BTreeMap<String, Value>>,
    unknown: bool,
}

/// The items of a body that a schema asks for, dynamic blocks expanded.
struct Content<'a> {
    attributes: BTreeMap<&'a str, Attr<'a>>,
    blocks: Vec<Expanded<'a>>,
    missing: Span,
}

struct Attr<'a> {
    expr: &'a Expr,
    iterators: Arc<BTreeMap<String, Value>>,
    unknown: bool,
}

struct Expanded<'a> {
    type_name: &'a str,
    /// Where the block's header is (`hcl.Block.DefRange`): its type and
    /// labels, those of the `dynamic` block for a generated one.
    def_span: Span,
    labels: Vec<String>,
    body: Scoped<'a>,
}

struct Decoder<'c> {
    ctx: &'c Context,
}

pub(super) fn decode_root(body: &Body, spec: &Spec, ctx: &Context) -> Result<Value, Error> {
    let decoder = Decoder { ctx };
    let root = Scoped {
        body,
        iterators: Arc::new(BTreeMap::new()),
        unknown: false,
    };
    decoder.decode(spec, &root, &[])
}

fn eval_error(summary: &str, detail: impl Into<String>, span: Span) -> Error {
    Error::eval(summary, detail, span)
}

impl Decoder<'_> {
    /// `hcldec`'s decode: the body's content for the spec's schema, then
    /// the spec's value from it.
    fn decode(&self, spec: &Spec, body: &Scoped<'_>, labels: &[String]) -> Result<Value, Error> {
        crate::stack::deeper(|| {
            let content = self.content(body, &spec.schema())?;
            self.value(spec, &content, labels)
        })
    }

    /// Evaluates `expr` with the scope and the iterators (which hide scope
    /// variables of the same name, as a child evaluation context does).
    fn eval(&self, expr: &Expr, iterators: &BTreeMap<String, Value>) -> Result<Value, Error> {
        if iterators.is_empty() {
            return eval::evaluate(expr, self.ctx);
        }
        let mut variables = (*self.ctx.variables).clone();
        for (name, value) in iterators {
            variables.insert(name.clone(), value.clone());
        }
        let ctx = Context {
            variables: Arc::new(variables),
            version: self.ctx.version,
            base_dir: self.ctx.base_dir.clone(),
        };
        eval::evaluate(expr, &ctx)
    }

    fn value(&self, spec: &Spec, content: &Content<'_>, labels: &[String]) -> Result<Value, Error> {
        match spec {
            Spec::Object(items) => {
                let mut out = BTreeMap::new();
                for (name, item) in items {
                    out.insert(name.clone(), self.value(item, content, labels)?);
                }
                Ok(Value::object(out))
            }
            Spec::Attr { name, ty, .. } => {
                let Some(attr) = content.attributes.get(name.as_str()) else {
                    return Ok(Value::Null(ty.without_optional()));
                };
                let value = if attr.unknown {
                    Value::dynamic_unknown()
                } else {
                    self.eval(attr.expr, &attr.iterators)?
                };
                convert(&value, ty).map_err(|e| {
                    eval_error(
                        "Incorrect attribute value type",
                        format!("Inappropriate value for attribute {}: {e}.", go_quote(name)),
                        attr.expr.span,
                    )
                })
            }
            Spec::Block {
                type_name,
                required,
                body,
            } => {
                let mut found = content.blocks.iter().filter(|b| b.type_name == type_name);
                let Some(block) = found.next() else {
                    if *required {
                        return Err(eval_error(
                            &format!("Missing {type_name} block"),
                            format!("A block of type {} is required here.", go_quote(type_name)),
                            content.missing,
                        ));
                    }
                    return Ok(Value::Null(body.implied_type().without_optional()));
                };
                if let Some(second) = found.next() {
                    return Err(eval_error(
                        &format!("Duplicate {type_name} block"),
                        format!(
                            "Only one block of type {} is allowed. Previous definition was at {}.",
                            go_quote(type_name),
                            block.def_span.hcl_range()
                        ),
                        second.def_span,
                    ));
                }
                self.decode(body, &block.body, &block.labels)
            }
            Spec::BlockList(c) => self.collection(c, content, false),
            Spec::BlockSet(c) => self.collection(c, content, true),
            Spec::Label { index, name } => labels
                .get(*index)
                .map(|l| Value::string(l.clone()))
                .ok_or_else(|| {
                    eval_error(
                        "Invalid label spec",
                        format!("No label {} at index {index} here.", go_quote(name)),
                        content.missing,
                    )
                }),
        }
    }

    /// `BlockListSpec` and `BlockSetSpec`.
    fn collection(&self, c: &Collection, content: &Content<'_>, set: bool) -> Result<Value, Error> {
        let elem_ty = c.body.implied_type();
        let whole_ty = if set {
            Type::set(elem_ty.clone())
        } else {
            Type::list(elem_ty.clone())
        };
        let mut elems = Vec::new();
        for block in content.blocks.iter().filter(|b| b.type_name == c.type_name) {
            let value = self.decode(&c.body, &block.body, &block.labels)?;
            if block.body.unknown {
                return Ok(Value::unknown(whole_ty.without_optional()));
            }
            elems.push(value);
        }
        let name = &c.type_name;
        if elems.len() < c.min_items {
            return Err(eval_error(
                &format!("Insufficient {name} blocks"),
                format!(
                    "At least {} {} blocks are required.",
                    c.min_items,
                    go_quote(name)
                ),
                content.missing,
            ));
        }
        if c.max_items > 0 && elems.len() > c.max_items {
            return Err(eval_error(
                &format!("Too many {name} blocks"),
                format!(
                    "No more than {} {} blocks are allowed",
                    c.max_items,
                    go_quote(name)
                ),
                content.missing,
            ));
        }
        if elems.is_empty() {
            return Ok(if set {
                Value::set(elem_ty, Vec::new())
            } else {
                Value::list(elem_ty, Vec::new())
            });
        }
        let inconsistent = |detail: String| {
            eval_error(
                &format!("Unconsistent argument types in {name} blocks"),
                detail,
                content.missing,
            )
        };
        let types: Vec<Type> = elems.iter().map(Value::ty).collect();
        let Some((_, convs)) = unify_with_conversions(&types, true) else {
            return Err(inconsistent(
                "Corresponding attributes in all blocks of this type must be the same.".into(),
            ));
        };
        let mut converted = Vec::with_capacity(elems.len());
        for (i, (elem, conv)) in elems.into_iter().zip(convs).enumerate() {
            converted.push(match conv {
                None => elem,
                Some(conv) => conv.apply(&elem).map_err(|e| {
                    inconsistent(format!(
                        "Block with index {i} has inconsistent argument types: {e}."
                    ))
                })?,
            });
        }
        let made = if set {
            Value::set_of(converted)
        } else {
            Value::list_of(converted)
        };
        made.ok_or_else(|| {
            inconsistent(
                "Corresponding attributes in all blocks of this type must be the same.".into(),
            )
        })
    }

    /// `expandBody.Content`: the body's items for `schema` (plus `dynamic`
    /// blocks, which are expanded into blocks of the types they name).
    fn content<'a>(&self, scoped: &Scoped<'a>, schema: &Schema) -> Result<Content<'a>, Error> {
        let mut with_dynamic: Vec<(String, Vec<String>)> = schema.blocks.clone();
        with_dynamic.push(("dynamic".to_string(), vec!["type".to_string()]));
        let (attributes, raw_blocks) =
            match_schema(scoped.body, &schema.attributes, &with_dynamic)?;
        let mut blocks = Vec::new();
        for block in raw_blocks {
            if block.type_name != "dynamic" {
                blocks.push(Expanded {
                    type_name: &block.type_name,
                    def_span: block.def_span(),
                    labels: block.labels.iter().map(|(l, _)| l.clone()).collect(),
                    body: Scoped {
                        body: &block.body,
                        iterators: scoped.iterators.clone(),
                        unknown: scoped.unknown,
                    },
                });
                continue;
            }
            let (real_type, real_span) = &block.labels[0];
            let Some((_, label_names)) = schema.blocks.iter().find(|(t, _)| t == real_type) else {
                return Err(unsupported_block(real_type, "", *real_span));
            };
            self.expand(scoped, block, real_type, label_names, &mut blocks)?;
        }
        let attributes = attributes
            .into_iter()
            .map(|a| {
                (
                    a.name.as_str(),
                    Attr {
                        expr: &a.expr,
                        iterators: scoped.iterators.clone(),
                        unknown: scoped.unknown,
                    },
                )
            })
            .collect();
        Ok(Content {
            attributes,
            blocks,
            missing: scoped.body.end,
        })
    }

    /// One `dynamic` block: its spec read, then one block per element of
    /// `for_each` (`decodeSpec`, `newBlock`).
    fn expand<'a>(
        &self,
        scoped: &Scoped<'a>,
        dynamic: &'a Block,
        real_type: &'a str,
        label_names: &[String],
        out: &mut Vec<Expanded<'a>>,
    ) -> Result<(), Error> {
        let mut attrs = vec![
            ("for_each".to_string(), true),
            ("iterator".to_string(), false),
        ];
        if !label_names.is_empty() {
            attrs.push(("labels".to_string(), true));
        }
        let content_schema = vec![("content".to_string(), Vec::new())];
        let (spec_attrs, content_blocks) = match_schema(&dynamic.body, &attrs, &content_schema)?;
        let attr = |name: &str| spec_attrs.iter().find(|a| a.name == name).copied();
        // HCL 2.24 checks the iterator before evaluating for_each; 2.14
        // after checking the value.
        let early_iterator = if self.ctx.version.has(Feature::DynamicIteratorFirst) {
            Some(iterator_name(attr("iterator"), real_type)?)
        } else {
            None
        };
        let for_each = attr("for_each").expect("required");
        let each = self.eval(&for_each.expr, &scoped.iterators)?;
        let each_ty = each.ty();
        let iterable = each_ty.is_collection() || each_ty.is_tuple() || each_ty.is_object();
        if !iterable && each_ty != Type::Dynamic {
            return Err(eval_error(
                "Invalid dynamic for_each value",
                format!(
                    "Cannot use a {} value in for_each. An iterable collection is required.",
                    each_ty.friendly_name()
                ),
                for_each.expr.span,
            ));
        }
        if each.is_null() {
            return Err(eval_error(
                "Invalid dynamic for_each value",
                "Cannot use a null value in for_each.",
                for_each.expr.span,
            ));
        }
        let iterator = match early_iterator {
            Some(name) => name,
            None => iterator_name(attr("iterator"), real_type)?,
        };
        let label_exprs: Vec<&Expr> = match attr("labels") {
            None => Vec::new(),
            Some(a) => match &a.expr.kind {
                ExprKind::TupleCons(items) => items.iter().collect(),
                _ => {
                    return Err(eval_error(
                        "Invalid expression",
                        "A static list expression is required.",
                        a.expr.span,
                    ))
                }
            },
        };
        if label_exprs.len() > label_names.len() {
            return Err(eval_error(
                "Extraneous dynamic block label",
                format!(
                    "Blocks of type {} require {} label(s).",
                    go_quote(real_type),
                    label_names.len()
                ),
                label_exprs[label_names.len()].span,
            ));
        }
        if label_exprs.len() < label_names.len() {
            return Err(eval_error(
                "Insufficient dynamic block labels",
                format!(
                    "Blocks of type {} require {} label(s).",
                    go_quote(real_type),
                    label_names.len()
                ),
                dynamic.body.end,
            ));
        }
        let content = match content_blocks.as_slice() {
            [] => {
                return Err(eval_error(
                    "Missing dynamic content block",
                    "A dynamic block must have a nested block of type \"content\" to describe the body of each generated block.",
                    dynamic.body.end,
                ))
            }
            [one] => &one.body,
            [_, second, ..] => {
                return Err(eval_error(
                    "Extraneous dynamic content block",
                    "Only one nested content block is allowed for each dynamic block.",
                    second.type_span,
                ))
            }
        };
        let mut new_block = |key: Value, value: Value, unknown: bool| -> Result<(), Error> {
            let mut iterators = (*scoped.iterators).clone();
            iterators.insert(
                iterator.clone(),
                Value::object(BTreeMap::from([
                    ("key".to_string(), key),
                    ("value".to_string(), value),
                ])),
            );
            let mut labels = Vec::with_capacity(label_exprs.len());
            for expr in &label_exprs {
                let label = self.eval(expr, &iterators)?;
                let invalid =
                    |detail: String| eval_error("Invalid dynamic block label", detail, expr.span);
                let label = convert(&label, &Type::String).map_err(|e| {
                    invalid(format!(
                        "Cannot use this value as a dynamic block label: {e}."
                    ))
                })?;
                match label {
                    Value::Null(_) => {
                        return Err(invalid("Cannot use a null value as a dynamic block label.".into()))
                    }
                    Value::Unknown(..) => {
                        return Err(invalid(
                            "This value is not yet known. Dynamic block labels must be immediately-known values."
                                .into(),
                        ))
                    }
                    Value::String(s) => labels.push(s),
                    _ => unreachable!("converted to string"),
                }
            }
            out.push(Expanded {
                type_name: real_type,
                def_span: dynamic.def_span(),
                labels,
                body: Scoped {
                    body: content,
                    iterators: Arc::new(iterators),
                    unknown: unknown || scoped.unknown,
                },
            });
            Ok(())
        };
        if !each.is_known() {
            return new_block(Value::dynamic_unknown(), Value::dynamic_unknown(), true);
        }
        for (key, value) in each.elements() {
            new_block(key, value, false)?;
        }
        Ok(())
    }
}

/// A block of a type the schema does not have; `suggestion` follows the
/// sentence.
fn unsupported_block(type_name: &str, suggestion: &str, span: Span) -> Error {
    eval_error(
        "Unsupported block type",
        format!(
            "Blocks of type {} are not expected here.{suggestion}",
            go_quote(type_name)
        ),
        span,
    )
}

/// The iterator's name: the `iterator` attribute's single variable name,
/// else the block type.
fn iterator_name(attr: Option<&crate::ast::Attribute>, block_type: &str) -> Result<String, Error> {
    let Some(a) = attr else {
        return Ok(block_type.to_string());
    };
    match &a.expr.kind {
        ExprKind::ScopeTraversal { root, steps } if steps.is_empty() => Ok(root.clone()),
        ExprKind::ScopeTraversal { .. } => Err(eval_error(
            "Invalid dynamic iterator name",
            "Dynamic iterator must be a single variable name.",
            a.expr.span,
        )),
        _ => Err(eval_error(
            "Invalid expression",
            "A single static variable reference is required: only attribute access and indexing with constant keys. No calculations, function calls, template expressions, etc are allowed here.",
            a.expr.span,
        )),
    }
}

/// `hclsyntax.Body.Content`: the attributes and blocks `schema` names, or
/// the first error (a missing required attribute, a block with the wrong
/// number of labels, an attribute or block the schema does not have).
fn match_schema<'a>(
    body: &'a Body,
    attrs: &[(String, bool)],
    blocks: &[(String, Vec<String>)],
) -> Result<(Vec<&'a crate::ast::Attribute>, Vec<&'a Block>), Error> {
    let mut found_attrs = Vec::new();
    for (name, required) in attrs {
        match body.attributes.iter().find(|a| &a.name == name) {
            Some(a) => found_attrs.push(a),
            None if *required => {
                return Err(eval_error(
                    "Missing required argument",
                    format!(
                        "The argument {} is required, but no definition was found.",
                        go_quote(name)
                    ),
                    body.end,
                ))
            }
            None => {}
        }
    }
    let mut found_blocks = Vec::new();
    for block in &body.blocks {
        let Some((_, label_names)) = blocks.iter().find(|(t, _)| *t == block.type_name) else {
            continue;
        };
        let name = &block.type_name;
        if block.labels.len() > label_names.len() {
            let detail = if label_names.is_empty() {
                format!("No labels are expected for {name} blocks.")
            } else {
                format!(
                    "Only {} labels ({}) are expected for {name} blocks.",
                    label_names.len(),
                    label_names.join(", ")
                )
            };
            return Err(eval_error(
                &format!("Extraneous label for {name}"),
                detail,
                block.labels[label_names.len()].1,
            ));
        }
        if block.labels.len() < label_names.len() {
            return Err(eval_error(
                &format!("Missing {} for {name}", label_names[block.labels.len()]),
                format!(
                    "All {name} blocks must have {} labels ({}).",
                    label_names.len(),
                    label_names.join(", ")
                ),
                block.type_span,
            ));
        }
        found_blocks.push(block);
    }
    if let Some(extra) = body
        .attributes
        .iter()
        .find(|a| !attrs.iter().any(|(n, _)| *n == a.name))
    {
        // HCL suggests the arguments the body does not set, else a block
        // type of the same name.
        let unset: Vec<&str> = attrs
            .iter()
            .map(|(n, _)| n.as_str())
            .filter(|n| !found_attrs.iter().any(|a| a.name == *n))
            .collect();
        let is_block = blocks.iter().any(|(t, _)| *t == extra.name);
        let suggestion = suggest(&extra.name, &unset, is_block, |name| {
            format!(" Did you mean to define a block of type {name}?")
        });
        return Err(eval_error(
            "Unsupported argument",
            format!(
                "An argument named {} is not expected here.{suggestion}",
                go_quote(&extra.name)
            ),
            extra.name_span,
        ));
    }
    if let Some(extra) = body
        .blocks
        .iter()
        .find(|b| !blocks.iter().any(|(t, _)| *t == b.type_name))
    {
        let types: Vec<&str> = blocks.iter().map(|(t, _)| t.as_str()).collect();
        let is_attr = attrs.iter().any(|(n, _)| *n == extra.type_name);
        let suggestion = suggest(&extra.type_name, &types, is_attr, |name| {
            format!(" Did you mean to define argument {name}? If so, use the equals sign to assign it a value.")
        });
        return Err(unsupported_block(
            &extra.type_name,
            &suggestion,
            extra.type_span,
        ));
    }
    Ok((found_attrs, found_blocks))
}

/// What HCL adds to the detail of an unexpected argument or block: a close
/// name from `names`, else (when the other kind of item has this very
/// name, `other_kind`) the `other` sentence about the quoted name.
fn suggest(name: &str, names: &[&str], other_kind: bool, other: impl Fn(&str) -> String) -> String {
    match did_you_mean(name, names) {
        s if !s.is_empty() => s,
        _ if other_kind => other(&go_quote(name)),
        _ => String::new(),
    }
}
