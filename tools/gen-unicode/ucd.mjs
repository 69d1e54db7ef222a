// Prints what tools/gen-unicode needs to rebuild Go's `unicode` tables from
// an npm package of the Unicode Character Database (@unicode/unicode-X.Y.Z,
// unpacked in the directory given), one fact a line:
//   version X.Y.Z            the Unicode version (first line)
//   gc CATEGORY FIRST LAST   a range of a two-letter general category
//   sc SCRIPT FIRST LAST     a range of a script
//   upper|lower|title FROM TO   a simple case mapping (UnicodeData.txt's)
//   fold FROM TO             a simple case folding (CaseFolding.txt's C and S)
// with hex code points and inclusive ranges.
import { pathToFileURL } from 'node:url';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: node ucd.mjs <unpacked @unicode/unicode-X.Y.Z package>');
  process.exit(2);
}
const load = async (...parts) => (await import(pathToFileURL(path.join(dir, ...parts)))).default;
const hex = (n) => n.toString(16).toUpperCase();

const { name } = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
console.log(`version ${name.replace(/^@unicode\/unicode-/, '')}`);

// The database's long category names, by Go's two-letter ones. Unassigned
// (Cn) is left out: Go's tables do not list it.
const categories = {
  Cc: 'Control', Cf: 'Format', Co: 'Private_Use', Cs: 'Surrogate',
  Ll: 'Lowercase_Letter', Lm: 'Modifier_Letter', Lo: 'Other_Letter', Lt: 'Titlecase_Letter',
  Lu: 'Uppercase_Letter', Mc: 'Spacing_Mark', Me: 'Enclosing_Mark', Mn: 'Nonspacing_Mark',
  Nd: 'Decimal_Number', Nl: 'Letter_Number', No: 'Other_Number', Pc: 'Connector_Punctuation',
  Pd: 'Dash_Punctuation', Pe: 'Close_Punctuation', Pf: 'Final_Punctuation',
  Pi: 'Initial_Punctuation', Po: 'Other_Punctuation', Ps: 'Open_Punctuation',
  Sc: 'Currency_Symbol', Sk: 'Modifier_Symbol', Sm: 'Math_Symbol', So: 'Other_Symbol',
  Zl: 'Line_Separator', Zp: 'Paragraph_Separator', Zs: 'Space_Separator',
};
for (const [short, long] of Object.entries(categories)) {
  for (const r of await load('General_Category', long, 'ranges.mjs')) {
    console.log(`gc ${short} ${hex(r.begin)} ${hex(r.end - 1)}`);
  }
}
// Unknown is the script of the code points Scripts.txt does not list, which
// Go's tables leave out.
for (const script of (await load('index.mjs')).Script.filter((s) => s !== 'Unknown')) {
  for (const r of await load('Script', script, 'ranges.mjs')) {
    console.log(`sc ${script} ${hex(r.begin)} ${hex(r.end - 1)}`);
  }
}
const mappings = [
  ['upper', 'Simple_Case_Mapping', 'Uppercase'],
  ['lower', 'Simple_Case_Mapping', 'Lowercase'],
  ['title', 'Simple_Case_Mapping', 'Titlecase'],
  ['fold', 'Case_Folding', 'C'],
  ['fold', 'Case_Folding', 'S'],
];
for (const [name, ...where] of mappings) {
  for (const [from, to] of await load(...where, 'code-points.mjs')) {
    console.log(`${name} ${hex(from)} ${hex(to)}`);
  }
}
