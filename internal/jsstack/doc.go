// Package jsstack holds the twins of the JavaScript stack upstream
// Outfitter runs on: Go code that gives, on the same input, what that
// runtime or library gives, byte for byte, because upstream passes it on
// in files it writes or in its messages. The Outfitter logic stays in
// resolve and composite, which call these twins; this package imports no
// other package of the module.
//
// Each twin names the version it reproduces, taken from upstream's
// lockfile (package-lock.json at upstream's commit e5fffdf): Node
// ">=22.19.0" (the engines field; the tables were produced by Node
// 22.23.5, the oracle's), the yaml library 2.9.0 and LiquidJS 10.27.1.
//
//   - [Object]: the key order of a JavaScript object (V8: array indexes
//     first, ascending, then insertion order).
//   - [Stringify], [AppendString], [NumberString]: V8's JSON.stringify and
//     Number.prototype.toString.
//   - [ParseJSON], [JSONSyntaxError], [NodeUTF16]: V8's JSON.parse and its
//     messages, on text decoded as Node's readFileSync(p, 'utf8') decodes
//     it.
//   - [GlobSync], [Basename]: Node's fs.globSync and path.basename.
//   - [Compare]: JavaScript's default sort order (UTF-16 code units).
//   - [IsSpace], [Trim], [TrimEnd]: String.prototype.trim and trimEnd.
//   - [FSError]: String() of the errors Node's fs throws, with libuv's
//     errno texts.
//   - [ParseYAML], [YAMLParseError]: the yaml library's parse(text) with
//     upstream's options (all defaults: YAML 1.2, the core schema, no
//     merge keys, unique keys, upstream's alias budget), over
//     go.yaml.in/yaml/v3 and a pre-pass (see yaml_prepass.go).
//   - [LiquidError] and the Liquid engine of liquid*.go: LiquidJS's
//     renders and errors with upstream's options and delimiters
//     ([LiquidVersion]; its table is testdata/liquid_table.json, written
//     by testdata/liquid_table.js).
//
// # Tables
//
// Each twin is tested against a table the real runtime produced, under
// testdata. testdata/node-tables.mjs writes the Node tables; run it with
// Node 22 from that directory:
//
//	cd internal/jsstack/testdata && $OUTFITTER_NODE node-tables.mjs
//
// testdata/yaml-tables.mjs writes the yaml library's table with the
// library of upstream's build (its node_modules):
//
//	cd internal/jsstack/testdata && $OUTFITTER_NODE yaml-tables.mjs $OUTFITTER_UPSTREAM_CLI
//
// go generate ./internal/jsstack runs both, with OUTFITTER_NODE and
// OUTFITTER_UPSTREAM_CLI set.
package jsstack

//go:generate sh -c "cd testdata && \"$OUTFITTER_NODE\" node-tables.mjs && \"$OUTFITTER_NODE\" --no-warnings yaml-tables.mjs \"$OUTFITTER_UPSTREAM_CLI\""
