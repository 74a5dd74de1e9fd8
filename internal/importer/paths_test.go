package importer

import "testing"

func TestLocalPaths(t *testing.T) {
	for s, want := range map[string]bool{
		"/home/me/llama": true, "~/models/x": true, "./ckpt": true, "../ckpt": true, `C:\models\x`: true, "file:///srv/repo": true, `\\host\share`: true,
		"meta-llama/Llama-3-8B": false, "gpt-4o": false, "https://github.com/org/repo": false, "git@github.com:org/repo.git": false, "": false, "qdpv68r5": false,
	} {
		if LocalPath(s) != want {
			t.Errorf("LocalPath(%q) = %v", s, !want)
		}
	}
	for in, want := range map[string]string{
		"pretrained=/data/models/llama-3,dtype=bfloat16": "pretrained=…/llama-3,dtype=bfloat16",
		"task code: git `/work/main` at `c8474aa`":       "task code: git `…/main` at `c8474aa`",
		`{"model_path":"/home/me/ckpt/"}`:                `{"model_path":"…/ckpt"}`,
		"origin https://github.com/org/repo and ~/x/y":   "origin https://github.com/org/repo and …/y",
		`weights C:\models\q7 loaded`:                    `weights …/q7 loaded`,
		"P(yes)/P(no) and 1 / 2, gpt-4o/mini":            "P(yes)/P(no) and 1 / 2, gpt-4o/mini",
		"file:///srv/data/rows.jsonl":                    "…/rows.jsonl",
	} {
		if got := ScrubPaths(in); got != want {
			t.Errorf("ScrubPaths(%q) = %q, want %q", in, got, want)
		}
	}
}
