//! The corpus: case files under `spec-tests/`, their model and loading.
//!
//! Loading is strict: unknown fields, malformed values, dangling scope names
//! and duplicate ids are errors that name the file and the field.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt;
use std::path::{Path, PathBuf};

use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;

use hclspec_protocol::{
    Dialect, Expect, ExpectedError, ExpectedPhase, Kind, Request, TerraformVersion, TypedValue,
    Version,
};
use serde_json::Value as Json;

/// Variables by name.
pub type Scope = BTreeMap<String, TypedValue>;

/// Every case file under a corpus root.
#[derive(Clone, Debug)]
pub struct Corpus {
    /// Where the case files were read from.
    pub origin: Origin,
    pub files: Vec<CaseFile>,
}

/// Where a corpus comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// A directory on disk.
    Dir(PathBuf),
    /// The copy built into this program.
    Embedded,
}

impl Origin {
    /// The directory, for a corpus read from disk.
    pub fn dir(&self) -> Option<&Path> {
        match self {
            Origin::Dir(p) => Some(p),
            Origin::Embedded => None,
        }
    }
}

/// One case file.
#[derive(Clone, Debug)]
pub struct CaseFile {
    /// Where the file was read from.
    pub path: PathBuf,
    /// The path relative to the corpus root, `/`-separated, without `.json`
    /// (`operators/precedence`); the prefix of trial names.
    pub name: String,
    /// How errors name the file (`spec-tests/operators/precedence.json`).
    pub display: String,
    pub area: String,
    pub seed: Option<String>,
    /// The language of every case in the file.
    pub dialect: Dialect,
    pub scopes: BTreeMap<String, Scope>,
    pub cases: Vec<Case>,
}

/// One case, with its named scope resolved and defaults applied.
#[derive(Clone, Debug)]
pub struct Case {
    pub id: String,
    pub kind: Kind,
    /// The file's dialect.
    pub dialect: Dialect,
    /// The source text (array forms joined with "\n").
    pub source: String,
    /// With `kind: "convert"`: the type constraint.
    pub type_constraint: Option<String>,
    /// With `kind: "body"`: the decoder spec.
    pub spec: Option<Json>,
    pub scope: Scope,
    /// The file scope the case refers to, if any.
    pub scope_name: Option<String>,
    pub expect: Expectations,
    /// The Terraform releases older than 1.15 whose answer differs from
    /// the `2.24` one (Terraform 1.15's), each with its answer.
    pub terraform: BTreeMap<TerraformVersion, Expect>,
    /// The seed document section (the file's when the case names none).
    pub seed: Option<String>,
    pub note: Option<String>,
    pub upstream: Option<String>,
    /// Oracles that can only judge part of the case, or none of it.
    pub verify: BTreeMap<Oracle, VerifyMode>,
    /// Oracles whose error detail for this case changes from run to run
    /// (Go's map order decides what it names); the note says why.
    pub detail_varies: BTreeSet<Oracle>,
    /// The corpus's fixture folder, which requests name as `base_dir`.
    pub base_dir: Option<String>,
    pub tags: Vec<String>,
    /// Position in the file's `cases` array.
    pub index: usize,
}

/// A real implementation that verifies expectations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Oracle {
    /// hashicorp/hcl 2.14.1 with go-cty 1.12.1: the `2.14` profile.
    GoHcl,
    /// A real Terraform release: 1.15.5 for the `2.24` profile (named
    /// `terraform`), an older one for its own profile (`terraform-1.9`).
    Terraform(TerraformVersion),
    /// Terraform 0.11.11: the `hil-0.11` dialect.
    Terraform011,
}

impl Oracle {
    /// Terraform 1.15.5, the `2.24` profile's oracle.
    pub const TERRAFORM: Oracle = Oracle::Terraform(TerraformVersion::LATEST);

    /// Every oracle: the Go one, each Terraform release (newest first),
    /// Terraform 0.11.
    pub const ALL: [Oracle; 11] = [
        Oracle::GoHcl,
        Oracle::Terraform(TerraformVersion::V1_15),
        Oracle::Terraform(TerraformVersion::V1_14),
        Oracle::Terraform(TerraformVersion::V1_13),
        Oracle::Terraform(TerraformVersion::V1_12),
        Oracle::Terraform(TerraformVersion::V1_11),
        Oracle::Terraform(TerraformVersion::V1_10),
        Oracle::Terraform(TerraformVersion::V1_9),
        Oracle::Terraform(TerraformVersion::V1_8),
        Oracle::Terraform(TerraformVersion::V1_6),
        Oracle::Terraform011,
    ];

    pub fn as_str(self) -> &'static str {
        use TerraformVersion::*;
        match self {
            Oracle::GoHcl => "go-hcl",
            Oracle::Terraform(V1_15) => "terraform",
            Oracle::Terraform(V1_14) => "terraform-1.14",
            Oracle::Terraform(V1_13) => "terraform-1.13",
            Oracle::Terraform(V1_12) => "terraform-1.12",
            Oracle::Terraform(V1_11) => "terraform-1.11",
            Oracle::Terraform(V1_10) => "terraform-1.10",
            Oracle::Terraform(V1_9) => "terraform-1.9",
            Oracle::Terraform(V1_8) => "terraform-1.8",
            Oracle::Terraform(V1_6) => "terraform-1.6",
            Oracle::Terraform011 => "terraform-0.11",
        }
    }

    /// An oracle by name: `go-hcl`, `terraform` (1.15), `terraform-1.9`
    /// (also `terraform-1.15`), `terraform-0.11`.
    pub fn parse(name: &str) -> Option<Oracle> {
        if name == "terraform-1.15" {
            return Some(Oracle::TERRAFORM);
        }
        Oracle::ALL.into_iter().find(|o| o.as_str() == name)
    }

    /// What the oracle is, in words.
    pub fn describe(self) -> String {
        match self {
            Oracle::GoHcl => "HCL 2.14.1 with go-cty 1.12.1".to_string(),
            Oracle::Terraform(t) => format!("Terraform {}", t.release()),
            Oracle::Terraform011 => "Terraform 0.11.11".to_string(),
        }
    }

    /// The implementation the oracle runs, as reports name it.
    pub fn implementation(self) -> String {
        match self {
            Oracle::GoHcl => "HCL 2.14.1 / go-cty 1.12.1".to_string(),
            Oracle::Terraform(t) => format!("Terraform {}", t.release()),
            Oracle::Terraform011 => "Terraform 0.11.11".to_string(),
        }
    }

    /// The oracle that verifies a case's expectation for `version` in
    /// `dialect`.
    pub fn for_profile(dialect: Dialect, version: Version) -> Oracle {
        match (dialect, version) {
            (Dialect::Hil011, _) => Oracle::Terraform011,
            (Dialect::Hcl2, Version::V2_14) => Oracle::GoHcl,
            (Dialect::Hcl2, Version::Terraform(t)) => Oracle::Terraform(t),
        }
    }

    /// The name a case's `verify` table gives the oracle: every Terraform
    /// release is `terraform` there (their wrapper is the same).
    fn verify_key(self) -> Oracle {
        match self {
            Oracle::Terraform(_) => Oracle::TERRAFORM,
            other => other,
        }
    }
}

/// A key of a case's `verify` table: `go-hcl`, `terraform` or
/// `terraform-0.11`.
impl<'de> Deserialize<'de> for Oracle {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Oracle, D::Error> {
        let name = String::deserialize(d)?;
        match name.as_str() {
            "go-hcl" => Ok(Oracle::GoHcl),
            "terraform" => Ok(Oracle::TERRAFORM),
            "terraform-0.11" => Ok(Oracle::Terraform011),
            _ => Err(de::Error::unknown_variant(
                &name,
                &["go-hcl", "terraform", "terraform-0.11"],
            )),
        }
    }
}

/// How much of a case an oracle can judge, when not all of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum VerifyMode {
    /// Only the error phase, or that a value results (the oracle's wrapper
    /// changes the rest; the case's note says how).
    Phase,
    /// Nothing: the oracle cannot express the case (the note says why).
    None,
}

impl VerifyMode {
    pub fn as_str(self) -> &'static str {
        match self {
            VerifyMode::Phase => "phase",
            VerifyMode::None => "none",
        }
    }
}

/// What a case expects, per HCL version.
#[derive(Clone, Debug, PartialEq)]
pub enum Expectations {
    /// Nothing recorded yet (`hclspec record` fills it).
    Pending,
    /// One answer for every version.
    Same(Expect),
    /// Answers that differ between versions; 2.14's may still be pending.
    PerVersion {
        v2_14: Option<Expect>,
        v2_24: Expect,
    },
}

impl Expectations {
    /// The expectation of an HCL profile (any Terraform release reads the
    /// `2.24` one).
    pub fn for_version(&self, version: Version) -> Option<&Expect> {
        match (self, version) {
            (Expectations::Pending, _) => None,
            (Expectations::Same(e), _) => Some(e),
            (Expectations::PerVersion { v2_14, .. }, Version::V2_14) => v2_14.as_ref(),
            (Expectations::PerVersion { v2_24, .. }, Version::Terraform(_)) => Some(v2_24),
        }
    }
}

impl Case {
    /// The expectation for `version`, if one is recorded. An older
    /// Terraform release has the `2.24` expectation unless `terraform`
    /// gives it another.
    pub fn expect_for(&self, version: Version) -> Option<&Expect> {
        if let Some(older) = version.terraform().and_then(|t| self.terraform.get(&t)) {
            return self.expect.for_version(Version::V2_24).map(|_| older);
        }
        self.expect.for_version(version)
    }

    /// Whether the answer depends on the version.
    pub fn is_versioned(&self) -> bool {
        matches!(self.expect, Expectations::PerVersion { .. }) || !self.terraform.is_empty()
    }

    /// The request that evaluates this case under `version` (which a
    /// case in another dialect than HCL2 does not name).
    pub fn request(&self, version: Version) -> Request {
        Request {
            id: self.id.clone(),
            kind: self.kind,
            source: self.source.clone(),
            type_constraint: self.type_constraint.clone(),
            spec: self.spec.clone(),
            scope: self.scope.clone(),
            hcl_version: self.dialect.is_hcl2().then_some(version),
            dialect: self.dialect,
            base_dir: self.base_dir.clone(),
            level: None,
        }
    }

    /// Whether `oracle`'s error detail for this case changes from run to run.
    pub fn detail_varies(&self, oracle: Oracle) -> bool {
        self.detail_varies.contains(&oracle)
    }

    /// How far `oracle` can judge this case (`None`: fully).
    pub fn verify_mode(&self, oracle: Oracle) -> Option<VerifyMode> {
        self.verify.get(&oracle.verify_key()).copied()
    }

    /// The trial name: `file::id`, with `@2.14` for a version other than
    /// the default one.
    pub fn trial_name(&self, file: &CaseFile, version: Version) -> String {
        if version == Version::default() {
            format!("{}::{}", file.name, self.id)
        } else {
            format!("{}::{}@{}", file.name, self.id, version)
        }
    }

    /// The versions a test run checks: every one, always. A case without
    /// `versions` claims the same answer under 2.14 and 2.24, and one
    /// without `terraform` the same answer on every Terraform release;
    /// running it under each is what checks that claim.
    ///
    /// A case in another dialect has one answer and runs once.
    pub fn test_versions(&self) -> Vec<Version> {
        if self.dialect.is_hcl2() {
            let older = Version::TERRAFORM
                .into_iter()
                .filter(|v| *v != Version::V2_24);
            [Version::V2_24, Version::V2_14]
                .into_iter()
                .chain(older)
                .collect()
        } else {
            vec![Version::default()]
        }
    }
}

/// A problem found while loading: the file, the field inside it, and what is
/// wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadError {
    pub file: String,
    pub field: String,
    pub message: String,
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.field.is_empty() {
            write!(f, "{}: {}", self.file, self.message)
        } else {
            write!(f, "{}: {}: {}", self.file, self.field, self.message)
        }
    }
}

/// Every problem found in a corpus.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadErrors(pub Vec<LoadError>);

impl fmt::Display for LoadErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for LoadErrors {}

/// Folders under the corpus root that hold no case files: the schemas, and
/// the files that file-system functions read.
pub const NON_CASE_DIRS: [&str; 2] = ["schema", "fixtures"];

/// The fixture folder of a corpus directory (`DIR/fixtures`), as an
/// absolute path, when it exists.
pub fn fixtures_in(root: &Path) -> Option<String> {
    let dir = root.join(FIXTURES_DIR);
    dir.canonicalize()
        .ok()
        .filter(|d| d.is_dir())
        .map(|d| d.to_string_lossy().into_owned())
}

/// The folder of files that file-system functions read, below the corpus
/// root.
pub const FIXTURES_DIR: &str = "fixtures";

/// Whether a file or folder named `name`, `depth` levels below the corpus
/// root, can hold case files.
pub fn is_case_path(name: &str, depth: usize, is_dir: bool) -> bool {
    !(name.starts_with('_')
        || name.starts_with('.')
        || (depth == 1 && is_dir && NON_CASE_DIRS.contains(&name)))
}

/// Whether a file is a case file by its name: TOML, or JSON.
pub fn is_case_file_name(name: &str) -> bool {
    name.ends_with(".toml") || name.ends_with(".json")
}

/// Whether a case file is TOML (else JSON).
pub fn is_toml(path: &Path) -> bool {
    path.extension().is_some_and(|x| x == "toml")
}

/// A deserialization error as a load error at the field it names.
fn path_error(
    err: &dyn Fn(String, String) -> LoadError,
    e: &serde_path_to_error::Error<serde_json::Error>,
) -> LoadError {
    let path = e.path().to_string();
    let field = if path == "." || path == "?" {
        String::new()
    } else {
        path
    };
    err(field, e.inner().to_string())
}

impl Corpus {
    /// Loads every `*.json` under `root` (skipping `schema/` and names that
    /// start with `_` or `.`), in path order, and checks ids are unique.
    pub fn load(root: &Path) -> Result<Corpus, LoadErrors> {
        let files = case_file_paths(root).map_err(|e| {
            LoadErrors(vec![LoadError {
                file: display_name(root, root),
                field: String::new(),
                message: e,
            }])
        })?;
        let mut loaded = Vec::new();
        let mut errors = Vec::new();
        for path in files {
            match CaseFile::load(root, &path) {
                Ok(f) => loaded.push(f),
                Err(mut e) => errors.append(&mut e),
            }
        }
        let fixtures = fixtures_in(root);
        for f in &mut loaded {
            f.set_base_dir(fixtures.clone());
        }
        Corpus::checked(Origin::Dir(root.to_path_buf()), loaded, errors)
    }

    /// The corpus built into this program (the `spec-tests` folder it was
    /// built from).
    pub fn embedded() -> Result<Corpus, LoadErrors> {
        let mut loaded = Vec::new();
        let mut errors = Vec::new();
        for (rel, text) in crate::embedded::case_files() {
            let path = Path::new(crate::EMBEDDED_ROOT).join(&rel);
            let name = slash_path(&rel.with_extension(""));
            let display = slash_path(&path);
            let Some(text) = text else {
                errors.push(LoadError {
                    file: display,
                    field: String::new(),
                    message: MSG_NOT_UTF8.into(),
                });
                continue;
            };
            match CaseFile::parse(text, &name, &display, &path) {
                Ok(f) => loaded.push(f),
                Err(mut e) => errors.append(&mut e),
            }
        }
        if !loaded.is_empty() {
            match crate::embedded::fixtures_dir() {
                Ok(fixtures) => {
                    for f in &mut loaded {
                        f.set_base_dir(Some(fixtures.clone()));
                    }
                }
                Err(e) => errors.push(LoadError {
                    file: format!("{}/{FIXTURES_DIR}", crate::EMBEDDED_ROOT),
                    field: String::new(),
                    message: e,
                }),
            }
        }
        Corpus::checked(Origin::Embedded, loaded, errors)
    }

    /// `dir` if given, else the embedded corpus.
    pub fn load_or_embedded(dir: Option<&Path>) -> Result<Corpus, LoadErrors> {
        match dir {
            Some(d) => Corpus::load(d),
            None => Corpus::embedded(),
        }
    }

    fn checked(
        origin: Origin,
        files: Vec<CaseFile>,
        mut errors: Vec<LoadError>,
    ) -> Result<Corpus, LoadErrors> {
        errors.extend(duplicate_ids(&files));
        if errors.is_empty() {
            Ok(Corpus { origin, files })
        } else {
            Err(LoadErrors(errors))
        }
    }

    /// Every (file, case) pair in order.
    pub fn cases(&self) -> impl Iterator<Item = (&CaseFile, &Case)> {
        self.files
            .iter()
            .flat_map(|f| f.cases.iter().map(move |c| (f, c)))
    }
}

/// The case files under `root`, sorted.
pub fn case_file_paths(root: &Path) -> Result<Vec<PathBuf>, String> {
    if !root.is_dir() {
        return Err(MSG_NO_CORPUS.to_string());
    }
    let mut out = Vec::new();
    let walker = walkdir::WalkDir::new(root)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| {
            e.depth() == 0
                || is_case_path(
                    &e.file_name().to_string_lossy(),
                    e.depth(),
                    e.file_type().is_dir(),
                )
        });
    for entry in walker {
        let entry = entry.map_err(|e| e.to_string())?;
        if entry.file_type().is_file() && is_case_file_name(&entry.file_name().to_string_lossy()) {
            out.push(entry.into_path());
        }
    }
    Ok(out)
}

const MSG_NO_CORPUS: &str = "not a directory";
const MSG_NOT_UTF8: &str = "not UTF-8";

/// `spec-tests/a/b.json` for `root/a/b.json`: the root's own name, then the
/// path inside it.
pub fn display_name(root: &Path, path: &Path) -> String {
    let base = root
        .file_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let rel = path.strip_prefix(root).unwrap_or(path);
    let rel = slash_path(rel);
    match (base.is_empty(), rel.is_empty()) {
        (true, _) => rel,
        (false, true) => base,
        (false, false) => format!("{base}/{rel}"),
    }
}

pub(crate) fn slash_path(p: &Path) -> String {
    p.components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

impl CaseFile {
    /// Names the fixture folder that the file's requests give as
    /// `base_dir`.
    pub fn set_base_dir(&mut self, dir: Option<String>) {
        for c in &mut self.cases {
            c.base_dir = dir.clone();
        }
    }

    /// Reads and checks one case file under `root`.
    pub fn load(root: &Path, path: &Path) -> Result<CaseFile, Vec<LoadError>> {
        let display = display_name(root, path);
        let rel = path.strip_prefix(root).unwrap_or(path);
        let name = slash_path(&rel.with_extension(""));
        let text = std::fs::read_to_string(path).map_err(|e| {
            vec![LoadError {
                file: display.clone(),
                field: String::new(),
                message: e.to_string(),
            }]
        })?;
        CaseFile::parse(&text, &name, &display, path)
    }

    /// Checks one case file's text; `name` and `display` are as in
    /// [`CaseFile`].
    pub fn parse(
        text: &str,
        name: &str,
        display: &str,
        path: &Path,
    ) -> Result<CaseFile, Vec<LoadError>> {
        let err = |field: String, message: String| LoadError {
            file: display.to_string(),
            field,
            message,
        };
        let doc = if is_toml(path) {
            let json =
                crate::toml_file::to_json_doc(text).map_err(|e| vec![err(e.field, e.message)])?;
            serde_path_to_error::deserialize(json).map_err(|e| vec![path_error(&err, &e)])?
        } else {
            let mut de = serde_json::Deserializer::from_str(text);
            let doc: FileDoc = serde_path_to_error::deserialize(&mut de)
                .map_err(|e| vec![path_error(&err, &e)])?;
            if let Err(e) = de.end() {
                return Err(vec![err(String::new(), e.to_string())]);
            }
            doc
        };

        let mut errors = Vec::new();
        if doc.area.trim().is_empty() {
            errors.push(err("area".into(), MSG_EMPTY.into()));
        }
        for (sname, scope) in &doc.scopes {
            check_scope(scope, &format!("scopes.{sname}"), &mut |f, m| {
                errors.push(err(f, m))
            });
        }

        let mut cases = Vec::with_capacity(doc.cases.len());
        let mut seen: HashMap<&str, usize> = HashMap::new();
        for (index, c) in doc.cases.iter().enumerate() {
            let at = format!("cases[{index}]");
            let mut push = |f: String, m: String| errors.push(err(f, m));
            if let Err(m) = check_id(&c.id) {
                push(format!("{at}.id"), m);
            }
            if let Some(first) = seen.insert(&c.id, index) {
                push(
                    format!("{at}.id"),
                    format!("duplicate id {:?} (also cases[{first}])", c.id),
                );
            }
            let (scope, scope_name) = match &c.scope {
                None => (Scope::new(), None),
                Some(ScopeDoc::Named(n)) => match doc.scopes.get(n) {
                    Some(s) => (s.clone(), Some(n.clone())),
                    None => {
                        push(
                            format!("{at}.scope"),
                            format!("no scope named {n:?} in `scopes`"),
                        );
                        (Scope::new(), None)
                    }
                },
                Some(ScopeDoc::Inline(s)) => {
                    check_scope(s, &format!("{at}.scope"), &mut push);
                    (s.clone(), None)
                }
            };
            let expect = match (&c.expect, &c.versions) {
                (Some(_), Some(_)) => {
                    push(format!("{at}.versions"), MSG_EXPECT_AND_VERSIONS.into());
                    Expectations::Pending
                }
                (None, None) => Expectations::Pending,
                (Some(e), None) => match convert_expect(e, &format!("{at}.expect"), &mut push) {
                    Some(e) => Expectations::Same(e),
                    None => Expectations::Pending,
                },
                (None, Some(v)) => {
                    let v2_14 = v
                        .v2_14
                        .as_ref()
                        .and_then(|e| convert_expect(e, &format!("{at}.versions.2.14"), &mut push));
                    let v2_24 = match &v.v2_24 {
                        Some(e) => convert_expect(e, &format!("{at}.versions.2.24"), &mut push),
                        None => {
                            push(format!("{at}.versions"), MSG_VERSIONS_NEED_2_24.into());
                            None
                        }
                    };
                    match v2_24 {
                        Some(v2_24) => Expectations::PerVersion { v2_14, v2_24 },
                        None => Expectations::Pending,
                    }
                }
            };
            let terraform = terraform_answers(&c.terraform, &format!("{at}.terraform"), &mut push);
            if !terraform.is_empty() && expect == Expectations::Pending {
                push(format!("{at}.terraform"), MSG_TERRAFORM_NEEDS_2_24.into());
            }
            match (c.kind == Kind::Convert, c.type_constraint.is_some()) {
                (true, false) => push(format!("{at}.type"), MSG_CONVERT_NEEDS_TYPE.into()),
                (false, true) => push(format!("{at}.type"), MSG_TYPE_ONLY_CONVERT.into()),
                _ => {}
            }
            match (c.kind.needs_spec(), c.spec.is_some()) {
                (true, false) => push(format!("{at}.spec"), MSG_BODY_NEEDS_SPEC.into()),
                (false, true) => push(format!("{at}.spec"), MSG_SPEC_ONLY_BODY.into()),
                _ => {}
            }
            let noted = c.note.as_deref().is_some_and(|n| !n.trim().is_empty());
            if !c.verify.is_empty() && !noted {
                push(format!("{at}.note"), MSG_VERIFY_NEEDS_NOTE.into());
            }
            if !c.detail_varies.is_empty() && !noted {
                push(format!("{at}.note"), MSG_DETAIL_VARIES_NEEDS_NOTE.into());
            }
            if let Some(o) = c.detail_varies.iter().find(|o| {
                !Version::ALL
                    .iter()
                    .any(|v| Oracle::for_profile(doc.dialect, *v) == **o)
            }) {
                push(
                    format!("{at}.detail_varies"),
                    format!(
                        "the {} oracle does not judge this dialect's cases",
                        o.as_str()
                    ),
                );
            }
            cases.push(Case {
                id: c.id.clone(),
                kind: c.kind,
                dialect: doc.dialect,
                source: c.source.0.clone(),
                type_constraint: c.type_constraint.clone(),
                spec: c.spec.clone(),
                scope,
                scope_name,
                expect,
                terraform,
                seed: c.seed.clone().or_else(|| doc.seed.clone()),
                note: c.note.clone(),
                upstream: c.upstream.clone(),
                verify: c.verify.clone(),
                detail_varies: c.detail_varies.clone(),
                base_dir: None,
                tags: c.tags.clone(),
                index,
            });
        }

        if !errors.is_empty() {
            return Err(errors);
        }
        Ok(CaseFile {
            path: path.to_path_buf(),
            name: name.to_string(),
            display: display.to_string(),
            area: doc.area,
            seed: doc.seed,
            dialect: doc.dialect,
            scopes: doc.scopes,
            cases,
        })
    }
}

const MSG_EMPTY: &str = "must not be empty";
const MSG_EXPECT_AND_VERSIONS: &str = "a case has either `expect` or `versions`, not both";
const MSG_VERSIONS_NEED_2_24: &str = "`versions` must give the \"2.24\" expectation";
const MSG_CONVERT_NEEDS_TYPE: &str = "a `convert` case needs a type constraint";
const MSG_TYPE_ONLY_CONVERT: &str = "only a `convert` case has a type constraint";
const MSG_BODY_NEEDS_SPEC: &str = "a `body` or `body_variables` case needs a spec";
const MSG_SPEC_ONLY_BODY: &str = "only a `body` or `body_variables` case has a spec";
const MSG_VERIFY_NEEDS_NOTE: &str =
    "a case that an oracle can judge only in part (`verify`) must say why in `note`";
const MSG_DETAIL_VARIES_NEEDS_NOTE: &str =
    "a case whose error detail varies (`detail_varies`) must say why in `note`";
const MSG_EXPECT_ONE_OF: &str = "needs exactly one of `result`, `error` or `crash`";
const MSG_TERRAFORM_NEEDS_2_24: &str =
    "`terraform` gives the releases that differ from the \"2.24\" expectation, which the case lacks";
const MSG_TERRAFORM_LATEST: &str =
    "Terraform 1.15 is the \"2.24\" profile: its answer is `expect` or `versions.\"2.24\"`";
const MSG_CRASH_ONLY_TERRAFORM: &str =
    "a crash is recorded only for a Terraform release, in `terraform`";

/// The `terraform` table of a case: keys are releases (`"1.9"`) or
/// inclusive ranges of them (`"1.6-1.11"`, every release of the corpus
/// between the two), each once.
fn terraform_answers(
    doc: &BTreeMap<String, ExpectDoc>,
    at: &str,
    push: &mut dyn FnMut(String, String),
) -> BTreeMap<TerraformVersion, Expect> {
    let mut out = BTreeMap::new();
    for (key, e) in doc {
        let field = format!("{at}.{key}");
        let versions = match terraform_range(key) {
            Ok(v) => v,
            Err(message) => {
                push(field, message);
                continue;
            }
        };
        if versions.contains(&TerraformVersion::LATEST) {
            push(field.clone(), MSG_TERRAFORM_LATEST.into());
        }
        let Some(expect) = convert_expect_or_crash(e, &field, push) else {
            continue;
        };
        for v in versions {
            if out.insert(v, expect.clone()).is_some() {
                push(field.clone(), format!("Terraform {v} is given twice"));
            }
        }
    }
    out
}

/// The releases a `terraform` key names: `"1.9"`, or `"1.6-1.11"`.
pub fn terraform_range(key: &str) -> Result<Vec<TerraformVersion>, String> {
    let one = |text: &str| {
        TerraformVersion::parse(text.trim())
            .filter(|v| v.as_str() == text.trim())
            .ok_or_else(|| hclspec_protocol::unknown_terraform_version(text.trim()))
    };
    let (first, last) = match key.split_once('-') {
        Some((a, b)) => (one(a)?, one(b)?),
        None => (one(key)?, one(key)?),
    };
    if first > last {
        return Err(format!("the range {key:?} runs backwards"));
    }
    Ok(TerraformVersion::ALL
        .into_iter()
        .filter(|v| (first..=last).contains(v))
        .collect())
}

/// The key of a run of releases: `"1.9"` or `"1.6-1.11"`.
pub fn terraform_key(first: TerraformVersion, last: TerraformVersion) -> String {
    if first == last {
        first.as_str().to_string()
    } else {
        format!("{first}-{last}")
    }
}

/// Ids are used in test names and filters: letters, digits, `-`, `_`, `.`.
fn check_id(id: &str) -> Result<(), String> {
    if id.is_empty() {
        return Err(MSG_EMPTY.into());
    }
    if let Some(c) = id
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.')))
    {
        return Err(format!(
            "{c:?} is not allowed in an id (letters, digits, '-', '_', '.')"
        ));
    }
    Ok(())
}

/// Decodes every variable so that a malformed value fails at load time.
fn check_scope(scope: &Scope, at: &str, push: &mut dyn FnMut(String, String)) {
    for (var, tv) in scope {
        if let Err(e) = tv.decode() {
            push(
                hclspec_protocol::join_path(&format!("{at}.{var}"), &e.path),
                e.message,
            );
        }
    }
}

fn convert_expect(e: &ExpectDoc, at: &str, push: &mut dyn FnMut(String, String)) -> Option<Expect> {
    if e.crash.is_some() {
        push(format!("{at}.crash"), MSG_CRASH_ONLY_TERRAFORM.into());
        return None;
    }
    convert_expect_or_crash(e, at, push)
}

fn convert_expect_or_crash(
    e: &ExpectDoc,
    at: &str,
    push: &mut dyn FnMut(String, String),
) -> Option<Expect> {
    match (&e.result, &e.error, &e.crash) {
        (None, None, Some(CrashDoc(message))) => return Some(Expect::Crash(message.clone())),
        (_, _, Some(_)) => {
            push(at.to_string(), MSG_EXPECT_ONE_OF.into());
            return None;
        }
        _ => {}
    }
    match (&e.result, &e.error) {
        (Some(r), None) => match r.decode() {
            Ok(_) => Some(Expect::Result(r.clone())),
            Err(err) => {
                push(
                    hclspec_protocol::join_path(&format!("{at}.result"), &err.path),
                    err.message,
                );
                None
            }
        },
        (None, Some(err)) => Some(Expect::Error(ExpectedError {
            phase: err.phase,
            summary: err.summary.clone(),
        })),
        _ => {
            push(at.to_string(), MSG_EXPECT_ONE_OF.into());
            None
        }
    }
}

/// Ids must be unique across the corpus.
fn duplicate_ids(files: &[CaseFile]) -> Vec<LoadError> {
    let mut first: HashMap<&str, (&CaseFile, usize)> = HashMap::new();
    let mut out = Vec::new();
    for f in files {
        for c in &f.cases {
            match first.get(c.id.as_str()) {
                Some((other, idx)) if other.path != f.path => out.push(LoadError {
                    file: f.display.clone(),
                    field: format!("cases[{}].id", c.index),
                    message: format!(
                        "duplicate id {:?} (also {}: cases[{idx}])",
                        c.id, other.display
                    ),
                }),
                Some(_) => {}
                None => {
                    first.insert(&c.id, (f, c.index));
                }
            }
        }
    }
    out
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileDoc {
    area: String,
    #[serde(default)]
    seed: Option<String>,
    #[serde(default)]
    dialect: Dialect,
    #[serde(default)]
    scopes: BTreeMap<String, Scope>,
    cases: Vec<CaseDoc>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CaseDoc {
    id: String,
    #[serde(default)]
    kind: Kind,
    source: SourceDoc,
    #[serde(default, rename = "type")]
    type_constraint: Option<String>,
    #[serde(default, deserialize_with = "optional_exact_json")]
    spec: Option<Json>,
    #[serde(default)]
    scope: Option<ScopeDoc>,
    #[serde(default)]
    expect: Option<ExpectDoc>,
    #[serde(default)]
    versions: Option<VersionsDoc>,
    #[serde(default)]
    terraform: BTreeMap<String, ExpectDoc>,
    #[serde(default)]
    seed: Option<String>,
    #[serde(default)]
    note: Option<String>,
    #[serde(default)]
    upstream: Option<String>,
    #[serde(default)]
    verify: BTreeMap<Oracle, VerifyMode>,
    #[serde(default)]
    detail_varies: BTreeSet<Oracle>,
    #[serde(default)]
    tags: Vec<String>,
}

fn optional_exact_json<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Json>, D::Error> {
    hclspec_protocol::exact_json(d).map(Some)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ExpectDoc {
    #[serde(default)]
    result: Option<TypedValue>,
    #[serde(default)]
    error: Option<ErrorDoc>,
    #[serde(default)]
    crash: Option<CrashDoc>,
}

/// `crash = "panic: ..."` (the panic's first line), or `crash = true`.
struct CrashDoc(Option<String>);

impl<'de> Deserialize<'de> for CrashDoc {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<CrashDoc, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Form {
            Text(String),
            Flag(bool),
        }
        match Form::deserialize(d)? {
            Form::Text(s) => Ok(CrashDoc(Some(s))),
            Form::Flag(true) => Ok(CrashDoc(None)),
            Form::Flag(false) => Err(de::Error::custom(
                "`crash` is the panic's first line, or true",
            )),
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ErrorDoc {
    phase: ExpectedPhase,
    #[serde(default)]
    summary: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct VersionsDoc {
    #[serde(rename = "2.14", default)]
    v2_14: Option<ExpectDoc>,
    #[serde(rename = "2.24", default)]
    v2_24: Option<ExpectDoc>,
}

/// A source: a string, or an array of lines joined with "\n".
struct SourceDoc(String);

impl<'de> Deserialize<'de> for SourceDoc {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<SourceDoc, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = SourceDoc;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string or an array of strings (lines)")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<SourceDoc, E> {
                Ok(SourceDoc(s.to_string()))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<SourceDoc, A::Error> {
                let mut lines: Vec<String> = Vec::new();
                while let Some(l) = seq.next_element::<String>()? {
                    lines.push(l);
                }
                Ok(SourceDoc(lines.join("\n")))
            }
        }
        d.deserialize_any(V)
    }
}

/// A scope: the name of a file scope, or variables inline.
enum ScopeDoc {
    Named(String),
    Inline(Scope),
}

impl<'de> Deserialize<'de> for ScopeDoc {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<ScopeDoc, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = ScopeDoc;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("the name of a file scope or an object of typed values")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<ScopeDoc, E> {
                Ok(ScopeDoc::Named(s.to_string()))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<ScopeDoc, A::Error> {
                Scope::deserialize(de::value::MapAccessDeserializer::new(map)).map(ScopeDoc::Inline)
            }
        }
        d.deserialize_any(V)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<CaseFile, Vec<String>> {
        CaseFile::parse(
            text,
            "splat",
            "spec-tests/splat.json",
            Path::new("spec-tests/splat.json"),
        )
        .map_err(|es| es.iter().map(|e| e.to_string()).collect())
    }

    /// A malformed file's error names the file and the field.
    #[test]
    fn structural_errors_name_file_and_field() {
        let table: &[(&str, &str)] = &[
            ("{", "spec-tests/splat.json: EOF while parsing"),
            (r#"{"cases": []}"#, "spec-tests/splat.json: missing field `area`"),
            (
                r#"{"area": "a", "cases": [], "extra": 1}"#,
                "spec-tests/splat.json: extra: unknown field `extra`",
            ),
            (
                r#"{"area": "a", "cases": [{"id": "x", "source": "1"}, {"id": "y", "source": 1}]}"#,
                "spec-tests/splat.json: cases[1].source: invalid type: integer `1`, expected a string or an array of strings",
            ),
            (
                r#"{"area": "a", "cases": [{"id": "x", "source": ["a", 2]}]}"#,
                "spec-tests/splat.json: cases[0].source[1]: invalid type: integer `2`, expected a string",
            ),
            (
                r#"{"area": "a", "cases": [{"id": "x", "kind": "expr", "source": "1"}]}"#,
                "spec-tests/splat.json: cases[0].kind: unknown variant `expr`",
            ),
            (
                r#"{"area": "a", "cases": [{"id": "x", "source": "1", "expect": {"result": {"type": "bool"}}}]}"#,
                "spec-tests/splat.json: cases[0].expect.result: missing field `value`",
            ),
            (
                r#"{"area": "a", "cases": [{"id": "x", "source": "1", "expect": {"error": {"phase": "lex"}}}]}"#,
                "spec-tests/splat.json: cases[0].expect.error.phase: unknown variant `lex`",
            ),
            (
                r#"{"area": "a", "cases": [{"id": "x", "source": "1", "scope": {"v": {"type": "bool", "value": true, "mark": 1}}}]}"#,
                "spec-tests/splat.json: cases[0].scope.v.mark: unknown field `mark`",
            ),
            (
                r#"{"area": "a", "cases": [{"id": "x", "source": "1", "versions": {"2.15": {}}}]}"#,
                "spec-tests/splat.json: cases[0].versions.2.15: unknown field `2.15`",
            ),
            (
                r#"{"area": "a", "cases": [{"id": "x", "source": "1"}]} x"#,
                "spec-tests/splat.json: trailing characters",
            ),
        ];
        for (text, want) in table {
            let errs = parse(text).unwrap_err();
            assert_eq!(errs.len(), 1, "{text}: {errs:?}");
            assert!(
                errs[0].starts_with(want),
                "{text}:\n got {}\nwant {want}",
                errs[0]
            );
        }
    }

    /// Rules checked after parsing; every problem is reported.
    #[test]
    fn semantic_errors() {
        let text = r#"{
          "area": " ",
          "cases": [
            {"id": "a b", "source": "1"},
            {"id": "c", "source": "1"},
            {"id": "c", "source": "1"},
            {"id": "d", "source": "1", "scope": "nope"},
            {"id": "e", "source": "1", "expect": {}},
            {"id": "f", "source": "1", "expect": {"error": {"phase": "eval"}},
             "versions": {"2.24": {"error": {"phase": "eval"}}}},
            {"id": "g", "source": "1", "versions": {"2.14": {"error": {"phase": "eval"}}}},
            {"id": "h", "source": "1", "versions": {"2.24": {"error": {"phase": "eval"}}}},
            {"id": "i", "source": "1", "detail_varies": ["go-hcl"]},
            {"id": "j", "source": "1", "detail_varies": ["terraform-0.11"], "note": "n"}
          ]
        }"#;
        let errs = parse(text).unwrap_err();
        let want = [
            "spec-tests/splat.json: area: must not be empty",
            "spec-tests/splat.json: cases[0].id: ' ' is not allowed in an id",
            "spec-tests/splat.json: cases[2].id: duplicate id \"c\" (also cases[1])",
            "spec-tests/splat.json: cases[3].scope: no scope named \"nope\"",
            "spec-tests/splat.json: cases[4].expect: needs exactly one of `result`, `error` or `crash`",
            "spec-tests/splat.json: cases[5].versions: a case has either `expect` or `versions`",
            "spec-tests/splat.json: cases[6].versions: `versions` must give the \"2.24\"",
            "spec-tests/splat.json: cases[8].note: a case whose error detail varies",
            "spec-tests/splat.json: cases[9].detail_varies: the terraform-0.11 oracle does not judge",
        ];
        assert_eq!(errs.len(), want.len(), "{errs:#?}");
        for (got, want) in errs.iter().zip(want) {
            assert!(got.starts_with(want), "\n got {got}\nwant {want}");
        }
    }

    #[test]
    fn loads_cases_with_defaults() {
        let text = r#"{
          "area": "splat",
          "seed": "doc.md#splat",
          "scopes": {"s": {}},
          "cases": [
            {"id": "splat-001", "source": ["a", "b"], "scope": "s"},
            {"id": "splat-002", "kind": "template", "source": "x", "seed": "doc.md#other",
             "expect": {"error": {"phase": "parse", "summary": "Oops"}}},
            {"id": "splat-003", "source": "1", "upstream": "hcl#1",
             "versions": {"2.24": {"error": {"phase": "eval"}}}}
          ]
        }"#;
        let f = parse(text).unwrap();
        assert_eq!(f.area, "splat");
        let [a, b, c] = &f.cases[..] else { panic!() };
        assert_eq!(a.source, "a\nb");
        assert_eq!(a.kind, Kind::Expression);
        assert_eq!(a.scope_name.as_deref(), Some("s"));
        assert_eq!(a.seed.as_deref(), Some("doc.md#splat"));
        assert_eq!(a.expect, Expectations::Pending);
        assert_eq!(b.kind, Kind::Template);
        assert_eq!(b.seed.as_deref(), Some("doc.md#other"));
        let err = Expect::Error(ExpectedError {
            phase: ExpectedPhase::Parse,
            summary: Some("Oops".into()),
        });
        assert_eq!(b.expect_for(Version::V2_14), Some(&err));
        assert_eq!(b.expect_for(Version::V2_24), Some(&err));
        // Every older Terraform release too, each with the 2.24 answer.
        let every: Vec<Version> = [Version::V2_24, Version::V2_14]
            .into_iter()
            .chain(
                Version::TERRAFORM
                    .into_iter()
                    .filter(|v| *v != Version::V2_24),
            )
            .collect();
        assert_eq!(b.test_versions(), every);
        assert_eq!(c.expect_for(Version::V2_14), None);
        assert!(c.expect_for(Version::V2_24).is_some());
        assert_eq!(c.test_versions(), every);
        assert_eq!(c.trial_name(&f, Version::V2_14), "splat::splat-003@2.14");
        assert_eq!(c.trial_name(&f, Version::V2_24), "splat::splat-003");
        assert_eq!(
            err.to_json().to_string(),
            r#"{"error":{"phase":"parse","summary":"Oops"}}"#
        );
    }

    /// Values are decoded at load time by the reference codec.
    #[test]
    fn malformed_values_name_the_field() {
        let text = r#"{"area": "a", "cases": [
          {"id": "x", "source": "1"},
          {"id": "y", "source": "1", "expect": {"result": {"type": "lst", "value": 1}}}
        ]}"#;
        let errs = parse(text).unwrap_err();
        assert_eq!(errs.len(), 1, "{errs:?}");
        assert!(
            errs[0].starts_with("spec-tests/splat.json: cases[1].expect.result.type"),
            "{}",
            errs[0]
        );
        assert!(errs[0].contains("lst"), "{}", errs[0]);

        let text = r#"{"area": "a", "scopes": {"s": {"v": {"type": "number", "value": "x"}}},
          "cases": []}"#;
        let errs = parse(text).unwrap_err();
        assert!(
            errs[0].starts_with("spec-tests/splat.json: scopes.s.v.value"),
            "{}",
            errs[0]
        );
    }

    /// The example in the corpus README is a valid case file.
    #[test]
    fn readme_example_loads() {
        let readme = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../spec-tests/README.md");
        let text = std::fs::read_to_string(readme).unwrap();
        let start = text.find("```toml\n").expect("a toml block") + "```toml\n".len();
        let end = start + text[start..].find("```").unwrap();
        let path = Path::new("spec-tests/for-expressions.toml");
        let f = CaseFile::parse(
            &text[start..end],
            "for-expressions",
            "spec-tests/for-expressions.toml",
            path,
        )
        .unwrap();
        assert_eq!(f.cases.len(), 3);
        assert_eq!(f.cases[1].source, "Hello,\n${name}!");
        assert!(f.cases[2].is_versioned());
        assert!(f.cases[2]
            .upstream
            .as_deref()
            .unwrap()
            .contains("ShortCircuit"));
    }

    #[test]
    fn corpus_walk_and_duplicates_across_files() {
        let dir = std::env::temp_dir().join(format!("hclspec-case-test-{}", std::process::id()));
        let root = dir.join("spec-tests");
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(root.join("ops")).unwrap();
        std::fs::create_dir_all(root.join("schema")).unwrap();
        std::fs::create_dir_all(root.join("_examples")).unwrap();
        let file =
            |id: &str| format!(r#"{{"area": "a", "cases": [{{"id": "{id}", "source": "1"}}]}}"#);
        std::fs::write(root.join("ops/b.json"), file("dup")).unwrap();
        std::fs::write(root.join("a.json"), file("dup")).unwrap();
        std::fs::write(root.join("schema/x.schema.json"), "not a case file").unwrap();
        std::fs::write(root.join("_examples/x.json"), "not a case file").unwrap();
        std::fs::write(root.join("README.md"), "#").unwrap();

        let errs = Corpus::load(&root).unwrap_err();
        assert_eq!(
            errs.to_string(),
            "spec-tests/ops/b.json: cases[0].id: duplicate id \"dup\" (also spec-tests/a.json: cases[0])"
        );
        std::fs::write(root.join("ops/b.json"), file("other")).unwrap();
        let corpus = Corpus::load(&root).unwrap();
        let names: Vec<_> = corpus.files.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["a", "ops/b"]);
        assert_eq!(corpus.files[1].display, "spec-tests/ops/b.json");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
