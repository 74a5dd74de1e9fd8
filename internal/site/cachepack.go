package site

import (
	"bytes"
	"encoding/binary"
	"encoding/gob"
	"fmt"
	"maps"
	"math"
	"slices"

	"github.com/discrimeval/leaderboard/internal/design"
)

// cachedRun is what the cache keeps of a run once read and scored.
// Its bulk, the prompts and the differences, is packed in fixed-size
// records (packPrompts, packDeltas): gob decodes a slice of structs a
// field at a time, and that was most of a cached rebuild's reading.
type cachedRun struct {
	Rows       int
	ScoredSize int64
	Result     []byte     // score.Result.MarshalBinary
	Deltas     []byte     // packDeltas
	Prompts    []byte     // packPrompts, in file order
	TextsBlob  string     // the run's prompt texts, a blob
	First      *firstCell // the first row, for the rubric's example (log-prob runs)
}

// A packed prompt: question (uint32), cell index (a byte), text hash
// (uint64), transcript size (uint32), little-endian, in design order.
const promptRecord = 4 + 1 + 8 + 4

func packPrompts(infos promptInfos) ([]byte, error) {
	var b []byte
	for p, info := range infos.all() {
		if p.Q < 0 || p.Q > math.MaxUint32 || info.transcript < 0 || info.transcript > math.MaxUint32 {
			return nil, fmt.Errorf("prompt %v: out of the cache's range", p)
		}
		b = binary.LittleEndian.AppendUint32(b, uint32(p.Q))
		b = append(b, byte(p.Index()))
		b = binary.LittleEndian.AppendUint64(b, info.hash)
		b = binary.LittleEndian.AppendUint32(b, uint32(info.transcript))
	}
	return b, nil
}

// unpackPrompts reads packPrompts's records into infos; false when b is
// not whole records of cells of the design, each once.
func unpackPrompts(b []byte, infos promptInfos) bool {
	if len(b)%promptRecord != 0 {
		return false
	}
	for ; len(b) > 0; b = b[promptRecord:] {
		q, i := int(binary.LittleEndian.Uint32(b)), int(b[4])
		if i >= design.NumCells {
			return false
		}
		g := infos[q]
		if g == nil {
			g = new([design.NumCells]textInfo)
			infos[q] = g
		}
		if g[i].present {
			return false
		}
		g[i] = textInfo{present: true, hash: binary.LittleEndian.Uint64(b[5:]), transcript: int(binary.LittleEndian.Uint32(b[13:]))}
	}
	return true
}

// A packed question's differences: question (uint32), then its
// keptQuestion, digits (int32 each) and codes (a byte each).
const deltasRecord = 4 + design.NumCells*5

func packDeltas(kept map[int]*keptQuestion) []byte {
	b := make([]byte, 0, len(kept)*deltasRecord)
	for _, q := range slices.Sorted(maps.Keys(kept)) {
		k := kept[q]
		b = binary.LittleEndian.AppendUint32(b, uint32(q))
		for i := range design.NumCells {
			b = binary.LittleEndian.AppendUint32(b, uint32(k.Digits(i)))
		}
		for _, c := range k.Codes {
			b = append(b, byte(c))
		}
	}
	return b
}

// unpackDeltas reverses packDeltas; nil when b is not whole records.
func unpackDeltas(b []byte) map[int]*keptQuestion {
	if len(b)%deltasRecord != 0 {
		return nil
	}
	kept := make(map[int]*keptQuestion, len(b)/deltasRecord)
	for ; len(b) > 0; b = b[deltasRecord:] {
		k := new(keptQuestion)
		for i := range design.NumCells {
			k.set(i, int32(binary.LittleEndian.Uint32(b[4+4*i:])), cellCode(b[4+4*design.NumCells+i]))
		}
		kept[int(binary.LittleEndian.Uint32(b))] = k
	}
	return kept
}

func encodeGob(v any) ([]byte, error) {
	var buf bytes.Buffer
	err := gob.NewEncoder(&buf).Encode(v)
	return buf.Bytes(), err
}

func decodeGob(data []byte, v any) error {
	return gob.NewDecoder(bytes.NewReader(data)).Decode(v)
}
