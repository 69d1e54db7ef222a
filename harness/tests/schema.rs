//! The JSON Schemas under `spec-tests/schema/` describe what the project
//! reads and writes, checked with a plain JSON Schema validator that
//! resolves references through each schema's `$id` only: every case file
//! (as a TOML reader gives it), every export line, the requests built from
//! cases, the reference's responses, and a run report.

use std::path::PathBuf;
use std::process::Command;

use serde_json::Value as Json;
use sha2::Digest as _;

/// Where the schemas say they live; references resolve against it.
const BASE: &str = "https://raw.githubusercontent.com/hclspec/hclspec/main/spec-tests/schema/";

const NAMES: [&str; 7] = [
    "typed-value.schema.json",
    "decoder-spec.schema.json",
    "request.schema.json",
    "response.schema.json",
    "case-file.schema.json",
    "export-line.schema.json",
    "report.schema.json",
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn schemas() -> Vec<(&'static str, Json)> {
    NAMES
        .iter()
        .map(|name| {
            let path = root().join("spec-tests/schema").join(name);
            let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
            let doc: Json = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
            (*name, doc)
        })
        .collect()
}

struct Validators {
    by_name: Vec<(&'static str, jsonschema::Validator)>,
}

impl Validators {
    fn new() -> Validators {
        let schemas = schemas();
        let mut registry = jsonschema::Registry::new();
        for (name, doc) in &schemas {
            assert_eq!(
                doc["$schema"], "https://json-schema.org/draft/2020-12/schema",
                "{name}"
            );
            assert_eq!(doc["$id"], format!("{BASE}{name}"), "{name}: $id");
            registry = registry
                .add(format!("{BASE}{name}"), doc.clone())
                .unwrap_or_else(|e| panic!("{name}: {e}"));
        }
        let registry = registry.prepare().expect("the schemas form a registry");
        let by_name = schemas
            .iter()
            .map(|(name, doc)| {
                let v = jsonschema::options()
                    .with_registry(&registry)
                    .offline()
                    .build(doc)
                    .unwrap_or_else(|e| panic!("{name}: {e}"));
                (*name, v)
            })
            .collect();
        Validators { by_name }
    }

    fn is_valid(&self, name: &str, doc: &Json) -> bool {
        let (_, v) = self.by_name.iter().find(|(n, _)| *n == name).unwrap();
        v.is_valid(doc)
    }

    fn check(&self, name: &str, doc: &Json, what: &str) {
        let (_, v) = self.by_name.iter().find(|(n, _)| *n == name).unwrap();
        let errors: Vec<String> = v
            .iter_errors(doc)
            .map(|e| format!("{e} at {}", e.instance_path()))
            .take(5)
            .collect();
        assert!(
            errors.is_empty(),
            "{what} does not meet {name}:\n{}",
            errors.join("\n")
        );
    }
}

fn hclspec(args: &[&str], input: Option<&str>) -> String {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_hclspec"))
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    // Written from a thread: the program's answers must be read meanwhile.
    let text = input.unwrap_or("").to_string();
    let writer = std::thread::spawn(move || {
        stdin.write_all(text.as_bytes()).unwrap();
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn corpus_files_meet_the_case_file_schema() {
    let v = Validators::new();
    let dir = root().join("spec-tests");
    let files = hclspec_corpus::case::case_file_paths(&dir).unwrap();
    assert!(files.len() > 20);
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        if path.extension().is_some_and(|x| x == "toml") {
            let doc: toml::Table = toml::from_str(&text).unwrap();
            let json = serde_json::to_value(doc).unwrap();
            v.check("case-file.schema.json", &json, &path.display().to_string());
        }
    }
}

#[test]
fn export_lines_requests_and_responses_meet_their_schemas() {
    let v = Validators::new();
    let corpus = root().join("spec-tests");
    let corpus = corpus.to_str().unwrap();
    let mut requests = String::new();
    for version in ["2.14", "2.24"] {
        let export = hclspec(
            &["export", "--hcl-version", version, "--corpus", corpus],
            None,
        );
        let (first, cases) = export.split_once('\n').expect("a manifest line");
        let manifest: Json = serde_json::from_str(first).unwrap();
        v.check("export-line.schema.json", &manifest, first);
        // The schema can fail: a manifest without its case count does not pass.
        let mut broken = manifest.clone();
        broken["manifest"]["counts"]
            .as_object_mut()
            .unwrap()
            .remove("cases");
        assert!(!v.is_valid("export-line.schema.json", &broken));
        let manifest = &manifest["manifest"];
        assert_eq!(manifest["hcl_version"], version);
        let digest: String = sha2::Sha256::digest(cases.as_bytes())
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(manifest["cases_sha256"], digest.as_str());
        let mut n = 0;
        for line in cases.lines() {
            let doc: Json = serde_json::from_str(line).unwrap();
            v.check("export-line.schema.json", &doc, line);
            assert!(
                doc.get("request").is_some(),
                "only the first line is a manifest"
            );
            v.check("request.schema.json", &doc["request"], line);
            requests.push_str(&doc["request"].to_string());
            requests.push('\n');
            n += 1;
        }
        assert!(n > 3000, "{n} export lines");
        assert_eq!(manifest["counts"]["cases"], n);
        let results = cases
            .lines()
            .filter(|l| l.contains("\"expect\":{\"result\""))
            .count();
        assert_eq!(manifest["counts"]["results"], results);
    }
    // A malformed request too, for a request error.
    requests.push_str("{\"id\": 1}\n");
    let answers = hclspec(&["serve"], Some(&requests));
    let mut n = 0;
    for line in answers.lines() {
        let doc: Json = serde_json::from_str(line).unwrap();
        v.check("response.schema.json", &doc, line);
        n += 1;
    }
    assert_eq!(n, requests.lines().count());
}

/// `hclspec run --format json` over the corpus with `args`, as JSON.
fn json_run_report(args: &[&str]) -> Json {
    let corpus = root().join("spec-tests");
    let mut all = vec![
        "run",
        "--corpus",
        corpus.to_str().unwrap(),
        "--format",
        "json",
    ];
    all.extend_from_slice(args);
    serde_json::from_str(&hclspec(&all, None)).unwrap()
}

#[test]
fn a_run_report_meets_the_report_schema() {
    let v = Validators::new();
    let doc = json_run_report(&["--filter", "arith-00"]);
    v.check("report.schema.json", &doc, "the run report");
    assert!(doc["cases"].as_array().unwrap().len() >= 9);
    // A schema that can fail: a report without its cases does not pass.
    let mut broken = doc.clone();
    broken.as_object_mut().unwrap().remove("cases");
    let (_, validator) = v
        .by_name
        .iter()
        .find(|(n, _)| *n == "report.schema.json")
        .unwrap();
    assert!(!validator.is_valid(&broken));
}

#[test]
fn a_run_judged_against_each_terraform_release_meets_the_report_schema() {
    let v = Validators::new();
    let doc = json_run_report(&["--filter", "rel-00", "--closest-terraform"]);
    v.check("report.schema.json", &doc, "the run report");
    let releases = &doc["terraform_releases"];
    let cases = releases["cases"].as_u64().unwrap();
    assert!(cases >= 5, "{releases}");
    let passed = releases["passed"].as_array().unwrap();
    assert_eq!(passed.len(), 9, "{releases}");
    assert_eq!(passed[0][0], "1.6");
    // The reference asked as the current profile answers as 1.15, and
    // these cases differ on 1.6.
    assert_eq!(passed[8], serde_json::json!(["1.15", cases]));
    assert!(passed[0][1].as_u64().unwrap() < cases, "{releases}");
}

#[test]
fn decoder_specs_are_checked_inside_requests() {
    let v = Validators::new();
    let (_, validator) = v
        .by_name
        .iter()
        .find(|(n, _)| *n == "request.schema.json")
        .unwrap();
    let request = |spec: Json| serde_json::json!({"id": "b", "kind": "body", "source": "x = 1", "spec": spec});
    let good = request(serde_json::json!({"object": {
        "x": {"attr": {"name": "x", "type": "number"}},
        "b": {"block_list": {"type": "b", "max_items": 2, "body": {"label": {"name": "n", "index": 0}}}}
    }}));
    v.check("request.schema.json", &good, "a body request");
    for bad in [
        serde_json::json!({"attr": {"type": "number"}}),
        serde_json::json!({"block": {"type": "b"}}),
        serde_json::json!({"object": {"x": {"attribute": {"name": "x"}}}}),
        serde_json::json!({"block_list": {"type": "b", "body": {"object": {}}}, "block_set": {}}),
    ] {
        assert!(!validator.is_valid(&request(bad.clone())), "{bad}");
    }
}
