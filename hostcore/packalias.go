package hostcore

import "github.com/attache/attache/hostcore/pack"

// Aliases for the names that moved to package pack, while the callers move
// over; they go once every caller names pack.
type (
	Annotations  = pack.Annotations
	Content      = pack.Content
	Decision     = pack.Decision
	Document     = pack.Document
	Item         = pack.Item
	Packing      = pack.Packing
	Part         = pack.Part
	PartKind     = pack.PartKind
	RankOptions  = pack.RankOptions
	Ranker       = pack.Ranker
	Section      = pack.Section
	TokenCounter = pack.TokenCounter
	Verdict      = pack.Verdict
)

const (
	DefaultBudget        = pack.DefaultBudget
	DefaultPriority      = pack.DefaultPriority
	ImageTokens          = pack.ImageTokens
	TokenEncoding        = pack.TokenEncoding
	VerdictIncluded      = pack.VerdictIncluded
	VerdictDroppedBudget = pack.VerdictDroppedBudget
	VerdictHeldAudience  = pack.VerdictHeldAudience
	VerdictUnreadable    = pack.VerdictUnreadable
	PartText             = pack.PartText
	PartImage            = pack.PartImage
	PartBinary           = pack.PartBinary
)

var (
	RenderBody          = pack.RenderBody
	Assemble            = pack.Assemble
	Rank                = pack.Rank
	NewRanker           = pack.NewRanker
	DefaultTokenCounter = pack.DefaultTokenCounter
)
