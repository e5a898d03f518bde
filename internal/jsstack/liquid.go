package jsstack

import (
	"fmt"
)

// LiquidVersion is the LiquidJS release the Liquid twin reproduces, the one
// upstream's lockfile pins.
const LiquidVersion = "10.27.1"

// The Liquid twin's table, testdata/liquid_table.json, is written by
// LiquidJS itself: testdata/liquid_table.js renders every case with the
// LiquidJS of upstream's checkout (its node_modules), under upstream's
// options, with Node 22 from the oracle setup (OUTFITTER_NODE and
// OUTFITTER_UPSTREAM_CLI set):
//
//go:generate sh -c "NODE_PATH=\"$OUTFITTER_UPSTREAM_CLI/../../node_modules\" \"$OUTFITTER_NODE\" testdata/liquid_table.js > testdata/liquid_table.json"

// LiquidObject is a JavaScript object as a template's bindings hold it: its
// own enumerable keys in JavaScript's order and their values. Values are
// nil (null), bool, float64, string, []any, map[string]any or a
// LiquidObject. A map[string]any reads as an object whose keys are in
// JavaScript's order (integer keys ascending, then the others sorted).
type LiquidObject interface {
	// Keys returns the own keys in order.
	Keys() []string
	// Get returns the value of an own key.
	Get(key string) (any, bool)
}

// LiquidUndefined is JavaScript's undefined as a value of the bindings: a
// key that an object holds with no value. LiquidJS counts the key (size,
// for loops over the object) and refuses to read its value under strict
// variables; the json filter leaves it out.
var LiquidUndefined any = lqUndefined

// LiquidError is an error of LiquidJS as upstream quotes it with String():
// the class name, the message, and the line and column (from 1, columns
// in UTF-16 units as JavaScript counts them) of the token it is about in
// the text being rendered.
type LiquidError struct {
	// Class is TokenizationError, ParseError, RenderError or
	// UndefinedVariableError.
	Class string
	// Message is the message without the position.
	Message string
	// Line and Col locate the token, from 1.
	Line, Col int
}

// Error returns the text String(error) gives in JavaScript.
func (e *LiquidError) Error() string {
	return fmt.Sprintf("%s: %s, line:%d, col:%d", e.Class, e.Message, e.Line, e.Col)
}

// LiquidEnv is the environment of a series of renders: the bindings and
// the variables that increment and decrement write into them, which
// LiquidJS keeps in the bindings object itself, so that a later render
// with the same bindings sees them.
type LiquidEnv struct {
	obj *lqEnvObject
}

// NewLiquidEnv returns an environment over the bindings, a LiquidObject or
// a map[string]any (anything else, nil included, binds nothing). The
// bindings are never modified.
func NewLiquidEnv(bindings any) *LiquidEnv {
	if !lqIsObject(bindings) {
		bindings = NewObject()
	}
	return &LiquidEnv{obj: &lqEnvObject{base: bindings, over: NewObject()}}
}

// RenderLiquid renders a template as LiquidJS's parseAndRenderSync does
// with upstream Outfitter's options: [[= ]] outputs, [[% %]] tags, strict
// filters and variables, lenient if, own properties only, no dynamic
// partials and LiquidJS's other defaults, in the UTC time zone and the
// en-US locale upstream's process runs with. A template that does not
// tokenize, parse or render returns a [*LiquidError].
//
// Where the twin departs from LiquidJS: partials (include, render,
// layout) are never found (the twin reads no files; LiquidJS looks in
// the process's working directory); the date filters read ISO 8601, V8's
// legacy forms of one to three numbers and "Mon D, YYYY" but not every
// text V8's legacy parser accepts (another text is returned unchanged),
// and take a time zone argument only as minutes, not as a zone name; a
// range of more than ten million numbers fails ("Invalid array length")
// where LiquidJS builds it; block.super renders nothing; sample draws
// with Go's generator.
func RenderLiquid(template string, env *LiquidEnv) (string, error) {
	if env == nil {
		env = NewLiquidEnv(nil)
	}
	in := lqU16(template)
	p := &lqParser{}
	tz := newLqTokenizer(in, 0, len(in))
	toks, err := tz.readTopLevelTokens()
	if err != nil {
		return "", err
	}
	q := &lqQueue{toks: toks}
	tpls, err := p.parseTokens(q)
	if err != nil {
		return "", err
	}
	ctx := newLqCtx(env.obj)
	var out lqEmitter
	if err := ctx.renderTemplates(tpls, &out); err != nil {
		return "", err
	}
	return lqWritten(out.String()), nil
}
