package composite

import (
	"errors"
	"testing"
)

// TestUndefinedVariableText checks a template's undefined variable against
// the text LiquidJS 10.27.1 gives it with upstream's options (each want
// was produced by that library, run by Node 22 on the same template and
// bindings): the path up to the first undefined segment, and the line and
// UTF-16 column where the variable starts.
func TestUndefinedVariableText(t *testing.T) {
	t.Parallel()
	bindings := map[string]any{"a": map[string]any{"q": 1, "list": []any{"x", "y"}, "s": "str", "n": nil, "e": []any{}}}
	tests := []struct {
		name, content, want string
	}{
		{"a missing key", "[[= a.b ]]", "UndefinedVariableError: undefined variable: a.b, line:1, col:5"},
		{"the first undefined segment, on a later line", "x\n  \"k\": \"[[=  a.c.d ]]\"", "UndefinedVariableError: undefined variable: a.c, line:2, col:14"},
		{"a top-level name after wide characters", "é😀 [[= nothing ]]", "UndefinedVariableError: undefined variable: nothing, line:1, col:9"},
		{"the first failing output of a line", "[[= a.q ]] [[= a.zz ]] [[= a.zz ]]", "UndefinedVariableError: undefined variable: a.zz, line:1, col:16"},
		{"the same tag in a branch not taken", "[[% if false %]][[= a.x ]][[% endif %]]\n[[= a.x ]]", "UndefinedVariableError: undefined variable: a.x, line:2, col:5"},
		{"past an array's size", "[[= a.list.size.x ]]", "UndefinedVariableError: undefined variable: a.list.size.x, line:1, col:5"},
		{"past a map's size", "[[= a.size.k ]]", "UndefinedVariableError: undefined variable: a.size.k, line:1, col:5"},
		{"past an array's last", "[[= a.list.last.k ]]", "UndefinedVariableError: undefined variable: a.list.last.k, line:1, col:5"},
		{"an empty array's first", "[[= a.e.first.k ]]", "UndefinedVariableError: undefined variable: a.e.first, line:1, col:5"},
		{"an empty array's last", "[[= a.e.last.k ]]", "UndefinedVariableError: undefined variable: a.e.last, line:1, col:5"},
		{"past an array's first", "[[= a.list.first.k ]]", "UndefinedVariableError: undefined variable: a.list.first.k, line:1, col:5"},
		{"the same tag in a branch not taken, a line further down", "x\n[[% if false %]][[= a.x ]][[% endif %]]\n[[= a.x ]]", "UndefinedVariableError: undefined variable: a.x, line:3, col:5"},
		{"after an empty line", "x\n\n[[= a.zz ]]", "UndefinedVariableError: undefined variable: a.zz, line:3, col:5"},
		{"a variable on the tag's next line", "[[=\n a.zz ]]", "UndefinedVariableError: undefined variable: a.zz, line:2, col:2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := newTemplateEngine().ParseAndRenderString(tt.content, bindings)
			if err == nil {
				t.Fatal("rendered without an error")
			}
			got := undefinedVariable(err, tt.content, bindings)
			var uv *UndefinedVariableError
			if !errors.As(got, &uv) || got.Error() != tt.want {
				t.Errorf("error %q, want %q", got, tt.want)
			}
			if !errors.Is(got, err) {
				t.Errorf("%v does not wrap the engine's error", got)
			}
		})
	}
	// A null value LiquidJS renders as nothing; the engine refuses it
	// under strict variables and keeps its own words.
	_, err := newTemplateEngine().ParseAndRenderString("[[= a.n.x ]]", bindings)
	if err == nil {
		t.Fatal("the engine rendered a null value under strict variables")
	}
	if got := undefinedVariable(err, "[[= a.n.x ]]", bindings); got != err {
		t.Errorf("a null value: %v, want the engine's error %v", got, err)
	}
}
