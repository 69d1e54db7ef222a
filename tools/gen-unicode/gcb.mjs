// Prints the grapheme cluster break classes and the Extended_Pictographic
// code points of one Unicode version, from an npm package of the Unicode
// Character Database (@unicode/unicode-X.Y.Z, unpacked in the directory
// given): one line per range, "CLASS FIRST LAST" with inclusive hex code
// points. tools/gen-unicode reads this to write a grapheme table.
import { pathToFileURL } from 'node:url';
import path from 'node:path';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: node gcb.mjs <unpacked @unicode/unicode-X.Y.Z package>');
  process.exit(2);
}
const classes = ['CR', 'LF', 'Control', 'Extend', 'SpacingMark', 'ZWJ', 'Prepend',
  'Regional_Indicator', 'L', 'V', 'T', 'LV', 'LVT'];
const sources = classes.map((c) => [c, path.join(dir, 'Grapheme_Cluster_Break', c, 'ranges.mjs')]);
sources.push(['Extended_Pictographic',
  path.join(dir, 'Binary_Property', 'Extended_Pictographic', 'ranges.mjs')]);
const hex = (n) => n.toString(16).toUpperCase();
for (const [name, file] of sources) {
  const ranges = (await import(pathToFileURL(file))).default;
  for (const r of ranges) {
    console.log(`${name} ${hex(r.begin)} ${hex(r.end - 1)}`);
  }
}
