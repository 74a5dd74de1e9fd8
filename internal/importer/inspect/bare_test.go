package inspect

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBareTokensAsInspectReadsThem: Python's bare NaN, Infinity and
// -Infinity, and keys the log format does not have, are read as
// inspect_ai 0.3.260's pydantic models read them (checked with
// inspect_ai.log.read_eval_log on the same edits): a float field or a dict
// of any values takes them (and 1e999 as infinity), the sample id, epoch
// and target do not; unknown keys are ignored. Both log formats: .eval
// members are decoded whole, .json samples from the stream.
func TestBareTokensAsInspectReadsThem(t *testing.T) {
	jsonText, err := os.ReadFile(jsonLog)
	if err != nil {
		t.Fatal(err)
	}
	evalCase := func(from, to string) func(t *testing.T) string {
		return func(t *testing.T) string {
			return editEval(t, func(name string, b []byte) []byte {
				if name == "samples/1_epoch_1.json" {
					if !bytes.Contains(b, []byte(from)) {
						t.Fatalf("no %q in %s", from, name)
					}
					return bytes.Replace(b, []byte(from), []byte(to), 1)
				}
				return b
			})
		}
	}
	jsonCase := func(from, to string) func(t *testing.T) string {
		return func(t *testing.T) string {
			s := string(jsonText)
			i := strings.Index(s, `"id": "q1-000"`)
			if !strings.Contains(s[i:], from) {
				t.Fatalf("no %q", from)
			}
			path := filepath.Join(t.TempDir(), "edited.json")
			os.WriteFile(path, []byte(s[:i]+strings.Replace(s[i:], from, to, 1)), 0o644)
			return path
		}
	}
	cases := []struct {
		name string
		log  func(t *testing.T) string
		want string // "" when it imports
	}{
		// inspect_ai: "Input should be a finite number" / "a valid string".
		{"eval epoch", evalCase(`"epoch": 1,`, `"epoch": NaN,`), "samples/1_epoch_1.json:3: epoch: a bare NaN or Infinity, where inspect_ai wants an integer"},
		{"eval id", evalCase(`"id": 1,`, `"id": NaN,`), "samples/1_epoch_1.json:1: id is a bare NaN or Infinity, which inspect_ai does not read there (it wants an integer or a string)"},
		{"eval target", evalCase(`"target": ""`, `"target": Infinity`), "samples/1_epoch_1.json:1: target is a bare NaN or Infinity"},
		{"json id", jsonCase(`"id": "q1-000"`, `"id": -Infinity`), "edited.json:97: id is a bare NaN or Infinity"},
		{"json epoch", jsonCase(`"epoch": 1,`, `"epoch": Infinity,`), "edited.json:99: epoch: a bare NaN or Infinity, where inspect_ai wants an integer"},
		// inspect_ai reads metadata as dict[str, Any]: age is float('nan'),
		// which is no Discrim-Eval row.
		{"eval metadata age", evalCase(`"age": 20.0`, `"age": NaN`), "metadata.age is a bare NaN: not a Discrim-Eval dataset value"},
		{"json metadata age", jsonCase(`"age": 20.0`, `"age": Infinity`), "metadata.age is a bare Infinity: not a Discrim-Eval dataset value"},
		// A string "NaN" is a string, not a number.
		{"eval string NaN", evalCase(`"target": ""`, `"target": "NaN"`), ""},
		// Keys inspect_ai's models lack are ignored; so is a bare NaN in them.
		{"eval unknown key", evalCase(`"epoch": 1,`, `"epoch": 1, "zzz": NaN, "extra": {"a": -Infinity},`), ""},
		{"json unknown key", jsonCase(`"epoch": 1,`, `"epoch": 1, "zzz": NaN,`), ""},
		// A float field (the chosen token's logprob, unread) takes it.
		{"eval float field", evalCase(`"logprob": -0.572253,`, `"logprob": NaN,`), ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Import(tc.log(t), "default")
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("error %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("error %v\nwant it to contain %q", err, tc.want)
			}
		})
	}
}
