package main

// Go's case and property tables rebuilt from the Unicode Character
// Database, for a Unicode version no available Go toolchain is at: the
// facts come from ucd.mjs's dump of an npm package of the database, and
// are turned into tables the way Go's table generator (maketables) turns
// UnicodeData.txt, Scripts.txt and CaseFolding.txt into src/unicode's
// tables. checkDerivation holds the derivation to the running toolchain's
// own tables at its Unicode version, table for table.

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/rangetable"
)

// database is the facts ucd.mjs prints.
type database struct {
	version                   string
	categories, scripts       map[string][]rune
	upper, lower, title, fold map[rune]rune
}

func readUCD(path string) *database {
	data, err := os.ReadFile(path)
	if err != nil {
		fail(err)
	}
	db := &database{
		categories: map[string][]rune{}, scripts: map[string][]rune{},
		upper: map[rune]rune{}, lower: map[rune]rune{}, title: map[rune]rune{}, fold: map[rune]rune{},
	}
	hex := func(n int, s string) rune {
		v, err := strconv.ParseUint(s, 16, 32)
		if err != nil || v > unicode.MaxRune {
			fail(fmt.Errorf("%s:%d: bad code point %q", path, n, s))
		}
		return rune(v)
	}
	for i, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		n, f := i+1, strings.Fields(line)
		switch {
		case len(f) == 2 && f[0] == "version" && n == 1:
			db.version = f[1]
		case len(f) == 4 && (f[0] == "gc" || f[0] == "sc"):
			list := db.categories
			if f[0] == "sc" {
				list = db.scripts
			}
			for c := hex(n, f[2]); c <= hex(n, f[3]); c++ {
				list[f[1]] = append(list[f[1]], c)
			}
		case len(f) == 3:
			m := map[string]map[rune]rune{"upper": db.upper, "lower": db.lower, "title": db.title, "fold": db.fold}[f[0]]
			if m == nil {
				fail(fmt.Errorf("%s:%d: unknown fact %q", path, n, line))
			}
			m[hex(n, f[1])] = hex(n, f[2])
		default:
			fail(fmt.Errorf("%s:%d: unknown fact %q", path, n, line))
		}
	}
	if db.version == "" {
		fail(fmt.Errorf("%s: no version line", path))
	}
	return db
}

// derivedTables builds the tables Go's generator would build from db.
func derivedTables(db *database, source string) *tableSet {
	t := &tableSet{version: db.version, source: source}
	t.categories = map[string]*unicode.RangeTable{}
	majors := map[string][]rune{}
	for name, cs := range db.categories {
		t.categories[name] = rangetable.New(cs...)
		majors[name[:1]] = append(majors[name[:1]], cs...)
	}
	for name, cs := range majors {
		t.categories[name] = rangetable.New(cs...)
	}
	t.scripts = map[string]*unicode.RangeTable{}
	for name, cs := range db.scripts {
		t.scripts[name] = rangetable.New(cs...)
	}
	mapping := func(m map[rune]rune) func(rune) rune {
		return func(c rune) rune {
			if to, ok := m[c]; ok {
				return to
			}
			return c
		}
	}
	t.toUpper, t.toLower = mapping(db.upper), mapping(db.lower)
	t.caseRanges = caseRanges(db)
	orbits := caseOrbits(db)
	t.simpleFold = func(c rune) rune {
		if orbit, ok := orbits[c]; ok {
			i := sort.Search(len(orbit), func(i int) bool { return orbit[i] > c })
			return orbit[i%len(orbit)]
		}
		if l := t.toLower(c); l != c {
			return l
		}
		return t.toUpper(c)
	}
	// A fold table holds what case folding adds to a table: each member's
	// orbit, or its upper and lower case if it has none.
	foldExtra := func(tables map[string]*unicode.RangeTable) map[string]*unicode.RangeTable {
		out := map[string]*unicode.RangeTable{}
		for name, table := range tables {
			var extra []rune
			for _, c := range members(table) {
				near := []rune{t.toUpper(c), t.toLower(c)}
				if orbit, ok := orbits[c]; ok {
					near = orbit
				}
				for _, e := range near {
					if !unicode.Is(table, e) {
						extra = append(extra, e)
					}
				}
			}
			if len(extra) > 0 {
				out[name] = rangetable.New(extra...)
			}
		}
		return out
	}
	t.foldCategory, t.foldScript = foldExtra(t.categories), foldExtra(t.scripts)
	return t
}

func dedup(cs []rune) []rune {
	sort.Slice(cs, func(i, j int) bool { return cs[i] < cs[j] })
	out := cs[:0]
	for i, c := range cs {
		if i == 0 || c != cs[i-1] {
			out = append(out, c)
		}
	}
	return out
}

// caseOrbits gives the characters whose SimpleFold is not plain ToLower
// or ToUpper their orbit, sorted: the classes of characters that case
// folding (CaseFolding.txt's C and S) makes equal, unless the class is a
// pair that ToLower and ToUpper already map to each other; and a class of
// its own for a character with a case mapping but nothing folding to it.
func caseOrbits(db *database) map[rune][]rune {
	classes := map[rune][]rune{}
	for from, to := range db.fold {
		if classes[to] == nil {
			classes[to] = []rune{to}
		}
		classes[to] = append(classes[to], from)
	}
	for c := rune(0); c <= unicode.MaxRune; c++ {
		key := c
		if f, ok := db.fold[c]; ok {
			key = f
		}
		_, hasUpper := db.upper[c]
		_, hasLower := db.lower[c]
		if classes[key] == nil && (hasUpper || hasLower) {
			classes[c] = []rune{c}
		}
	}
	orbits := map[rune][]rune{}
	for _, class := range classes {
		class = dedup(class)
		if len(class) == 2 {
			a, b := class[0], class[1]
			if (db.upper[a] == b && db.lower[b] == a) || (db.upper[b] == a && db.lower[a] == b) {
				continue
			}
		}
		for _, c := range class {
			orbits[c] = class
		}
	}
	return orbits
}

// Go's generator's kinds of characters when it merges case mappings into
// ranges.
const (
	caseMissing = iota
	caseNone
	caseUpper
	caseLower
	caseTitle
)

// caseState is one character's case and the deltas to its mappings.
type caseState struct {
	point               rune
	kind                int
	upper, lower, title rune
}

func getCaseState(db *database, c rune) caseState {
	s := caseState{point: c, kind: caseNone}
	upper, hasUpper := db.upper[c]
	lower, hasLower := db.lower[c]
	title, hasTitle := db.title[c]
	switch {
	case c == 0:
		return caseState{point: c, kind: caseMissing}
	case hasUpper && upper == c:
		s.kind = caseUpper
	case hasLower && lower == c:
		s.kind = caseLower
	case hasTitle && title == c:
		s.kind = caseTitle
	case hasLower:
		s.kind = caseUpper // a character with a lower case is upper case
	case hasUpper:
		s.kind = caseLower
	}
	if hasUpper {
		s.upper = upper - c
	}
	if hasLower {
		s.lower = lower - c
	}
	if hasTitle {
		s.title = title - c
	}
	return s
}

func (s caseState) deltas() [3]rune { return [3]rune{s.upper, s.lower, s.title} }

// startsUpperLower: an upper case character whose lower case follows it.
func (s caseState) startsUpperLower() bool { return s.deltas() == [3]rune{0, 1, 0} }

// continues says whether d, the character after c, extends c's range.
func (c caseState) continues(d caseState) bool {
	if d.point != c.point+1 {
		return false
	}
	if c.kind != d.kind {
		// An upper and lower case pair continues an UpperLower range.
		up, low := c, d
		if c.kind == caseLower {
			up, low = d, c
		}
		return up.kind == caseUpper && low.kind == caseLower &&
			up.startsUpperLower() && low.deltas() == [3]rune{-1, 0, -1}
	}
	return c.kind != caseNone && c.kind != caseMissing && c.deltas() == d.deltas()
}

// caseRanges merges the case mappings into Go's CaseRanges.
func caseRanges(db *database) []unicode.CaseRange {
	var out []unicode.CaseRange
	var start *caseState
	emit := func(lo, hi caseState) {
		switch {
		case lo.deltas() == [3]rune{}:
			// maps to itself in every case
		case hi.point > lo.point && lo.startsUpperLower():
			out = append(out, unicode.CaseRange{Lo: uint32(lo.point), Hi: uint32(hi.point),
				Delta: [unicode.MaxCase]rune{unicode.UpperLower, unicode.UpperLower, unicode.UpperLower}})
		default:
			out = append(out, unicode.CaseRange{Lo: uint32(lo.point), Hi: uint32(hi.point),
				Delta: [unicode.MaxCase]rune{lo.upper, lo.lower, lo.title}})
		}
	}
	prev := caseState{}
	for c := rune(0); c <= unicode.MaxRune; c++ {
		s := getCaseState(db, c)
		if prev.continues(s) {
			prev = s
			continue
		}
		if start != nil {
			emit(*start, prev)
		}
		start = nil
		if s.kind != caseMissing && s.kind != caseNone {
			s := s
			start = &s
		}
		prev = s
	}
	if start != nil {
		emit(*start, prev)
	}
	return out
}

// checkDerivation fails unless the tables derived from db are the running
// toolchain's, written out.
func checkDerivation(db *database) {
	if db.version != unicode.Version {
		fail(fmt.Errorf("the database is at Unicode %s, the toolchain's unicode package at %s",
			db.version, unicode.Version))
	}
	ours, theirs := derivedTables(db, goUnicode()), goTables()
	for _, table := range []struct {
		name  string
		write func(*tableSet) func(*bufio.Writer)
	}{{"case", caseTable}, {"property", propertyTable}} {
		a, b := render(table.write(ours)), render(table.write(theirs))
		if a != b {
			fail(fmt.Errorf("the %s table derived from Unicode %s's database differs from %s:\n%s",
				table.name, db.version, goUnicode(), firstDifference(a, b)))
		}
	}
}

func render(body func(*bufio.Writer)) string {
	var buf bytes.Buffer
	w := bufio.NewWriter(&buf)
	body(w)
	if err := w.Flush(); err != nil {
		fail(err)
	}
	return buf.String()
}

func firstDifference(derived, goTables string) string {
	a, b := strings.Split(derived, "\n"), strings.Split(goTables, "\n")
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			return fmt.Sprintf("line %d:\n  derived: %s\n  Go:      %s", i+1, a[i], b[i])
		}
	}
	return fmt.Sprintf("derived has %d lines, Go's %d", len(a), len(b))
}

// writeDerived writes the case and property tables of Unicode version from
// its database as *_table_SUFFIX.rs.
func writeDerived(dir string, db *database, version, suffix string) {
	if db.version != version {
		fail(fmt.Errorf("expected the database of Unicode %s, got %s", version, db.version))
	}
	t := derivedTables(db, fmt.Sprintf("the Unicode Character Database %s (npm @unicode/unicode-%s),\n"+
		"// derived as Go derives its unicode tables (which gives Go 1.19's tables from\n"+
		"// the database 13.0.0 and Go 1.23's from 15.0.0)", version, version))
	write(filepath.Join(dir, "case_table_"+suffix+".rs"), caseTable(t))
	write(filepath.Join(dir, "property_table_"+suffix+".rs"), propertyTable(t))
}
