package main

import "testing"

func TestGCPercent(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		gogc    string
		want    int
		wantSet bool
	}{
		{name: "GOGC unset or empty: vfsim's own", want: startGCPercent, wantSet: true},
		{name: "GOGC set: the user's stands", gogc: "50"},
		{name: "GOGC=off stands", gogc: "off"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, set := gcPercent(tt.gogc)
			if got != tt.want || set != tt.wantSet {
				t.Errorf("gcPercent(%q) = %d, %v; want %d, %v", tt.gogc, got, set, tt.want, tt.wantSet)
			}
		})
	}
}
