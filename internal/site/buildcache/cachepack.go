package buildcache

import (
	"bytes"
	"encoding/binary"
	"encoding/gob"
	"fmt"
	"maps"
	"math"
	"slices"

	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/site/grid"
	"github.com/discrimeval/leaderboard/internal/site/layout"
)

// cachedRun is what the cache keeps of a run once read and scored.
// Its bulk, the prompts and the differences, is packed in fixed-size
// records (packPrompts, packDeltas): gob decodes a slice of structs a
// field at a time, and that was most of a cached rebuild's reading.
type CachedRun struct {
	Rows       int
	ScoredSize int64
	Result     []byte          // score.Result.MarshalBinary
	Deltas     []byte          // packDeltas
	Prompts    []byte          // packPrompts, in file order
	First      *grid.FirstCell // the first row, for the rubric's example (log-prob runs)
}

// A packed prompt: question (uint32), cell index (a byte), text hash
// (uint64), transcript size (uint32), little-endian, in design order.
const PromptRecord = 4 + 1 + 8 + 4

func PackPrompts(infos layout.PromptInfos) ([]byte, error) {
	var b []byte
	for p, info := range infos.All() {
		if p.Q < 0 || p.Q > math.MaxUint32 || info.Transcript < 0 || info.Transcript > math.MaxUint32 {
			return nil, fmt.Errorf("prompt %v: out of the cache's range", p)
		}
		b = binary.LittleEndian.AppendUint32(b, uint32(p.Q))
		b = append(b, byte(p.Index()))
		b = binary.LittleEndian.AppendUint64(b, info.Hash)
		b = binary.LittleEndian.AppendUint32(b, uint32(info.Transcript))
	}
	return b, nil
}

// unpackPrompts reads packPrompts's records into infos; false when b is
// not whole records of cells of the design, each once.
func UnpackPrompts(b []byte, infos layout.PromptInfos) bool {
	if len(b)%PromptRecord != 0 {
		return false
	}
	for ; len(b) > 0; b = b[PromptRecord:] {
		q, i := int(binary.LittleEndian.Uint32(b)), int(b[4])
		if i >= design.NumCells {
			return false
		}
		g := infos[q]
		if g == nil {
			g = new([design.NumCells]layout.TextInfo)
			infos[q] = g
		}
		if g[i].Present {
			return false
		}
		g[i] = layout.TextInfo{Present: true, Hash: binary.LittleEndian.Uint64(b[5:]), Transcript: int(binary.LittleEndian.Uint32(b[13:]))}
	}
	return true
}

// A packed question's differences: question (uint32), then its
// keptQuestion, digits (int32 each) and codes (a byte each).
const deltasRecord = 4 + design.NumCells*5

func PackDeltas(kept map[int]*grid.KeptQuestion) []byte {
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
func UnpackDeltas(b []byte) map[int]*grid.KeptQuestion {
	if len(b)%deltasRecord != 0 {
		return nil
	}
	kept := make(map[int]*grid.KeptQuestion, len(b)/deltasRecord)
	for ; len(b) > 0; b = b[deltasRecord:] {
		k := new(grid.KeptQuestion)
		for i := range design.NumCells {
			k.Set(i, int32(binary.LittleEndian.Uint32(b[4+4*i:])), grid.CellCode(b[4+4*design.NumCells+i]))
		}
		kept[int(binary.LittleEndian.Uint32(b))] = k
	}
	return kept
}

func EncodeGob(v any) ([]byte, error) {
	var buf bytes.Buffer
	err := gob.NewEncoder(&buf).Encode(v)
	return buf.Bytes(), err
}

func DecodeGob(data []byte, v any) error {
	return gob.NewDecoder(bytes.NewReader(data)).Decode(v)
}
