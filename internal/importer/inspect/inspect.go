package inspect

import "github.com/discrimeval/leaderboard/internal/importer"

func Import(path, intervention string) (*importer.Result, error) { return nil, nil }
