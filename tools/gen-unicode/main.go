// Command gen-unicode writes the Unicode tables of hclspec's reference
// implementation (reference-impl/src/text/*_table.rs) from the Go sources
// the reference must agree with:
//
//   - case_table.rs and property_table.rs from the `unicode` package of the
//     Go toolchain that runs this program (its src/unicode/tables.go):
//     `unicode.CaseRanges` for ToUpper, ToLower and ToTitle, the case
//     orbits behind `unicode.SimpleFold`, and the category and script
//     tables with their fold tables, which Go's regexp uses for \p{..};
//   - grapheme_table.rs from github.com/apparentlymart/go-textseg's
//     grapheme cluster scanner, the one go-cty and HCL count with. That
//     scanner is compiled from a Ragel grammar whose property tables are
//     not shipped, so each code point's class is read off the scanner
//     itself: how it groups the code point with a few known neighbours.
//
// Those are the Unicode 13 tables of the HCL 2.14 profile (Go 1.19 and
// go-textseg v13). With -ucd13 and -ucd15 it writes the Unicode 15 tables
// of the HCL 2.24 profile instead (Go 1.21 and later, as Terraform 1.15 is
// built with, and go-textseg v15), as *_table_15.rs: the case and property
// tables from the running toolchain's `unicode` package, which must be at
// Unicode 15.0.0; the grapheme table from the Unicode Character Database
// 15.0.0's Grapheme_Cluster_Break and Extended_Pictographic properties
// (tools/gen-unicode/gcb.mjs prints them). go-textseg v15 is the same Ragel
// grammar as v13 compiled over those Unicode 15 properties, so a class is
// read off the database by the rules that map the database's classes to
// the v13 scanner's ones; those rules are checked first: applied to the
// Unicode 13 database, they must give every code point the class the v13
// scanner shows, or nothing is written.
//
// With -derive, it first checks that the case and property tables derived
// from the Unicode Character Database at the toolchain's Unicode version
// (ucd.mjs prints the database's facts, ucd.go derives the tables as Go's
// generator does) are exactly the toolchain's; with -ucd10 as well, it
// writes case_table_10.rs and property_table_10.rs (Unicode 10, the
// Terraform 0.11 dialect, whose Go 1.11 is not available) by that
// derivation from the database 10.0.0.
//
// Run it through scripts/gen-unicode, which sets up the Go path.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/apparentlymart/go-textseg/textseg"
)

func main() {
	ucd13 := flag.String("ucd13", "", "Unicode 13.0.0's grapheme classes (gcb.mjs output)")
	ucd15 := flag.String("ucd15", "", "Unicode 15.0.0's grapheme classes (gcb.mjs output)")
	derive := flag.String("derive", "", "the database at the toolchain's Unicode version (ucd.mjs output), "+
		"from which the toolchain's case and property tables must be derived")
	ucd10 := flag.String("ucd10", "", "Unicode 10.0.0's database (ucd.mjs output), "+
		"from which to derive the Unicode 10 tables (needs -derive)")
	flag.Parse()
	if flag.NArg() != 1 || (*ucd13 == "") != (*ucd15 == "") || (*ucd10 != "" && (*derive == "" || *ucd15 != "")) {
		fmt.Fprintln(os.Stderr, "usage: gen-unicode [-derive FILE] [-ucd10 FILE | -ucd13 FILE -ucd15 FILE] <reference-impl/src/text>")
		os.Exit(2)
	}
	dir := flag.Arg(0)
	if *derive != "" {
		checkDerivation(readUCD(*derive))
	}
	if *ucd15 == "" {
		write(filepath.Join(dir, "case_table.rs"), caseTable(goTables()))
		write(filepath.Join(dir, "property_table.rs"), propertyTable(goTables()))
		write(filepath.Join(dir, "grapheme_table.rs"), graphemeTable)
		if *ucd10 != "" {
			writeDerived(dir, readUCD(*ucd10), "10.0.0", "10")
		}
		return
	}
	if unicode.Version != "15.0.0" {
		fail(fmt.Errorf("the Unicode 15 tables need a Go whose unicode package is at 15.0.0, not %s (%s)",
			unicode.Version, runtime.Version()))
	}
	checkDatabaseClasses(readDatabase(*ucd13))
	classes15 := readDatabase(*ucd15)
	write(filepath.Join(dir, "case_table_15.rs"), caseTable(goTables()))
	write(filepath.Join(dir, "property_table_15.rs"), propertyTable125)
	write(filepath.Join(dir, "grapheme_table_15.rs"), func(w *bufio.Writer) {
		header(w, "the Unicode Character Database 15.0.0 (npm @unicode/unicode-15.0.0)")
		fmt.Fprint(w, `//! Grapheme classes as go-textseg v15's scanner (which HCL 2.24's columns
//! and go-cty's string functions count with) assigns them: Unicode
//! 15.0.0's Grapheme_Cluster_Break and Extended_Pictographic properties,
//! mapped to the scanner's classes by the rules that give go-textseg v13's
//! classes from Unicode 13.0.0 (the generator checks them). Extend and
//! SpacingMark are one class; U+FFFD counts as a control character.
//! Hangul syllables (LV and LVT) are computed instead of listed, and
//! characters not listed are of class Other.
`)
		rangesTable(w, classes15)
	})
}

func write(path string, body func(w *bufio.Writer)) {
	f, err := os.Create(path)
	if err != nil {
		fail(err)
	}
	w := bufio.NewWriter(f)
	body(w)
	if err := w.Flush(); err != nil {
		fail(err)
	}
	if err := f.Close(); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "gen-unicode:", err)
	os.Exit(1)
}

func header(w *bufio.Writer, source string) {
	fmt.Fprintf(w, "// Generated by tools/gen-unicode (scripts/gen-unicode) from\n")
	fmt.Fprintf(w, "// %s.\n// Do not edit; run the generator again.\n\n", source)
}

// goUnicode names the source of the case and property tables by Go's minor
// version, so that a toolchain's patch release does not change them.
func goUnicode() string {
	version := runtime.Version()
	if parts := strings.SplitN(version, ".", 3); len(parts) == 3 {
		version = parts[0] + "." + parts[1]
	}
	return fmt.Sprintf("%s's unicode package (Unicode %s)", version, unicode.Version)
}

// tableSet is what the case and property tables are written from: the
// running toolchain's unicode package, or the same tables derived from the
// Unicode Character Database (ucd.go).
type tableSet struct {
	version, source                               string
	caseRanges                                    []unicode.CaseRange
	toUpper, toLower, simpleFold                  func(rune) rune
	categories, scripts, foldCategory, foldScript map[string]*unicode.RangeTable
}

// goTables is the running toolchain's unicode package.
func goTables() *tableSet {
	return &tableSet{
		version: unicode.Version, source: goUnicode(), caseRanges: unicode.CaseRanges,
		toUpper: unicode.ToUpper, toLower: unicode.ToLower, simpleFold: unicode.SimpleFold,
		categories: unicode.Categories, scripts: unicode.Scripts,
		foldCategory: unicode.FoldCategory, foldScript: unicode.FoldScript,
	}
}

// caseTable writes CaseRanges and the case orbits.
func caseTable(t *tableSet) func(w *bufio.Writer) {
	return func(w *bufio.Writer) { writeCaseTable(w, t) }
}

func writeCaseTable(w *bufio.Writer, t *tableSet) {
	header(w, t.source)
	fmt.Fprintf(w, `//! Go's simple case mappings at Unicode %s: %s, which
//! %s, %s and %s apply (and so cty's
//! %s, %s and %s), and the case orbits %s
//! consults before them.

/// Marks a range whose characters alternate upper case (even offset from
/// the start) and lower case (odd offset), Go's %s.
pub(super) const ALT: i32 = i32::MIN;

/// Go's %s:
/// %s,
/// sorted by %s.
#[rustfmt::skip]
pub(super) const CASE_RANGES: &[(u32, u32, i32, i32, i32)] = &[
`, t.version, "`unicode.CaseRanges`", "`unicode.ToUpper`", "`ToLower`", "`ToTitle`",
		"`upper`", "`lower`", "`title`", "`unicode.SimpleFold`", "`UpperLower`",
		"`unicode.CaseRanges`", "`(first, last, upper delta, lower delta, title delta)`", "`first`")
	delta := func(d rune) string {
		if d == unicode.UpperLower {
			return "ALT"
		}
		return fmt.Sprint(d)
	}
	for _, r := range t.caseRanges {
		fmt.Fprintf(w, "    (0x%04X, 0x%04X, %s, %s, %s),\n", r.Lo, r.Hi,
			delta(r.Delta[unicode.UpperCase]), delta(r.Delta[unicode.LowerCase]), delta(r.Delta[unicode.TitleCase]))
	}
	fmt.Fprintf(w, "];\n\n")
	fmt.Fprintf(w, `/// The characters whose %s is not the one %s
/// gives (%s if that differs from the character, else %s):
/// %s, sorted by %s. These are the case orbits of more than two
/// characters, such as %s.
#[rustfmt::skip]
pub(super) const CASE_ORBIT: &[(u32, u32)] = &[
`, "`unicode.SimpleFold`", "`CASE_RANGES`", "`ToLower`", "`ToUpper`", "`(character, SimpleFold)`", "character", "`k`, `K` and the Kelvin sign")
	for c := rune(0); c <= unicode.MaxRune; c++ {
		plain := t.toLower(c)
		if plain == c {
			plain = t.toUpper(c)
		}
		if f := t.simpleFold(c); f != plain {
			fmt.Fprintf(w, "    (0x%04X, 0x%04X),\n", c, f)
		}
	}
	fmt.Fprintf(w, "];\n")
}

// propertyTable writes the category and script tables regexp uses.
func propertyTable(t *tableSet) func(w *bufio.Writer) {
	return func(w *bufio.Writer) { writePropertyTable(w, t) }
}

func writePropertyTable(w *bufio.Writer, t *tableSet) {
	header(w, t.source)
	fmt.Fprintf(w, `//! Go's Unicode %s category and script tables, which Go's %s
//! (and so cty's regular expression functions) uses for %s classes,
//! with the extra characters case folding adds to them.

/// A range table: %s ranges, sorted.
pub(crate) type Table = &'static [(u32, u32, u32)];
`, t.version, "`regexp`", "`\\p{..}`", "`(first, last, stride)`")
	propertyTables(w, t, t.categories)
}

// propertyTables writes the category tables given and Go's script and fold
// tables, then the constant that holds all four.
func propertyTables(w *bufio.Writer, t *tableSet, categories map[string]*unicode.RangeTable) {
	tables(w, "Categories", "CATEGORIES", categories)
	tables(w, "Scripts", "SCRIPTS", t.scripts)
	tables(w, "FoldCategory", "FOLD_CATEGORY", t.foldCategory)
	tables(w, "FoldScript", "FOLD_SCRIPT", t.foldScript)
	fmt.Fprintf(w, `
/// The four tables together.
pub(crate) const TABLES: super::PropertyTables = super::PropertyTables {
    categories: CATEGORIES,
    scripts: SCRIPTS,
    fold_category: FOLD_CATEGORY,
    fold_script: FOLD_SCRIPT,
};
`)
}

// propertyTable125 writes the tables Go 1.25's regexp uses: Go 1.25 added
// the categories Cn (unassigned) and LC (cased letters) to the unicode
// package and counts Cn in C. The running toolchain (Go 1.21 or later, at
// the same Unicode 15.0.0) has neither, so they are made from its tables.
func propertyTable125(w *bufio.Writer) {
	header(w, goUnicode()+", with Go 1.25's Cn, LC and C")
	fmt.Fprintf(w, `//! Go's Unicode %s category and script tables as Go 1.25's %s
//! (and so Terraform 1.15's regular expression functions) uses them for
//! %s classes, with the extra characters case folding adds to them:
//! Go 1.25's category Cn holds the code points no other category holds, LC
//! is Lu, Ll and Lt, and C includes Cn.

/// A range table: %s ranges, sorted.
pub(crate) type Table = &'static [(u32, u32, u32)];
`, unicode.Version, "`regexp`", "`\\p{..}`", "`(first, last, stride)`")
	categories := map[string]*unicode.RangeTable{}
	assigned := make([]bool, unicode.MaxRune+1)
	for name, t := range unicode.Categories {
		categories[name] = t
		if len(name) == 2 {
			for c := rune(0); c <= unicode.MaxRune; c++ {
				if unicode.Is(t, c) {
					assigned[c] = true
				}
			}
		}
	}
	var cn []rune
	for c := rune(0); c <= unicode.MaxRune; c++ {
		if !assigned[c] {
			cn = append(cn, c)
		}
	}
	categories["Cn"] = rangeTable(cn)
	categories["LC"] = rangeTable(members(unicode.Lu, unicode.Ll, unicode.Lt))
	categories["C"] = rangeTable(append(members(unicode.C), cn...))
	propertyTables(w, goTables(), categories)
}

// members lists the code points of the tables, in order.
func members(ts ...*unicode.RangeTable) []rune {
	var out []rune
	for c := rune(0); c <= unicode.MaxRune; c++ {
		if unicode.In(c, ts...) {
			out = append(out, c)
		}
	}
	return out
}

// rangeTable makes a table of runs of the code points cs.
func rangeTable(cs []rune) *unicode.RangeTable {
	sort.Slice(cs, func(i, j int) bool { return cs[i] < cs[j] })
	t := &unicode.RangeTable{}
	for _, c := range cs {
		if n := len(t.R32); n > 0 && rune(t.R32[n-1].Hi)+1 == c {
			t.R32[n-1].Hi = uint32(c)
			continue
		}
		t.R32 = append(t.R32, unicode.Range32{Lo: uint32(c), Hi: uint32(c), Stride: 1})
	}
	return t
}

func tables(w *bufio.Writer, goName, rustName string, m map[string]*unicode.RangeTable) {
	fmt.Fprintf(w, `
/// Go's %s: %s, sorted by name; each range is
/// %s.
#[rustfmt::skip]
pub(crate) const %s: &[(&str, Table)] = &[
`, "`unicode."+goName+"`", "`(name, ranges)`", "`(first, last, stride)`", rustName)
	names := make([]string, 0, len(m))
	for name := range m {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		var ranges []string
		for _, r := range m[name].R16 {
			ranges = append(ranges, fmt.Sprintf("(0x%X, 0x%X, %d)", r.Lo, r.Hi, r.Stride))
		}
		for _, r := range m[name].R32 {
			ranges = append(ranges, fmt.Sprintf("(0x%X, 0x%X, %d)", r.Lo, r.Hi, r.Stride))
		}
		fmt.Fprintf(w, "    (%q, &[\n", name)
		for i := 0; i < len(ranges); i += 6 {
			end := i + 6
			if end > len(ranges) {
				end = len(ranges)
			}
			fmt.Fprintf(w, "        %s,\n", strings.Join(ranges[i:end], ", "))
		}
		fmt.Fprintf(w, "    ]),\n")
	}
	fmt.Fprintf(w, "];\n")
}

// clusters is the number of grapheme clusters go-textseg finds in s.
func clusters(s string) int {
	n := 0
	data := []byte(s)
	for len(data) > 0 {
		advance, _, err := textseg.ScanGraphemeClusters(data, true)
		if err != nil {
			fail(err)
		}
		if advance == 0 {
			fail(fmt.Errorf("no progress scanning %q", s))
		}
		data = data[advance:]
		n++
	}
	return n
}

// Known members of each class, the neighbours the probes pair a code point
// with.
const (
	other    = "a"
	extend   = "\u0301"
	zwj      = "\u200D"
	leadL    = "\u1100"
	vowelV   = "\u1161"
	trailT   = "\u11A8"
	regional = "\U0001F1E6"
	pict     = "\u00A9"
)

// class reads the scanner's grammar class of c off how it groups c with
// known neighbours; "" if the probes fit no class.
func class(c rune) string {
	s := string(c)
	joins := func(a, b string) bool { return clusters(a+b) == 1 }
	switch {
	case joins(s, "\n") && !joins(s, extend):
		return "Cr"
	case joins("\r", s) && !joins(s, extend):
		return "Lf"
	case joins(pict+s, pict) && joins(other, s):
		return "Zwj"
	case joins(other, s):
		return "Extender"
	case joins(s, other):
		return "Prepend"
	case !joins(s, extend):
		return "Control"
	case joins(s, leadL) && joins(s, vowelV):
		return "L"
	case joins(leadL, s) && joins(vowelV, s) && joins(s, vowelV):
		return "V"
	case joins(vowelV, s) && joins(s, trailT) && !joins(s, vowelV):
		return "T"
	case joins(leadL, s) && joins(s, vowelV):
		return "Lv"
	case joins(leadL, s) && joins(s, trailT):
		return "Lvt"
	case joins(s, regional) && joins(regional, s):
		return "RegionalIndicator"
	case joins(pict+zwj, s):
		return "ExtendedPictographic"
	case joins(s, extend) && !joins(s, s) && !joins(pict+zwj, s):
		return "Other"
	}
	return ""
}

// graphemeTable writes the grapheme classes of all code points as ranges,
// leaving out Other and the Hangul syllables (computed instead).
func graphemeTable(w *bufio.Writer) {
	header(w, "github.com/apparentlymart/go-textseg/textseg.ScanGraphemeClusters")
	fmt.Fprintf(w, `//! Grapheme classes as go-textseg v13's scanner (which HCL's columns and
//! go-cty's string functions count with) assigns them, read off the
//! scanner code point by code point. Extend and SpacingMark are one class
//! because its grammar treats them alike; U+FFFD counts as a control
//! character. Hangul syllables (LV and LVT) are computed instead of listed,
//! and characters not listed are of class Other.
`)
	rangesTable(w, class)
}

// rangesTable writes the class `classOf` gives each code point, as ranges,
// leaving out Other and the Hangul syllables (computed instead).
func rangesTable(w *bufio.Writer, classOf func(rune) string) {
	fmt.Fprintf(w, `
use super::grapheme::Gcb::{self, *};

/// %s, sorted and disjoint.
#[rustfmt::skip]
pub(super) const GRAPHEME_RANGES: &[(u32, u32, Gcb)] = &[
`, "`(first, last, class)`")
	start, last, current := rune(-1), rune(-1), ""
	flush := func() {
		if current != "" && current != "Other" {
			fmt.Fprintf(w, "    (0x%04X, 0x%04X, %s),\n", start, last, current)
		}
	}
	for c := rune(0); c <= unicode.MaxRune; c++ {
		if c >= 0xD800 && c <= 0xDFFF {
			continue // surrogates are not characters
		}
		var k string
		if c >= 0xAC00 && c <= 0xD7A3 {
			k = "Other" // syllables are computed, not listed
		} else {
			k = classOf(c)
		}
		if k == "" {
			fail(fmt.Errorf("U+%04X fits no grapheme class", c))
		}
		if k == "Lv" || k == "Lvt" {
			fail(fmt.Errorf("U+%04X is a Hangul syllable outside U+AC00..U+D7A3", c))
		}
		if k == current && c == last+1 {
			last = c
			continue
		}
		flush()
		start, last, current = c, c, k
	}
	flush()
	fmt.Fprintf(w, "];\n")
}

// readDatabase reads gcb.mjs's output and returns the scanner class of each
// code point by the rules that map the database's classes to the
// scanner's (see databaseClass).
func readDatabase(path string) func(rune) string {
	data, err := os.ReadFile(path)
	if err != nil {
		fail(err)
	}
	gcb := map[rune]string{}
	pict := map[rune]bool{}
	for n, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		fields := strings.Fields(line)
		if len(fields) != 3 {
			fail(fmt.Errorf("%s:%d: expected CLASS FIRST LAST, got %q", path, n+1, line))
		}
		first, err1 := strconv.ParseUint(fields[1], 16, 32)
		last, err2 := strconv.ParseUint(fields[2], 16, 32)
		if err1 != nil || err2 != nil || first > last {
			fail(fmt.Errorf("%s:%d: bad range %q", path, n+1, line))
		}
		for c := rune(first); c <= rune(last); c++ {
			if fields[0] == "Extended_Pictographic" {
				pict[c] = true
			} else {
				gcb[c] = fields[0]
			}
		}
	}
	return func(c rune) string { return databaseClass(gcb[c], pict[c], c) }
}

// databaseClass is the scanner class of a code point whose
// Grapheme_Cluster_Break is gcb ("" for Other).
func databaseClass(gcb string, pictographic bool, c rune) string {
	if c == unicode.ReplacementChar {
		return "Control" // the scanner's class for invalid UTF-8, which U+FFFD shares
	}
	switch gcb {
	case "CR":
		return "Cr"
	case "LF":
		return "Lf"
	case "Control", "Prepend", "L", "V", "T":
		return gcb
	case "Extend", "SpacingMark":
		return "Extender"
	case "ZWJ":
		return "Zwj"
	case "Regional_Indicator":
		return "RegionalIndicator"
	case "LV":
		return "Lv"
	case "LVT":
		return "Lvt"
	case "":
		if pictographic {
			return "ExtendedPictographic"
		}
		return "Other"
	}
	fail(fmt.Errorf("U+%04X: unknown grapheme class %q", c, gcb))
	return ""
}

// checkDatabaseClasses fails unless the database rules give every code
// point of Unicode 13.0.0 the class go-textseg v13's scanner shows.
func checkDatabaseClasses(fromDatabase func(rune) string) {
	var wrong []string
	for c := rune(0); c <= unicode.MaxRune; c++ {
		if (c >= 0xD800 && c <= 0xDFFF) || (c >= 0xAC00 && c <= 0xD7A3) {
			continue
		}
		if got, want := fromDatabase(c), class(c); got != want {
			wrong = append(wrong, fmt.Sprintf("U+%04X: database rules %s, go-textseg v13 %s", c, got, want))
		}
	}
	if len(wrong) > 0 {
		n := len(wrong)
		if n > 20 {
			wrong = append(wrong[:20], fmt.Sprintf("... %d in all", n))
		}
		fail(fmt.Errorf("the rules from the database's classes to the scanner's do not hold for Unicode 13:\n%s",
			strings.Join(wrong, "\n")))
	}
}
