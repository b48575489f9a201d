package scheme

// Step is one typed step of an access plan: a message the client sends,
// with how its reply is read, as data. Text is what `urlkit plan` prints
// for it and is derived from the step's fields; the access package builds
// the bytes it sends from the same fields and never reads the text back.
// The WAIS and Prospero plans are lists of steps ([WAISPlan.Messages],
// [ProsperoPlan.Requests]).
type Step interface {
	Text() string
}
