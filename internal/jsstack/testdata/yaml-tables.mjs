// yaml-tables.mjs writes node-yaml.json: what upstream's reading of a YAML
// settings or profile file gives for each document below, with the yaml
// library upstream pins (2.9.0 in its lockfile) called as upstream calls
// it (validation/YamlDocument.ts: parse(content), every option at its
// default), on Node 22. Run it from this directory with that node and
// upstream's build:
//
//	$OUTFITTER_NODE yaml-tables.mjs $OUTFITTER_UPSTREAM_CLI
//
// Each row is [document, result]: the result is {"value": v} with v
// encoded so that JSON keeps what JSON.stringify would lose (numbers as
// {"n": String(n)}, "-0" for negative zero; objects as {"o": [[key,
// value], …]} in key order; strings with lone surrogates as {"u": [code
// units]}), or {"error": String(e), "name": e.name} for a document
// upstream refuses.
import fs from 'node:fs';
import { loadParse, result } from './yaml-library.mjs';

const parse = loadParse(process.argv[2], 'yaml-tables.mjs');


const docs = [];
const add = (...d) => docs.push(...d);

// Directives and document markers.
add('%YAML 1.2\n---\na: 1\n', '%YAML 1.2\n--- \na: 1\n', '%YAML 1.1\n---\na: 1\n', '%YAML 1.1\n---\na: yes\nb: 012\nc: 0o12\n',
  '%YAML 1.3\n---\na: 1\n', '%YAML 2.0\n---\na: 1\n', '%TAG !e! tag:example.com,2000:\n---\na: !e!x 1\n', '%FOO bar\n---\na: 1\n',
  '%YAML 1.2\na: 1\n', '%YAML 1.2\n%YAML 1.2\n---\na: 1\n', '---\na: 1\n', '---\na: 1\n...\n', '--- a\n', '---\n', '...\n',
  '---\n...\n', 'a: 1\n---\nb: 2\n', 'a: 1\n...\n---\nb: 2\n', '--- # comment\na: 1\n', '---a: 1\n', 'a: 1\n--- \n',
  '', '\n', '# only a comment\n', '   \n\n  # c\n', 'a: 1\n...\n# after\n', '---\n---\n');
// Escapes in double-quoted strings, surrogate pairs among them.
add('a: "\\ud83d\\ude80"\n', 'a: "\\uD83D\\uDE80 x"\n', 'a: "\\U0001F680"\n', 'a: "\\u00e9\\x41\\t\\n\\r\\\\\\"\\/\\ "\n',
  'a: "\\0\\a\\b\\e\\f\\v\\N\\_\\L\\P"\n', 'a: "\\ud83d"\n', 'a: "\\ude80\\ud83d"\n', 'a: "\\q"\n', 'a: "\\x4"\n', 'a: "\\u12"\n',
  'a: "\\U00110000"\n', 'a: "line\\\n  next"\n', 'a: "one\n  two\n\n  three"\n', "a: 'it''s'\n", "a: 'one\n  two'\n",
  'a: "tab\tin"\n', 'a: "\\\t"\n', '"\\ud83d\\ude80": x\n', 'a: "é😀"\n', 'a: "\\u0000"\n');
// Block scalars and chomping.
for (const ind of ['|', '|-', '|+', '>', '>-', '>+', '|2', '>2', '|2-', '|-2', '|+2']) {
  add('a: ' + ind + '\n  x\n   y\n\n  z\n\n\nb: 1\n', 'a: ' + ind + '\n  x\n  y\n\n', 'a: ' + ind + '\n  x', 'a: ' + ind + '\n\n  x\n');
}
add('a: |\n', 'a: >\n\n', 'a: |\n  x\n # c\n', 'a: |1\n  x\n', 'a: >\n  one\n  two\n\n  three\n   four\n', 'a: |\n\tx\n', 'a: |-\n  x\n  \n  \n');
// Anchors, aliases and merge keys.
add('a: &x 1\nb: *x\n', 'a: &x [1, 2]\nb: *x\n', 'base: &b\n  A: x\nenv:\n  <<: *b\n  B: y\n', 'base: &b\n  A: x\nenv:\n  B: y\n  <<: *b\n',
  'a: &a {x: 1}\nb: &b {y: 2}\nc:\n  <<: [*a, *b]\n', 'c:\n  <<: {x: 1}\n', 'c:\n  "<<": {x: 1}\n', 'a: *nope\n', 'a: &x\nb: *x\n',
  '&a a: b\n*a : c\n', 'a: &x 1\nb: &x 2\nc: *x\n', 'a: &x 1\n*x : 2\n');
// Core-schema scalars.
const plain = ['1e3', '1E3', '1.5e-3', '.5', '5.', '+1', '-0', '-0.0', '0o17', '0o18', '0x1F', '0x1f', '0X1F', '017', '09', '.inf', '-.inf',
  '+.inf', '.Inf', '.INF', '.iNf', '.nan', '.NaN', '.NAN', '12345678901234567890', '9007199254740993', '1e400', '-1e400', '2001-12-14',
  '2001-12-14t21:59:43.10-05:00', '12:30:00', '1:20', 'true', 'True', 'TRUE', 'tRue', 'yes', 'no', 'on', 'off', 'y', 'null', 'Null', 'NULL',
  '~', '0b101', '1_000', '-0x1f', '+0x1f', '0x', '0o', '1.', '+.5', '-.5e+2', '1e', '1e+', '.', '+', '-', '..', '1.2.3', '0.1e-2', '00', '007',
  '-007', '1.0', '100.00', '1e21', '1e-7', '0xFFFFFFFFFFFFFFFFFFFF', '0o777777777777777777777777', 'NaN', 'Infinity', '-Infinity', '= x',
  '!!str 1', '!!int 1', '!!float 1', '!!bool true', '!!null ""', '!!str', '!!int "7"', '!!int x', '!!float x', '!!bool x', '!!binary aGk=',
  '!foo x', '!!set {a}', '!!omap [a: 1]', '!!pairs [a: 1]', '<< : x'];
for (const p of plain) add('a: ' + p + '\n');
add('1: a\n2.50: b\n0x10: c\n~: d\ntrue: e\n.inf: f\n-0: g\n1e3: h\n', '[a, b]: c\n', '{a: 1}: x\n', '? complex\n: value\n', '? a\n? b\n',
  'a: 1\na: 2\n', '1: a\n1.0: b\n', '"1": a\n1: b\n', 'null: a\n~: b\n', '.nan: a\n.nan: b\n', '[a]: 1\n[a]: 2\n', 'a: 1\n"a": 2\n',
  "'a': 1\na: 2\n", 'b: 1\na: 2\n10: 3\n2: 4\n');
// CRLF, BOM, tabs and spaces.
add('a: 1\r\nb: 2\r\n', 'a: |\r\n  x\r\n  y\r\nb: >\r\n  p\r\n  q\r\n', 'a: "x\r\n  y"\r\n', '\ufeffa: 1\n', '\ufeff---\na: 1\n', '\ufeff\ufeffa: 1\n',
  'a: \ufeff1\n', '\ufeff', 'a:\t1\n', 'a: 1\t\n', 'a:\n\t- b\n', 'a:\n  - b\n\t- c\n', '\ta: 1\n', 'a: 1 # c\n', 'a: 1# c\n', 'a: x #c\n',
  'a: "x"#c\n', 'a:\r\n  b: 1\r\n', 'a: 1\rb: 2\n');
// Syntax errors.
add('a: b: c\n', 'a: [1, 2\n', 'a: "unterminated\n', "a: 'unterminated\n", '- a\nb: c\n', 'a: 1\n b: 2\n', 'a:\n  - b\n c: d\n', 'key: @x\n',
  'key: `x\n', 'a: {b: 1\n', 'a: }\n', 'a: ]\n', '[1, 2]]\n', '{a: 1}}\n', 'a: - b\n', '- - - a\n  - b\n', 'a\nb: c\n', ': x\n', '? \n',
  'a: 1\n  # c\n  b: 2\n', 'a: |x\n', 'a: >-3+\n  x\n', 'a: !<tag:x> 1\n', 'a: !!str !!int 1\n', 'a: &x &y 1\n', 'a: *x y\n',
  'a: "x" y\n', "a: 'x' y\n", 'a:\n  b\n  c: d\n', '- a\n-b\n', 'a: [b, c]: d\n', 'a: {b, c: }\n', 'a: [b,, c]\n', 'a: {,}\n',
  '---\n- a\n---\n- b\n', 'x: 1\n%YAML 1.2\n', '%YAML 1.2\n%YAML 1.1\n---\na: 1\n', '%YAML\n---\na: 1\n', 'a: 1\n\u0001b: 2\n',
  'a: "\\ud83d\\ude80\n', 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa: b: c\n',
  'a:\n  b: 1\n  b: 2\n', 'first: 1\nsecond:\n  - x\n  - y: 1\n    y: 2\n', 'a: 1\r\nb: c: d\r\n', '\ufeffa: b: c\n', 'é😀: x: y\n',
  'a: 😀 b: c\n', 'a: [\n  1,\n  2\n', 'default_agent: x\ntags: [alpha, beta\n', 'profile_sources:\n  - path: ./profiles\ntags: [alpha, beta\n',
  'id: a\ncontrols:\n  model: "m1"\ntags: [alpha, beta\n', '\ufeff--- # start\ndefault_agent: claude\nextra:\n  one: 1\n two: 2\n',
  'a: 1\nextra:\n  one: 1\n two: 2\n', 'a: 1\ntags: [alpha, beta\n# end\n', '# c\r\n# d\r\n...\r\n', '---\n# c\n...\n', '\ufeff...\n', '...\n---\n', '\t####\n', '\t# c\na: 1\n', '[####\n', 'x:\n  y:\n    one: 1\n   two: 2\n', 'extra:\n  one: 1\n two: 2\n', 'a: {b: 1\nc: 2\n', 'a: "x\n\n', 'description: "Uses "quotes" inside"\n', 'list:\n- a\n - b\n', 'a:\tb: c\n');

// Flow collections left open: the library ends one at the end of the text
// or at the first line indented less than its block context requires, and
// refuses it at the end of its last item (after the spaces, line breaks
// and comments that follow it; after a ':' and its spaces for an empty
// value). Closed flow collections before it, in an indented block among
// them, trailing blank and comment lines, a document end, CRLF, no final
// line break, nesting, quotes and block scalars around it.
const profile = 'id: a\nlabel: &name "Named a"\ndescription: *name\ncontrols:\n  session_directory: "./sessions/s1"\n' +
  '  pi: {environment: {PI_ONLY: "a"}, skills: [deploy-check], model: "pi-m"}\n  skills: [lint-fix, review]\n';
for (const open of ['tags: [alpha, beta', 'tags: {a: 1, b: 2', 'tags: [alpha, beta,', 'tags: {a: 1, b:', 'tags: [a, [b, c', 'tags: [a, b # c',
  'tags: {a: # c', 'tags:\n  [alpha, beta', 'tags:\n  - [alpha, beta']) {
  for (const end of ['', '\n', '\n\n', '\n  \n', '\n# end\n', '\n...\n']) add(profile + open + end);
}
add((profile + 'tags: [alpha, beta\n').replace(/\n/g, '\r\n'), (profile + 'tags: {a: 1, b:').replace(/\n/g, '\r\n'), '\ufeff' + profile + 'tags: [alpha, beta\n',
  '%YAML 1.2\n---\n' + profile + 'tags: [alpha, beta\n', 'a: [1, 2]\nb: [3, 4\n', 'a: [1, 2]\nb:\n  c: [5]\nd: [3, 4\n', 'a: [1, 2', 'a: [1, 2   ',
  'a: [1, 2 # c', 'a: [', 'a: [\n\n', 'a: [1, 2,\n', 'a: {b:\n', 'a: {b: \n', 'a: {b:  \n  \n', 'a: {b: # c\n\n\n', 'a: {b:\n  # c\n', 'a: {b:\n  c',
  'a: [x:\n', 'a: [1, x: \n', 'a: {x: [1, 2\n', 'a: [1, {b: 2\n', 'a: [1, "x\n', "a: [1, 'x", 'a: [a, "open\n...\n', 'a: [1, *x\n', 'a: [1, &x 2\n',
  'a:\n  b: [1, 2\n  c: 3\n', 'a:\n  b: {x:\n  c: 3\n', 'a:\n  b: [1,\n\n  c: 3\n', 'a:\n  b: [1, 2\n ]\n', 'a:\n  b: [1, 2\n  ]\n', 'key:\n  [1,\n 2\n',
  '- [1,\n 2\n', '- key: [1,\n  2\n', '- key: [1,\n   2\n', 'a: [1, 2\n---\nb: 1\n', 'a: [1, 2\n\t# c\n', '[1, 2', '--- [1, 2\n', '&x [1, 2\n',
  '# c\n[1, 2\n', '[1, [2\n', 'a: ["]", \'it\'\'s ]\', 2\n', 's: |\n  [not a flow\nt: [x, y\n', 'q: "[x"\nr: \'{y\'\nt: [x, y\n', 'p: a[b\nt: [x\n',
  'a: {b: 2\n# c\n', 'a: {b: 2 # x\n# c\n', 'a: {b: 2\r\n# c\r\n', 'a: {b: 2\n\n# c\n', 'a: {b: 2\n  # c\n', 'a: [b: [1]\n# c\n', 'a: [{b: 2}\n# c\n',
  'a: {b: {c: 2\n# c\n', 'a: {b: 2\n  3\n# c\n', 'a: {b: &x\n', 'a: {b: [1, 2}\n', 'a: [{b: 1], 2\n', 'a: [1, 2\n\t\n', 'a: [1, 2\n\t3\n');

// Tokens the lexer ends where yaml/v3 does not: a quoted scalar over
// lines whose next line is indented less than its block context requires
// (tabs do not indent), in a flow collection and out of one; a comment
// right after a quoted scalar, a flow indicator or a block scalar header;
// a flow collection whose lines start with a tab.
add('a:\n  b: ["x\n y", 1\n', 'a:\n  b: ["x\ny"]\n', 'a:\n  b: "x\ny"\n', 'a:\n  b: "x\n\ty"\n', '- "x\ny"\n', 'a: "x\n  y"\n',
  '"x\ny": 1\n', 'a: "x\n---\n"\n', 'a:\r\n  b: "x\r\ny"\r\n', "a:\n  b: 'x\ny'\n", 'a: ["x"# c\n', 'a: ["x"# c\n]\n', '["x"# c\n]\n',
  'a: [x,# c\n  y]\n', 'a: [# c\n  y]\n', 'a: [x]# c\n', 'a: {b: [x]# c\n  }\n', 'a: |# c\n  x\n', 'a: >-# c\n  x\n', "a: 'x'#c\n",
  'a: &x "y"#c\n', 'a:\n  b: [1,\n\t2]\n', 'a:\n  b: {c: 1,\n\t d: 2}\n', '- [1,\n\t2]\n');
// Keys over two lines, duplicate keys after an empty value.
add('a b\nc: 1\n', 'x: 1\nloose words\ny: 2\n', 'a:\n  - p q\n    r: 1\n', 'a: 1\nb c\n', 'a: [b\n c: 1]\n', '[a\n: 1]\n',
  'a:\na:\n', 'x:\n  a:\n  a: 1\n', 'a:\r\na: 1\r\n', 'a:\n# c\na: 1\n');
// Keys of flow sequence pairs over lines; text after a value; content
// after the top node; a "- " line among keys; keys after a sequence
// indented under its key or under a value that ends on its line; a ':'
// ending a value.
add('[a # c\n: 1]\n', '[[a]\n: 1]\n', '["a"\n: 1]\n', '[a\n b\n: 1]\n', '{a\n: 1}\n', '[x, {a\n: 1}]\n', '[a\r\n: 1]\n', '[a,\n b: 1]\n',
  'a: "x"y\n', 'a: "x" y # c\n', '- "x" y\n', 'a: "x" y\n  z: 1\n', 'a: 1\n- b\n', ' a: 1\nb: 2\n', '- a\n- b\nc\n',
  'a:\n  b: 1\n  - x\n  c: 2\n', 'a:\n  b:\n  - x\n  c: 2\n', 'a:\n  - x\n  b: 1\n', 'a:\n  - x\n  - y\n  b: 1\n',
  'a:\n  b: "x"\n   c: 1\n', 'a:\n  b: [1]\n    c: 1\n', 'a:\n  b: *x\n   c: 1\n', 'a: b:\n', 'a:\n  b: c:\n', "a: 'x':\n");
// Text right after a quoted flow item; entries of a block sequence at
// another column; a block scalar ended by a less indented line.
add('a: [""b, c]\n', 'a: {x: ""y: 1}\n', 'a: ""b\n  c\n', 'a:\n  - x\n   - y\n', 'a:\n - x\n  - y\n', 'a:\n  - b: 1\n   - c\n', 'a:\n    - x\n   - y\n',
  'a:\n  b: |\n c\n    d\n', 'a:\n  b: |\n    c\n # x\n    d\n', 'a:\n  b: >-\n     c\n    d\n  e: 1\n');
// Plain scalars that start with a character they cannot; block scalar
// headers; tabs after a block scalar.
add('a: [@x]\n', 'a: [`x`]\n', 'a: [%x]\n', 'a: {b: >x}\n', 'a: [|]\n', 'a: %x\n', 'a: |1-x\n x\n', 'a: |0\n x\n', 'a: |+-\n x\n', 'a: |12\n x\n',
  'a: >\n  x\n\ty\n', 'a: |2\n   x\n\t\n', 'a:\n  b: |\n\n\tc\n', 'a: |\n  x\n  \tb: 1\n');
// Keys out of place after a flow collection or quoted scalar over lines,
// and after comment lines at the start.
add('a:\n b: {x: 1,\n    y: 2}\n  c: 1\n', 'a:\n  b: [1,\n     2]\n   c: 1\n', 'a:\n  b: "x\n    y"\n   c: 1\n', '# c\n- x\na: 1\n', '# c\na: 1\n- x\nb: 2\n',
  'a:\n  b: [1,\n 2]\n  c: 1\n');
// A block sequence inside a flow sequence.
add('a: [\n  - x\n  ]\n', 'a: [b,\n  - x,\n  c]\n', '[- x]\n', 'a: {b: 1,\n  - x}\n');

const rows = docs.map((d) => [d, result(parse, d)]);
fs.writeFileSync('node-yaml.json', '[\n' + rows.map((r) => JSON.stringify(r)).join(',\n') + '\n]\n');
console.log('node-yaml.json', rows.length, 'documents,', rows.filter((r) => r[1].error).length, 'refused');
