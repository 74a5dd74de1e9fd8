package run

import (
	"math"
	"strings"
	"testing"
)

// oldLogprobs decodes as Logprobs did before UnmarshalJSONFrom: through
// UnmarshalJSON only.
type oldLogprobs Logprobs

func (o *oldLogprobs) UnmarshalJSON(b []byte) error { return (*Logprobs)(o).UnmarshalJSON(b) }

// TestLogprobsFromDecoder: reading the forms from the decoder gives the
// values and the error messages of UnmarshalJSON, row by row.
func TestLogprobsFromDecoder(t *testing.T) {
	for _, in := range []string{
		`{"logprobs": {"yes": -0.5, "no": -1.25, "Yes": null}}`,
		`{"logprobs": {}}`,
		`{"logprobs": null}`,
		`{"logprobs": {"yes": -1e999, "no": -1}}`,
		`{"logprobs": {"yes": 1e999}}`,
		`{"logprobs": {"yes": "-0.5"}}`,
		`{"logprobs": {"yes": {"p": 1}}}`,
		`{"logprobs": {"yes": [-1]}}`,
		`{"logprobs": {"yes": true}}`,
		`{"logprobs": {"y/e~s": "x"}}`,
		`{"logprobs": {"yes": -1, "yes": -2}}`,
		`{"logprobs": {"yes": NaN}}`,
		`{"logprobs": [1, 2]}`,
		`{"logprobs": "yes"}`,
		`{"logprobs": 3}`,
		`{"logprobs": {"yes": -1,}}`,
		`{"logprobs": {"yes": -1`,
		`{"logprobs": {"\u00e9": -0.1, "\ud83d\ude00": -2}}`,
	} {
		var neu struct {
			Logprobs Logprobs `json:"logprobs"`
		}
		var old struct {
			Logprobs oldLogprobs `json:"logprobs"`
		}
		nerr, oerr := decodeStrict([]byte(in), &neu), decodeStrict([]byte(in), &old)
		if nerr != nil && oerr != nil && strings.HasPrefix(oerr.Error(), "not JSON") {
			// Syntax errors are the decoder's, met at another token: the
			// same kind of error at the same place, in other words.
			if !strings.HasPrefix(nerr.Error(), "not JSON") || !strings.Contains(nerr.Error(), "/logprobs") {
				t.Errorf("%s:\n got error %v\nwant error like %v", in, nerr, oerr)
			}
			continue
		}
		if (nerr == nil) != (oerr == nil) || nerr != nil && nerr.Error() != oerr.Error() {
			t.Errorf("%s:\n got error %v\nwant error %v", in, nerr, oerr)
			continue
		}
		if nerr != nil {
			continue
		}
		if (neu.Logprobs == nil) != (old.Logprobs == nil) || len(neu.Logprobs) != len(old.Logprobs) {
			t.Errorf("%s: got %v, want %v", in, neu.Logprobs, old.Logprobs)
		}
		for k, v := range old.Logprobs {
			if w, ok := neu.Logprobs[k]; !ok || w != v && !(math.IsNaN(w) && math.IsNaN(v)) {
				t.Errorf("%s: %q = %v, want %v", in, k, w, v)
			}
		}
	}
}
