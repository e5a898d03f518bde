package sim

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/outfitter-go/vfsim/fixtures"
	"github.com/outfitter-go/vfsim/fixtures/diff"
	"github.com/outfitter-go/vfsim/fixtures/report"
)

// TestSummaryValueMatchesJSON checks that the summary's value compares
// equal to what decoding its JSON gives, for every run of the catalog.
func TestSummaryValueMatchesJSON(t *testing.T) {
	t.Parallel()
	fxs, err := fixtures.LoadCatalog()
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, fx := range fxs {
		for _, sc := range fx.Scenarios() {
			out, err := RunScenario(context.Background(), fx, sc, ScenarioOptions{})
			if err != nil {
				t.Fatal(err)
			}
			for i, rr := range out.Report.Runs {
				if rr.Summary == nil {
					continue
				}
				data, err := json.Marshal(rr.Summary)
				if err != nil {
					t.Fatal(err)
				}
				var want map[string]any
				if err := json.Unmarshal(data, &want); err != nil {
					t.Fatal(err)
				}
				if ms := diff.JSON("", want, rr.Summary.value()); len(ms) > 0 {
					t.Errorf("%s run %d: summary value differs from its JSON: %v", sc.Name, i, ms)
				}
				checked++
			}
		}
	}
	if checked == 0 {
		t.Fatal("no run reached the launch: nothing was compared")
	}
}

// TestTokenizeStringsMatchesDecoding checks tokenizeStrings, which skips
// strings without an escape or a root, against decoding the whole text,
// tokenizing every string and comparing the values.
func TestTokenizeStringsMatchesDecoding(t *testing.T) {
	t.Parallel()
	tok := report.Tokens{Composite: "/tmp/outfitter-x-pi-1/"}
	texts := []string{
		`{"a":"plain","b":["/fixture/home/x","/tmp/outfitter-x-pi-1/y"],"c":"/fixture"}`,
		`["\/fixture\/home\/a","/tmp/outfitter-x-pi-1","\u002ffixture/project/p","x\n/fixture/cache/c"]`,
		`{"/fixture/home":"key tokenized","v":"/fixture/homework","w":"/x/fixture/home","n":1,"t":true,"z":null}`,
		`["a\"/fixture/home\"b","\\/fixture/home","\ud83d\ude00 /fixture/home/k"]`,
		`"/tmp/outfitter-x-pi-1/a:/fixture/cache"`,
		`{"none":"at all","list":[1,2,{"deep":"still none"}]}`,
	}
	for _, text := range texts {
		got := tokenizeStrings([]byte(text), tok)
		var want, have any
		if err := json.Unmarshal([]byte(text), &want); err != nil {
			t.Fatal(err)
		}
		want = tokenizeValue(want, tok)
		if err := json.Unmarshal(got, &have); err != nil {
			t.Fatalf("%s: result %s is not JSON: %v", text, got, err)
		}
		if !reflect.DeepEqual(have, want) {
			t.Errorf("%s: got %s, want the value %v", text, got, want)
		}
	}
}

// tokenizeValue tokenizes every string of a decoded JSON value, the keys
// of objects too.
func tokenizeValue(v any, tok report.Tokens) any {
	switch v := v.(type) {
	case string:
		return tok.Tokenize(v)
	case []any:
		for i := range v {
			v[i] = tokenizeValue(v[i], tok)
		}
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[tok.Tokenize(k)] = tokenizeValue(e, tok)
		}
		return out
	}
	return v
}

// countedError counts the calls of its Error method.
type countedError struct{ calls *int }

func (e countedError) Error() string { *e.calls++; return "failed at /composite/x" }

// TestOutcomeFormatsTheErrorOnce checks that a failed run's error is
// formatted once for its report and the outcome expectations compare,
// and that the outcome's error reads as tokenized gives it.
func TestOutcomeFormatsTheErrorOnce(t *testing.T) {
	t.Parallel()
	calls := 0
	r := &Result{Root: "/composite", Err: countedError{&calls}}
	o := outcomeOf(r, ReportOf(r), false)
	if calls != 1 {
		t.Errorf("the run's error was formatted %d times, want 1", calls)
	}
	if got, want := o.Err.Error(), tokenized(r).Error(); got != want {
		t.Errorf("outcome error %q, tokenized %q", got, want)
	}
	if !errors.Is(o.Err, r.Err) {
		t.Errorf("outcome error %v does not wrap the run's", o.Err)
	}
}
