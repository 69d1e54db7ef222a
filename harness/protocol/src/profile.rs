//! What a request asks for and how its answer is judged: the HCL version
//! profile, the dialect, the kind of source, and the conformance level.

use std::fmt;
use std::str::FromStr;

use hclspec_reference::HclVersion;
use serde::{Deserialize, Serialize};

pub use hclspec_reference::TerraformVersion;

/// A behaviour profile, spelled as in the protocol and the corpus:
/// HCL 2.14.1 with go-cty 1.12.1 (`"2.14"`), or the language as a real
/// Terraform release evaluates it (`"1.6"` to `"1.14"`, and `"2.24"`, the
/// default: Terraform 1.15).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Version {
    /// hashicorp/hcl 2.14.1 with go-cty 1.12.1.
    V2_14,
    /// A Terraform release: its HCL, go-cty and functions.
    Terraform(TerraformVersion),
}

impl Default for Version {
    fn default() -> Version {
        Version::V2_24
    }
}

impl Version {
    /// The default, today's language: HCL 2.24 as in Terraform 1.15.
    pub const V2_24: Version = Version::Terraform(TerraformVersion::LATEST);

    /// The two HCL profiles every HCL2 case has an answer for.
    pub const ALL: [Version; 2] = [Version::V2_14, Version::V2_24];

    /// Every Terraform release the corpus is recorded on, oldest first
    /// (the last is [`Version::V2_24`]).
    pub const TERRAFORM: [Version; 9] = [
        Version::Terraform(TerraformVersion::V1_6),
        Version::Terraform(TerraformVersion::V1_8),
        Version::Terraform(TerraformVersion::V1_9),
        Version::Terraform(TerraformVersion::V1_10),
        Version::Terraform(TerraformVersion::V1_11),
        Version::Terraform(TerraformVersion::V1_12),
        Version::Terraform(TerraformVersion::V1_13),
        Version::Terraform(TerraformVersion::V1_14),
        Version::Terraform(TerraformVersion::V1_15),
    ];

    /// `"2.14"`, `"2.24"` (Terraform 1.15), or an older Terraform's
    /// `"1.9"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Version::V2_14 => "2.14",
            v if v == Version::V2_24 => "2.24",
            Version::Terraform(t) => t.as_str(),
        }
    }

    /// The Terraform release, for a Terraform profile.
    pub fn terraform(self) -> Option<TerraformVersion> {
        match self {
            Version::V2_14 => None,
            Version::Terraform(t) => Some(t),
        }
    }

    /// What the profile is, in words.
    pub fn describe(self) -> String {
        match self {
            Version::V2_14 => "HCL 2.14.1 with go-cty 1.12.1".to_string(),
            v if v == Version::V2_24 => "HCL 2.24 as in Terraform 1.15".to_string(),
            Version::Terraform(t) => format!(
                "Terraform {} (HCL {}, go-cty {})",
                t.release(),
                t.hcl(),
                t.cty()
            ),
        }
    }

    pub fn to_reference(self) -> HclVersion {
        match self {
            Version::V2_14 => HclVersion::V2_14,
            Version::Terraform(t) => HclVersion::Terraform(t),
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
    /// `"2.14"`, `"2.24"`, or a Terraform release (`"1.9"`, `"1.9.8"`;
    /// `"1.15"` is `"2.24"`).
    fn from_str(s: &str) -> Result<Version, String> {
        match s {
            "2.14" => Ok(Version::V2_14),
            "2.24" => Ok(Version::V2_24),
            _ => TerraformVersion::parse(s).map(Version::Terraform).ok_or_else(|| {
                format!("unknown version {s:?} (expected 2.14, 2.24, or a Terraform release from 1.6 to 1.15)")
            }),
        }
    }
}

impl Serialize for Version {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Version {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Version, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
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
    /// The variables an expression refers to (`hcl.Expression.Variables`):
    /// a set of strings, one per reference, written as the protocol's
    /// documentation says.
    Variables,
    /// The variables a body refers to under the request's `spec`, the
    /// expressions of `dynamic` blocks included (`dynblock.VariablesHCLDec`).
    #[serde(rename = "body_variables")]
    BodyVariables,
    /// A type constraint, read (`typeexpr.TypeConstraintWithDefaults`) and
    /// written back as a type expression (`typeexpr.TypeString`).
    Type,
    /// An absolute traversal (`hclsyntax.ParseTraversalAbs`), answered as
    /// a string written as a reference of a `variables` request is.
    Traversal,
}

impl Kind {
    pub const ALL: [Kind; 8] = [
        Kind::Expression,
        Kind::Template,
        Kind::Convert,
        Kind::Body,
        Kind::Variables,
        Kind::BodyVariables,
        Kind::Type,
        Kind::Traversal,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Expression => "expression",
            Kind::Template => "template",
            Kind::Convert => "convert",
            Kind::Body => "body",
            Kind::Variables => "variables",
            Kind::BodyVariables => "body_variables",
            Kind::Type => "type",
            Kind::Traversal => "traversal",
        }
    }

    /// Whether the source is a body, decoded with the request's `spec`.
    pub fn needs_spec(self) -> bool {
        matches!(self, Kind::Body | Kind::BodyVariables)
    }

    /// The reference parser's entry for an expression or a template.
    pub fn source_kind(self) -> Option<hclspec_reference::SourceKind> {
        match self {
            Kind::Expression => Some(hclspec_reference::SourceKind::Expression),
            Kind::Template => Some(hclspec_reference::SourceKind::Template),
            Kind::Convert
            | Kind::Body
            | Kind::Variables
            | Kind::BodyVariables
            | Kind::Type
            | Kind::Traversal => None,
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
