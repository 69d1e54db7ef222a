//! `csvdecode`: cty's `stdlib.CSVDecodeFunc` over Go's `encoding/csv`
//! reader with its default settings.
//!
//! Why not the `csv` crate: Go's reader refuses a quote inside an
//! unquoted field, the crate keeps it. `a"b,c` is Go's error `parse error
//! on line 1, column 2: bare " in non-quoted-field`, and the record
//! `["a\"b", "c"]` for `csv` 1.4.

use std::collections::{BTreeMap, BTreeSet};

use crate::functions::{CallError, Function, Param};
use crate::goquote::go_quote;
use crate::types::Type;
use crate::value::Value;

/// `csvdecode(str)`: a list of objects, one per row after the header row,
/// whose attributes are the header's column names.
/// Mirrors `stdlib.CSVDecodeFunc`.
pub(super) fn decode_function() -> Function {
    Function {
        name: "csvdecode",
        params: vec![Param::new("str", Type::String)],
        var_param: None,
        return_type: Box::new(|args| {
            let Value::String(s) = &args[0] else {
                return Ok(Type::Dynamic);
            };
            let mut reader = Reader::new(s.as_bytes());
            let headers = match reader.read(None) {
                Ok(Some(h)) => h,
                Ok(None) => return Err(CallError::general("missing header line")),
                Err(e) => return Err(CallError::general(e)),
            };
            let mut attrs = BTreeMap::new();
            let mut seen = BTreeSet::new();
            for name in headers {
                if !seen.insert(name.clone()) {
                    return Err(CallError::general(format!(
                        "duplicate column name {}",
                        go_quote(&name)
                    )));
                }
                attrs.insert(crate::text::normalize_string(name), Type::String);
            }
            Ok(Type::list(Type::Object(attrs)))
        }),
        implementation: Box::new(|args, ret| {
            let Value::String(s) = &args[0] else {
                return Ok(Value::unknown(ret.clone()));
            };
            let Type::List(elem) = ret else {
                return Ok(Value::unknown(ret.clone()));
            };
            let width = match &**elem {
                Type::Object(attrs) => attrs.len(),
                _ => 0,
            };
            let mut reader = Reader::new(s.as_bytes());
            let headers = reader
                .read(Some(width))
                .map_err(CallError::general)?
                .unwrap_or_default();
            let mut rows = Vec::new();
            while let Some(cols) = reader.read(Some(width)).map_err(CallError::general)? {
                let attrs: BTreeMap<String, Value> = headers
                    .iter()
                    .zip(cols)
                    .map(|(name, col)| (name.clone(), Value::string(col)))
                    .collect();
                rows.push(Value::object(attrs));
            }
            Ok(Value::list((**elem).clone(), rows))
        }),
    }
}

const ERR_BARE_QUOTE: &str = "bare \" in non-quoted-field";
const ERR_QUOTE: &str = "extraneous or missing \" in quoted-field";
const ERR_FIELD_COUNT: &str = "wrong number of fields";

/// Go's `csv.Reader` with `,` as the separator, no comments, strict quotes.
struct Reader<'a> {
    rest: &'a [u8],
    /// Lines read so far (`Reader.numLine`).
    num_line: usize,
}

impl<'a> Reader<'a> {
    fn new(src: &'a [u8]) -> Reader<'a> {
        Reader {
            rest: src,
            num_line: 0,
        }
    }

    /// Mirrors `Reader.readLine`: one line with its `\n` (a `\r\n` ending
    /// becomes `\n`, a `\r` right before the end of input is dropped);
    /// `None` at the end of input.
    fn read_line(&mut self) -> Option<Vec<u8>> {
        self.num_line += 1;
        if self.rest.is_empty() {
            return None;
        }
        let end = self
            .rest
            .iter()
            .position(|&b| b == b'\n')
            .map_or(self.rest.len(), |i| i + 1);
        let mut line = self.rest[..end].to_vec();
        self.rest = &self.rest[end..];
        if line.last() != Some(&b'\n') && line.last() == Some(&b'\r') {
            line.pop();
        }
        let n = line.len();
        if n >= 2 && line[n - 2] == b'\r' && line[n - 1] == b'\n' {
            line[n - 2] = b'\n';
            line.pop();
        }
        Some(line)
    }

    /// Mirrors `Reader.readRecord` (and cty's `csvError` wording): the next
    /// record, skipping empty lines; `None` at the end of input. With
    /// `width`, a record with another number of fields is an error.
    fn read(&mut self, width: Option<usize>) -> Result<Option<Vec<String>>, String> {
        let mut line = loop {
            match self.read_line() {
                None => return Ok(None),
                Some(l) if l.len() == length_nl(&l) => continue,
                Some(l) => break l,
            }
        };
        let rec_line = self.num_line;
        let mut pos_line = self.num_line;
        let mut fields: Vec<Vec<u8>> = Vec::new();
        let fail = |line: usize, err: &str| Err(format!("CSV parse error on line {line}: {err}"));
        'fields: loop {
            if line.first() != Some(&b'"') {
                let comma = line.iter().position(|&b| b == b',');
                let field_end = comma.unwrap_or(line.len() - length_nl(&line));
                let field = &line[..field_end];
                if field.contains(&b'"') {
                    return fail(self.num_line, ERR_BARE_QUOTE);
                }
                fields.push(field.to_vec());
                match comma {
                    Some(i) => {
                        line.drain(..=i);
                        continue 'fields;
                    }
                    None => break 'fields,
                }
            }
            // A quoted field, which may span lines.
            let mut field = Vec::new();
            line.remove(0);
            loop {
                if let Some(i) = line.iter().position(|&b| b == b'"') {
                    field.extend_from_slice(&line[..i]);
                    line.drain(..=i);
                    match line.first() {
                        Some(b'"') => {
                            field.push(b'"');
                            line.remove(0);
                        }
                        Some(b',') => {
                            line.remove(0);
                            fields.push(field);
                            continue 'fields;
                        }
                        _ if line.len() == length_nl(&line) => {
                            fields.push(field);
                            break 'fields;
                        }
                        _ => return fail(self.num_line, ERR_QUOTE),
                    }
                } else if !line.is_empty() {
                    field.extend_from_slice(&line);
                    line = self.read_line().unwrap_or_default();
                    if !line.is_empty() {
                        pos_line += 1;
                    }
                } else {
                    return fail(pos_line, ERR_QUOTE);
                }
            }
        }
        if width.is_some_and(|w| w != fields.len()) {
            return fail(rec_line, ERR_FIELD_COUNT);
        }
        Ok(Some(
            fields
                .into_iter()
                .map(|f| String::from_utf8_lossy(&f).into_owned())
                .collect(),
        ))
    }
}

fn length_nl(line: &[u8]) -> usize {
    usize::from(line.last() == Some(&b'\n'))
}

#[cfg(test)]
mod tests {
    use super::Reader;

    fn records(src: &str) -> Vec<Result<Vec<String>, String>> {
        let mut r = Reader::new(src.as_bytes());
        let mut out = Vec::new();
        let mut width = None;
        loop {
            match r.read(width) {
                Ok(Some(rec)) => {
                    width.get_or_insert(rec.len());
                    out.push(Ok(rec));
                }
                Ok(None) => return out,
                Err(e) => {
                    out.push(Err(e));
                    return out;
                }
            }
        }
    }

    fn ok(fields: &[&str]) -> Result<Vec<String>, String> {
        Ok(fields.iter().map(|s| s.to_string()).collect())
    }

    // Expected values checked against Go 1.19's encoding/csv.
    #[test]
    fn reads_like_go() {
        assert_eq!(
            records("a,b\n1,2\n"),
            vec![ok(&["a", "b"]), ok(&["1", "2"])]
        );
        assert_eq!(
            records("a,b\r\n\n\"x\"\"y\",\"p\nq\"\r"),
            vec![ok(&["a", "b"]), ok(&["x\"y", "p\nq"])]
        );
        assert_eq!(records("a,\n"), vec![ok(&["a", ""])]);
        assert_eq!(
            records("a,b\n1\n"),
            vec![
                ok(&["a", "b"]),
                Err("CSV parse error on line 2: wrong number of fields".into())
            ]
        );
        assert_eq!(
            records("a,b\"c\n"),
            vec![Err(
                "CSV parse error on line 1: bare \" in non-quoted-field".into()
            )]
        );
        assert_eq!(
            records("a\n\"x\ny"),
            vec![
                ok(&["a"]),
                Err("CSV parse error on line 3: extraneous or missing \" in quoted-field".into())
            ]
        );
        assert_eq!(
            records("\"a\"b\n"),
            vec![Err(
                "CSV parse error on line 1: extraneous or missing \" in quoted-field".into()
            )]
        );
    }
}
