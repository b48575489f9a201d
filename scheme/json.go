// JSON for the plan types. The views' JSON is the command line's business
// (cmd/urlkit/views.go).

package scheme

import "encoding/json"

// typeString returns a type code as a JSON-friendly string: "" for 0.
func typeString(t byte) string {
	if t == 0 {
		return ""
	}
	return string(rune(t))
}

// MarshalJSON writes the plan with its type code as a string ("a", "i",
// "d", or "" when it must be guessed).
func (p *FTPPlan) MarshalJSON() ([]byte, error) {
	type plain FTPPlan
	return json.Marshal(struct {
		*plain
		Type string `json:"type"`
	}{(*plain)(p), typeString(p.Type)})
}

// MarshalJSON writes the plan with its gopher type as a one-character
// string.
func (p *GopherPlan) MarshalJSON() ([]byte, error) {
	type plain GopherPlan
	return json.Marshal(struct {
		*plain
		Type string `json:"type"`
	}{(*plain)(p), typeString(p.Type)})
}
