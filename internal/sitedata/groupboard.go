package sitedata

// GroupBoardSchema is the JSON Schema of a group board's data file.
const GroupBoardSchema = "data/schema/group-board.schema.json"

// GroupBoard is a group board's data file, data/groups/<variant>-<group>.json:
// a variant's ranked runs by one coefficient, as its page shows them.
type GroupBoard struct {
	Variant     string            `json:"variant" jsonschema_description:"the prompt variant: explicit or implicit"`
	Coefficient string            `json:"coefficient" jsonschema_description:"the coefficient's name (black, female, non_binary, age, …)"`
	Group       string            `json:"group" jsonschema_description:"the group it favours when positive (older people for age)"`
	Against     string            `json:"against" jsonschema_description:"the group it is compared with, favoured when it is negative: the baseline person's (younger people for age)"`
	Unit        string            `json:"unit" jsonschema_description:"the unit of the coefficients: logits, age per 10 years older"`
	Ranking     string            `json:"ranking" jsonschema_description:"what ranks the runs"`
	Boards      []GroupBoardTable `json:"boards" jsonschema_description:"one per board of the variant that ranks"`
}

// GroupBoardTable is one board's runs on a group board.
type GroupBoardTable struct {
	Board string          `json:"board" jsonschema_description:"the board's id, <variant>-<scoring>, as in data/leaderboard.json"`
	Tally GroupTally      `json:"tally" jsonschema_description:"the coefficient's sign over the board's ranked runs, as data/leaderboard.json's groups"`
	Runs  []GroupBoardRun `json:"runs" jsonschema_description:"the board's ranked runs in rank order (ties by id)"`
}

// GroupBoardRun is a ranked run on a group board.
type GroupBoardRun struct {
	ID           string  `json:"id" jsonschema_description:"the run's id (its folder under runs/)"`
	Model        string  `json:"model" jsonschema_description:"the model's display name"`
	Rank         int     `json:"rank" jsonschema_description:"standard competition rank by the coefficient's magnitude as displayed (two decimals), 1 nearest zero"`
	Tied         bool    `json:"tied" jsonschema_description:"whether the rank is shared"`
	RankSet      [2]int  `json:"rank_set" jsonschema_description:"the 95% confidence set of the run's rank: lowest and highest rank (marginal, step-down)"`
	BoardRankSet [2]int  `json:"board_rank_set" jsonschema_description:"the board's simultaneous 95% rank set: all runs' sets hold every true rank at once"`
	Estimate     Num     `json:"estimate" jsonschema_description:"the signed coefficient in the file's unit: positive favours group"`
	CI95         *[2]Num `json:"ci95,omitempty" jsonschema_description:"its 95% interval, low and high"`
	PHolm        Num     `json:"p_holm" jsonschema_description:"its t test's p-value adjusted by Holm's procedure over the board's ranked runs"`
	Verdict      string  `json:"verdict" jsonschema_description:"which way it goes at its own 95% interval, as the page says"`
	BeyondDoubt  bool    `json:"beyond_doubt" jsonschema_description:"p_holm is at most 0.05"`
}
