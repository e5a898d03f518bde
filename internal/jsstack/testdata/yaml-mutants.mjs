// yaml-mutants.mjs writes node-yaml-mutants.json: documents broken the way
// people break settings and profile files, each made by one mutation of a
// valid document below, with what upstream's reading gives for it (the
// yaml library upstream pins, 2.9.0, called as upstream calls it; see
// yaml-tables.mjs). The set is fixed: every mutation at every place it
// applies, so a rerun writes the same table. Run it from this directory:
//
//	$OUTFITTER_NODE yaml-mutants.mjs $OUTFITTER_UPSTREAM_CLI
//
// Each row is [name, document, result], the name "<base>/<mutation>@<line>"
// or "<base>/<mutation>@<line>.<column>" (from 1, where the mutation
// applies; the settings base also after a byte order mark, settings-bom,
// the flows base also with CRLF line breaks, flows-crlf), the result as in node-yaml.json: {"value": v}, encoded as
// there, or {"error": String(e), "name": e.name}.
import fs from 'node:fs';
import { loadParse, result } from './yaml-library.mjs';

const parse = loadParse(process.argv[2], 'yaml-mutants.mjs');

// Valid documents of the shapes settings and profiles take.
const bases = {
  settings: [
    '# settings',
    'default_profile: a',
    'profile_sources:',
    '  - path: ./profiles',
    '  - git: https://github.com/acme/profiles.git',
    '    ref: main',
    'custom: {team: "core", tags: [x, y]}',
  ],
  flows: [
    'id: a',
    'inherits: [b]',
    'label: &name "Named a"',
    'description: *name',
    'controls:',
    '  model: "m1"',
    "  environment: {A: \"x\", B: 'y'}",
    '  skills: [review, {id: lint-fix, references: [{file: docs/ref.md}]}]',
    '  system_prompt: "Agent [[= outfitter.agent ]]"',
    'state_persistence:',
    '  "auth.json": symlink',
  ],
  blocks: [
    '# written by hand',
    'id: b',
    'label: >-',
    '  Folded',
    '  stripped.',
    'controls:',
    '  append_system_prompt:',
    '    - file: prompts/base.md',
    '    - "Be concise."',
    '  system_prompt: |',
    '    line one',
    '    line two',
    '  thinking: low # inline',
    'state_persistence:',
    '  plugins/: prompt',
  ],
  multiline: [
    'id: c',
    'controls:',
    '  claude: {model: "claude-m",',
    '    skills: [deploy-check,',
    '      review]}',
    '  extensions: [',
    '    "npm:pi-subagents@2",',
    '    "github:acme/pi-ext#v1"',
    '  ]',
    '  environment:',
    "    PATH_EXTRA: '/opt/bin'",
    '    QUOTED: "it\'s \\"here\\""',
    '    LONG: "one',
    '      two"',
  ],
};


const indentOf = (l) => l.length - l.trimStart().length;
const rows = [];
const seen = new Set();
// The documents of a base may be written with CRLF line breaks or
// after a byte order mark (variants below).
let crlf = false;
let bom = false;
const add = (name, lines) => {
  let doc = Array.isArray(lines) ? lines.join('\n') + '\n' : lines;
  if (crlf) doc = doc.replace(/\n/g, '\r\n');
  if (bom) doc = '\ufeff' + doc;
  if (seen.has(doc)) return;
  seen.add(doc);
  rows.push([name, doc]);
};

const variants = [
  ...Object.entries(bases).map(([base, lines]) => [base, lines, false, false]),
  ['settings-bom', bases.settings, false, true],
  ['flows-crlf', bases.flows, true, false],
];
for (const [base, lines, withCRLF, withBOM] of variants) {
  crlf = withCRLF;
  bom = withBOM;
  const text = lines.join('\n') + '\n';
  for (const l of lines) if (l.includes('\t')) throw new Error('a tab in a base document');
  try { parse(text); } catch (e) { throw new Error(base + ' is not valid: ' + e); }
  // Mutations are made on the lines; a variant's line breaks and byte
  // order mark are added to each document.
  const each = (kind, fn) => {
    lines.forEach((l, i) => {
      const out = fn(l, i);
      if (out === undefined) return;
      const copy = lines.slice();
      copy.splice(i, 1, ...[].concat(out));
      add(`${base}/${kind}@${i + 1}`, copy);
    });
  };
  const eachChar = (kind, chars, fn) => {
    lines.forEach((l, i) => {
      for (let c = 0; c < l.length; c++) {
        if (!chars.includes(l[c])) continue;
        const out = fn(l, c, i);
        if (out === undefined) continue;
        const copy = lines.slice();
        copy.splice(i, 1, ...[].concat(out));
        add(`${base}/${kind}@${i + 1}.${c + 1}`, copy);
      }
    });
  };
  // Truncations: after each line (no final line break), and right after
  // each bracket, quote and colon.
  lines.forEach((_, i) => add(`${base}/truncate@${i + 1}`, lines.slice(0, i + 1).join('\n')));
  let off = 0;
  lines.forEach((l, i) => {
    for (let c = 0; c < l.length; c++) {
      if ('[{"\':'.includes(l[c])) add(`${base}/cut@${i + 1}.${c + 1}`, text.slice(0, off + c + 1) + '\n');
    }
    off += l.length + 1;
  });
  // A closing quote or bracket left out, an opening one added.
  eachChar('unclose', '"\']}', (l, c) => {
    if ((l[c] === '"' || l[c] === "'") && l.slice(0, c).split(l[c]).length % 2 === 1) return undefined; // an opening quote
    return l.slice(0, c) + l.slice(c + 1);
  });
  eachChar('open-quote', ':', (l, c) => (l[c + 1] === ' ' ? l.slice(0, c + 2) + '"' + l.slice(c + 2) : undefined));
  eachChar('open-flow', ':', (l, c) => (l[c + 1] === ' ' && c + 2 < l.length ? l.slice(0, c + 2) + '[' + l.slice(c + 2) : undefined));
  // Indentation: one column less and more, two more.
  each('dedent', (l) => (indentOf(l) > 0 ? l.slice(1) : undefined));
  each('indent', (l, i) => (i > 0 && l.trim() ? ' ' + l : undefined));
  each('indent2', (l, i) => (i > 0 && l.trim() ? '  ' + l : undefined));
  // Tabs: indenting a line, before a value, after a flow item.
  each('tab-indent', (l) => (indentOf(l) > 0 ? '\t' + l.slice(1) : undefined));
  each('tab-line', (l, i) => (i > 0 && l.trim() ? '\t' + l : undefined));
  each('tab-value', (l) => (l.includes(': ') ? l.replace(': ', ':\t') : undefined));
  eachChar('tab-comma', ',', (l, c) => l.slice(0, c + 1) + '\t' + l.slice(c + 2));
  // Stray colons and mapping values where they do not belong.
  each('colon-value', (l) => {
    const k = l.indexOf(': ');
    return k >= 0 && k + 2 < l.length ? l.slice(0, k + 2) + 'x: ' + l.slice(k + 2) : undefined;
  });
  each('colon-end', (l) => (l.trim() && !l.trim().startsWith('#') ? l + ':' : undefined));
  each('no-colon', (l) => (l.includes(': ') ? l.replace(': ', ' ') : l.trimEnd().endsWith(':') ? l.trimEnd().slice(0, -1) : undefined));
  // Comments: right after the content, and a comment line at other
  // indentations.
  each('comment-tight', (l) => (l.trim() && !l.trim().startsWith('#') ? l + '# c' : undefined));
  each('comment-line', (l, i) => (i > 0 ? [' # c', l] : undefined));
  each('comment-deep', (l, i) => (i > 0 ? [' '.repeat(indentOf(l) + 3) + '# c', l] : undefined));
  // Lines repeated, sequences and scalars that do not fit.
  each('duplicate', (l) => (l.trim() && !l.trim().startsWith('#') ? [l, l] : undefined));
  each('seq-item', (l, i) => (i > 0 ? [' '.repeat(indentOf(l)) + '- x', l] : undefined));
  each('scalar-line', (l, i) => (i > 0 ? [' '.repeat(indentOf(l)) + 'loose words', l] : undefined));
}

const results = rows.map(([name, d]) => [name, d, result(parse, d)]);
fs.writeFileSync('node-yaml-mutants.json', '[\n' + results.map((r) => JSON.stringify(r)).join(',\n') + '\n]\n');
console.log('node-yaml-mutants.json', results.length, 'documents,', results.filter((r) => r[2].error).length, 'refused');
