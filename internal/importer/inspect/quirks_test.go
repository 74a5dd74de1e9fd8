package inspect

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/discrimeval/leaderboard/internal/importer"
	"github.com/discrimeval/leaderboard/internal/run"
)

// setLogprob sets the log-probability written after every "token": tok.
func setLogprob(b []byte, tok, lp string) []byte {
	re := regexp.MustCompile(`("token": ` + regexp.QuoteMeta(`"`+tok+`"`) + `,\s+"logprob": )[-0-9.e]+`)
	return re.ReplaceAll(b, []byte("${1}"+lp))
}

// What real servers write in top_logprobs: a form outside the top k, the
// −9999 placeholder for −∞, a bare -Infinity, every form of one answer at
// zero, a sample without logprobs. One sample never stops the import.
func TestLogprobQuirks(t *testing.T) {
	path := editEval(t, func(name string, b []byte) []byte {
		switch name {
		case "samples/5_epoch_1.json": // "no" not in the top k
			return bytes.Replace(b, []byte(`"token": "no"`), []byte(`"token": "nah"`), 1)
		case "samples/6_epoch_1.json":
			return setLogprob(b, "No", "-9999.0")
		case "samples/10_epoch_1.json":
			return setLogprob(b, "yes", "-Infinity")
		case "samples/11_epoch_1.json":
			return setLogprob(setLogprob(b, "No", "-9999.0"), "no", "-9999.0")
		case "samples/3_epoch_1.json":
			return bytes.Replace(b, []byte(`"top_logprobs"`), []byte(`"top_logprobs_"`), 1)
		}
		return b
	})
	res, err := Import(path, "default")
	if err != nil {
		t.Fatal(err)
	}
	m := res.Manifest
	for _, want := range []string{
		"1 samples have no top_logprobs and were left out: sample 3 epoch 1",
		"1 samples have P(yes) or P(no) exactly zero (no logit) and were left out: sample 11 epoch 1 (P(no) is zero",
		"268 of the dataset's 9450 rows",
	} {
		if !strings.Contains(m.Incomplete, want) {
			t.Errorf("incomplete lacks %q:\n%s", want, m.Incomplete)
		}
	}
	for _, want := range []string{"1 rows have answer forms missing from top_logprobs", "answer forms have probability zero"} {
		if !strings.Contains(m.Notes, want) {
			t.Errorf("notes lack %q:\n%s", want, m.Notes)
		}
	}
	r := load(t, res)
	byText := map[string]run.Row{}
	for _, row := range res.Rows {
		byText[row.Messages[0].Content] = row
	}
	rowOf := func(n string) run.Row {
		var s sample
		if err := decode(n, 1, member(t, n), &s); err != nil {
			t.Fatal(err)
		}
		return byText[s.transcript()[0].Content]
	}
	// Sample 5's "no" gets the least likely listed log-probability.
	var s5 sample
	decode("5", 1, member(t, "samples/5_epoch_1.json"), &s5)
	least := 0.0
	for _, tl := range s5.topLogprobs() {
		least = math.Min(least, float64(tl.Logprob))
	}
	five := rowOf("samples/5_epoch_1.json")
	if len(five.Bounded) != 1 || five.Bounded[0] != "no" || five.Logprobs["no"] != least {
		t.Errorf("sample 5: bounded %v, logprobs %v, least listed %v", five.Bounded, five.Logprobs, least)
	}
	if six := rowOf("samples/6_epoch_1.json"); !math.IsInf(six.Logprobs["No"], -1) || len(six.Bounded) != 0 {
		t.Errorf("sample 6: %v %v", six.Logprobs, six.Bounded)
	}
	if ten := rowOf("samples/10_epoch_1.json"); !math.IsInf(ten.Logprobs["yes"], -1) {
		t.Errorf("sample 10: %v", ten.Logprobs)
	}
	if len(r.Cells) != 268 {
		t.Errorf("%d cells", len(r.Cells))
	}
}

// The least likely listed token bounds an unlisted form; when a token of
// probability zero is listed, everything unlisted is zero too.
func TestLogprobsRule(t *testing.T) {
	top := []topLogprob{{"Yes", -0.1}, {" no", -2.5}, {"Based", -6}}
	lps, bounded, zero, err := logprobs(top)
	if err != nil || zero != 0 || strings.Join(bounded, ",") != "yes,No" || lps["yes"] != -6 || lps["No"] != -6 || lps["no"] != -2.5 {
		t.Errorf("lps %v bounded %v zero %d err %v", lps, bounded, zero, err)
	}
	top = append(top, topLogprob{"<pad>", -9999})
	lps, bounded, zero, _ = logprobs(top)
	if len(bounded) != 0 || zero != 2 || !math.IsInf(lps["yes"], -1) || !math.IsInf(lps["No"], -1) {
		t.Errorf("lps %v bounded %v zero %d", lps, bounded, zero)
	}
	if _, _, _, err := logprobs([]topLogprob{{"Yes", importer.Float(math.NaN())}}); err == nil {
		t.Error("NaN accepted")
	}
	if _, _, _, err := logprobs([]topLogprob{{"Yes", -9999}}); err == nil {
		t.Error("a list of placeholders only accepted")
	}
}

// A refusal and a lower-case, emphasised or explained answer: all kept as
// written; the loader reads them by run.AnswerRule and lists the rest.
func TestDecisionAnswersAsWritten(t *testing.T) {
	data, err := os.ReadFile(jsonLog)
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	i := strings.Index(s, `"id": "q1-003"`)
	s = s[:i] + strings.Replace(s[i:], `"stop_reason": "stop"`, `"stop_reason": "content_filter"`, 1)
	path := filepath.Join(t.TempDir(), "refusal.json")
	os.WriteFile(path, []byte(s), 0o644)
	res, err := Import(path, "default")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Manifest.Notes, "1 answers were refused by the provider") {
		t.Errorf("notes:\n%s", res.Manifest.Notes)
	}
	r := load(t, res)
	var yes, no, other int
	seen := map[string]bool{}
	for i, c := range r.Cells {
		yes, no, other = yes+c.Yes, no+c.No, other+c.Other
		for _, d := range res.Rows[i].Decisions {
			seen[d] = true
		}
	}
	for _, want := range []string{"**Yes**", "no.", " Yes, the match is a good fit.", "I can't make a decision based on a person's demographics."} {
		if !seen[want] {
			t.Errorf("answer %q not kept as written", want)
		}
	}
	if yes+no+other != 59 || other == 0 || yes == 0 || no == 0 {
		t.Errorf("yes %d no %d other %d", yes, no, other)
	}
}

// Bombs stop early: a member that decompresses past the limit (Deflate or
// Zstandard), a .json log with one huge value, a gzipped .json log past
// the file limit. The limits are lowered so the test is quick; the check
// is the same code at any size.
func TestBombs(t *testing.T) {
	defer func(v, f int64) { importer.MaxValueBytes, importer.MaxFileBytes = v, f }(importer.MaxValueBytes, importer.MaxFileBytes)
	importer.MaxValueBytes, importer.MaxFileBytes = 1<<20, 4<<20
	zeros := bytes.Repeat([]byte{'0'}, 8<<20)
	for _, method := range []uint16{zip.Deflate, zipZstd} {
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		zw.RegisterCompressor(zipZstd, func(w io.Writer) (io.WriteCloser, error) { return zstd.NewWriter(w) })
		w, _ := zw.CreateHeader(&zip.FileHeader{Name: "header.json", Method: method})
		w.Write(zeros)
		zw.Close()
		if buf.Len() > 1<<20 {
			t.Fatalf("bomb of %d bytes", buf.Len())
		}
		path := filepath.Join(t.TempDir(), "bomb.eval")
		os.WriteFile(path, buf.Bytes(), 0o644)
		_, err := Import(path, "default")
		if err == nil || !strings.Contains(err.Error(), "bomb.eval:header.json: more than the limit of 1 MiB decompressed") {
			t.Errorf("method %d: %v", method, err)
		}
	}
	// Members each under the value limit, together past the file limit.
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, _ := zw.Create("samples/1_epoch_1.json")
	w.Write(zeros[:1<<20-10])
	zw.Close()
	zr, _ := zip.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	budget := int64(1 << 19)
	if _, err := readMember("many.eval", zr.File[0], &budget); err == nil || !strings.Contains(err.Error(), "many.eval:samples/1_epoch_1.json: the log's members add up to more than the limit of 4 MiB") {
		t.Errorf("budget: %v", err)
	}
	// A .json log whose first value never ends.
	var gz bytes.Buffer
	zw2 := gzip.NewWriter(&gz)
	zw2.Write([]byte(`{"version": 2, "eval": "`))
	zw2.Write(zeros)
	zw2.Close()
	path := filepath.Join(t.TempDir(), "bomb.json.gz")
	os.WriteFile(path, gz.Bytes(), 0o644)
	if _, err := Import(path, "default"); err == nil || !strings.Contains(err.Error(), "bomb.json.gz:1: a value larger than the limit of 1 MiB") {
		t.Errorf(".json log: %v", err)
	}
}
