//! What a request asks for and how its answer is judged: the HCL version
//! profile, the dialect, the kind of source, and the conformance level.

use std::fmt;
use std::str::FromStr;

use hclspec_reference::HclVersion;
use serde::{Deserialize, Serialize};

/// An HCL behaviour profile, spelled as in the protocol and the corpus.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
pub enum Version {
    /// hashicorp/hcl 2.14.1 with go-cty 1.12.1.
    #[serde(rename = "2.14")]
    V2_14,
    /// The default, today's language: HCL 2.24 as in Terraform 1.15.
    #[default]
    #[serde(rename = "2.24")]
    V2_24,
}

impl Version {
    pub const ALL: [Version; 2] = [Version::V2_14, Version::V2_24];

    pub fn as_str(self) -> &'static str {
        match self {
            Version::V2_14 => "2.14",
            Version::V2_24 => "2.24",
        }
    }

    /// What the profile is, in words.
    pub fn describe(self) -> &'static str {
        match self {
            Version::V2_14 => "HCL 2.14.1 with go-cty 1.12.1",
            Version::V2_24 => "HCL 2.24 as in Terraform 1.15",
        }
    }

    pub fn to_reference(self) -> HclVersion {
        match self {
            Version::V2_14 => HclVersion::V2_14,
            Version::V2_24 => HclVersion::V2_24,
        }
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Version {
    type Err = String;
    fn from_str(s: &str) -> Result<Version, String> {
        match s {
            "2.14" => Ok(Version::V2_14),
            "2.24" => Ok(Version::V2_24),
            _ => Err(format!("unknown HCL version {s:?} (expected 2.14 or 2.24)")),
        }
    }
}

/// The language a source is written in.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
pub enum Dialect {
    /// HCL2 native syntax, as in Terraform 0.12 and later.
    #[default]
    #[serde(rename = "hcl2")]
    Hcl2,
    /// Terraform 0.11's interpolation language (HIL).
    #[serde(rename = "hil-0.11")]
    Hil011,
}

impl Dialect {
    pub fn as_str(self) -> &'static str {
        match self {
            Dialect::Hcl2 => "hcl2",
            Dialect::Hil011 => "hil-0.11",
        }
    }

    pub fn is_hcl2(&self) -> bool {
        *self == Dialect::Hcl2
    }
}

impl fmt::Display for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Dialect {
    type Err = String;
    fn from_str(s: &str) -> Result<Dialect, String> {
        match s {
            "hcl2" => Ok(Dialect::Hcl2),
            "hil-0.11" => Ok(Dialect::Hil011),
            _ => Err(format!("unknown dialect {s:?} (expected hcl2 or hil-0.11)")),
        }
    }
}

/// What the source is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// An expression.
    #[default]
    Expression,
    /// A bare template, without quotes.
    Template,
    /// An expression whose value is converted to the request's `type`, a
    /// Terraform type constraint, as an input variable of that type would
    /// hold it.
    Convert,
    /// An HCL body decoded with the request's `spec` (dynamic blocks
    /// expanded).
    Body,
}

impl Kind {
    pub const ALL: [Kind; 4] = [Kind::Expression, Kind::Template, Kind::Convert, Kind::Body];

    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Expression => "expression",
            Kind::Template => "template",
            Kind::Convert => "convert",
            Kind::Body => "body",
        }
    }

    /// The reference parser's entry for an expression or a template.
    pub fn source_kind(self) -> Option<hclspec_reference::SourceKind> {
        match self {
            Kind::Expression => Some(hclspec_reference::SourceKind::Expression),
            Kind::Template => Some(hclspec_reference::SourceKind::Template),
            Kind::Convert | Kind::Body => None,
        }
    }
}

/// How much of an answer is judged.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// Accept or reject only: a source HCL rejects must be rejected with a
    /// parse error; any other must be accepted (a value, an eval error, or
    /// the answer `parsed`).
    Parse,
    /// Values and the error phase; list and tuple, map and object, typed
    /// and untyped null are not told apart.
    Value,
    /// Types, values, unknown and sensitive parts, and error summaries.
    #[default]
    Full,
}

impl Level {
    pub const ALL: [Level; 3] = [Level::Parse, Level::Value, Level::Full];

    pub fn as_str(self) -> &'static str {
        match self {
            Level::Parse => "parse",
            Level::Value => "value",
            Level::Full => "full",
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Level {
    type Err = String;
    fn from_str(s: &str) -> Result<Level, String> {
        match s {
            "parse" => Ok(Level::Parse),
            "value" => Ok(Level::Value),
            "full" => Ok(Level::Full),
            _ => Err(format!(
                "unknown level {s:?} (expected parse, value or full)"
            )),
        }
    }
}
