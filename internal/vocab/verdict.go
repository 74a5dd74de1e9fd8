package vocab

// The verdicts of a paired comparison of two ranked runs of a board (the
// row run minus the column run, or run A minus run B), as the pairwise
// pages and pair.html write them: lower or higher beyond doubt when its
// simultaneous interval excludes zero, else not distinguishable.
const (
	LowerBeyondDoubt   = "lower beyond doubt"
	HigherBeyondDoubt  = "higher beyond doubt"
	NotDistinguishable = "not distinguishable"
)
