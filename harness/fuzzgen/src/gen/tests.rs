use super::*;
use crate::config::Profile;

use crate::seeded_bytes;

#[test]
fn exhausted_input_gives_one_simple_case() {
    let b = gen_batch(&[], Profile::Go, 8, Version::V2_14);
    assert_eq!(b.requests.len(), 1);
    let r = &b.requests[0];
    assert_eq!(r.kind, Kind::Expression);
    assert!(r.scope.is_empty());
    assert_eq!(r.source, "\"a\"");
}

#[test]
fn generation_is_deterministic() {
    let data = seeded_bytes(7, 2048);
    let a = gen_batch(&data, Profile::Go, 16, Version::V2_14);
    let b = gen_batch(&data, Profile::Go, 16, Version::V2_14);
    assert_eq!(a.requests, b.requests);
    assert!(a.requests.len() > 1);
}

#[test]
fn quoting_escapes_template_sequences() {
    assert_eq!(quote("a\"b\\c\n"), "\"a\\\"b\\\\c\\n\"");
    assert_eq!(quote("${x} %{y} $ %"), "\"$${x} %%{y} $ %\"");
    assert_eq!(quote("\u{1}"), "\"\\u0001\"");
}

#[test]
fn references_follow_values() {
    let swarm = Swarm::full(Profile::Go);
    let mut vars = BTreeMap::new();
    let obj = Value::object(BTreeMap::from([
        ("id".to_string(), Value::string("x")),
        (
            "a b".to_string(),
            Value::list(Type::Number, vec![Value::int(1), Value::int(2)]),
        ),
    ]));
    vars.insert("obj".to_string(), obj);
    let refs: Vec<(String, Type)> = collect_refs(&vars, &swarm)
        .into_iter()
        .map(|r| (r.text, r.ty))
        .collect();
    assert!(refs.contains(&("obj.id".into(), Type::String)));
    assert!(refs.contains(&("obj[\"a b\"][0]".into(), Type::Number)));
    assert!(refs.contains(&("obj[\"a b\"].1".into(), Type::Number)));
}

#[test]
fn damage_changes_the_source() {
    let data = seeded_bytes(3, 64);
    let mut u = Unstructured::new(&data);
    let out = damage(&mut u, "[for x in xs : x + 1]");
    assert_ne!(out, "[for x in xs : x + 1]");
}

/// Most generated expressions parse (with the reference parser), and
/// the generator reaches every construct family over a few hundred seeds.
#[test]
fn generated_sources_mostly_parse_and_cover_the_syntax() {
    let mut parsed = 0;
    let mut total = 0;
    let mut seen = std::collections::BTreeSet::new();
    for seed in 0..300u64 {
        let data = seeded_bytes(seed, 512);
        let b = gen_batch(&data, Profile::Go, 4, Version::V2_14);
        for r in &b.requests {
            total += 1;
            let ok = match r.kind {
                Kind::Expression => hclspec_reference::parser::parse_expression(&r.source).is_ok(),
                Kind::Template => hclspec_reference::parser::parse_template(&r.source).is_ok(),
                other => panic!("the generator makes no {} requests", other.as_str()),
            };
            if ok {
                parsed += 1;
            }
            for marker in [
                "[for", "{for", "[*]", ".*", "%{if", "%{for", "%{ if", "%{~", "~}", "<<EOT",
                "<<-EOT", "...", " ? ", "==", "&&", "||", "!", "%", "<=", "upper(", "max(",
                "tolist(", "${",
            ] {
                if r.source.contains(marker) {
                    seen.insert(marker);
                }
            }
        }
    }
    let rate = parsed as f64 / total as f64;
    assert!(
        rate >= 0.75,
        "only {parsed} of {total} generated sources parse"
    );
    assert!(seen.len() >= 20, "constructs seen: {seen:?}");
}

#[test]
fn filled_batches_have_every_case() {
    let b = gen_batch_filled(&[7, 200, 13], Profile::Go, 24, Version::V2_14);
    assert_eq!(b.requests.len(), 24);
    let distinct: std::collections::BTreeSet<&str> =
        b.requests.iter().map(|r| r.source.as_str()).collect();
    assert!(distinct.len() > 4, "{distinct:?}");
    // Long inputs are read as they are.
    let data = seeded_bytes(1, 100 * FILL_BYTES_PER_CASE);
    let a = gen_batch_filled(&data, Profile::Go, 24, Version::V2_14);
    let b = gen_batch(&data, Profile::Go, 24, Version::V2_14);
    assert_eq!(a.requests.len(), 24);
    assert_eq!(a.requests[..b.requests.len()], b.requests[..]);
}
