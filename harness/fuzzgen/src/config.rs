//! What a run generates: the profile of the engine under comparison, and a
//! swarm configuration drawn per fuzz input that switches constructs off at
//! random, so that each input explores a different corner instead of an
//! even mix of everything.

use arbitrary::Unstructured;

/// The comparison a generator serves; it decides which functions, values
/// and numbers the generated cases may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Profile {
    /// The reference alone: every construct and every function it has.
    Eval,
    /// Against the Go oracle: only functions both engines implement.
    Go,
    /// Against hcl-rs: no functions, no unknowns, mostly exact numbers.
    HclRs,
    /// Against real Terraform 1.15 (HCL 2.24): Terraform's functions
    /// (also through `core::`), sensitive values, unknowns, strings
    /// beyond the Basic Multilingual Plane.
    Terraform,
}

/// Functions both the reference and the Go oracle implement.
pub const SHARED_FUNCTIONS: &[&str] = &[
    "length", "upper", "lower", "max", "min", "concat", "tolist", "toset", "tomap", "tostring",
    "tonumber", "tobool",
];

impl Profile {
    /// The functions a generated call may name.
    pub fn functions(self) -> &'static [&'static str] {
        match self {
            Profile::Eval | Profile::Go | Profile::Terraform => SHARED_FUNCTIONS,
            Profile::HclRs => &[],
        }
    }

    pub fn allows_unknowns(self) -> bool {
        !matches!(self, Profile::HclRs)
    }

    /// Whether calls may name any of Terraform's functions
    /// ([`crate::gen::tf_funcs`]), with or without `core::`.
    pub fn terraform_functions(self) -> bool {
        self == Profile::Terraform
    }

    /// Whether scope values may be sensitive.
    pub fn allows_sensitive(self) -> bool {
        self == Profile::Terraform
    }
}

/// A construct the swarm configuration can switch off.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Construct {
    Arithmetic,
    Comparison,
    Equality,
    Logic,
    Not,
    Negate,
    Conditional,
    ForTuple,
    ForObject,
    ForGroup,
    ForCondition,
    Splat,
    LegacySplat,
    Index,
    Attr,
    LegacyIndex,
    TupleCons,
    ObjectCons,
    Interpolation,
    TemplateIf,
    TemplateFor,
    StripMarkers,
    Heredoc,
    Calls,
    CallExpansion,
    Nulls,
    Unknowns,
    Sets,
    Maps,
    EdgeNumbers,
    EdgeStrings,
    Noise,
    Sensitive,
}

impl Construct {
    pub const ALL: [Construct; 33] = [
        Construct::Arithmetic,
        Construct::Comparison,
        Construct::Equality,
        Construct::Logic,
        Construct::Not,
        Construct::Negate,
        Construct::Conditional,
        Construct::ForTuple,
        Construct::ForObject,
        Construct::ForGroup,
        Construct::ForCondition,
        Construct::Splat,
        Construct::LegacySplat,
        Construct::Index,
        Construct::Attr,
        Construct::LegacyIndex,
        Construct::TupleCons,
        Construct::ObjectCons,
        Construct::Interpolation,
        Construct::TemplateIf,
        Construct::TemplateFor,
        Construct::StripMarkers,
        Construct::Heredoc,
        Construct::Calls,
        Construct::CallExpansion,
        Construct::Nulls,
        Construct::Unknowns,
        Construct::Sets,
        Construct::Maps,
        Construct::EdgeNumbers,
        Construct::EdgeStrings,
        Construct::Noise,
        Construct::Sensitive,
    ];

    fn bit(self) -> u64 {
        1 << (self as u32)
    }
}

/// One input's generation settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Swarm {
    pub profile: Profile,
    enabled: u64,
    /// How deeply expressions nest.
    pub max_depth: u32,
    /// How many expression nodes one case may have.
    pub max_nodes: u32,
    /// Percent of subexpressions generated with a type other than the one
    /// their context wants.
    pub ill_typed_pct: u8,
    /// Percent of cases whose source gets token-level damage afterwards.
    pub broken_pct: u8,
    /// Percent of cases that are bare templates rather than expressions.
    pub template_pct: u8,
    /// Percent chance that a value in the scope is null (when enabled).
    pub null_pct: u8,
    /// Percent chance that a value in the scope is unknown (when enabled).
    pub unknown_pct: u8,
}

/// Choices for the tunable shares; index 0 is what an exhausted input gets.
const ILL_TYPED_CHOICES: [u8; 4] = [0, 3, 10, 30];
const BROKEN_CHOICES: [u8; 4] = [0, 2, 8, 25];
const TEMPLATE_CHOICES: [u8; 3] = [0, 15, 40];
const VALUE_PCT_CHOICES: [u8; 3] = [5, 15, 40];

impl Swarm {
    /// Everything on, moderate sizes: what the unit tests and the first
    /// cases of a run use.
    pub fn full(profile: Profile) -> Swarm {
        let mut s = Swarm {
            profile,
            enabled: u64::MAX,
            max_depth: 4,
            max_nodes: 24,
            ill_typed_pct: 3,
            broken_pct: 2,
            template_pct: 15,
            null_pct: 10,
            unknown_pct: 10,
        };
        s.apply_profile();
        s
    }

    /// Draws a configuration. Each construct is on with probability one
    /// half (swarm testing); an exhausted input gets everything on.
    pub fn arbitrary(u: &mut Unstructured<'_>, profile: Profile) -> Swarm {
        let off: u64 = u.arbitrary().unwrap_or(0);
        let mut s = Swarm {
            profile,
            enabled: !off,
            max_depth: u.int_in_range(2..=5).unwrap_or(2),
            max_nodes: u.int_in_range(6..=40).unwrap_or(6),
            ill_typed_pct: pick(u, &ILL_TYPED_CHOICES),
            broken_pct: pick(u, &BROKEN_CHOICES),
            template_pct: pick(u, &TEMPLATE_CHOICES),
            null_pct: pick(u, &VALUE_PCT_CHOICES),
            unknown_pct: pick(u, &VALUE_PCT_CHOICES),
        };
        s.apply_profile();
        s
    }

    pub fn on(&self, c: Construct) -> bool {
        self.enabled & c.bit() != 0
    }

    pub fn set(&mut self, c: Construct, on: bool) {
        if on {
            self.enabled |= c.bit();
        } else {
            self.enabled &= !c.bit();
        }
    }

    /// The enabled constructs, for reports.
    pub fn enabled(&self) -> Vec<Construct> {
        Construct::ALL.into_iter().filter(|c| self.on(*c)).collect()
    }

    /// Switches off what the profile's engine can not take at all.
    fn apply_profile(&mut self) {
        if !self.profile.allows_unknowns() {
            self.set(Construct::Unknowns, false);
        }
        if !self.profile.allows_sensitive() {
            self.set(Construct::Sensitive, false);
        }
        if self.profile.functions().is_empty() {
            self.set(Construct::Calls, false);
            self.set(Construct::CallExpansion, false);
        }
    }
}

fn pick(u: &mut Unstructured<'_>, choices: &[u8]) -> u8 {
    let i = u.choose_index(choices.len()).unwrap_or(0);
    choices[i]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exhausted_input_enables_everything_the_profile_allows() {
        let mut u = Unstructured::new(&[]);
        let s = Swarm::arbitrary(&mut u, Profile::HclRs);
        assert!(s.on(Construct::Arithmetic));
        assert!(!s.on(Construct::Unknowns));
        assert!(!s.on(Construct::Calls));
        assert_eq!(s.ill_typed_pct, 0);
        let s = Swarm::arbitrary(&mut Unstructured::new(&[]), Profile::Go);
        assert!(s.on(Construct::Unknowns) && s.on(Construct::Calls));
    }

    #[test]
    fn bytes_switch_constructs_off() {
        let data = [0xff; 64];
        let s = Swarm::arbitrary(&mut Unstructured::new(&data), Profile::Eval);
        assert!(s.enabled().is_empty());
        let mut s = Swarm::full(Profile::Go);
        s.set(Construct::Splat, false);
        assert!(!s.on(Construct::Splat) && s.on(Construct::LegacySplat));
    }
}
