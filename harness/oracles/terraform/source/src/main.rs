//! Reads one JSON request per line on stdin (`{"kind", "source", "rename",
//! "prefix"}`) and writes one JSON answer per line (`{"expression",
//! "parsed", "references"}`, or `{"error"}` for a line that is no request).

use std::io::{BufRead, Write};

use hclspec_terraform_source::{rewrite, Request};
use serde_json::json;

fn main() -> std::io::Result<()> {
    let stdin = std::io::stdin().lock();
    let mut stdout = std::io::stdout().lock();
    for line in stdin.lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let answer = match serde_json::from_str::<Request>(&line) {
            Ok(request) => match rewrite(&request) {
                Ok(rewritten) => serde_json::to_value(rewritten)?,
                Err(e) => json!({ "error": e }),
            },
            Err(e) => json!({ "error": e.to_string() }),
        };
        writeln!(stdout, "{answer}")?;
        stdout.flush()?;
    }
    Ok(())
}
