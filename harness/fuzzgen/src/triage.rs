//! Reproducers as corpus cases: each divergence, once minimized, becomes a
//! case file in the corpus format (`spec-tests/README.md`) under the triage
//! folder, `ORACLE/CLASS-HASH.toml`, with the expectation recorded from the
//! Go oracle, so that it can move into the corpus as it is.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use hclspec_corpus::toml_file::{from_json_doc, to_json_doc};
use hclspec_protocol::Expect;
use hclspec_protocol::{Kind, Request};
use serde_json::{Map, Value as Json};

use crate::diff::Class;
use crate::oracle::OracleKind;
use crate::tokens::tokenize;

/// The `area` of triage case files.
pub const AREA: &str = "fuzz-triage";

/// The tag prefix that stores a case's divergence signature.
pub const SIGNATURE_TAG: &str = "signature:";

/// Where `upstream` points for a 2.24 answer that comes from the
/// reference rather than from HCL 2.24 itself.
const UPSTREAM_UNVERIFIED: &str = "unverified: the 2.24 answer is the reference implementation's; \
     check it against HCL 2.24 before moving the case into the corpus";

/// The expectation a triage case records.
#[derive(Clone, Debug, PartialEq)]
pub enum Recorded {
    /// The Go oracle's answer, the same for both versions.
    Same(Expect),
    /// The Go oracle's answer for 2.14 and the reference's for 2.24, where
    /// the reference's versions differ.
    PerVersion { v2_14: Expect, v2_24: Expect },
    /// The Go oracle's answer for 2.14 and real Terraform 1.15's for 2.24,
    /// where they differ.
    Oracles { v2_14: Expect, v2_24: Expect },
    /// No answer could be recorded, and why.
    Pending(String),
}

/// One case to write.
#[derive(Clone, Debug)]
pub struct TriageCase {
    pub oracle: OracleKind,
    /// The divergence class; `None` for a case the oracle failed on.
    pub class: Option<Class>,
    /// The signature with the minimized source's construct fingerprint.
    pub signature: String,
    pub request: Request,
    pub expect: Recorded,
    pub note: String,
}

/// A triage folder and the signatures its cases already record.
#[derive(Clone, Debug)]
pub struct Triage {
    root: PathBuf,
    known: HashSet<String>,
}

impl Triage {
    /// Opens `root` (which need not exist yet) and reads the signatures of
    /// the cases in it.
    pub fn open(root: PathBuf) -> Triage {
        let mut known = HashSet::new();
        collect_signatures(&root, &mut known, 0);
        known.extend(shipped_signatures());
        Triage { root, known }
    }

    /// Also counts the signatures recorded under `dir` (promoted cases
    /// keep their signature tags in the corpus).
    pub fn and_known_in(mut self, dir: &Path) -> Triage {
        collect_signatures(dir, &mut self.known, 0);
        self
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    pub fn is_known(&self, signature: &str) -> bool {
        self.known.contains(signature)
    }

    /// Writes the case unless its signature is already recorded; the path
    /// written.
    pub fn write(&mut self, case: &TriageCase) -> std::io::Result<Option<PathBuf>> {
        if !self.known.insert(case.signature.clone()) {
            return Ok(None);
        }
        let dir = self.root.join(case.oracle.name());
        std::fs::create_dir_all(&dir)?;
        let path = dir.join(format!(
            "{}-{}.toml",
            class_name(case.class),
            case_hash(&case.request)
        ));
        std::fs::write(&path, from_json_doc(&case_document(case)))?;
        Ok(Some(path))
    }
}

impl Triage {
    /// Writes a case an oracle process failed on (it crashed or timed
    /// out: not a divergence, but worth a look) as a pending case under
    /// `ORACLE-poisoned/` ([`poisoned_dir`]), once per kind of failure.
    pub fn write_poisoned(
        &mut self,
        oracle: OracleKind,
        req: &Request,
        why: &str,
    ) -> std::io::Result<Option<PathBuf>> {
        let head: String = crate::diff::without_numbers(why).chars().take(80).collect();
        let signature = format!("{}/poisoned/{head}", oracle.name());
        if !self.known.insert(signature.clone()) {
            return Ok(None);
        }
        let mut req = req.clone();
        req.hcl_version = None;
        let case = TriageCase {
            oracle,
            class: None,
            signature,
            request: req,
            expect: Recorded::Pending(format!("the {} oracle failed on it", oracle.name())),
            note: format!(
                "The {} oracle failed on this case (not a divergence): {why}.",
                oracle.name()
            ),
        };
        let dir = self.root.join(poisoned_dir(oracle));
        std::fs::create_dir_all(&dir)?;
        let path = dir.join(format!("{}.toml", case_hash(&case.request)));
        std::fs::write(&path, from_json_doc(&case_document(&case)))?;
        Ok(Some(path))
    }
}

/// The file of known signatures that a fuzzer built for a fuzzing service
/// finds next to its executable (written by `fuzz/seeds known`): there
/// the repository's triage folder is not around.
pub const KNOWN_FILE: &str = "hclspec-known-divergences.txt";

/// The signatures of [`KNOWN_FILE`] next to the running executable, if
/// there is one.
fn shipped_signatures() -> Vec<String> {
    let Some(file) = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(|dir| dir.join(KNOWN_FILE)))
    else {
        return Vec::new();
    };
    std::fs::read_to_string(file)
        .map(|text| {
            text.lines()
                .filter(|l| !l.is_empty())
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

/// Where cases the Go oracle failed on go.
pub const POISONED_DIR: &str = "go-poisoned";

/// Where cases an oracle failed on go: [`POISONED_DIR`] for the Go
/// oracle, `terraform-poisoned/` and `terraform-0.11-poisoned/` for the
/// Terraform ones.
pub fn poisoned_dir(oracle: OracleKind) -> String {
    format!("{}-poisoned", oracle.name())
}

/// How deep the triage folder is searched.
const MAX_DIR_DEPTH: usize = 4;

fn collect_signatures(dir: &Path, out: &mut HashSet<String>, depth: usize) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let path = e.path();
        if path.is_dir() && depth < MAX_DIR_DEPTH {
            collect_signatures(&path, out, depth + 1);
        } else if path.extension().is_some_and(|x| x == "json" || x == "toml") {
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue;
            };
            let doc = if path.extension().is_some_and(|x| x == "toml") {
                to_json_doc(&text).ok()
            } else {
                serde_json::from_str::<Json>(&text).ok()
            };
            let Some(doc) = doc else {
                continue;
            };
            let cases = doc.get("cases").and_then(Json::as_array);
            for case in cases.into_iter().flatten() {
                let tags = case.get("tags").and_then(Json::as_array);
                for tag in tags.into_iter().flatten().filter_map(Json::as_str) {
                    if let Some(sig) = tag.strip_prefix(SIGNATURE_TAG) {
                        out.insert(sig.to_string());
                    }
                }
            }
        }
    }
}

/// The class's name, or `poisoned` for a case the oracle failed on.
fn class_name(class: Option<Class>) -> &'static str {
    class.map_or("poisoned", Class::name)
}

/// A short stable hash of a request's kind, source and scope.
pub fn case_hash(req: &Request) -> String {
    let mut h = crc32fast::Hasher::new();
    h.update(req.kind.as_str().as_bytes());
    h.update(&[0]);
    h.update(req.source.as_bytes());
    h.update(&[0]);
    for (name, tv) in &req.scope {
        h.update(name.as_bytes());
        h.update(tv.to_json().to_string().as_bytes());
    }
    format!("{:08x}", h.finalize())
}

/// A minimized divergence's fine signature: its coarse signature (engines,
/// class, each side's answer abstracted), the constructs of its source
/// ([`fingerprint`]) and the kinds of the values in its scope
/// ([`value_kinds`]). Two divergences share it only when the same
/// operators and functions meet the same kinds of values.
pub fn fine_signature(coarse: &str, req: &Request) -> String {
    let kinds = value_kinds(req);
    if kinds.is_empty() {
        format!("{coarse}/{}", fingerprint(&req.source))
    } else {
        format!("{coarse}/{} | {kinds}", fingerprint(&req.source))
    }
}

/// The sorted kinds of the values in a request's scope, each as its type's
/// outermost name (`number`, `list`, `object`, ...), `null` or `unknown`
/// for a null or partly unknown variable; nested collections included.
pub fn value_kinds(req: &Request) -> String {
    let mut kinds = std::collections::BTreeSet::new();
    for tv in req.scope.values() {
        kinds_of(&tv.ty, &mut kinds);
        if tv.value.is_null() {
            kinds.insert("null".to_string());
        }
        if !tv.unknown.is_empty() {
            kinds.insert("unknown".to_string());
        }
    }
    kinds.into_iter().collect::<Vec<_>>().join(" ")
}

fn kinds_of(ty: &Json, out: &mut std::collections::BTreeSet<String>) {
    match ty {
        Json::String(s) => {
            out.insert(s.clone());
        }
        Json::Array(a) => {
            if let Some(Json::String(head)) = a.first() {
                out.insert(head.clone());
            }
            for inner in a.iter().skip(1) {
                match inner {
                    Json::Object(attrs) => attrs.values().for_each(|t| kinds_of(t, out)),
                    Json::Array(elems) if head_is_tuple(a) => {
                        elems.iter().for_each(|t| kinds_of(t, out))
                    }
                    other => kinds_of(other, out),
                }
            }
        }
        _ => {}
    }
}

fn head_is_tuple(ty: &[Json]) -> bool {
    ty.first().and_then(Json::as_str) == Some("tuple")
}

/// The constructs a source uses, as a sorted list of token kinds:
/// operators, brackets, keywords, template openers, function names.
/// Variable names and literal values are left out, so that reproducers
/// of one bug with different names share it.
pub fn fingerprint(source: &str) -> String {
    let toks = tokenize(source);
    let mut kinds: Vec<String> = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        let kind = match *t {
            t if t.trim().is_empty() => continue,
            t if t.starts_with(|c: char| c.is_ascii_digit()) => "num".to_string(),
            "for" | "in" | "if" | "else" | "endif" | "endfor" | "null" | "true" | "false" => {
                t.to_string()
            }
            t if t.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') => {
                if toks.get(i + 1) == Some(&"(") {
                    format!("{t}()")
                } else {
                    continue;
                }
            }
            t if t.chars().all(|c| c.is_ascii_punctuation()) => t.to_string(),
            _ => continue,
        };
        if !kinds.contains(&kind) {
            kinds.push(kind);
        }
    }
    kinds.sort();
    kinds.join(" ")
}

/// The case file document for one triage case.
pub fn case_document(case: &TriageCase) -> Json {
    let req = &case.request;
    let mut c = Map::new();
    c.insert(
        "id".into(),
        Json::String(format!("fuzz-{}-{}", case.oracle.name(), case_hash(req))),
    );
    if req.kind == Kind::Template {
        c.insert("kind".into(), Json::String("template".into()));
    }
    c.insert("source".into(), Json::String(req.source.clone()));
    if !req.scope.is_empty() {
        let scope: Map<String, Json> = req
            .scope
            .iter()
            .map(|(k, tv)| (k.clone(), tv.to_json()))
            .collect();
        c.insert("scope".into(), Json::Object(scope));
    }
    match &case.expect {
        Recorded::Same(e) => {
            c.insert("expect".into(), e.to_json());
        }
        Recorded::PerVersion { v2_14, v2_24 } => {
            let mut v = Map::new();
            v.insert("2.14".into(), v2_14.to_json());
            v.insert("2.24".into(), v2_24.to_json());
            c.insert("versions".into(), Json::Object(v));
            c.insert("upstream".into(), Json::String(UPSTREAM_UNVERIFIED.into()));
        }
        Recorded::Oracles { v2_14, v2_24 } => {
            let mut v = Map::new();
            v.insert("2.14".into(), v2_14.to_json());
            v.insert("2.24".into(), v2_24.to_json());
            c.insert("versions".into(), Json::Object(v));
        }
        Recorded::Pending(_) => {}
    }
    let mut note = case.note.clone();
    if let Recorded::Pending(why) = &case.expect {
        note.push_str(&format!(" No expectation recorded: {why}."));
    }
    c.insert("note".into(), Json::String(note));
    let tags = vec![
        Json::String("fuzz".into()),
        Json::String(case.oracle.name().into()),
        Json::String(class_name(case.class).into()),
        Json::String(format!("{SIGNATURE_TAG}{}", case.signature)),
    ];
    c.insert("tags".into(), Json::Array(tags));
    let mut doc = Map::new();
    doc.insert("area".into(), Json::String(AREA.into()));
    if req.dialect != hclspec_protocol::Dialect::Hcl2 {
        doc.insert("dialect".into(), Json::String(req.dialect.as_str().into()));
    }
    doc.insert("cases".into(), Json::Array(vec![Json::Object(c)]));
    Json::Object(doc)
}

#[cfg(test)]
mod tests {
    use super::*;
    use hclspec_corpus::case::CaseFile;
    use hclspec_protocol::{ExpectedError, ExpectedPhase};
    use hclspec_protocol::{TypedValue, Version};
    use serde_json::json;

    fn case(expect: Recorded) -> TriageCase {
        let mut scope = std::collections::BTreeMap::new();
        scope.insert(
            "xs".to_string(),
            TypedValue {
                ty: json!(["list", "number"]),
                value: json!([1, null]),
                unknown: vec![json!([1])],
                ..Default::default()
            },
        );
        TriageCase {
            oracle: OracleKind::Go,
            class: Some(Class::ValueMismatch),
            signature: "go/value_mismatch/value:number/value:number/+ num".into(),
            request: Request {
                id: "3".into(),
                kind: Kind::Template,
                source: "${xs[0] + 1}".into(),
                scope,
                hcl_version: Some(Version::V2_14),
                ..Default::default()
            },
            expect,
            note: "reference answered 3.".into(),
        }
    }

    /// Every form of triage case loads as a corpus case file.
    #[test]
    fn triage_cases_load_as_corpus_files() {
        let e = Expect::Error(ExpectedError {
            phase: ExpectedPhase::Eval,
            summary: Some("Invalid operand".into()),
        });
        let v = Expect::Result(TypedValue {
            ty: json!("number"),
            value: json!(2),
            unknown: vec![],
            ..Default::default()
        });
        for rec in [
            Recorded::Same(e.clone()),
            Recorded::PerVersion {
                v2_14: e.clone(),
                v2_24: v.clone(),
            },
            Recorded::Pending("the Go oracle is not built".into()),
        ] {
            let text = from_json_doc(&case_document(&case(rec.clone())));
            let loaded = CaseFile::parse(&text, "t", "t.toml", Path::new("t.toml"))
                .unwrap_or_else(|e| panic!("{e:?}\n{text}"));
            assert_eq!(loaded.cases.len(), 1);
            assert_eq!(loaded.cases[0].kind, Kind::Template);
            assert!(loaded.cases[0]
                .tags
                .iter()
                .any(|t| t.starts_with(SIGNATURE_TAG)));
        }
    }

    #[test]
    fn write_skips_known_signatures() {
        let dir = std::env::temp_dir().join(format!("hclspec-triage-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut t = Triage::open(dir.clone());
        let c = case(Recorded::Pending("x".into()));
        let first = t.write(&c).unwrap();
        assert!(first.is_some());
        assert_eq!(t.write(&c).unwrap(), None);
        // A fresh look at the folder knows the signature too.
        let again = Triage::open(dir.clone());
        assert!(again.is_known(&c.signature));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn poisoned_cases_are_written_once_per_failure() {
        let dir =
            std::env::temp_dir().join(format!("hclspec-poisoned-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut t = Triage::open(dir.clone());
        let req = case(Recorded::Pending(String::new())).request;
        let path = t.write_poisoned(
            OracleKind::Go,
            &req,
            "go crashed: timeout: no answer within 2s",
        );
        let path = path.unwrap().expect("written");
        assert!(path.starts_with(dir.join(POISONED_DIR)));
        let again = t.write_poisoned(
            OracleKind::Go,
            &req,
            "go crashed: timeout: no answer within 3s",
        );
        assert_eq!(again.unwrap(), None, "numbers do not make a new failure");
        let text = std::fs::read_to_string(&path).unwrap();
        let loaded = CaseFile::parse(&text, "t", "t.toml", &path).unwrap();
        assert!(loaded.cases[0].tags.contains(&"poisoned".to_string()));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn fine_signatures_tell_constructs_and_value_kinds_apart() {
        let coarse = "go/value_mismatch/value:number/value:number";
        let base = case(Recorded::Pending(String::new())).request;
        let sig = fine_signature(coarse, &base);
        assert_eq!(
            sig,
            format!("{coarse}/${{ + [ ] num }} | list number unknown")
        );
        // Another operator, or another kind of value in the scope, is a new
        // signature under the same coarse class.
        let mut minus = base.clone();
        minus.source = "${xs[0] - 1}".into();
        assert_ne!(fine_signature(coarse, &minus), sig);
        let mut tuple = base.clone();
        tuple.scope.get_mut("xs").unwrap().ty = json!(["tuple", ["number", "string"]]);
        tuple.scope.get_mut("xs").unwrap().unknown.clear();
        assert_eq!(
            fine_signature(coarse, &tuple),
            format!("{coarse}/${{ + [ ] num }} | number string tuple")
        );
        // A folder knows fine signatures only: a case of the same class
        // with other constructs is not known.
        let dir = std::env::temp_dir().join(format!("hclspec-fine-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut t = Triage::open(dir.clone());
        let mut c = case(Recorded::Pending("x".into()));
        c.signature = sig.clone();
        t.write(&c).unwrap().expect("written");
        let again = Triage::open(dir.clone());
        assert!(again.is_known(&sig));
        assert!(!again.is_known(&fine_signature(coarse, &minus)));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn fingerprints_keep_constructs_only() {
        assert_eq!(fingerprint("a + 1"), fingerprint("bb + 22"));
        assert_eq!(fingerprint("upper(x) == \"A\""), "\" ( ) == upper()");
        assert_ne!(fingerprint("a + 1"), fingerprint("a - 1"));
    }
}
