//! Terraform's sensitive mark on values: go-cty's `Value.Mark`, `Unmark`,
//! `UnmarkDeep` and their path-keeping forms, for the one mark kind.

use super::{PathStep, Value};

/// A path into a value, as the protocol's `sensitive` paths name them.
pub type Path = Vec<PathStep>;

impl Value {
    /// `Value.Mark(marks.Sensitive)`: a marked value stays as it is.
    pub fn mark(self) -> Value {
        match self {
            Value::Marked(_) => self,
            v => Value::Marked(Box::new(v)),
        }
    }

    /// The value marked when `marked` holds (`WithMarks` of a possibly
    /// empty mark set).
    pub fn mark_if(self, marked: bool) -> Value {
        if marked {
            self.mark()
        } else {
            self
        }
    }

    /// Whether this value itself carries the mark (`Value.IsMarked`).
    pub fn is_marked(&self) -> bool {
        matches!(self, Value::Marked(_))
    }

    /// Whether the mark is on this value or anywhere inside it
    /// (`Value.ContainsMarked`).
    pub fn contains_marked(&self) -> bool {
        match self {
            Value::Marked(_) => true,
            _ => self.children().any(Value::contains_marked),
        }
    }

    /// The value without its own mark, borrowed.
    pub fn unmarked(&self) -> &Value {
        match self {
            Value::Marked(v) => v,
            v => v,
        }
    }

    /// `Value.Unmark`: the value without its own mark (marks inside stay),
    /// and whether it had one.
    pub fn unmark(self) -> (Value, bool) {
        match self {
            Value::Marked(v) => (*v, true),
            v => (v, false),
        }
    }

    /// `Value.UnmarkDeep`: the value without any mark, and whether it had
    /// any.
    pub fn unmark_deep(self) -> (Value, bool) {
        if !self.contains_marked() {
            return (self, false);
        }
        (strip(self), true)
    }

    /// `Value.UnmarkDeepWithPaths`: the value without any mark, and the
    /// paths of the marked parts in cty's iteration order.
    pub fn unmark_deep_with_paths(self) -> (Value, Vec<Path>) {
        let mut paths = Vec::new();
        if !self.contains_marked() {
            return (self, paths);
        }
        let mut path = Vec::new();
        let value = strip_recording(self, &mut path, &mut paths);
        (value, paths)
    }

    /// The paths of the marked parts, as [`Value::unmark_deep_with_paths`]
    /// finds them.
    pub fn marked_paths(&self) -> Vec<Path> {
        if !self.contains_marked() {
            return Vec::new();
        }
        self.clone().unmark_deep_with_paths().1
    }

    /// `Value.MarkWithPaths`: marks the parts at `paths`. A path that
    /// enters a set marks the set (its elements carry no marks); a path
    /// that names nothing in this value is ignored, as cty's `Transform`
    /// never visits it.
    pub fn mark_with_paths(self, paths: &[Path]) -> Value {
        paths.iter().fold(self, |value, path| mark_at(value, path))
    }
}

fn strip(v: Value) -> Value {
    match v {
        Value::Marked(inner) => strip(*inner),
        Value::List { elem, items } => Value::List {
            elem,
            items: items.into_iter().map(strip).collect(),
        },
        Value::Map { elem, items } => Value::Map {
            elem,
            items: items.into_iter().map(|(k, v)| (k, strip(v))).collect(),
        },
        Value::Tuple(items) => Value::Tuple(items.into_iter().map(strip).collect()),
        Value::Object(attrs) => {
            Value::Object(attrs.into_iter().map(|(k, v)| (k, strip(v))).collect())
        }
        v => v,
    }
}

fn strip_recording(v: Value, path: &mut Path, out: &mut Vec<Path>) -> Value {
    let step = |path: &mut Path, s: PathStep, v: Value, out: &mut Vec<Path>| {
        path.push(s);
        let v = strip_recording(v, path, out);
        path.pop();
        v
    };
    match v {
        Value::Marked(inner) => {
            out.push(path.clone());
            strip_recording(*inner, path, out)
        }
        Value::List { elem, items } => Value::List {
            elem,
            items: items
                .into_iter()
                .enumerate()
                .map(|(i, v)| step(path, PathStep::Index(i as u64), v, out))
                .collect(),
        },
        Value::Tuple(items) => Value::Tuple(
            items
                .into_iter()
                .enumerate()
                .map(|(i, v)| step(path, PathStep::Index(i as u64), v, out))
                .collect(),
        ),
        Value::Map { elem, items } => Value::Map {
            elem,
            items: items
                .into_iter()
                .map(|(k, v)| {
                    let v = step(path, PathStep::Key(k.clone()), v, out);
                    (k, v)
                })
                .collect(),
        },
        Value::Object(attrs) => Value::Object(
            attrs
                .into_iter()
                .map(|(k, v)| {
                    let v = step(path, PathStep::Key(k.clone()), v, out);
                    (k, v)
                })
                .collect(),
        ),
        v => v,
    }
}

fn mark_at(v: Value, path: &[PathStep]) -> Value {
    let Some((first, rest)) = path.split_first() else {
        return v.mark();
    };
    let (v, marked) = v.unmark();
    let v = match (v, first) {
        (Value::Set { elem, items }, _) => Value::Set { elem, items }.mark(),
        (Value::List { elem, mut items }, PathStep::Index(i)) => {
            if let Some(item) = usize::try_from(*i).ok().and_then(|i| items.get_mut(i)) {
                *item = mark_at(std::mem::replace(item, Value::Null(elem.clone())), rest);
            }
            Value::List { elem, items }
        }
        (Value::Tuple(mut items), PathStep::Index(i)) => {
            if let Some(item) = usize::try_from(*i).ok().and_then(|i| items.get_mut(i)) {
                *item = mark_at(std::mem::replace(item, Value::Tuple(Vec::new())), rest);
            }
            Value::Tuple(items)
        }
        (Value::Map { elem, mut items }, PathStep::Key(k)) => {
            if let Some(item) = items.get_mut(k) {
                *item = mark_at(std::mem::replace(item, Value::Null(elem.clone())), rest);
            }
            Value::Map { elem, items }
        }
        (Value::Object(mut attrs), PathStep::Key(k)) => {
            if let Some(item) = attrs.get_mut(k) {
                *item = mark_at(std::mem::replace(item, Value::Tuple(Vec::new())), rest);
            }
            Value::Object(attrs)
        }
        (v, _) => v,
    };
    v.mark_if(marked)
}

#[cfg(test)]
mod tests {
    use super::{Path, PathStep, Value};
    use crate::types::Type;

    fn key(k: &str) -> PathStep {
        PathStep::Key(k.into())
    }

    fn sample() -> Value {
        Value::object(
            [
                ("a".to_string(), Value::int(1).mark()),
                (
                    "b".to_string(),
                    Value::tuple(vec![Value::string("x"), Value::string("y").mark()]),
                ),
            ]
            .into(),
        )
    }

    #[test]
    fn mark_is_idempotent() {
        assert!(matches!(Value::int(1).mark().mark(), Value::Marked(inner) if !inner.is_marked()));
    }

    #[test]
    fn paths_round_trip() {
        let (plain, paths) = sample().unmark_deep_with_paths();
        assert!(!plain.contains_marked());
        let want: Vec<Path> = vec![vec![key("a")], vec![key("b"), PathStep::Index(1)]];
        assert_eq!(paths, want);
        assert!(plain.mark_with_paths(&paths).raw_equals(&sample()));
    }

    #[test]
    fn shallow_and_deep_unmark() {
        let v = sample().mark();
        let (shallow, had) = v.clone().unmark();
        assert!(had && shallow.contains_marked() && !shallow.is_marked());
        let (deep, had) = v.unmark_deep();
        assert!(had && !deep.contains_marked());
        assert_eq!(Value::int(1).unmark_deep().1, false);
    }

    #[test]
    fn queries_look_through_the_mark() {
        let v = Value::unknown(Type::String).mark();
        assert!(!v.is_known() && !v.is_null() && v.ty() == Type::String);
        assert!(Value::null(Type::Bool).mark().is_null());
    }

    #[test]
    fn a_set_takes_its_elements_marks() {
        let s = Value::set(Type::Number, vec![Value::int(1).mark(), Value::int(2)]);
        assert!(s.is_marked());
        assert!(!s.unmarked().children().any(Value::contains_marked));
        // A path into a set marks the set.
        let plain = Value::set(Type::Number, vec![Value::int(1)]);
        assert!(plain
            .mark_with_paths(&[vec![PathStep::Index(0)]])
            .is_marked());
    }

    #[test]
    fn a_path_to_nothing_is_ignored() {
        let v = Value::tuple(vec![Value::int(1)]);
        let marked = v
            .clone()
            .mark_with_paths(&[vec![PathStep::Index(5)], vec![key("z")]]);
        assert!(marked.raw_equals(&v));
    }
}
